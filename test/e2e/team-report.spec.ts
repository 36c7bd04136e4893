/**
 * The Team report through the real console (browser): a Pro admin opens Reports → Team, picks the range and zone,
 * reads the team's figures, each operator's row (name and picture as in Slack), the tags' chart and table, downloads
 * the CSV, and sees a plain sentence for a range without team activity; on a phone the tables become cards and
 * nothing scrolls sideways. Data: seed.ts and the shared inbox's facts of teamSeed.ts, written through the models.
 * Screenshots at 1280×800 and 390×844 land in test-results/.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import { parse as parseCsv } from 'csv-parse/sync';
import type { Page } from 'playwright-core';
import { useServer } from '../helpers/app';
import { picture, RESULTS_DIR, useBrowser } from '../helpers/browser';
import type { Seeded } from '../reports/seed';
import { ZONE } from '../reports/seed';
import { seedTeamAccount } from '../reports/teamSeed';
import { openRangeReport, waitForChosenRangeFigure } from './consoleHelpers';

describe('Team report (browser)', function () {
  this.timeout(120_000);
  const server = useServer();
  const browser = useBrowser({ context: 'suite' });
  let seeded: Seeded;

  before(async function () {
    this.timeout(60_000);
    seeded = await seedTeamAccount(server);
  });

  const open = (page: Page) =>
    openRangeReport(
      page,
      { url: server.url, token: seeded.token },
      { view: 'team', name: 'Team', room: 'support', zone: ZONE, from: '2026-03-07', to: '2026-03-09' },
    );

  const shot = async (page: Page, name: string) => {
    await picture(page, path.join(RESULTS_DIR, `team-report-${name}.png`), { fullPage: true });
  };

  it('shows the team’s figures, a row per operator as in Slack, the tags’ trend, and downloads them', async () => {
    const page = browser.page;
    await page.setViewportSize({ width: 1280, height: 800 });
    const room = await open(page);
    const stat = (label: string) => room.locator('.reports__stat', { hasText: label }).locator('dd');
    // The range's figures, not the default range's (Answered is 5 only for Mar 7–9 in New York).
    await waitForChosenRangeFigure(page, '5', 1);
    expect(await stat('Assigned').textContent()).to.equal('4');
    expect(await stat('Median first response').textContent()).to.equal('30s');
    expect(await stat('Median next response').textContent()).to.equal('1m 45s');
    expect(await stat('Within target').textContent()).to.equal('75% (6 of 8)');
    expect(await stat('Ratings').textContent()).to.equal('3 up, 1 down');

    const operators = room.getByRole('table', { name: 'Operators' });
    const rows = await operators
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('th, td')].map((c) => c.textContent ?? '')));
    expect(rows).to.deep.equal([
      ['Alice', '2', '2', '2', '1m 45s', '1m 30s', '75% (3 of 4)', '1 up, 1 down'],
      ['Bob', '2', '2', '1', '25s', '10m 00s', '66.7% (2 of 3)', '1 up, 0 down'],
      ['Gus', '0', '1', '0', '20s', 'No answers', '100% (1 of 1)', '1 up, 0 down'],
    ]);
    // Alice's picture is Slack's; Gus, whom Slack no longer knows, gets his initial.
    expect(await operators.locator('tbody tr').first().locator('img').getAttribute('src')).to.match(/^data:image\/svg\+xml/);
    expect(await operators.locator('tbody tr').nth(2).locator('.reports__avatar--initial').getAttribute('data-initial')).to.equal('G');

    await room.getByText('5 of 6 conversations started in this range carry a tag; per day:').waitFor();
    const chart = room.getByRole('img', { name: /Conversations per day by tag/ });
    expect(await chart.getAttribute('aria-label')).to.equal('Conversations per day by tag: billing 4, bug 2, refund 1');
    await chart.locator('canvas').waitFor();
    const tags = await room
      .getByRole('table', { name: 'Tags' })
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('th, td')].map((c) => c.textContent ?? '')));
    expect(tags).to.deep.equal([
      ['billing', '4', '67%', 'Mar 7 (2)'],
      ['bug', '2', '33%', 'Mar 8 (1)'],
      ['refund', '1', '17%', 'Mar 7 (1)'],
    ]);
    await shot(page, '1280x800');

    const [file] = await Promise.all([page.waitForEvent('download'), room.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(file.suggestedFilename()).to.match(/Z_support_team_parley_output\.csv$/);
    const csv = parseCsv(await readFile(await file.path(), 'utf8'), { relax_column_count: true, skip_empty_lines: true }) as string[][];
    expect(csv[1].slice(0, 4)).to.deep.equal(['Alice', 'U0ALICE001', '2', '2']);
    expect(csv.find((r) => r[0] === 'billing')).to.deep.equal(['billing', '4', '2', '1', '1']);

    // A range without team activity says so instead of a row of zeros.
    await page.getByLabel('From', { exact: true }).fill('2026-02-02');
    await page.getByLabel('To', { exact: true }).fill('2026-02-03');
    await room.getByText('No team activity in this range yet').waitFor();
    expect(await room.locator('.reports__stat').count()).to.equal(0);
  });

  it('turns the tables into cards on a phone, without sideways scrolling', async () => {
    const page = browser.page;
    await page.setViewportSize({ width: 390, height: 844 });
    const room = await open(page);
    await waitForChosenRangeFigure(page, '5', 1);
    const cell = room.getByRole('table', { name: 'Operators' }).locator('tbody tr').first().locator('td').first();
    expect(await cell.evaluate((td) => getComputedStyle(td, '::before').content)).to.equal('"Assigned"');
    await room
      .getByRole('img', { name: /Conversations per day by tag/ })
      .locator('canvas')
      .waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).to.equal(0);
    await shot(page, '390x844');
  });
});
