/**
 * Screenshot requests end to end, in Chromium: an operator asks from the Slack sandbox (the thread header's
 * "Request screenshot" button, or `/parley screenshot N`), the visitor on the demo site sees the owner's question,
 * allows it, sees the picture with the private fields masked, and sends it: an image file lands in the Slack thread.
 * A declined request is said in the thread.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { useServer } from '../helpers/app';
import { useBrowser } from '../helpers/browser';
import { widgetBuilt } from '../helpers/widgetBuild';
import { ACME, ALICE } from '../slack/helpers';
import { configuredWidget, shot, type Widget, waitFor } from './widgetHelpers';

const ASK = 'The operator would like a screenshot of this page. Allow?';
const FIELD = 'width:240px;height:40px;font-size:20px;background:#fff;border:1px solid #999';
/** A sign-in box of the shop's: a plain field, a password, and a card number the site marks for masking. */
const ACCOUNT_BOX = `<form id="account" style="position:fixed;left:40px;top:90px;display:flex;flex-direction:column;gap:8px;z-index:5">
<input id="email" value="jane@example.com" style="${FIELD}">
<input id="password" type="password" value="hunter2hunter2" style="${FIELD}">
<input id="card" value="4242 4242 4242 4242" data-parley-mask style="${FIELD}">
</form>`;

describe('screenshot requests (browser, demo site and Slack sandbox)', function () {
  this.timeout(120_000);
  const server = useServer();
  const browser = useBrowser({ context: 'suite', page: 'suite' });

  before(async function () {
    this.timeout(60_000);
    await widgetBuilt();
  });

  /** The visitor on the demo site, in a chat whose thread is in Slack; answers the conversation's number. */
  async function visitorInChat(page: Page, widget: Widget, text: string) {
    await page.goto(`${server.demoUrl}/?widget=${widget.uuid}`);
    // A sign-in box of the shop's: a password, a card number the site marks for masking, and a plain field.
    // (Functions evaluated in the page are plain: tsx's helpers do not exist there.)
    await page.evaluate((html) => document.body.insertAdjacentHTML('beforeend', html), ACCOUNT_BOX);
    const host = page.locator('parley-widget');
    await host.locator('.launcher').click();
    const input = host.getByRole('textbox', { name: 'Message', exact: true });
    await input.fill(text);
    await input.press('Enter');
    const log = host.getByRole('log', { name: 'Messages' });
    await log.locator('.msg.visitor:not(.sending)', { hasText: text }).waitFor();
    const c = await waitFor('the conversation with its Slack thread', async () => {
      const found = await server.models.Conversation.findOne({ ceId: widget.ceId });
      return found?.threadTs ? found : undefined;
    });
    return { host, log, number: c.number, threadTs: c.threadTs };
  }

  async function operatorPage(widget: Widget, phone = false): Promise<Page> {
    const page = await browser.newPage(phone ? { viewport: { width: 390, height: 844 } } : {});
    await page.goto(`${server.url}/sandbox/slack/?team=${ACME}&user=${ALICE}&channel=${widget.channel}`);
    await page.locator('#op-text').waitFor();
    return page;
  }

  const threadTexts = (widget: Widget, threadTs: string) => server.slack.state.replies(widget.channel, threadTs).map((m) => m.text);

  it('sends the masked picture of the page into the Slack thread once the visitor allows it and sees it', async () => {
    const widget = await configuredWidget(server);
    const page = browser.page;
    const visitor = await visitorInChat(page, widget, 'The checkout button does nothing');

    const operator = await operatorPage(widget);
    await operator.locator('[data-action-id="conversation_screenshot"]').first().click();
    await waitFor('the note of who asked', () =>
      threadTexts(widget, visitor.threadTs).find((t) => t.includes('asked the visitor for a screenshot')),
    );

    const card = visitor.log.locator('.card.shot');
    await card.getByText(ASK).waitFor();
    await shot(page, 'screenshot-request');
    await card.getByRole('button', { name: 'Allow' }).click();
    const preview = card.getByRole('img', { name: 'Screenshot of this page' });
    await preview.waitFor();
    await page.waitForFunction(() => {
      const img = document.querySelector('parley-widget')?.shadowRoot?.querySelector<HTMLImageElement>('img.preview');
      return !!img && img.complete && img.naturalWidth > 0;
    });
    await shot(page, 'screenshot-preview');

    // The picture is the viewport: masked fields are grey blocks, the plain one shows its text (not grey).
    const pixels = await page.evaluate(() => {
      const img = document.querySelector('parley-widget')?.shadowRoot?.querySelector<HTMLImageElement>('img.preview');
      if (!img) throw new Error('no preview');
      const canvas = document.createElement('canvas');
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const g = canvas.getContext('2d');
      if (!g) throw new Error('no canvas');
      g.drawImage(img, 0, 0);
      const ratio = img.naturalWidth / document.documentElement.clientWidth;
      const colours: Record<string, number[]> = {};
      for (const id of ['password', 'card', 'email']) {
        const box = document.getElementById(id)?.getBoundingClientRect();
        if (!box) throw new Error(`no #${id}`);
        // The middle of the field's left part, where its text starts.
        const data = g.getImageData(Math.round((box.left + 30) * ratio), Math.round((box.top + box.height / 2) * ratio), 1, 1).data;
        colours[id] = [data[0], data[1], data[2]];
      }
      return {
        width: img.naturalWidth / ratio,
        height: img.naturalHeight / ratio,
        password: colours.password,
        card: colours.card,
        email: colours.email,
      };
    });
    expect(pixels.width).to.equal(await page.evaluate(() => document.documentElement.clientWidth));
    expect(pixels.height).to.equal(800);
    expect(pixels.password).to.deep.equal([107, 114, 128]);
    expect(pixels.card).to.deep.equal([107, 114, 128]);
    expect(pixels.email).to.not.deep.equal([107, 114, 128]);

    // Two buttons send in this view: the picture's says what it sends, so it is not mistaken for the message box's.
    const host = page.locator('parley-widget');
    expect(await card.getByRole('button', { name: 'Send screenshot', exact: true }).count()).to.equal(1);
    expect(await host.getByRole('button', { name: 'Send', exact: true }).count()).to.equal(1);
    expect(await card.getByRole('button', { name: 'Send', exact: true }).count()).to.equal(0);
    await card.getByRole('button', { name: 'Send screenshot', exact: true }).click();
    const file = await waitFor('the screenshot in Slack', () =>
      server.slack.state.files.find((f) => f.name.startsWith('screenshot-') && f.channels.includes(widget.channel)),
    );
    expect(file.name).to.match(/^screenshot-\d{8}-\d{4}\.png$/);
    const posted = await waitFor('the screenshot as a reply in the thread', () =>
      server.slack.state.replies(widget.channel, visitor.threadTs).find((m) => (m.files ?? []).length > 0),
    );
    // The thread says which request the file answers, not only "sent a file".
    expect(posted.text).to.match(/ sent the screenshot asked for in this thread$/);
    const stored = await server.models.WidgetFile.findOne({ ceId: widget.ceId, name: file.name });
    expect(stored?.mimetype).to.equal('image/png');
    expect(stored?.data?.subarray(1, 4).toString()).to.equal('PNG');
    // Answered: the card is gone and a reload does not ask again.
    await visitor.log.locator('.msg.visitor .files img').waitFor();
    expect(await card.count()).to.equal(0);
    // The chat was open when the page was left: it opens again by itself.
    await page.reload();
    await page.locator('parley-widget').getByRole('log', { name: 'Messages' }).locator('.msg.visitor .files img').waitFor();
    expect(await page.locator('parley-widget').getByText(ASK).count()).to.equal(0);
  });

  it('tells the thread when the visitor declines a request made with /parley screenshot N, on a phone', async () => {
    const widget = await configuredWidget(server, {
      requestScreenshotText: 'May we see your screen?',
      requestScreenshotDeclineLabel: 'No thanks',
    });
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const visitor = await visitorInChat(page, widget, 'Where is my order?');

    const operator = await operatorPage(widget);
    await operator.fill('#op-text', `/parley screenshot ${visitor.number}`);
    await operator.press('#op-text', 'Enter');
    await operator
      .locator('#op-ephemerals .ephemeral', { hasText: `Asked the visitor of conversation #${visitor.number} for a screenshot` })
      .waitFor();

    const card = visitor.log.locator('.card.shot');
    await card.getByText('May we see your screen?').waitFor();
    await shot(page, 'screenshot-request-phone');
    await card.getByRole('button', { name: 'No thanks' }).click();
    await visitor.log.getByText('Screenshot declined.').waitFor();
    await waitFor('the refusal in the thread', () =>
      threadTexts(widget, visitor.threadTs).find((t) => t.includes('The visitor declined the screenshot request.')),
    );
    expect(server.slack.state.files.some((f) => f.channels.includes(widget.channel))).to.equal(false);
  });

  it("takes the phone's screen on a phone, and sends it with a button of its own, in the visitor's language", async () => {
    const widget = await configuredWidget(server);
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, locale: 'fr-FR' });
    const visitor = await visitorInChat(page, widget, 'The menu covers the page');
    const operator = await operatorPage(widget);
    await operator.fill('#op-text', `/parley ss ${visitor.number}`);
    await operator.press('#op-text', 'Enter');
    const card = visitor.log.locator('.card.shot');
    await card.getByRole('button', { name: 'Autoriser' }).click();
    await page.waitForFunction(() => {
      const img = document.querySelector('parley-widget')?.shadowRoot?.querySelector<HTMLImageElement>('img.preview');
      return !!img && img.complete && img.naturalWidth > 0;
    });
    const size = await page.evaluate(() => {
      const img = document.querySelector('parley-widget')?.shadowRoot?.querySelector<HTMLImageElement>('img.preview');
      const ratio = (img?.naturalWidth ?? 0) / document.documentElement.clientWidth;
      return { width: (img?.naturalWidth ?? 0) / ratio, height: (img?.naturalHeight ?? 0) / ratio };
    });
    expect(size).to.deep.equal({ width: 390, height: 844 });
    await shot(page, 'screenshot-preview-phone');
    const names = await page
      .locator('parley-widget')
      .getByRole('button', { name: /^Envoyer/ })
      .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label') ?? b.textContent?.trim() ?? ''));
    expect(names.sort()).to.deep.equal(['Envoyer', 'Envoyer la capture']);
    await card.getByRole('button', { name: 'Envoyer la capture', exact: true }).click();
    await waitFor('the screenshot in the thread', () =>
      server.slack.state.replies(widget.channel, visitor.threadTs).find((m) => (m.files ?? []).length > 0),
    );
  });

  it('tells the visitor and the thread politely when the browser cannot draw the page', async () => {
    const widget = await configuredWidget(server);
    const page = browser.page;
    const visitor = await visitorInChat(page, widget, 'Is the sale still on?');
    // A browser without canvas export (older or locked-down ones).
    await page.evaluate(() => {
      Object.defineProperty(HTMLCanvasElement.prototype, 'toBlob', { value: undefined, configurable: true });
    });
    const operator = await operatorPage(widget);
    await operator.locator('[data-action-id="conversation_screenshot"]').first().click();
    const card = visitor.log.locator('.card.shot');
    await card.getByRole('button', { name: 'Allow' }).click();
    await visitor.log
      .getByText("Sorry, this browser can't take a screenshot of this page. Please describe what you see instead.")
      .waitFor();
    await waitFor('the note in the thread', () =>
      threadTexts(widget, visitor.threadTs).find((t) => t.includes('their browser could not take one of this page')),
    );
    await shot(page, 'screenshot-unsupported');
  });
});
