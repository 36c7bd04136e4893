/**
 * The reports through the real UI (browser): an admin on Pro opens each report, changes the range and the zone,
 * opens a transcript and downloads CSV and JSON files that parse with the expected rows; a Basic admin and a
 * non-admin cannot reach the reports. Data: the seeded account of test/reports/seed.ts.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import { parse as parseCsv } from 'csv-parse/sync';
import { Types } from 'mongoose';
import type { Page } from 'playwright-core';
import { TERMS_VERSION } from '../../server/shared/constants';
import { createUserInDb } from '../factories';
import { useServer } from '../helpers/app';
import { picture, RESULTS_DIR, useBrowser } from '../helpers/browser';
import { type Seeded, seedReportAccount, ZONE } from '../reports/seed';
import { waitForChosenRangeFigure } from './consoleHelpers';

/** A 1×1 PNG: a visitor's screenshot. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

describe('reports (browser)', function () {
  this.timeout(120_000);
  const server = useServer();
  let seeded: Seeded;
  const browser = useBrowser({ context: 'suite', page: 'suite' });

  before(async function () {
    this.timeout(60_000);
    seeded = await seedReportAccount(server);
  });

  const at = (hashPath: string) => `${server.url}/app/#${hashPath}`;
  const signIn = (page: Page, token: string) => page.context().addCookies([{ name: 'auth_token', value: token, url: server.url }]);

  async function download(page: Page, scope: ReturnType<Page['locator']>, name: string): Promise<{ file: string; text: string }> {
    const [file] = await Promise.all([page.waitForEvent('download'), scope.getByRole('button', { name }).click()]);
    const path = await file.path();
    return { file: file.suggestedFilename(), text: await readFile(path, 'utf8') };
  }

  /** The zone and the custom range Mar 7–9 2026, set through the controls. */
  async function chooseMarchInNewYork(page: Page): Promise<void> {
    await page.getByLabel('Time zone').selectOption(ZONE);
    await page.getByLabel('Date range').selectOption('custom');
    await page.getByLabel('From', { exact: true }).fill('2026-03-07');
    await page.getByLabel('To', { exact: true }).fill('2026-03-09');
  }

  it('lets a Pro admin read the overview for a custom range and zone and download it', async () => {
    const page = browser.page;
    await signIn(page, seeded.token);
    await page.goto(at('/reports'));
    await page.waitForURL(/#\/reports\/overview$/);
    await page.getByRole('link', { name: 'Reports' }).waitFor();
    // The last 30 days hold no chat: the overview says so rather than "Avg Chat Duration 0s" and "Up Ratings 0% (0)".
    const empty = page.getByRole('region', { name: 'Overview of support' });
    await empty.getByText('No chats in this range yet: the figures appear once visitors start chatting.').waitFor();
    expect(await empty.locator('.reports__stat').count()).to.equal(0);
    await chooseMarchInNewYork(page);
    const room = page.getByRole('region', { name: 'Overview of support' });
    const stat = (label: string) => room.locator('.reports__stat', { hasText: label }).locator('dd');
    await room.locator('.reports__stat dd').first().waitFor();
    // The figures of the range as chosen last: from March 7 to today (the From date filled first) also holds all six
    // chats, and its figures stay on screen, marked busy, while the range to March 9 loads.
    await waitForChosenRangeFigure(page, '6');
    expect(await stat('Avg Chats/Day').textContent()).to.equal('2');
    expect(await stat('Up Ratings').textContent()).to.equal('75% (3)');
    expect(await stat('Avg First Reply').textContent()).to.equal('2m 23s');
    expect(await room.locator('tbody tr').allTextContents()).to.have.length(3);
    expect(await room.locator('.reports__missed th').textContent()).to.equal('Missed chats');
    await room.locator('.reports__chart canvas').waitFor();

    const csv = await download(page, room, 'Download CSV');
    expect(csv.file).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z_support_overview_parley_output\.csv$/);
    const rows = parseCsv(csv.text) as string[][];
    expect(rows.map((r) => [r[0], r[1]])).to.deep.equal([
      ['Agent', 'Total Chats'],
      ['Ana', '2'],
      ['Ben', '2'],
      ['Missed chats', '2'],
      ['All chats', '6'],
    ]);
    const json = await download(page, room, 'Download JSON');
    expect(json.file).to.match(/Z_support_overview_parley_output\.json$/);
    expect(JSON.parse(json.text).totalStats.totalChats).to.equal(6);
  });

  it('pages the history, opens a transcript and downloads the chats', async () => {
    const page = browser.page;
    await signIn(page, seeded.token);
    await page.goto(at('/reports/history'));
    await page.getByLabel('Time zone').selectOption(ZONE);
    const room = page.getByRole('region', { name: 'History of support' });
    await room.getByText('Showing 1 to 7 of 7 results').waitFor();
    expect(await room.locator('thead th').allTextContents()).to.deep.equal([
      'Started',
      'Visitor',
      'Agent',
      'Rating',
      'Feedback',
      'Transcript',
    ]);
    // Chat 3 started at 03:30 EDT on the day the clocks changed.
    const row = room.locator('tbody tr', { hasText: '=SUM(A1:A9)' });
    expect(await row.locator('td').first().innerText()).to.contain('Mar 8, 2026, 3:30 AM');
    await row.hover();
    await row.locator('.reports__details').getByText('shop.example.com/pricing?plan=go…').waitFor();
    await row.click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Hi, I am Xena').waitFor();
    await dialog.getByText('How can I help?').waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();

    const csv = await download(page, room, 'Download CSV');
    expect(csv.file).to.match(/Z_support_history_parley_output\.csv$/);
    const rows = parseCsv(csv.text) as string[][];
    expect(rows).to.have.length(8);
    expect(rows.find((r) => r[3] === 'Xena' && r[5] === 'Ben')?.[7]).to.equal("'=SUM(A1:A9)");
    // Nobody answered Zoe: her chat's First Response is empty, not a made-up year-1 date.
    expect(rows[0][8]).to.equal('First Response');
    expect(rows.find((r) => r[3] === 'Zoe')?.[8]).to.equal('');
    const jsonFile = await download(page, room, 'Download JSON');
    expect(jsonFile.file).to.match(/Z_support_history_parley_output\.json$/);
    const json = JSON.parse(jsonFile.text);
    expect(json.totalChats).to.equal(7);
    expect(json.chats[0].visitor.name).to.equal('Vera');
    expect(json.chats.find((c: { visitor: { name: string } }) => c.visitor.name === 'Zoe').firstResponseAt).to.equal('');
  });

  it('names each history row by chat number, visitor and first line, shows that it opens a transcript, and finds chats', async () => {
    const page = browser.page;
    await signIn(page, seeded.token);
    await page.goto(at('/reports/history'));
    await page.getByLabel('Time zone').selectOption(ZONE);
    const room = page.getByRole('region', { name: 'History of support' });
    await room.getByText('Showing 1 to 7 of 7 results').waitFor();
    const first = room.locator('tbody tr').first();
    expect(await first.locator('.reports__visitor').innerText()).to.equal('#6 Vera\nHi, I am Vera');
    expect(await first.locator('.reports__open').innerText()).to.equal('Transcript ›');
    expect(await first.getAttribute('aria-label')).to.equal('Chat #6 with Vera: open its transcript');

    const search = room.getByLabel('Search chats');
    await search.fill('xena');
    await room.getByText('Showing 1 to 2 of 2 results').waitFor();
    expect(await room.locator('tbody .reports__who').allInnerTexts()).to.deep.equal(['#3 Xena', '#8 Xena']);
    await search.fill('slow');
    await room.getByText('Showing 0 to 0 of 0 results').waitFor();
    await room.getByText('No chats match “slow”.').waitFor();
    await search.fill('walt@example.com');
    await room.getByText('Showing 1 to 1 of 1 results').waitFor();
    await room.locator('tbody tr').first().click();
    await page.getByRole('dialog').getByText('Hi, I am Walt').waitFor();
  });

  it('shows a transcript as the widget does: an operator’s bold and links formatted, a visitor’s screenshot as the picture', async () => {
    const page = browser.page;
    const conversationId = new Types.ObjectId(seeded.chatIds[7]);
    const ceId = new Types.ObjectId(seeded.ceId);
    const shot = await server.models.WidgetFile.create({
      ceId,
      source: 'visitor',
      conversationId,
      name: 'screenshot.png',
      mimetype: 'image/png',
      size: PNG.length,
      data: PNG,
    });
    await server.models.Message.insertMany([
      {
        conversationId,
        seq: 3,
        kind: 'msg',
        from: 'operator',
        text: 'Our *light* roast: <https://shop.example.com/light|see it here>',
        html: 'Our <strong>light</strong> roast: <a href="https://shop.example.com/light">see it here</a><img src=x onerror="alert(1)">',
        author: { name: 'Ana', avatarUrl: '' },
      },
      {
        conversationId,
        seq: 4,
        kind: 'msg',
        from: 'visitor',
        text: '',
        files: [{ id: String(shot._id), name: 'screenshot.png', size: PNG.length, mimetype: 'image/png' }],
      },
      { conversationId, seq: 5, kind: 'msg', from: 'visitor', text: 'See https://shop.example.com/cart please' },
    ]);
    await signIn(page, seeded.token);
    await page.goto(at('/reports/history'));
    const room = page.getByRole('region', { name: 'History of support' });
    await room.locator('tbody tr[aria-label^="Chat #8 "]').click();
    const dialog = page.getByRole('dialog');
    const reply = dialog.locator('.reports__message--operator', { hasText: 'roast' });
    await reply.waitFor();
    expect(await reply.locator('.reports__message-text').innerText()).to.equal('Our light roast: see it here');
    expect(await reply.locator('strong').innerText()).to.equal('light');
    expect(await reply.getByRole('link', { name: 'see it here' }).getAttribute('href')).to.equal('https://shop.example.com/light');
    expect(await reply.locator('img').count()).to.equal(0);
    const image = dialog.getByRole('img', { name: 'screenshot.png' });
    await image.waitFor();
    await page.waitForFunction(() => (document.querySelector('.reports__file-image') as HTMLImageElement | null)?.naturalWidth === 1);
    expect(await dialog.getByRole('link', { name: 'https://shop.example.com/cart' }).getAttribute('href')).to.equal(
      'https://shop.example.com/cart',
    );
    await picture(page, path.join(RESULTS_DIR, 'transcript-1280x800.png'));
    await page.setViewportSize({ width: 390, height: 844 });
    await picture(page, path.join(RESULTS_DIR, 'transcript-390x844.png'));
    // Only the chat's own files are served, and only to the account's admins.
    const file = `${server.url}/v1/reports/${seeded.ceId}/chats/${seeded.chatIds[7]}/files/${shot._id}`;
    expect((await fetch(file, { headers: { Authorization: `Bearer ${seeded.token}` } })).status).to.equal(200);
    expect((await fetch(file)).status).to.equal(403);
    const elsewhere = `${server.url}/v1/reports/${seeded.ceId}/chats/${seeded.chatIds[0]}/files/${shot._id}`;
    expect((await fetch(elsewhere, { headers: { Authorization: `Bearer ${seeded.token}` } })).status).to.equal(404);
  });

  it('fits every report on a phone: readable day labels, whole agent figures, one-line dates, full feedback, no days before the widget', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await signIn(page, seeded.token);
    const inView = async (locator: ReturnType<Page['locator']>) => {
      const box = await locator.boundingBox();
      expect(box, 'on the page').to.not.equal(null);
      expect(
        (box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= 390,
        `${await locator.innerText()} inside the 390 px screen`,
      ).to.equal(true);
      return box;
    };

    await page.goto(at('/reports/overview'));
    await chooseMarchInNewYork(page);
    const overview = page.getByRole('region', { name: 'Overview of support' });
    await waitForChosenRangeFigure(page, '6');
    // Every figure of an agent, not only the first four columns.
    const ben = overview.locator('tbody tr', { hasText: 'Ben' });
    expect(await ben.locator('td').count()).to.equal(8);
    for (const cell of await ben.locator('td').all()) await inView(cell);
    expect(await ben.locator('td').last().innerText()).to.equal('9');
    // Each figure carries its name beside it (the table's head is hidden on a phone).
    expect(
      await ben
        .locator('td')
        .last()
        .evaluate((td) => getComputedStyle(td, '::before').content),
    ).to.equal('"Avg Msgs"');
    const canvas = await overview.locator('.reports__chart canvas').boundingBox();
    expect(canvas?.width ?? 999).to.be.at.most(390);

    await page.goto(at('/reports/history'));
    await page.getByLabel('Time zone').selectOption(ZONE);
    const history = page.getByRole('region', { name: 'History of support' });
    await history.getByText('Showing 1 to 7 of 7 results').waitFor();
    const walt = history.locator('tbody tr', { hasText: 'Walt' });
    // The date on one line, the feedback whole.
    const started = await inView(walt.locator('.reports__started time'));
    expect(started?.height ?? 99).to.be.below(24);
    await inView(walt.locator('.reports__feedback'));
    expect(await walt.locator('.reports__feedback').innerText()).to.equal('Slow');
    await inView(walt.locator('.reports__open'));

    await page.goto(at('/reports/availability'));
    await page.getByLabel('Time zone').selectOption(ZONE);
    await page.getByLabel('Date range').selectOption('custom');
    await page.getByLabel('From', { exact: true }).fill('2026-01-29');
    await page.getByLabel('To', { exact: true }).fill('2026-02-03');
    const availability = page.getByRole('region', { name: 'Availability of support' });
    // Filling From draws Jan 29 to the old To first; wait for the range the test chose, Feb 1 to Feb 3.
    await page.waitForFunction(() => {
      const days = [...document.querySelectorAll('.availability__day .availability__label')].map((label) => label.textContent);
      return days.join() === 'Feb 1,Feb 2,Feb 3';
    });
    // Jan 29–31 were before the widget was added: left out, and said so; the colours are explained.
    expect(await availability.locator('.availability__day .availability__label').allTextContents()).to.deep.equal([
      'Feb 1',
      'Feb 2',
      'Feb 3',
    ]);
    await availability.getByText('#support was added on Feb 1, 2026: nothing is recorded before that.').waitFor();
    expect(await availability.getByRole('list', { name: 'Legend' }).locator('li').allInnerTexts()).to.deep.equal([
      'Online',
      'Offline',
      'Not recorded (before the widget was added, or still to come)',
    ]);
  });

  it('draws availability per day with the online share, the DST day included', async () => {
    const page = browser.page;
    await signIn(page, seeded.token);
    await page.goto(at('/reports/availability'));
    await chooseMarchInNewYork(page);
    const room = page.getByRole('region', { name: 'Availability of support' });
    await page.waitForFunction(() => document.querySelectorAll('.availability__day').length === 3);
    expect(await room.locator('.availability__day .availability__label').allTextContents()).to.deep.equal(['Mar 7', 'Mar 8', 'Mar 9']);
    expect(await room.locator('.availability__day .availability__pct').allTextContents()).to.deep.equal(['33.3%', '21.7%', '25%']);
    expect(await room.locator('.availability__hours span').allTextContents()).to.deep.equal([
      '0',
      '2',
      '4',
      '6',
      '8',
      '10',
      '12',
      '14',
      '16',
      '18',
      '20',
      '22',
    ]);
    await room.locator('.availability__day').nth(1).locator('.availability__stretch--online').first().hover();
    const popover = room.locator('.availability__popover');
    expect(await popover.innerText()).to.contain('Manual mode');
    expect(await popover.innerText()).to.contain('1:00 AM – 5:00 AM');
  });

  it('shows a Basic admin the upgrade warning and no Reports link, and sends a non-admin to the dashboard', async () => {
    const page = browser.page;
    const basic = await seedReportAccount(server, { plan: 'parley_basic_monthly' });
    await signIn(page, basic.token);
    await page.goto(at('/reports/overview'));
    await page.getByText('Your plan does not have access to reports.').waitFor();
    expect(await page.locator('.sidebar__link', { hasText: 'Reports' }).count()).to.equal(0);
    expect(await page.locator('.reports__stat').count()).to.equal(0);

    const member = await createUserInDb(server, {
      admin: false,
      ActiveTOSPP: TERMS_VERSION,
      account: (await server.models.Account.findById(seeded.accountId)) ?? undefined,
    });
    const other = await browser.newPage();
    await other.context().addCookies([{ name: 'auth_token', value: member.token, url: server.url }]);
    await other.goto(at('/reports/history'));
    await other.waitForURL(/#\/$/);
    expect(await other.locator('.sidebar__link', { hasText: 'Reports' }).count()).to.equal(0);
  });
});
