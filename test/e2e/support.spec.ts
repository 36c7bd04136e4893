/**
 * White label, phone support and the support chat of issue 23, in Chromium: the widget's "Chat by Parley" footer
 * on plans without white label and the owner's own line on plans with it; the Support page's chat (Parley's own
 * widget, here the first widget set up on the test server, as in development) reaching the team's Slack thread with
 * the customer identified; the support phone number on the Support page and the Account screen of plans with
 * phone support only. Screenshots at 1280×800 and 390×844 land in test-results/support/.
 */
import { expect } from 'chai';
import type { Locator, Page } from 'playwright-core';
import { newIdentitySecret } from '../../server/conversations/identity';
import { planStripeId } from '../../server/shared/plans';
import { VERIFIED_MARK } from '../../server/slack/blocks/thread';
import { signUpUser } from '../factories';
import { useServer } from '../helpers/app';
import { picturesAtBothSizes, useBrowser } from '../helpers/browser';
import { widgetBuilt } from '../helpers/widgetBuild';
import { firstWidgetId, setUpWidget } from '../slack/helpers';
import { acceptTerms } from './consoleHelpers';
import { configuredWidget, threadWith, type Widget, waitFor } from './widgetHelpers';

const PHONE = '+1 415 555 0100';
const BUSINESS = planStripeId('business', 'monthly');

describe('white label, phone support and the support chat (browser)', function () {
  this.timeout(120_000);
  const server = useServer({ support: { firstLocalWidget: true, phone: PHONE } });
  const browser = useBrowser({ context: 'suite' });
  /** The Parley team's own widget: the first one set up on this server. */
  let team: Widget;

  before(async function () {
    this.timeout(60_000);
    await widgetBuilt();
    // The team's widget verifies identities: the Support page's chat comes with a userHash Parley's server signs.
    team = await configuredWidget(server, { identitySecret: newIdentitySecret() });
  });

  type Owner = { ceId: string; uuid: string; token: string; email: string };

  /** A customer (on `plan`, the trial's Basic by default) signed in in `page`, with a widget of their own. */
  async function customer(page: Page, plan?: string): Promise<Owner> {
    const { token, email } = await signUpUser(server);
    const ceId = await firstWidgetId(server, token);
    await setUpWidget(server, token, ceId);
    await acceptTerms(server, token);
    const ce = await server.models.ChatEndpoint.findById(ceId);
    if (!ce) throw new Error('widget gone');
    // A customer after the trial (whose every Business feature would hide the footer), paying for `plan` (Basic by
    // default), once the trial subscription's own webhooks have said 'trialing'.
    await server.stripe.settled();
    await server.models.Account.updateOne(
      { _id: ce.accountId },
      { $set: { subscriptionStatus: 'active', planStripeId: plan ?? planStripeId('basic', 'monthly') } },
    );
    await page.context().addCookies([{ name: 'auth_token', value: token, url: server.url }]);
    return { ceId, uuid: ce.Uuid, token, email };
  }

  const at = (hashPath: string) => `${server.url}/app/#${hashPath}`;

  /** Screenshots at 1280×800 and 390×844 (then back), with `focus` (if any) in the middle of both. */
  const shots = (page: Page, name: string, focus?: Locator) =>
    picturesAtBothSizes(
      page,
      'support',
      name,
      focus && (() => focus.evaluate((el) => el.scrollIntoView({ block: 'center', behavior: 'instant' }))),
    );

  async function openWidget(page: Page, uuid: string) {
    await page.goto(`${server.demoUrl}/?widget=${uuid}`);
    const host = page.locator('parley-widget');
    await host.locator('.launcher').click();
    await host.getByRole('textbox', { name: 'Message', exact: true }).waitFor();
    return host.locator('.foot');
  }

  it("shows 'Chat by Parley' under the chat without white label, and the owner's own line with it", async () => {
    const page = browser.page;
    const o = await customer(page);
    const foot = await openWidget(page, o.uuid);
    const brand = foot.getByRole('link', { name: 'Chat by Parley' });
    await brand.waitFor();
    const href = new URL((await brand.getAttribute('href')) ?? '');
    expect(href.origin + href.pathname).to.equal(`${server.url}/pricing`);
    expect(href.searchParams.get('ref')).to.equal(o.uuid);
    expect(await brand.getAttribute('target')).to.equal('_blank');
    await shots(page, 'footer-basic');

    const setFooter = (footerText: string) =>
      fetch(`${server.url}/v1/chat_endpoints/${o.ceId}/update_config`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${o.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ footerText }),
      }).then(async (res) => ({ status: res.status, body: (await res.json()) as { Message?: string } }));
    const refused = await setFooter('Northwind Coffee, roasted in Leeds');
    expect(refused.status).to.equal(402);
    expect(refused.body.Message).to.equal('Your plan does not have access to white label. Please upgrade.');

    await page.goto(at(`/settings/${o.ceId}/appearance`));
    const field = page.getByLabel('Footer text');
    await field.scrollIntoViewIfNeeded();
    expect(await field.isDisabled()).to.equal(true);
    await page.getByText('Your plan shows a small “Chat by Parley” link under the chat.').waitFor();
    await shots(page, 'appearance-footer-basic', field);

    await server.models.Account.updateOne(
      { _id: (await server.models.ChatEndpoint.findById(o.ceId))?.accountId },
      { $set: { planStripeId: BUSINESS } },
    );
    expect((await setFooter('Northwind Coffee, roasted in Leeds')).status).to.equal(200);
    const own = await openWidget(page, o.uuid);
    await own.getByText('Northwind Coffee, roasted in Leeds').waitFor();
    expect(await own.getByText('Chat by Parley').count()).to.equal(0);
    await shots(page, 'footer-white-label');
    await page.goto(at(`/settings/${o.ceId}/appearance`));
    const ownField = page.getByLabel('Footer text');
    await page.getByText('Your plan shows no Parley link.', { exact: false }).waitFor();
    expect(await ownField.isDisabled()).to.equal(false);
    expect(await ownField.inputValue()).to.equal('Northwind Coffee, roasted in Leeds');
    await shots(page, 'appearance-footer-white-label', ownField);

    // Cleared, the footer is gone altogether.
    expect((await setFooter('')).status).to.equal(200);
    await openWidget(page, o.uuid);
    expect(await page.locator('parley-widget .foot').isHidden()).to.equal(true);
  });

  it("embeds Parley's own chat on the Support page, and a customer's question reaches the team's Slack thread", async () => {
    const page = browser.page;
    const o = await customer(page);
    await page.goto(at('/support'));
    await page.getByRole('heading', { name: 'Chat with us', exact: true }).waitFor();
    const chat = page.locator('#parley-inline parley-widget');
    const input = chat.getByRole('textbox', { name: 'Message', exact: true });
    await input.waitFor();
    // Basic has no phone support: no number anywhere.
    expect(await page.getByText(PHONE).count()).to.equal(0);
    expect(await page.getByRole('heading', { name: 'Contact support' }).count()).to.equal(0);
    await input.fill('How do I move my widget to another channel?');
    await input.press('Enter');
    await chat.locator('.msg.visitor:not(.sending)', { hasText: 'How do I move my widget' }).waitFor();
    const thread = await waitFor('the question in the team thread', () =>
      threadWith(server, team.channel, 'How do I move my widget to another channel?'),
    );
    // The customer is identified, and verified: the thread header names them by their e-mail address, marked verified.
    expect(JSON.stringify(thread.parent)).to.contain(o.email);
    expect(JSON.stringify(thread.parent)).to.contain(VERIFIED_MARK);
    await shots(page, 'support-chat');

    // Another screen and back: the same chat, not a second one.
    await page.goto(at('/account'));
    await page.getByRole('heading', { name: 'Manage your account' }).waitFor();
    await page.goto(at('/support'));
    await chat.locator('.msg.visitor', { hasText: 'How do I move my widget' }).waitFor();
    expect(await page.locator('parley-widget').count()).to.equal(1);
  });

  it('shows the support phone number on the Support page and the Account screen of plans with phone support', async () => {
    const page = browser.page;
    await customer(page, BUSINESS);
    await page.goto(at('/support'));
    const call = page.getByRole('link', { name: /Call us/ });
    await call.waitFor();
    expect(await call.getAttribute('href')).to.equal('tel:+14155550100');
    expect(await call.textContent()).to.contain(PHONE);
    await page.locator('#parley-inline parley-widget').getByRole('textbox', { name: 'Message', exact: true }).waitFor();
    await shots(page, 'support-phone');

    await page.goto(at('/account'));
    const section = page.getByRole('region', { name: 'Phone support' });
    await section.waitFor();
    expect(await section.textContent()).to.contain(`Call ${PHONE}: phone support is part of your Business plan.`);
    await shots(page, 'account-phone', section);
  });
});

describe('the Support page without a support widget (browser)', function () {
  this.timeout(120_000);
  const server = useServer();
  const browser = useBrowser({ context: 'suite' });

  it('offers the docs and the mail form, as before', async () => {
    const page = browser.page;
    const { token } = await signUpUser(server);
    await acceptTerms(server, token);
    await page.context().addCookies([{ name: 'auth_token', value: token, url: server.url }]);
    await page.goto(`${server.url}/app/#/support`);
    await page.getByRole('heading', { name: 'Contact support' }).waitFor();
    expect(await page.getByRole('link', { name: /Email us/ }).count()).to.equal(1);
    expect(await page.locator('parley-widget').count()).to.equal(0);
  });
});
