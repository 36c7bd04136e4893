/**
 * The README's help-center step, as a newcomer walks it in Chromium: write and publish an article in the console's
 * Answers tab, see it suggested in the widget on the demo site while typing, send the question, and send the article
 * from the Suggested post of the Slack thread on the sandbox's operator page; the visitor gets it.
 */
import { expect } from 'chai';
import { signUpUser } from '../factories';
import { useServer } from '../helpers/app';
import { useBrowser } from '../helpers/browser';
import { widgetBuilt } from '../helpers/widgetBuild';
import { ACME, firstWidgetId, setUpWidget } from '../slack/helpers';
import { acceptTerms } from './consoleHelpers';
import { shot, threadWith, waitFor } from './widgetHelpers';

const DESKTOP = { width: 1280, height: 800 };

describe("README's help center step (browser)", function () {
  this.timeout(180_000);
  const server = useServer();
  const browser = useBrowser();

  before(async function () {
    this.timeout(90_000);
    await widgetBuilt();
  });

  it('writes an article in the console, sees it suggested in the widget and sends it from the Slack thread', async () => {
    const { token } = await signUpUser(server);
    const ceId = await firstWidgetId(server, token);
    const channel = await setUpWidget(server, token, ceId);
    await acceptTerms(server, token);
    const console = browser.page;
    await console.context().addCookies([{ name: 'auth_token', value: token, url: server.url }]);

    // Settings → Answers: write the article and publish it.
    await console.goto(`${server.url}/app/#/settings/${ceId}/answers`);
    await console.getByRole('heading', { name: 'Write your first article' }).waitFor();
    await console.getByRole('button', { name: 'New article' }).click();
    await console.getByLabel('Title').fill('Shipping to Lisbon and Porto');
    await console.getByLabel('Body').fill('We ship to **Lisbon** and **Porto** every Tuesday. Parcels arrive within three days.');
    await console.locator('.answers-editor__rendered strong', { hasText: 'Lisbon' }).waitFor();
    await console.getByRole('button', { name: 'Publish' }).click();
    await console.getByRole('row', { name: /Shipping to Lisbon and Porto/ }).waitFor();
    await shot(console, 'walkthrough-help-center-console');

    // The demo site: the article is suggested while the visitor types, then the question is sent.
    const ce = await server.models.ChatEndpoint.findById(ceId);
    if (!ce) throw new Error('no widget');
    const visitor = await browser.newPage({ viewport: DESKTOP, locale: 'en-US' });
    await visitor.goto(`${server.demoUrl}/?widget=${ce.Uuid}`);
    const widget = visitor.locator('parley-widget');
    await widget.locator('.launcher').click();
    const input = widget.locator('.composer textarea');
    await input.focus();
    await visitor.keyboard.type('Do you ship to Porto?');
    await widget.locator('.answers .hit', { hasText: 'Shipping to Lisbon and Porto' }).waitFor();
    await shot(visitor, 'walkthrough-help-center-suggested');
    await input.press('Enter');
    await widget.locator('.msg.visitor:not(.sending)', { hasText: 'Do you ship to Porto?' }).waitFor();

    // The Slack sandbox's operator page: the thread's Suggested post sends the article to the visitor.
    const thread = await waitFor('the thread', () => threadWith(server, channel, 'Do you ship to Porto?'));
    const slack = await browser.newPage({ viewport: DESKTOP });
    await slack.goto(`${server.url}/sandbox/slack/?team=${ACME}&channel=${channel}&thread=${thread.parent.ts}`);
    const suggested = slack.locator('#op-thread .msg', { hasText: 'Suggested' });
    await suggested.waitFor();
    expect(await suggested.innerText()).to.include('Shipping to Lisbon and Porto');
    await shot(slack, 'walkthrough-help-center-slack');
    await suggested.locator('[data-kind="button"]', { hasText: 'Send' }).first().click();

    // The visitor gets it as a card (title and a line of the article) that opens inside the chat panel.
    const card = widget.locator('.msg.operator .hit', { hasText: 'Shipping to Lisbon and Porto' });
    await card.waitFor();
    expect(await card.innerText()).to.include('every Tuesday');
    await shot(visitor, 'walkthrough-help-center-sent');
    await card.click();
    const article = widget.getByRole('region', { name: 'Shipping to Lisbon and Porto' });
    await article.locator('strong', { hasText: 'Porto' }).waitFor();
  });
});
