/**
 * The suite's child processes (a Parley, the embedded store, the Slack sandbox, the backup scripts) as plain
 * JavaScript, for `npm test`: run with tsx, each start transpiles and loads TypeScript through tsx's loader again,
 * about 1.7 s of CPU more than plain JavaScript for a Parley and 0.7 s for the store, and the suite starts dozens.
 *
 * esbuild (as tsx, one file at a time, no bundling) writes every .ts of server/, scripts/ and test/helpers/ to
 * dist/node/ with the same folders, and the other files of server/ (stylesheets, scripts) beside them. Code that
 * finds files from its own folder (`__dirname`) finds them: dist/node/dist/web links to dist/web and dist/node/docs
 * to docs. scripts/test.sh builds it before the tests and sets PARLEY_TEST_NODE_DIR; a spec run alone (no variable)
 * starts its children with tsx, so they never run code older than the sources.
 *
 *   tsx scripts/build-test-processes.ts   # → dist/node/
 */
import { cpSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';

const root = path.resolve(__dirname, '..');
export const TEST_NODE_DIR = path.join(root, 'dist', 'node');

function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(full, keep));
    else if (keep(entry.name)) out.push(full);
  }
  return out;
}

const isTs = (name: string) => name.endsWith('.ts') && !name.endsWith('.d.ts');

export async function buildTestProcesses(): Promise<string> {
  rmSync(TEST_NODE_DIR, { recursive: true, force: true });
  const sources = ['server', 'scripts', path.join('test', 'helpers')].flatMap((dir) => filesUnder(path.join(root, dir), isTs));
  await esbuild.build({
    entryPoints: sources,
    outdir: TEST_NODE_DIR,
    outbase: root,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
  for (const asset of filesUnder(path.join(root, 'server'), (name) => !name.endsWith('.ts') && !name.endsWith('.md'))) {
    const target = path.join(TEST_NODE_DIR, path.relative(root, asset));
    mkdirSync(path.dirname(target), { recursive: true });
    cpSync(asset, target);
  }
  mkdirSync(path.join(TEST_NODE_DIR, 'dist'), { recursive: true });
  symlinkSync(path.join('..', '..', 'web'), path.join(TEST_NODE_DIR, 'dist', 'web'));
  symlinkSync(path.join('..', '..', 'docs'), path.join(TEST_NODE_DIR, 'docs'));
  return TEST_NODE_DIR;
}

if (require.main === module) {
  const started = Date.now();
  buildTestProcesses().then(
    (dir) => console.log(`child processes built to ${path.relative(root, dir)} in ${Date.now() - started} ms`),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
