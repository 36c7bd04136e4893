/**
 * Every escape goes through the one escaper of its destination: server/escapeHtml.ts (he) for HTML,
 * server/shared/mrkdwn.ts for Slack, he or the browser's own parser for decoding. This scan fails on a source file
 * outside those modules that replaces &, < or > with their entities (or back) by hand, so a new hand-written
 * escaper or entity decoder is caught where it is written.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { sourceFiles } from '../helpers/sourceFiles';

const ROOT = path.join(__dirname, '..', '..');
const SCANNED = ['server', 'web', 'scripts'];

/** The escaper modules themselves, which write Slack's and HTML's entities out on purpose. */
const ESCAPERS = new Set(['server/escapeHtml.ts', 'server/shared/mrkdwn.ts']);

/** The entities of &, < and >, named and numeric. */
const AMP_LT_GT = /&(?:amp|lt|gt|#0*(?:38|60|62)|#x0*(?:26|3c|3e));/i;
/** A pattern that reads numeric entities in general (`&#(\d+);`, `&#x([0-9a-f]+);`): a hand-written decoder. */
const ANY_NUMERIC = /&#x?(?:\(|\[|\\d)/i;
const REPLACES = /\.replace(?:All)?\(/;
/** A table from a character to its entity, or back: `'<': '&lt;'`, `'&amp;': '&'`. */
const ENTITY_TABLE = /['"`][&<>]['"`]\s*:\s*['"`]&|['"`]&(?:amp|lt|gt);['"`]\s*:/i;

/** The code of a line, without a comment that takes the whole line or ends it. */
function codeOf(line: string): string {
  const trimmed = line.trim();
  if (trimmed.startsWith('//') || trimmed.startsWith('*') || trimmed.startsWith('/*')) return '';
  return line.replace(/\s\/\/\s.*$/, '');
}

/** `file:line: code` for every hand-written replacement of &, < or > entities in `text`. */
function handWrittenEscapes(file: string, text: string): string[] {
  const lines = text.split('\n');
  return lines.flatMap((line, i) => {
    const code = codeOf(line);
    // A chained `.replace(` may sit on the line before its pattern.
    const replacing = REPLACES.test(code) || /^\s*\.replace/.test(code) || REPLACES.test(codeOf(lines[i - 1] ?? ''));
    const found = (replacing && (AMP_LT_GT.test(code) || ANY_NUMERIC.test(code))) || ENTITY_TABLE.test(code);
    return found ? [`${file}:${i + 1}: ${line.trim()}`] : [];
  });
}

describe('every escape goes through the one escaper', () => {
  it('finds no hand-written &, < or > entity replacement outside server/escapeHtml.ts and server/shared/mrkdwn.ts', () => {
    const files = SCANNED.flatMap((dir) => sourceFiles(path.join(ROOT, dir), /\.(ts|tsx|mts|cts|js|mjs)$/))
      .map((file) => path.relative(ROOT, file).split(path.sep).join('/'))
      .filter((file) => !ESCAPERS.has(file));
    expect(files.length).to.be.greaterThan(300);
    const found = files.flatMap((file) => handWrittenEscapes(file, readFileSync(path.join(ROOT, file), 'utf8')));
    expect(found, `hand-written escaping (use server/escapeHtml.ts, server/shared/mrkdwn.ts or he):\n${found.join('\n')}`).to.deep.equal(
      [],
    );
  });

  it('recognises the hand-written escapers this codebase used to have, and leaves other entity use alone', () => {
    const caught = [
      `return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c] ?? c);`,
      `s.replace(/&/g, '&amp;').replace(/</g, '&lt;')`,
      `  .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => safeChar(parseInt(hex, 16)))`,
      `text.replace(/&#(\\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))`,
      `const UNESCAPES = { '&amp;': '&', '&lt;': '<' };`,
      `out = out.replaceAll('&gt;', '>');`,
    ];
    for (const line of caught) expect(handWrittenEscapes('x.ts', line), line).to.have.length(1);
    const left = [
      `// escapeHtml writes a backtick as &#x60; (old browsers read it as a quote).`,
      `.replace(/&#x60;((?:(?!&#x60;)[^\\n])+)&#x60;/g, '<code>$1</code>');`,
      `<code>&lt;div id="parley-inline"&gt;</code> wherever you place it`,
      `const quoted = /^&gt;\\s?(.*)$/.exec(line);`,
      ` * Slack message text (mrkdwn with <…> links and mentions, &amp;-escaped)`,
    ];
    for (const line of left) expect(handWrittenEscapes('x.ts', line), line).to.deep.equal([]);
  });
});
