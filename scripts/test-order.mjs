// Lists the spec files for `npm test`'s parallel run, longest first, so that the run does not end waiting on one
// long file started last. Durations come from the last full run on this machine (test-results/durations.tsv,
// written by scripts/test.sh) or else from the ones committed (test/durations.tsv: `ms<TAB>file` lines, copied from
// a full run's test-results/durations.tsv). A file with no duration yet (a new spec) goes first: it may be long.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function specFiles(dir) {
  const out = [];
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...specFiles(full));
    else if (entry.name.endsWith('.spec.ts')) out.push(path.relative(root, full));
  }
  return out;
}

function readDurations(file) {
  const durations = new Map();
  if (!existsSync(file)) return durations;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const [ms, name] = line.split('\t');
    if (name && Number.isFinite(Number(ms))) durations.set(name, Math.max(durations.get(name) ?? 0, Number(ms)));
  }
  return durations;
}

const local = path.join(root, 'test-results', 'durations.tsv');
const committed = path.join(root, 'test', 'durations.tsv');
const durations = readDurations(existsSync(local) ? local : committed);
const duration = (file) => durations.get(file) ?? Number.POSITIVE_INFINITY;
const files = specFiles(path.join(root, 'test')).sort((a, b) => duration(b) - duration(a) || a.localeCompare(b));
process.stdout.write(`${files.join('\n')}\n`);
