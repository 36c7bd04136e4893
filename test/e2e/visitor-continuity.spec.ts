/**
 * What reaches a visitor outside the page they chatted on, in Chromium: the "Continue the chat" link of the mail of
 * unseen replies (read in the dev outbox) opens the conversation in a fresh browser with nothing stored, which then
 * carries on the same Slack thread; an expired or changed link opens a new chat with a line saying why, in the
 * browser's language. And the e-mail request card stays answered after a reload, the thread told the masked address.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { userHashOf } from '../../server/conversations/identity';
import { resumeToken } from '../../server/conversations/mailTokens';
import { mailUnseenReplies } from '../../server/relay';
import { openUrl } from '../../server/relay/unseenMail';
import { askForEmail } from '../../server/slack/conversationActions';
import { signUpUser } from '../factories';
import { startRelayServer, type TestServer } from '../helpers/app';
import { useBrowser } from '../helpers/browser';
import { widgetBuilt } from '../helpers/widgetBuild';
import { say as sayOnSocket, VisitorSocket } from '../relay/helpers';
import { ALICE, firstWidgetId, setUpWidget } from '../slack/helpers';
import { acceptTerms } from './consoleHelpers';
import { configuredWidget, replyOnOperatorPage, shot, threadWith, type Widget, waitFor } from './widgetHelpers';

const MINUTE = 60_000;

describe('a conversation that resumes anywhere (browser)', function () {
  this.timeout(150_000);
  let server: TestServer;
  const browser = useBrowser({ context: 'suite' });

  before(async function () {
    this.timeout(90_000);
    await widgetBuilt();
    server = await startRelayServer();
  });
  after(async () => {
    await server?.slack.close();
    await server?.slack.settled();
    await server?.close();
  });

  const widgetOf = (page: Page) => page.locator('parley-widget');
  const logOf = (page: Page) => widgetOf(page).getByRole('log', { name: 'Messages' });

  async function say(page: Page, text: string): Promise<void> {
    const input = widgetOf(page).getByRole('textbox', { name: 'Message', exact: true });
    await input.fill(text);
    await input.press('Enter');
    await widgetOf(page).locator('.msg.visitor:not(.sending)', { hasText: text }).waitFor();
  }

  it('opens the mail’s link in a fresh browser on the conversation, which goes on in the same thread; an old or changed link says why', async () => {
    const widget: Widget = await configuredWidget(server, { requireInfo: true });
    const address = `jane.${Date.now()}@example.com`;
    const first = browser.page;
    await first.goto(`${server.demoUrl}/?widget=${widget.uuid}`);
    await widgetOf(first).locator('.launcher').click();
    await widgetOf(first).getByLabel('Name').fill('Jane');
    await widgetOf(first).getByLabel('Email').fill(address);
    await widgetOf(first).getByRole('button', { name: 'Start chat' }).click();
    await say(first, 'Do you ship beans to Norway?');
    const parentTs = (await waitFor('the Slack thread', () => threadWith(server, widget.channel, 'Do you ship beans to Norway?'))).parent
      .ts;
    await first.close();

    const operator = await browser.newPage();
    await replyOnOperatorPage(operator, server, widget.channel, parentTs, 'Yes, it takes 3 days.');
    await waitFor('the wait of the reply', async () =>
      (await server.models.Conversation.findOne({ ceId: widget.ceId }).lean())?.unseenMailAt ? true : undefined,
    );
    await mailUnseenReplies(server.parley.relay, new Date(Date.now() + 3 * MINUTE));
    const mail = await waitFor('the mail', async () => (await server.outbox.list()).find((m) => m.to === address));
    const link = mail.links.find((l) => l.includes('#parley-open='));
    if (!link) throw new Error('the mail has no link back to the chat');

    // A phone's mail app: another browser, nothing stored.
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await phone.goto(link);
    await logOf(phone).locator('.msg.visitor', { hasText: 'Do you ship beans to Norway?' }).waitFor();
    await logOf(phone).locator('.msg.operator', { hasText: 'Yes, it takes 3 days.' }).waitFor();
    // The token leaves the address bar; the browser keeps a visitor token of its own, not the link's.
    expect(new URL(phone.url()).hash).to.equal('');
    const stored = await phone.evaluate(() => JSON.stringify(Object.values({ ...localStorage })));
    expect(stored).to.not.include(link.split('#parley-open=')[1]);
    await shot(phone, 'resumed-from-mail-390');
    await say(phone, 'Sent from my phone: 2 kg please.');
    const thread = await waitFor('the line in the same thread', () =>
      threadWith(server, widget.channel, 'Sent from my phone: 2 kg please.'),
    );
    expect(thread.parent.ts).to.equal(parentTs);
    expect(await server.models.Conversation.countDocuments({ ceId: widget.ceId })).to.equal(1);

    // Eight days later the link of that mail has expired: a French browser is told so in French, and a new chat starts.
    const c = await server.models.Conversation.findOne({ ceId: widget.ceId }).lean();
    if (!c) throw new Error('no conversation');
    const old = resumeToken(server.config.jwtSecret, { conversationId: c._id, visitorId: c.visitorId }, new Date(Date.now() - MINUTE));
    const expired = await browser.newPage({ locale: 'fr-FR' });
    await expired.goto(openUrl(link.split('#')[0], old));
    // The pre-chat form comes first, under the line.
    await widgetOf(expired).getByText('Ce lien vers la discussion a expiré (les liens sont valables 7 jours)').waitFor();
    await widgetOf(expired).getByRole('button', { name: 'Démarrer la discussion' }).waitFor();
    expect(await logOf(expired).locator('.msg').count()).to.equal(0);
    await shot(expired, 'resume-link-expired-fr');

    const changed = await browser.newPage();
    await changed.goto(`${link.slice(0, -3)}xyz`);
    await widgetOf(changed).getByText('This chat link is not complete or not valid, so a new chat starts here.').waitFor();
    expect(await logOf(changed).locator('.msg').count()).to.equal(0);
  });

  it('keeps the e-mail request answered after a reload, and tells the thread the masked address', async () => {
    const widget = await configuredWidget(server);
    const page = browser.page;
    await page.goto(`${server.demoUrl}/?widget=${widget.uuid}`);
    await widgetOf(page).locator('.launcher').click();
    await say(page, 'Can you tell me when the grinder is back?');
    const c = await waitFor('the conversation', async () => {
      const found = await server.models.Conversation.findOne({ ceId: widget.ceId });
      return found?.threadTs ? found : undefined;
    });
    await askForEmail(server.parley.relay, c, { slackUserId: ALICE, name: 'Alice', avatarUrl: '' });
    const card = logOf(page).locator('.card', { hasText: 'Could you leave your e-mail so we can follow up?' });
    await card.getByRole('textbox').fill('jane@example.com');
    await card.getByRole('button', { name: 'Send' }).click();
    await card.getByText('✓ jane@example.com').waitFor();
    await waitFor('the thread’s line', () =>
      server.slack.state.replies(widget.channel, c.threadTs).find((m) => m.text.includes('The visitor gave their e-mail j•••@example.com')),
    );

    // The panel was open: it opens again on the reload.
    await page.reload();
    const again = logOf(page).locator('.card', { hasText: 'Could you leave your e-mail so we can follow up?' });
    await again.getByText('✓ jane@example.com').waitFor();
    expect(await again.getByRole('button', { name: 'Send' }).count()).to.equal(0);
    expect(await again.getByRole('textbox').count()).to.equal(0);
    await shot(page, 'email-request-answered');
  });

  it('marks in History which visitors the site proved and which only claimed an identity', async () => {
    const { token } = await signUpUser(server);
    const ceId = await firstWidgetId(server, token);
    await setUpWidget(server, token, ceId);
    await acceptTerms(server, token);
    const { identitySecret } = (await fetch(`${server.url}/v1/chat_endpoints/${ceId}/identity_secret`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${token}` },
    }).then((r) => r.json())) as { identitySecret: string };
    const uuid = (await server.models.ChatEndpoint.findById(ceId).lean())?.Uuid ?? '';
    const visitors = [
      { userId: 'ceo', name: 'Mallory Fake', email: 'ceo@radium.test', userHash: userHashOf('guessed', 'ceo') },
      { userId: 'u-7', name: 'Vera Verified', email: 'vera@radium.test', userHash: userHashOf(identitySecret, 'u-7') },
    ];
    for (const identity of visitors) {
      const { socket } = await VisitorSocket.hello(server, uuid, { identity });
      await sayOnSocket(socket, `Hello, I am ${identity.name}`);
      socket.close();
    }
    const page = browser.page;
    await page.context().addCookies([{ name: 'auth_token', value: token, url: server.url }]);
    await page.goto(`${server.url}/app/#/reports/history`);
    const rows = page.locator('tbody tr');
    await rows.filter({ hasText: 'Mallory Fake' }).locator('.reports__identity', { hasText: 'Unverified' }).waitFor();
    await rows.filter({ hasText: 'Vera Verified' }).locator('.reports__identity', { hasText: 'Verified' }).waitFor();
    expect(await rows.filter({ hasText: 'Mallory Fake' }).locator('.reports__identity').getAttribute('title')).to.include(
      'without a valid userHash',
    );
    await shot(page, 'history-identity-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await rows.filter({ hasText: 'Mallory Fake' }).scrollIntoViewIfNeeded();
    await shot(page, 'history-identity-390');

    // The reminder settings a new widget has: after 5, 15, 30 and 60 minutes, without @here.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${server.url}/app/#/settings/${ceId}/behavior`);
    const pace = page.getByLabel('Remind in the thread after');
    expect(await pace.locator('option:checked').innerText()).to.equal('5, 15, 30 and 60 minutes');
    expect(await page.getByLabel('Mention @here in reminders').isChecked()).to.equal(false);
    await pace.scrollIntoViewIfNeeded();
    await shot(page, 'behavior-reminders-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.getByLabel('Mention @here in reminders').evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await shot(page, 'behavior-reminders-390');
  });
});
