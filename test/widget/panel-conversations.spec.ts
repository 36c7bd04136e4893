/**
 * The panel across conversations, in Chromium on the demo site: a visitor who ends a chat and starts another
 * on the same page sees the new conversation's replies (its seqs start at 1 again), below the old chat.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { configuredWidget, replyOnOperatorPage, threadWith, waitFor } from '../e2e/widgetHelpers';
import { useServer } from '../helpers/app';
import { useBrowser } from '../helpers/browser';
import { widgetBuilt } from '../helpers/widgetBuild';

describe('widget panel across conversations (browser)', function () {
  this.timeout(120_000);
  const server = useServer();
  const browser = useBrowser();

  before(async function () {
    this.timeout(60_000);
    await widgetBuilt();
  });

  async function reply(page: Page, channel: string, visitorText: string, text: string): Promise<void> {
    const thread = await waitFor('the Slack thread', () => threadWith(server, channel, visitorText));
    await replyOnOperatorPage(page, server, channel, thread.parent.ts, text);
  }

  it("shows the operator's reply in a second conversation started after the first one ended", async () => {
    const widget = await configuredWidget(server);
    const page = browser.page;
    await page.goto(`${server.demoUrl}/?widget=${widget.uuid}`);
    const w = page.locator('parley-widget');
    const input = w.getByRole('textbox', { name: 'Message', exact: true });
    const log = w.getByRole('log', { name: 'Messages' });
    await w.locator('.launcher').click();
    await input.fill('First question about beans');
    await input.press('Enter');
    await log.locator('.msg.visitor:not(.sending)', { hasText: 'First question' }).waitFor();
    const operator = await browser.newPage();
    await reply(operator, widget.channel, 'First question about beans', 'First answer from Alice');
    await log.locator('.msg.operator', { hasText: 'First answer from Alice' }).waitFor();

    await w.getByRole('button', { name: 'Chat options' }).click();
    await w.getByRole('menuitem', { name: 'End chat' }).click();
    await w.getByRole('button', { name: 'Yes' }).click();
    await w.getByText('This chat has ended.').waitFor();

    await input.fill('Second question about grinders');
    await input.press('Enter');
    await log.locator('.msg.visitor:not(.sending)', { hasText: 'Second question' }).waitFor();
    await reply(operator, widget.channel, 'Second question about grinders', 'Second answer from Alice');
    await log.locator('.msg.operator', { hasText: 'Second answer from Alice' }).waitFor();

    const order = await log.locator('.msg .bubble').allTextContents();
    expect(order).to.deep.equal([
      'First question about beans',
      'First answer from Alice',
      'Second question about grinders',
      'Second answer from Alice',
    ]);
  });
});
