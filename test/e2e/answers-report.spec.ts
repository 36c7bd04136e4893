/**
 * The Answers report through the real console (browser): a Pro admin opens Reports → Answers, picks the range and
 * zone, reads the figures, the questions that found nothing (most asked first, spellings merged) and the table per
 * article, downloads the CSV, and sees a plain sentence for a range without help-center activity; on a phone the
 * tables become cards and nothing scrolls sideways. Data: seed.ts and the AnswerEvents of answersSeed.ts, written
 * through the models.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import { parse as parseCsv } from 'csv-parse/sync';
import { Types } from 'mongoose';
import type { Page } from 'playwright-core';
import { useServer } from '../helpers/app';
import { picture, RESULTS_DIR, useBrowser } from '../helpers/browser';
import { seedAnswerEvents } from '../reports/answersSeed';
import { type Seeded, seedReportAccount, ZONE } from '../reports/seed';
import { openRangeReport, waitForChosenRangeFigure } from './consoleHelpers';

describe('Answers report (browser)', function () {
  this.timeout(120_000);
  const server = useServer();
  const browser = useBrowser({ context: 'suite' });
  let seeded: Seeded;

  before(async function () {
    this.timeout(60_000);
    seeded = await seedReportAccount(server);
    await seedAnswerEvents(server.models, seeded.accountId, new Types.ObjectId(seeded.ceId));
  });

  const open = (page: Page) =>
    openRangeReport(
      page,
      { url: server.url, token: seeded.token },
      { view: 'answers', name: 'Answers', room: 'support', zone: ZONE, from: '2026-03-07', to: '2026-03-09' },
    );

  const shot = async (page: Page, name: string) => {
    await picture(page, path.join(RESULTS_DIR, `answers-report-${name}.png`), { fullPage: true });
  };

  it('shows the figures, the unanswered questions most asked first and each article’s views and answers, and downloads them', async () => {
    const page = browser.page;
    const room = await open(page);
    const stat = (label: string) => room.locator('.reports__stat', { hasText: label }).locator('dd');
    await waitForChosenRangeFigure(page, '6');
    expect(await stat('Found nothing').textContent()).to.equal('5 (83%)');
    expect(await stat('Article views').textContent()).to.equal('6');
    expect(await stat('Answered: Yes').textContent()).to.equal('1 (33%)');
    expect(await stat('Answered: No').textContent()).to.equal('2 (67%)');
    expect(await stat('Resolved by an article').textContent()).to.equal('1');
    expect(await stat('Sent from Slack').textContent()).to.equal('4');
    await room.getByText('Sent from Slack: Saved replies 2, Articles 1, Answers from past conversations 1').waitFor();

    const questions = room.getByRole('table', { name: 'Questions that found nothing' });
    const rows = await questions
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('th, td')].map((c) => c.textContent ?? '')));
    expect(rows.map((r) => r.slice(0, 3))).to.deep.equal([
      ['Do you sell printers', 'en', '3'],
      ['livraison en Belgique', 'fr', '1'],
      ['Where is my invoice?', 'en', '1'],
    ]);
    // Asked last on Mar 9 at 23:30 in New York (Mar 10 in UTC).
    expect(rows[0][3]).to.equal('Mar 9, 2026, 11:30 PM');

    const articles = room.getByRole('table', { name: 'Articles' });
    expect(await articles.locator('thead th').allTextContents()).to.deep.equal([
      'Article',
      'Views',
      'Yes',
      'No',
      'Resolved',
      'Sent from Slack',
    ]);
    const first = await articles.locator('tbody tr').first().locator('th, td').allTextContents();
    expect(first).to.deep.equal(['Reset your password (en)', '3', '1', '1', '1', '1']);
    await articles.getByText('Deleted article').waitFor();
    await shot(page, '1280x800');

    const [file] = await Promise.all([page.waitForEvent('download'), room.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(file.suggestedFilename()).to.match(/Z_support_answers_parley_output\.csv$/);
    const csv = parseCsv(await readFile(await file.path(), 'utf8'), { relax_column_count: true, skip_empty_lines: true }) as string[][];
    expect(csv[1]).to.deep.equal(['Searches', '6']);
    expect(csv.find((r) => r[0] === 'Do you sell printers')?.[2]).to.equal('3');

    // A range without help-center activity says so instead of a row of zeros.
    await page.getByLabel('From', { exact: true }).fill('2026-02-02');
    await page.getByLabel('To', { exact: true }).fill('2026-02-03');
    await room.getByText('No help-center activity in this range yet').waitFor();
    expect(await room.locator('.reports__stat').count()).to.equal(0);
  });

  it('turns the tables into cards on a phone, without sideways scrolling', async () => {
    const page = browser.page;
    await page.setViewportSize({ width: 390, height: 844 });
    const room = await open(page);
    await room.getByRole('table', { name: 'Articles' }).waitFor();
    await waitForChosenRangeFigure(page, '6');
    const cell = room.getByRole('table', { name: 'Articles' }).locator('tbody tr').first().locator('td').first();
    // The label comes from data-label, shown beside the figure.
    expect(await cell.evaluate((td) => getComputedStyle(td, '::before').content)).to.equal('"Views"');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).to.equal(0);
    await shot(page, '390x844');
  });
});
