/**
 * Builds the visitor widget (minified, as shipped) and prints the loader's and the panel's sizes, raw and gzipped
 * (level 9), against the product bars: loader ≤ 5 KB, panel ≤ 30 KB gzipped; and the screenshot script's, loaded
 * only when a visitor allows a screenshot (≤ 20 KB). Exits 1 when one is over.
 *   npx tsx scripts/bench/widget-size.ts
 */
import path from 'node:path';
import { buildWidget } from '../build';

const KB = 1024;
const kb = (bytes: number) => `${(bytes / KB).toFixed(2)} KB`;

async function main(): Promise<void> {
  const sizes = await buildWidget();
  let over = false;
  console.log('file'.padEnd(28), 'minified'.padStart(12), 'gzipped'.padStart(12), 'budget'.padStart(10), ' used');
  for (const { file, bytes, gzipped, budget } of sizes) {
    const base = path.basename(file);
    const name = base === 'loader.js' ? 'loader (/widget.js)' : base.startsWith('screenshot') ? `screenshot (${base})` : `panel (${base})`;
    over ||= gzipped > budget;
    console.log(
      name.padEnd(28),
      kb(bytes).padStart(12),
      kb(gzipped).padStart(12),
      kb(budget).padStart(10),
      ` ${Math.round((gzipped / budget) * 100)}%${gzipped > budget ? '  OVER BUDGET' : ''}`,
    );
  }
  if (over) process.exit(1);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
