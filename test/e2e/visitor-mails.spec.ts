/**
 * What a visitor reads outside the chat, in Chromium: a French browser in Paris sees the widget's own lines in
 * French (the "Chat by Parley" footer, the screenshot request's answer) and gets the reply it missed in
 * French, from the site's sender name, in the widget's colours, with the operator's picture at an https address of
 * Parley's and links that keep their target in the text part; its transcript is dated in Paris time. The dev outbox
 * shows each mail's HTML (sandboxed) beside its text. The mails in French, Arabic and Hebrew (right to left) and Japanese are
 * rendered at a desktop and a phone width and photographed (test-results/widget/mail-*.png).
 */
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { requestScreenshot } from '../../server/commands/screenshots';
import { mailTranscript } from '../../server/commands/visitorFrames';
import { visitorMailLanguage } from '../../server/conversations/widgetLanguage';
import { unseenRepliesMail } from '../../server/mail/templates';
import { MAIL_TEXTS } from '../../server/mail/texts';
import { CHAT_ENDPOINT_DEFAULTS } from '../../server/models/ChatEndpoint';
import { mailUnseenReplies } from '../../server/relay';
import { planStripeId } from '../../server/shared/plans';
import { BUILT_IN_TEXTS } from '../../server/shared/widget-texts/all';
import { signUpUser } from '../factories';
import { startRelayServer, type TestServer } from '../helpers/app';
import { axeViolations, describeViolations } from '../helpers/axe';
import { picture, RESULTS_DIR, useBrowser } from '../helpers/browser';
import { widgetBuilt } from '../helpers/widgetBuild';
import { ACME, ALICE, firstWidgetId, setUpWidget } from '../slack/helpers';
import { acceptTerms } from './consoleHelpers';
import { configuredWidget, shot, threadWith, waitFor } from './widgetHelpers';

const MINUTE = 60_000;
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

describe('visitor mails in their language, under the site name (browser)', function () {
  this.timeout(120_000);
  let server: TestServer;
  const browser = useBrowser({ context: 'suite' });
  const contexts: BrowserContext[] = [];

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
  afterEach(async () => {
    for (const c of contexts.splice(0)) await c.close().catch(() => undefined);
  });

  /** A browser of its own: its language and time zone, as a visitor's machine has them. */
  async function visitorPage(locale: string, timezoneId: string): Promise<Page> {
    const chromium = browser.context.browser() as Browser;
    const context = await chromium.newContext({ locale, timezoneId, viewport: DESKTOP });
    contexts.push(context);
    return context.newPage();
  }

  it('mails a French visitor in Paris the reply they missed in French, from the site, and the outbox shows it as they see it', async () => {
    const widget = await configuredWidget(server, {
      requireInfo: true,
      onlineTitle: 'Northwind Coffee',
      titleColor: '#7c2d12',
      titleFontColor: '#fef3c7',
      senderName: 'Northwind',
      sendOpJoinAutoResponse: true,
      textOverrides: { fr: { onlineTitle: 'Café Northwind' } },
    });
    const fr = BUILT_IN_TEXTS.fr;
    // A customer on Basic after the trial: the widget shows its "Chat by Parley" line.
    await server.stripe.settled();
    const { accountId } = await server.models.ChatEndpoint.findById(widget.ceId).orFail();
    await server.models.Account.updateOne(
      { _id: accountId },
      { $set: { subscriptionStatus: 'active', planStripeId: planStripeId('basic', 'monthly') } },
    );
    const address = `jeanne.${Date.now()}@example.com`;
    const page = await visitorPage('fr-FR', 'Europe/Paris');
    await page.goto(`${server.demoUrl}/?widget=${widget.uuid}`);
    const w = page.locator('parley-widget');
    await w.locator('.launcher').click();
    await w.getByLabel(fr.ui.name).fill('Jeanne');
    await w.getByLabel(fr.ui.email, { exact: true }).fill(address);
    await w.getByRole('button', { name: fr.requireInfoSubmitBtn }).click();
    const input = w.getByRole('textbox', { name: fr.ui.message, exact: true });
    await input.fill('Livrez-vous à Lyon ?');
    await input.press('Enter');
    await w.locator('.msg.visitor:not(.sending)', { hasText: 'Livrez-vous à Lyon ?' }).waitFor();
    const thread = await waitFor('the Slack thread', () => threadWith(server, widget.channel, 'Livrez-vous à Lyon ?'));
    // The widget's own lines are French too: its footer and an operator's screenshot request.
    await w.locator('.foot').getByRole('link', { name: fr.ui.poweredBy }).waitFor();
    const conversation = await server.models.Conversation.findOne({ ceId: widget.ceId }).orFail();
    await requestScreenshot(server.parley.relay, conversation, ALICE);
    const card = w.locator('.card.shot');
    await card.getByText(fr.requestScreenshotText).waitFor();
    await shot(page, 'widget-french-screenshot-request');
    await card.getByRole('button', { name: fr.requestScreenshotDeclineLabel }).click();
    await w.getByText(fr.ui.shotDeclined).waitFor();
    await page.close();

    // The browser told its language and time zone at hello.
    const visitor = await server.models.Visitor.findOne({ ceId: widget.ceId, email: address }).lean().orFail();
    expect(visitor.locale).to.equal('fr-FR');
    expect(visitor.timeZone).to.equal('Europe/Paris');

    await server.slack.postAsUser({
      teamId: ACME,
      userId: ALICE,
      channelId: widget.channel,
      threadTs: thread.parent.ts,
      text: 'Oui ! Commandez ici : <https://shop.example/commande|notre boutique>',
    });
    await waitFor('the wait of the reply', async () =>
      (await server.models.Conversation.findOne({ ceId: widget.ceId }).lean())?.unseenMailAt ? true : undefined,
    );
    await mailUnseenReplies(server.parley.relay, new Date(Date.now() + 3 * MINUTE));
    const mail = await waitFor('the mail', async () => (await server.outbox.list()).find((m) => m.to === address));
    // The chat's system line for the operator who joined waits for the visitor in French.
    // (It is stored with the reply's first-answer bookkeeping, which may finish after the reply's mail wait started.)
    const joined = await waitFor('the joined line', () =>
      server.models.Message.findOne({ conversationId: conversation._id, from: 'system', kind: 'msg' }).lean(),
    );
    expect(joined.text).to.equal('Alice a rejoint la conversation.');

    // The site is the host of the page the chat was on (the demo site's here).
    expect(mail.subject).to.equal(`Alice a répondu à votre discussion sur ${new URL(server.demoUrl).hostname}`);
    expect(mail.from).to.match(/^Northwind </);
    expect(mail.replyTo?.name).to.equal('Northwind');
    expect(mail.text).to.include('notre boutique (https://shop.example/commande)');
    expect(mail.text).to.include('Vous\u00a0: Livrez-vous à Lyon ?');
    const avatar = /<img src="([^"]+)"/.exec(mail.html)?.[1] ?? '';
    expect(avatar).to.match(new RegExp(`^${server.url}/mail/avatar/[0-9a-f]{24}$`));
    expect(mail.html).to.not.include('src="data:');
    const picture = await fetch(avatar, { redirect: 'manual' });
    expect(picture.status === 200 || picture.status === 302, `avatar answered ${picture.status}`).to.equal(true);
    if (picture.status === 200) expect(picture.headers.get('content-type')).to.match(/^image\//);

    // The dev outbox: the text beside the HTML the visitor sees, in a sandboxed frame.
    const outbox = await browser.newPage({ viewport: DESKTOP });
    await outbox.goto(`${server.url}/dev/outbox`);
    const entry = outbox.locator('.mail', { hasText: address });
    await entry.locator('pre', { hasText: 'notre boutique (https://shop.example/commande)' }).waitFor();
    const frame = entry.frameLocator('iframe.html');
    await frame.getByRole('link', { name: 'Continuer la discussion sur le site' }).waitFor();
    await frame.getByText('Café Northwind').waitFor();
    await frame.getByText('Plus tôt dans la conversation').waitFor();
    expect(await frame.getByRole('link', { name: 'notre boutique' }).getAttribute('href')).to.equal('https://shop.example/commande');
    expect(await entry.locator('iframe.html').getAttribute('sandbox')).to.not.include('allow-scripts');
    await entry.scrollIntoViewIfNeeded();
    const violations = await axeViolations(outbox);
    expect(violations, describeViolations(violations)).to.deep.equal([]);
    await shot(outbox, 'outbox-mail-html');
    await outbox.setViewportSize(PHONE);
    await entry.locator('iframe.html').scrollIntoViewIfNeeded();
    await shot(outbox, 'outbox-mail-html-phone');

    // The transcript the visitor asks for is dated in Paris time, in French.
    const ce = await server.models.ChatEndpoint.findById(widget.ceId).orFail();
    await mailTranscript(server.parley.relay, { visitorId: visitor._id, ce, email: address });
    const transcript = await waitFor('the transcript', async () =>
      (await server.outbox.list()).find((m) => m.to === address && m.subject.startsWith('Transcription')),
    );
    const sentAt = await server.models.Message.findOne({ text: 'Livrez-vous à Lyon ?' }).orFail();
    const paris = new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris', hour: '2-digit', minute: '2-digit' }).format(
      sentAt.createdAt,
    );
    expect(transcript.text).to.match(new RegExp(`\\[[^\\]]*${paris} UTC\\+1\\] Vous\u00a0: Livrez-vous à Lyon \\?`));
    expect(transcript.from).to.match(/^Northwind </);
  });

  it('renders the mails in French, Arabic and Hebrew (right to left) and Japanese at a desktop and a phone width', async () => {
    // A new widget's texts: each language gets Parley's translation of the stock title.
    const ce = { ...CHAT_ENDPOINT_DEFAULTS };
    for (const locale of ['fr-FR', 'ar', 'he', 'ja']) {
      const { language, texts } = visitorMailLanguage(ce, { locale, timeZone: 'Asia/Tokyo' });
      const mail = await unseenRepliesMail({
        to: 'v@example.com',
        sender: { name: 'Northwind', title: texts.onlineTitle, titleColor: '#0f766e', titleFontColor: '#ffffff' },
        language,
        site: 'shop.example',
        operator: { name: 'Alice', avatarUrl: `${server.url}/avatars/visitor/alice.png` },
        replies: [
          {
            who: 'Alice',
            text: 'Order here: our shop',
            html: 'Order here: <a href="https://shop.example/order">our shop</a>, or <b>call us</b>.',
            files: [],
          },
        ],
        context: [{ who: texts.browserSideAuthorLabel, text: 'Do you ship abroad?', html: '', files: [] }],
        openUrl: 'https://shop.example/#parley-open=1',
        unsubscribeUrl: 'https://parley.example/mail/unsubscribe/x',
        replyTo: 'reply+x@parley.example',
      });
      const page = await browser.newPage({ viewport: DESKTOP });
      await page.setContent(mail.html);
      expect(await page.locator('html').getAttribute('dir')).to.equal(locale === 'ar' || locale === 'he' ? 'rtl' : 'ltr');
      // The card's text runs in the language's direction (MJML's sections are left to right unless told).
      const direction = await page.getByText(MAIL_TEXTS[language.locale].answerHint).evaluate((el) => getComputedStyle(el).direction);
      expect(direction, locale).to.equal(locale === 'ar' || locale === 'he' ? 'rtl' : 'ltr');
      await page.getByRole('link', { name: MAIL_TEXTS[language.locale].continueButton }).waitFor();
      await page.getByText(MAIL_TEXTS[language.locale].earlier).waitFor();
      await shot(page, `mail-unseen-${locale}`);
      await page.setViewportSize(PHONE);
      // Nothing is wider than a phone: no sideways scrolling.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(PHONE.width);
      await shot(page, `mail-unseen-${locale}-phone`);
    }
  });

  it('lets the owner name the sender of visitor mails in Appearance, one line of at most 60 characters', async () => {
    const { token } = await signUpUser(server);
    const ceId = await firstWidgetId(server, token);
    await setUpWidget(server, token, ceId);
    await acceptTerms(server, token);
    const page = browser.page;
    await page.context().addCookies([{ name: 'auth_token', value: token, url: server.url }]);
    await page.goto(`${server.url}/app/#/settings/${ceId}/appearance`);
    const field = page.getByLabel('Sender name of mails to visitors');
    // The field takes no more than the API does.
    await field.fill('x'.repeat(61));
    expect(await field.inputValue()).to.have.length(60);
    await field.fill('Northwind Coffee Roasters');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByRole('button', { name: 'Saved' }).waitFor();
    expect((await server.models.ChatEndpoint.findById(ceId).lean())?.senderName).to.equal('Northwind Coffee Roasters');
    await field.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    const dir = path.join(RESULTS_DIR, 'settings');
    await picture(page, path.join(dir, 'appearance-sender-name-1280.png'));
    await page.setViewportSize(PHONE);
    await field.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    await picture(page, path.join(dir, 'appearance-sender-name-390.png'));
  });
});
