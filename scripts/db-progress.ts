/** Progress of `db:dump` and `db:restore` on a terminal: one line rewritten in place, at most ten times a second. */
import { formatBytes } from '../server/backup/summary';

export type ProgressLine = { update(text: string): void; done(): void };

export function progressLine(stream: NodeJS.WriteStream): ProgressLine {
  if (!stream.isTTY) return { update: () => {}, done: () => {} };
  let last = 0;
  let shown = false;
  return {
    update(text) {
      const now = Date.now();
      if (now - last < 100) return;
      last = now;
      const width = Math.max(20, (stream.columns || 80) - 1);
      stream.write(`\r${text.slice(0, width).padEnd(width)}`);
      shown = true;
    },
    done() {
      if (shown) stream.write(`\r${' '.repeat(Math.max(20, (stream.columns || 80) - 1))}\r`);
    },
  };
}

export function progressText(where: string, documents: number, expected: number | undefined, totalBytes: number): string {
  const of = expected ? `/${expected.toLocaleString('en-US')} (${Math.min(100, Math.floor((documents / expected) * 100))}%)` : '';
  return `${where}: ${documents.toLocaleString('en-US')}${of} documents, ${formatBytes(totalBytes)} so far`;
}
