/**
 * Reports → History's tag and state filters through the real console (browser), at 1280×800 and 390×844: the Tag
 * select offers the widget's tags, narrows the table and the CSV download to the chats carrying the tag, combines with
 * State, says so when nothing matches; each row shows its tags; on a phone nothing scrolls sideways; no WCAG A/AA
 * violation. Data: the seeded account of test/reports/seed.ts, some chats tagged through the models.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import { parse as parseCsv } from 'csv-parse/sync';
import type { Page } from 'playwright-core';
import { useServer } from '../helpers/app';
import { axeViolations, describeViolations } from '../helpers/axe';
import { picture, RESULTS_DIR, useBrowser } from '../helpers/browser';
import { type Seeded, seedReportAccount, ZONE } from '../reports/seed';

describe('History filters (browser)', function () {
  this.timeout(120_000);
  const server = useServer();
  const browser = useBrowser({ context: 'suite' });
  let seeded: Seeded;

  before(async function () {
    this.timeout(60_000);
    seeded = await seedReportAccount(server);
    const { Conversation, ChatEndpoint } = server.models;
    const [vera, , xena, , zoe] = seeded.chatIds;
    await ChatEndpoint.updateOne({ _id: seeded.ceId }, { $set: { tags: ['billing', 'refund', 'bug'] } });
    await Conversation.updateMany({ _id: { $in: [vera, xena, zoe] } }, { $set: { tags: ['billing'] } });
    await Conversation.updateOne({ _id: xena }, { $set: { tags: ['billing', 'refund'] } });
    await Conversation.updateOne({ _id: zoe }, { $set: { inboxState: 'waiting' } });
  });

  async function open(page: Page) {
    await page.context().addCookies([{ name: 'auth_token', value: seeded.token, url: server.url }]);
    await page.goto(`${server.url}/app/#/reports/history`);
    await page.getByLabel('Time zone').selectOption(ZONE);
    const room = page.getByRole('region', { name: 'History of support' });
    await room.getByText('Showing 1 to 7 of 7 results').waitFor();
    return room;
  }
  const shot = async (page: Page, name: string) => {
    await picture(page, path.join(RESULTS_DIR, `history-filters-${name}.png`), { fullPage: true });
  };
  const visitors = (room: ReturnType<Page['locator']>) => room.locator('tbody tr .reports__who').allInnerTexts();

  it('narrows the table and the CSV to a tag, combines it with a state, and shows each chat’s tags', async () => {
    const page = browser.page;
    const room = await open(page);
    const tag = room.getByLabel('Tag');
    expect(await tag.locator('option').allTextContents()).to.deep.equal(['Any tag', 'billing', 'refund', 'bug']);
    await tag.selectOption('billing');
    await room.getByText('Showing 1 to 3 of 3 results').waitFor();
    expect(await visitors(room)).to.deep.equal(['#5 Zoe', '#3 Xena', '#1 Vera']);
    const xena = room.locator('tbody tr', { hasText: 'Xena' });
    expect(await xena.locator('.reports__tag').allTextContents()).to.deep.equal(['billing', 'refund']);
    expect(await xena.locator('.reports__tags').innerText()).to.match(/billing\s*refund/);
    expect(describeViolations(await axeViolations(page))).to.equal('');
    await shot(page, '1280x800');

    const [file] = await Promise.all([page.waitForEvent('download'), room.getByRole('button', { name: 'Download CSV' }).click()]);
    const rows = parseCsv(await readFile(await file.path(), 'utf8')) as string[][];
    expect(rows.map((r) => [r[3], r.at(-1)])).to.deep.equal([
      ['Visitor', 'Tags'],
      ['Zoe', 'billing'],
      ['Xena', 'billing, refund'],
      ['Vera', 'billing'],
    ]);

    await room.getByLabel('State').selectOption({ label: 'Waiting for the visitor' });
    await room.getByText('Showing 1 to 1 of 1 results').waitFor();
    expect(await visitors(room)).to.deep.equal(['#5 Zoe']);
    await tag.selectOption('bug');
    await room.getByText('No chats match these filters.').waitFor();
    await tag.selectOption('');
    await room.getByLabel('State').selectOption('');
    await room.getByText('Showing 1 to 7 of 7 results').waitFor();
  });

  it('fits the filters on a phone without sideways scrolling', async () => {
    const page = browser.page;
    await page.setViewportSize({ width: 390, height: 844 });
    const room = await open(page);
    await room.getByLabel('Tag').selectOption('refund');
    await room.getByText('Showing 1 to 1 of 1 results').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).to.equal(0);
    expect(describeViolations(await axeViolations(page))).to.equal('');
    await shot(page, '390x844');
  });
});
