/**
 * axe-core in a browser test: `axeViolations(page)` runs axe on the page as it is (open shadow roots included,
 * so the widget is audited too) against the WCAG 2.0, 2.1 and 2.2 A and AA rules, and answers each violation with
 * the elements it found; `describeViolations` makes them a readable failure message.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

/** axe's own tags for WCAG 2.0, 2.1 and 2.2 at levels A and AA (2.2 added AA rules only). */
export const WCAG_AA_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] as const;

export type AxeViolation = {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string; summary: string }[];
};

let axeSource: string | undefined;

/** axe-core's browser build, read once. */
function source(): string {
  axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  return axeSource;
}

/**
 * Runs axe in `page` (injected through the debugging protocol, so the page's Content-Security-Policy does not
 * block it) and answers the violations of the WCAG A and AA rules.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.evaluate(source());
  return page.evaluate(
    async (tags) => {
      // axe is the global the injected script defines; the test's TypeScript does not see the page's globals.
      const axe = (window as unknown as { axe: typeof import('axe-core') }).axe;
      const results = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
      return results.violations.map((v) => ({
        id: v.id,
        impact: v.impact ?? null,
        help: v.help,
        nodes: v.nodes.map((n) => ({ target: JSON.stringify(n.target), summary: n.failureSummary ?? '' })),
      }));
    },
    [...WCAG_AA_TAGS],
  );
}

/** One line per violation and one per element it names, for a failing test's message. */
export function describeViolations(violations: AxeViolation[]): string {
  return violations
    .map(
      (v) =>
        `${v.id} (${v.impact ?? 'no impact'}): ${v.help}\n${v.nodes
          .map((n) => `    ${n.target}\n      ${n.summary.replace(/\n/g, '\n      ')}`)
          .join('\n')}`,
    )
    .join('\n');
}
