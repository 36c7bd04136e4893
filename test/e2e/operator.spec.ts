/**
 * An operator in the Slack sandbox's operator page, in Chromium, next to a visitor's widget on the demo site:
 * `/parley off` and `/parley on` typed in the channel switch the open widget between the offline form and the
 * chat, a saved reply sent with `/parley reply N shortcut` appears in the widget, and a DM to the app is answered.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import request from 'supertest';
import { TERMS_VERSION } from '../../server/shared/constants';
import { signUpUser } from '../factories';
import { useServer } from '../helpers/app';
import { useBrowser } from '../helpers/browser';
import { widgetBuilt } from '../helpers/widgetBuild';
import { ACME, ALICE, firstWidgetId, setUpWidget } from '../slack/helpers';
import { threadWith, waitFor } from './widgetHelpers';

type Widget = { uuid: string; ceId: string; channel: string; token: string };

describe('operator in Slack (browser, sandbox operator page and demo site)', function () {
  this.timeout(120_000);
  const server = useServer({ relay: { presenceTtlMs: 100, presenceRefreshMs: 200 } });
  const browser = useBrowser({ context: 'suite' });

  before(async function () {
    this.timeout(60_000);
    await widgetBuilt();
  });

  async function configuredWidget(): Promise<Widget> {
    const user = await signUpUser(server);
    const ceId = await firstWidgetId(server, user.token);
    const channel = await setUpWidget(server, user.token, ceId);
    const ce = await server.models.ChatEndpoint.findById(ceId);
    if (!ce) throw new Error('the widget just set up is gone');
    return { uuid: ce.Uuid, ceId, channel, token: user.token };
  }

  async function openWidget(page: Page, widget: Widget) {
    await page.goto(`${server.demoUrl}/?widget=${widget.uuid}`);
    const host = page.locator('parley-widget');
    await host.locator('.launcher').click();
    return {
      host,
      input: host.getByRole('textbox', { name: 'Message', exact: true }),
      log: host.getByRole('log', { name: 'Messages' }),
    };
  }

  async function operatorPage(widget: Widget): Promise<Page> {
    const page = await browser.newPage();
    await page.goto(`${server.url}/sandbox/slack/?team=${ACME}&user=${ALICE}&channel=${widget.channel}`);
    await page.locator('#op-text').waitFor();
    return page;
  }

  /** Types a slash command in the channel's composer and waits for Parley's answer, only visible to the operator. */
  async function slash(operator: Page, text: string, answer: string): Promise<void> {
    await operator.fill('#op-text', text);
    await operator.press('#op-text', 'Enter');
    await operator.locator('#op-ephemerals .ephemeral', { hasText: answer }).last().waitFor();
  }

  it('/parley off turns the open widget to the offline form and /parley on brings the chat back', async () => {
    const widget = await configuredWidget();
    const panel = await openWidget(browser.page, widget);
    await panel.input.waitFor();

    const operator = await operatorPage(widget);
    await slash(operator, '/parley off', 'You turned the website chat');
    await panel.host.getByText("Sorry, we aren't online at the moment.", { exact: false }).waitFor();
    expect(await panel.input.count()).to.equal(0);
    expect((await server.models.ChatEndpoint.findById(widget.ceId))?.off).to.equal(true);
    await operator.locator('#op-messages', { hasText: 'turned the website chat' }).waitFor();

    await slash(operator, '/parley on', 'You put the website chat back to');
    await panel.input.waitFor();
    expect(await browser.page.evaluate(() => (window as unknown as { parley: { isOnline(): boolean } }).parley.isOnline())).to.equal(true);
  });

  it('sends a saved reply by its shortcut into the visitor’s widget, its Markdown shown as bold and italics', async () => {
    const widget = await configuredWidget();
    await request(server.url)
      .post(`/v1/chat_endpoints/${widget.ceId}/saved_replies`)
      .set('Authorization', `Bearer ${widget.token}`)
      .send({ label: 'Shipping times', response: 'We ship within **2 days** &amp; track _every_ parcel.', shortcut: 'ship' })
      .expect(200);
    // The owner is told how to write bold, italics and links where the reply is written.
    const ce = await server.models.ChatEndpoint.findById(widget.ceId);
    await server.models.User.updateMany({ accountId: ce?.accountId }, { $set: { ActiveTOSPP: TERMS_VERSION } });
    const owner = await browser.newPage();
    await owner.context().addCookies([{ name: 'auth_token', value: widget.token, url: server.url }]);
    await owner.goto(`${server.url}/app/#/settings/${widget.ceId}/saved-replies`);
    await owner.getByRole('button', { name: 'Create new reply' }).click();
    const hint = owner.getByRole('dialog').locator('.field__hint', { hasText: '**bold**' });
    expect(await hint.innerText()).to.equal(
      'Write **bold**, _italic_ and [a link](https://example.com); a bare web address becomes a link too. Line breaks are kept.',
    );
    const panel = await openWidget(browser.page, widget);
    await panel.input.fill('How fast do you ship?');
    await panel.input.press('Enter');
    await panel.log.locator('.msg.visitor:not(.sending)', { hasText: 'How fast do you ship?' }).waitFor();
    const { number } = await waitFor('the conversation with its Slack thread', async () => {
      const c = await server.models.Conversation.findOne({ ceId: widget.ceId });
      return c?.threadTs ? c : undefined;
    });
    expect(number).to.be.greaterThan(0);

    const operator = await operatorPage(widget);
    await slash(operator, `/parley reply ${number} ship`, 'Saved reply sent');
    const reply = panel.log.locator('.msg.operator', { hasText: 'We ship within 2 days & track every parcel.' });
    await reply.waitFor();
    expect(await reply.count()).to.equal(1);
    // Formatting, never the markers: the visitor sees bold and italics, the thread Slack's own *bold* and _italics_.
    await reply.locator('strong', { hasText: '2 days' }).waitFor();
    await reply.locator('em', { hasText: 'every' }).waitFor();
    expect(await reply.innerText()).to.not.match(/[*_]/);
    const thread = await waitFor('the saved reply in the thread', async () => threadWith(server, widget.channel, 'We ship within'));
    expect(thread.replies.map((r) => r.text)).to.include('We ship within *2 days* &amp; track _every_ parcel.');
  });

  it('writes to Parley in its Messages tab and gets its help reply with a link to the console', async () => {
    const widget = await configuredWidget();
    const operator = await operatorPage(widget);
    await operator.getByRole('link', { name: 'Parley — Messages' }).click();
    await operator.locator('#op-channel-topic', { hasText: 'Messages' }).waitFor();
    await operator.fill('#op-text', 'hi Parley, what do you do?');
    await operator.press('#op-text', 'Enter');
    await operator.locator('#op-messages', { hasText: 'hi Parley, what do you do?' }).waitFor();
    const reply = operator.locator('#op-messages .msg', { hasText: '/parley help' });
    await reply.waitFor();
    expect(await reply.getByRole('link', { name: 'open the console' }).getAttribute('href')).to.equal(`${server.url}/app/`);
    expect(server.slack.appDmMessages({ teamId: ACME, userId: ALICE })).to.have.length(2);
  });
});
