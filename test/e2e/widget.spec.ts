/**
 * The visitor widget end to end, in Chromium, on the demo site (another origin than Parley) with the real relay
 * and the Slack sandbox: chat to a Slack thread and back, the offline form, a server restart mid-conversation,
 * and a reply sent while the visitor's socket was down.
 */
import { expect } from 'chai';
import type { Locator, Page } from 'playwright-core';
import type { Message } from '../../server/sandbox/slack/types';
import { startTestServer, type TestServer } from '../helpers/app';
import { useBrowser } from '../helpers/browser';
import { widgetBuilt } from '../helpers/widgetBuild';
import { ACME, ALICE } from '../slack/helpers';
import { animationsDone, configuredWidget, replyOnOperatorPage, shot, threadWith, type Widget, waitFor } from './widgetHelpers';

const count = (messages: Message[], text: string) => messages.filter((m) => m.text.includes(text)).length;

describe('visitor widget (browser, demo site on another origin)', function () {
  this.timeout(120_000);
  let server: TestServer;
  const browser = useBrowser();

  before(async function () {
    this.timeout(60_000);
    await widgetBuilt();
  });

  beforeEach(async function () {
    this.timeout(60_000);
    server = await startTestServer();
  });
  afterEach(async () => {
    await server?.close();
  });

  const panelOf = (page: Page) => {
    const host = page.locator('parley-widget');
    return {
      host,
      launcher: host.locator('.launcher'),
      input: host.getByRole('textbox', { name: 'Message', exact: true }),
      log: host.getByRole('log', { name: 'Messages' }),
    };
  };

  async function openDemo(page: Page, widget: Widget, query = ''): Promise<ReturnType<typeof panelOf>> {
    await page.goto(`${server.demoUrl}/?widget=${widget.uuid}${query}`);
    expect(new URL(page.url()).origin).to.not.equal(new URL(server.url).origin);
    const panel = panelOf(page);
    await panel.launcher.waitFor();
    return panel;
  }

  async function say(panel: ReturnType<typeof panelOf>, text: string): Promise<void> {
    await panel.input.fill(text);
    await panel.input.press('Enter');
  }

  /** A visitor bubble that the server acknowledged (no longer "Sending…"). */
  const sent = (log: Locator, text: string) => log.locator('.msg.visitor:not(.sending)', { hasText: text });

  it('lets a visitor chat with an operator who answers in the Slack thread, on a page of another origin', async () => {
    const widget = await configuredWidget(server);
    const page = browser.page;
    const panel = await openDemo(page, widget);
    expect(await panel.launcher.textContent()).to.contain('Questions? Chat with us!');
    await shot(page, 'launcher-chip');

    await panel.launcher.click();
    await panel.input.waitFor();
    await say(panel, 'Hi! Do you ship beans to Canada?');
    await sent(panel.log, 'Do you ship beans to Canada?').waitFor();

    const thread = await waitFor('the Slack thread', () => threadWith(server, widget.channel, 'Do you ship beans to Canada?'));
    expect(count(thread.replies, 'Do you ship beans to Canada?')).to.equal(1);

    const operator = await browser.newPage();
    await replyOnOperatorPage(operator, server, widget.channel, thread.parent.ts, 'Yes, we ship to Canada every Tuesday.');

    const reply = panel.log.locator('.msg.operator', { hasText: 'Yes, we ship to Canada every Tuesday.' });
    await reply.waitFor();
    expect(await reply.locator('.author').textContent()).to.contain('Alice');
    await shot(page, 'panel-chat');
    expect(await panel.log.locator('.msg', { hasText: 'Do you ship beans to Canada?' }).count()).to.equal(1);
  });

  it('shows the offline form when nobody in the channel is active, and the offline message reaches Slack', async () => {
    // Away from the start: setting the widget up already asks Slack who is active (the answer holds ~30 s).
    server.slack.state.setPresence(ALICE, 'away');
    const widget = await configuredWidget(server);
    const page = browser.page;
    const panel = await openDemo(page, widget);
    expect(await panel.launcher.textContent()).to.contain('Contact us');
    await panel.launcher.click();

    const form = panel.host.locator('form.form');
    await form.getByLabel('Email').fill('jane@example.com');
    await form.getByLabel('Your message').fill('Please call me back about a wholesale order.');
    await shot(page, 'offline-form');
    await form.getByRole('button', { name: 'Send' }).click();
    await panel.host.getByRole('status').getByText("Thanks for your message. We'll be in touch soon!").waitFor();

    await waitFor('the offline message in Slack', () =>
      server.slack.state.data.messages.find((m) => m.channel === widget.channel && JSON.stringify(m).includes('wholesale order')),
    );
  });

  it('switches between the chat and the offline form live when the channel goes away and comes back', async () => {
    await server.close();
    server = await startTestServer({ relay: { presenceTtlMs: 100, presenceRefreshMs: 200 } });
    const widget = await configuredWidget(server);
    const page = browser.page;
    const panel = await openDemo(page, widget);
    await panel.launcher.click();
    await panel.input.waitFor();

    server.slack.state.setPresence(ALICE, 'away');
    await panel.host.getByRole('button', { name: 'Send' }).waitFor();
    await panel.host.getByText("Sorry, we aren't online at the moment.", { exact: false }).waitFor();
    expect(await panel.input.count()).to.equal(0);
    expect(await page.evaluate(() => (window as unknown as { parley: { isOnline(): boolean } }).parley.isOnline())).to.equal(false);

    server.slack.state.setPresence(ALICE, 'active');
    await panel.input.waitFor();
    expect(await page.evaluate(() => (window as unknown as { parley: { isOnline(): boolean } }).parley.isOnline())).to.equal(true);
  });

  it('resumes the conversation after the server restarts, with nothing lost or shown twice', async () => {
    const widget = await configuredWidget(server);
    const page = browser.page;
    const panel = await openDemo(page, widget);
    await panel.launcher.click();
    await say(panel, 'First question before the restart');
    await sent(panel.log, 'First question before the restart').waitFor();
    const before = await waitFor('the Slack thread', () => threadWith(server, widget.channel, 'First question before the restart'));
    await server.slack.postAsUser({
      teamId: ACME,
      userId: ALICE,
      channelId: widget.channel,
      threadTs: before.parent.ts,
      text: 'Answer before the restart',
    });
    await panel.log.getByText('Answer before the restart').waitFor();

    await server.close({ keepData: true });
    // Typed while Parley is down: it stays "sending" and goes out once the widget reconnects.
    await say(panel, 'Typed while the server was down');
    await panel.log.locator('.msg.visitor.sending', { hasText: 'Typed while the server was down' }).waitFor();
    server = await startTestServer({}, { restartOf: server });

    await sent(panel.log, 'Typed while the server was down').waitFor({ timeout: 40_000 });
    const after = await waitFor('the message in the same thread', () => {
      const thread = threadWith(server, widget.channel, 'Typed while the server was down');
      return thread?.replies.some((r) => r.text.includes('First question')) ? thread : undefined;
    });
    expect(after.parent.ts).to.equal(before.parent.ts);
    await server.slack.postAsUser({
      teamId: ACME,
      userId: ALICE,
      channelId: widget.channel,
      threadTs: after.parent.ts,
      text: 'Answer after the restart',
    });
    await panel.log.getByText('Answer after the restart').waitFor();

    for (const text of [
      'First question before the restart',
      'Answer before the restart',
      'Typed while the server was down',
      'Answer after the restart',
    ]) {
      expect(await panel.log.locator('.msg', { hasText: text }).count(), text).to.equal(1);
    }
    const final = threadWith(server, widget.channel, 'Typed while the server was down');
    expect(count(final?.replies ?? [], 'First question before the restart')).to.equal(1);
    expect(count(final?.replies ?? [], 'Typed while the server was down')).to.equal(1);

    // A new page load shows the same conversation, each message once.
    await page.reload();
    await panel.launcher.waitFor({ state: 'attached' });
    await panel.log.getByText('Answer after the restart').waitFor({ state: 'attached' });
    expect(await panel.log.locator('.msg', { hasText: 'Answer before the restart' }).count()).to.equal(1);
  });

  it('delivers a reply sent while the visitor was disconnected exactly once after the socket is back', async () => {
    const widget = await configuredWidget(server);
    const page = browser.page;
    const panel = await openDemo(page, widget);
    await panel.launcher.click();
    await say(panel, 'Is the Guji still in stock?');
    await sent(panel.log, 'Is the Guji still in stock?').waitFor();
    const thread = await waitFor('the Slack thread', () => threadWith(server, widget.channel, 'Is the Guji still in stock?'));

    await browser.context.setOffline(true);
    await panel.host.getByText('Reconnecting…').waitFor();
    await server.slack.postAsUser({
      teamId: ACME,
      userId: ALICE,
      channelId: widget.channel,
      threadTs: thread.parent.ts,
      text: 'Yes, 12 bags left.',
    });
    await server.slack.settled();
    expect(await panel.log.getByText('Yes, 12 bags left.').count()).to.equal(0);

    await browser.context.setOffline(false);
    await panel.log.getByText('Yes, 12 bags left.').waitFor();
    await panel.host.getByText('Reconnecting…').waitFor({ state: 'detached' });
    expect(await panel.log.locator('.msg', { hasText: 'Yes, 12 bags left.' }).count()).to.equal(1);
  });

  it('fills the screen on a phone and shows the chip as a round button', async () => {
    const widget = await configuredWidget(server);
    const page = await browser.newPage({ viewport: { width: 390, height: 780 } });
    const panel = await openDemo(page, widget);
    expect(await panel.launcher.getAttribute('class')).to.contain('button');
    await shot(page, 'mobile-launcher');
    await panel.launcher.click();
    await panel.input.waitFor();
    await animationsDone(page);
    const box = await panel.host.locator('.frame').boundingBox();
    expect(box?.width).to.equal(390);
    expect(box?.height).to.equal(780);
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).to.equal('hidden');
    await say(panel, 'Hello from my phone');
    await sent(panel.log, 'Hello from my phone').waitFor();
    await shot(page, 'mobile-panel');
    await panel.host.getByRole('button', { name: 'Minimise chat' }).click();
    await panel.launcher.waitFor();
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).to.equal('visible');
  });
});
