/**
 * Conversations that outlive the page, in Chromium: a reply sent after the visitor closed the page goes out as one
 * mail (read in the dev outbox), "Reply as the visitor" sends the answer through Parley's SMTP receiver into the
 * Slack thread and into the widget when the visitor comes back by the mail's link; a reply the visitor sees sends
 * no mail and gets :eyes: in Slack; the unsubscribe link stops further mails.
 */
import path from 'node:path';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { mailUnseenReplies } from '../../server/relay';
import { signUpUser } from '../factories';
import { startRelayServer, type TestServer } from '../helpers/app';
import { picture, RESULTS_DIR, useBrowser } from '../helpers/browser';
import { widgetBuilt } from '../helpers/widgetBuild';
import { firstWidgetId, setUpWidget } from '../slack/helpers';
import { acceptTerms } from './consoleHelpers';
import { configuredWidget, replyOnOperatorPage, shot, threadWith, type Widget, waitFor } from './widgetHelpers';

const MINUTE = 60_000;

describe('replies by e-mail and answers by mail (browser)', function () {
  this.timeout(120_000);
  let server: TestServer;
  const browser = useBrowser({ context: 'suite', page: 'suite' });

  before(async function () {
    this.timeout(60_000);
    await widgetBuilt();
  });
  beforeEach(async function () {
    this.timeout(60_000);
    server = await startRelayServer();
  });
  afterEach(async () => {
    await server?.slack.close();
    await server?.slack.settled();
    await server?.close();
  });

  const widgetOf = (page: Page) => page.locator('parley-widget');
  const email = () => `jane.${Date.now()}@example.com`;

  /** The visitor starts a chat on the demo site, giving their e-mail address in the pre-chat form. */
  async function startChat(page: Page, widget: Widget, address: string, text: string): Promise<string> {
    await page.goto(`${server.demoUrl}/?widget=${widget.uuid}`);
    const w = widgetOf(page);
    await w.locator('.launcher').click();
    await w.getByLabel('Name').fill('Jane');
    await w.getByLabel('Email').fill(address);
    await w.getByRole('button', { name: 'Start chat' }).click();
    const input = w.getByRole('textbox', { name: 'Message', exact: true });
    await input.fill(text);
    await input.press('Enter');
    await w.locator('.msg.visitor:not(.sending)', { hasText: text }).waitFor();
    const thread = await waitFor('the Slack thread', () => threadWith(server, widget.channel, text));
    return thread.parent.ts;
  }

  /** Parley got the operator's reply from Slack: the wait for the visitor to see it runs. */
  const waiting = (widget: Widget) =>
    waitFor('the wait of the reply', async () =>
      (await server.models.Conversation.findOne({ ceId: widget.ceId }).lean())?.unseenMailAt ? true : undefined,
    );
  /** The unseen-replies check as it runs once the widget's 2 minutes have passed. */
  const afterTheWait = () => mailUnseenReplies(server.parley.relay, new Date(Date.now() + 3 * MINUTE));
  const mailsTo = async (to: string) => (await server.outbox.list()).filter((m) => m.to === to);

  it('mails a reply sent after the visitor left, and brings the answer by mail into Slack and into the widget', async () => {
    const widget = await configuredWidget(server, { requireInfo: true, onlineTitle: 'Northwind Coffee', titleColor: '#7c2d12' });
    const address = email();
    const visitor = browser.page;
    const parentTs = await startChat(visitor, widget, address, 'Do you ship beans to Norway?');
    await visitor.close();

    const operator = await browser.newPage();
    await replyOnOperatorPage(
      operator,
      server,
      widget.channel,
      parentTs,
      'Yes! Shipping to Norway takes 3 days, see https://northwind.example/shipping',
    );
    await waiting(widget);
    await afterTheWait();
    await waitFor('the mail', async () => ((await mailsTo(address)).length === 1 ? true : undefined));
    await afterTheWait();
    expect(await mailsTo(address)).to.have.length(1);

    const outbox = await browser.newPage();
    await outbox.goto(`${server.url}/dev/outbox`);
    const mail = outbox.locator('.mail', { hasText: address });
    await mail.getByText('Yes! Shipping to Norway takes 3 days, see').waitFor();
    await mail.getByText('You: Do you ship beans to Norway?').waitFor();
    await shot(outbox, 'outbox-unseen-reply');
    const [sent] = await mailsTo(address);
    // The mail itself, as a mail client shows its HTML.
    const rendered = await browser.newPage();
    await rendered.setContent(sent.html);
    await shot(rendered, 'mail-unseen-reply');
    await rendered.setViewportSize({ width: 390, height: 844 });
    await shot(rendered, 'mail-unseen-reply-mobile');

    await mail.getByLabel(/Reply as the visitor/).fill('Perfect, please send 2 kg to Oslo.');
    await mail.getByRole('button', { name: 'Reply as the visitor' }).click();
    await outbox.getByRole('status').getByText('went to Parley').waitFor();
    await waitFor('the answer in the Slack thread', () => threadWith(server, widget.channel, 'Perfect, please send 2 kg to Oslo.'));
    const thread = threadWith(server, widget.channel, 'Perfect, please send 2 kg to Oslo.');
    const texts = thread?.replies.map((r) => r.text).join('\n') ?? '';
    expect(texts).to.include(`Sent by e-mail to ${address[0]}•••@example.com`);
    expect(texts).to.not.include('wrote:');
    await operator.reload();
    await operator.click(`.msg[data-ts="${parentTs}"] [data-act="open-thread"]`);
    await operator.locator('#op-thread .msg', { hasText: 'Perfect, please send 2 kg to Oslo.' }).waitFor();
    await shot(operator, 'slack-answer-by-mail');

    // The visitor comes back by the mail's link: the widget opens on the conversation, the answer in it.
    const link = sent.links.find((l) => l.includes('#parley-open='));
    expect(link).to.be.a('string');
    const back = await browser.context.newPage();
    await back.goto(link ?? '');
    const log = widgetOf(back).getByRole('log', { name: 'Messages' });
    await log.locator('.msg.operator', { hasText: 'Shipping to Norway takes 3 days' }).waitFor();
    await log.locator('.msg.visitor', { hasText: 'Perfect, please send 2 kg to Oslo.' }).waitFor();
    await shot(back, 'widget-answer-by-mail');
  });

  it('sends no mail for a reply the visitor sees, and Slack shows :eyes: on it', async () => {
    const widget = await configuredWidget(server, { requireInfo: true });
    const address = email();
    const parentTs = await startChat(browser.page, widget, address, 'Is the grinder in stock?');
    const operator = await browser.newPage();
    await replyOnOperatorPage(operator, server, widget.channel, parentTs, 'It is, 4 left.');
    await widgetOf(browser.page).locator('.msg.operator', { hasText: 'It is, 4 left.' }).waitFor();
    await operator.locator('#op-thread .msg', { hasText: 'It is, 4 left.' }).locator('.reaction[data-reaction="eyes"]').waitFor();
    await shot(operator, 'slack-eyes-reaction');
    await afterTheWait();
    await afterTheWait();
    expect(await server.models.OutboxJob.countDocuments({ kind: 'mail.unseen' })).to.equal(0);
    expect(await mailsTo(address)).to.have.length(0);
  });

  it('lets the owner choose after how long unseen replies are mailed, or never, in Behavior', async () => {
    const { token } = await signUpUser(server);
    const ceId = await firstWidgetId(server, token);
    await setUpWidget(server, token, ceId);
    await acceptTerms(server, token);
    const page = browser.page;
    await page.context().addCookies([{ name: 'auth_token', value: token, url: server.url }]);
    await page.goto(`${server.url}/app/#/settings/${ceId}/behavior`);
    const field = page.getByLabel('E-mail replies the visitor has not seen after');
    expect(await field.inputValue()).to.equal('2');
    await field.selectOption({ label: '10 minutes' });
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByRole('button', { name: 'Saved' }).waitFor();
    expect((await server.models.ChatEndpoint.findById(ceId).lean())?.emailUnseenAfterMinutes).to.equal(10);
    await page.reload();
    await field.waitFor();
    expect(await field.inputValue()).to.equal('10');
    await field.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    const dir = path.join(RESULTS_DIR, 'settings');
    await picture(page, path.join(dir, 'behavior-email-unseen-1280.png'));
    await page.setViewportSize({ width: 390, height: 844 });
    await field.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    await picture(page, path.join(dir, 'behavior-email-unseen-390.png'));
    await field.selectOption({ label: 'Never' });
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByRole('button', { name: 'Saved' }).waitFor();
    expect((await server.models.ChatEndpoint.findById(ceId).lean())?.emailUnseenAfterMinutes).to.equal(0);
  });

  it('stops mailing a visitor who clicked the unsubscribe link', async () => {
    const widget = await configuredWidget(server, { requireInfo: true });
    const address = email();
    const visitor = browser.page;
    const parentTs = await startChat(visitor, widget, address, 'Can I change my order?');
    await visitor.close();
    const operator = await browser.newPage();
    await replyOnOperatorPage(operator, server, widget.channel, parentTs, 'Sure, what would you like to change?');
    await waiting(widget);
    await afterTheWait();
    const [sent] = await waitFor('the mail', async () => {
      const mails = await mailsTo(address);
      return mails.length === 1 ? mails : undefined;
    });
    const unsubscribe = await browser.newPage();
    await unsubscribe.goto(sent.links.find((l) => l.includes('/mail/unsubscribe/')) ?? '');
    await unsubscribe.getByRole('heading', { name: 'You are unsubscribed' }).waitFor();
    await shot(unsubscribe, 'unsubscribed');

    await operator.fill('#op-thread-text', 'Are you still there?');
    await operator.press('#op-thread-text', 'Enter');
    await operator.locator('#op-thread .msg', { hasText: 'Are you still there?' }).waitFor();
    await waiting(widget);
    await afterTheWait();
    await operator.locator('#op-thread .msg', { hasText: 'The visitor unsubscribed from e-mails' }).waitFor();
    expect(await mailsTo(address)).to.have.length(1);
  });
});
