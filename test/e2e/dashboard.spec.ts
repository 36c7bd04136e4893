/**
 * The dashboard through the real UI (browser): the plan limit sends to please-upgrade and the upgrade to the
 * thank-you page, new widgets for a team and a new team, unfinished widgets, the main user swap, banners and
 * the satisfaction prompt. Slack is the sandbox the test server runs.
 */
import path from 'node:path';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { uniqueEmail } from '../factories';
import { startTestServer, useServer } from '../helpers/app';
import { endTrialNow, payCheckout } from '../helpers/billing';
import { picture, RESULTS_DIR, useBrowser } from '../helpers/browser';
import { ACME, ALICE, eventually, setUpWidget } from '../slack/helpers';
import { acceptTerms } from './consoleHelpers';
import { waitFor } from './widgetHelpers';

describe('dashboard (browser)', function () {
  this.timeout(120_000);
  // Declared first, so each test's pages close before its server does. One context for the block (its cache keeps
  // the console's bundles), emptied after each test.
  const browser = useBrowser({ context: 'suite', page: 'suite' });
  // A server (and Slack sandbox) per test: a channel linked to one widget cannot be picked by another.
  const server = useServer({}, startTestServer, 'test');

  const at = (hashPath: string) => `${server.url}/app/#${hashPath}`;

  async function api(method: string, path: string, token?: string): Promise<{ status: number; json: Record<string, unknown> }> {
    const res = await fetch(`${server.url}/v1${path}`, { method, headers: token ? { Authorization: `Bearer ${token}` } : {} });
    const text = await res.text();
    return { status: res.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  }

  /** After the trial (which has Business's channels), paying for Basic: a card saved for it and the trial ended as Stripe does. */
  async function payingForBasic(token: string): Promise<void> {
    const accountId = String((await api('GET', '/users/current', token)).json.accountId);
    await waitFor('the trial in Stripe', async () => (await server.models.Account.findById(accountId))?.stripeSubscriptionId || null);
    const session = await fetch(`${server.url}/v1/accounts/${accountId}/create_checkout_session`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ plan: 'parley_basic_monthly' }),
    });
    const { url } = (await session.json()) as { url: string };
    await fetch((await payCheckout(url)).location, { redirect: 'manual' });
    await endTrialNow(server, accountId);
  }

  /**
   * A user who accepted the terms, signed in in the page, with one widget connected to #support of Acme: set up through
   * the API (Slack's consent and the channel as the setup screens send them; test/e2e/setup.spec.ts drives those screens).
   */
  async function userWithWidget(page: Page): Promise<{ email: string; ceId: string; token: string }> {
    const email = uniqueEmail('dash');
    const res = await fetch(`${server.url}/v1/p/users`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password: 'correct horse battery' }),
    });
    const { token } = (await res.json()) as { token: string };
    await acceptTerms(server, token);
    await page.context().addCookies([{ name: 'auth_token', value: token, url: server.url }]);
    const me = await api('GET', '/users/current', token);
    const ceId = String((me.json.ces as { Id: string }[])[0]?.Id);
    const support = server.slack.state.data.channels.find((channel) => channel.name === 'support');
    await setUpWidget(server, token, ceId, { channel: support?.id });
    return { email, ceId, token };
  }

  /** Opens the dashboard as a person opening the console does: one load that reads the account afresh. */
  async function openDashboard(page: Page): Promise<void> {
    // Within the console a new hash is no new load: the page is reloaded there.
    const inConsole = page.url().startsWith(`${server.url}/app/`);
    await page.goto(at('/'));
    if (inConsole) await page.reload();
  }

  it('shows a widget Offline on the dashboard and in App Home whenever visitors get the offline form: outside hours, trial over', async () => {
    const page = browser.page;
    server.slack.state.setPresence(ALICE, 'active');
    const { ceId, token } = await userWithWidget(page);
    const ce = await server.models.ChatEndpoint.findById(ceId);
    const visitorsSee = async () => {
      const res = await fetch(`${server.url}/widget/api/${ce?.Uuid}/config`);
      return ((await res.json()) as { online: boolean }).online ? 'Online' : 'Offline';
    };
    const dot = async () => {
      // A person opening the console: the page loads the account afresh.
      await openDashboard(page);
      await page.locator(`[data-widget-id="${ceId}"]`).waitFor();
      return page.locator(`[data-widget-id="${ceId}"] .status-dot`).getAttribute('aria-label');
    };
    /** Alice opens App Home: what it says of this widget. */
    const homeSays = async (...parts: string[]) => {
      await server.slack.openAppHome({ teamId: ACME, userId: ALICE });
      await eventually(async () => {
        const text = JSON.stringify(server.slack.state.homeView(ACME, ALICE)?.definition.blocks ?? []);
        for (const part of [`widget_${ceId}`, ...parts]) expect(text).to.include(part);
      });
    };
    const setSettings = async (body: Record<string, unknown>) => {
      const res = await fetch(`${server.url}/v1/chat_endpoints/${ceId}/update_config`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status).to.equal(200);
    };
    expect(await visitorsSee()).to.equal('Online');
    expect(await dot()).to.equal('Online');

    // Operating hours on another day only: visitors get the offline form, and every place says Offline.
    const otherDay = (new Date().getUTCDay() + 3) % 7;
    await setSettings({ tz: 'UTC', onOffSchedule: true, operatingHours: [{ weekday: otherDay, start: 900, end: 1700 }] });
    expect(await visitorsSee()).to.equal('Offline');
    expect(await dot()).to.equal('Offline');
    const dir = path.join(RESULTS_DIR, 'dashboard');
    await picture(page, path.join(dir, 'offline-outside-hours-1280.png'));
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await dot()).to.equal('Offline');
    await page.waitForFunction(() => document.getAnimations().length === 0);
    await picture(page, path.join(dir, 'offline-outside-hours-390.png'));
    await page.setViewportSize({ width: 1280, height: 800 });
    await homeSays('*Offline*', 'outside operating hours');

    await setSettings({ onOffSchedule: false });
    expect(await visitorsSee()).to.equal('Online');
    expect(await dot()).to.equal('Online');

    // The trial ended without a card (the trial's Stripe set-up done first, so it does not write over this).
    const account = await waitFor('the trial in Stripe', () =>
      server.models.Account.findOne({ _id: ce?.accountId, stripeSubscriptionId: { $ne: '' } }).exec(),
    );
    await server.models.Account.updateOne(
      { _id: account._id },
      { $set: { trialEndAt: new Date(Date.now() - 60_000), subscriptionStatus: 'trialing', paymentType: 'none' } },
    );
    expect(await visitorsSee()).to.equal('Offline');
    expect(await dot()).to.equal('Offline');
    await homeSays('*Offline*', 'trial is over');
  });

  it('sends a user at the plan limit to please-upgrade, upgrades to the next plan, then adds a channel to the team', async () => {
    const page = browser.page;
    const { email, token } = await userWithWidget(page);
    await payingForBasic(token);
    await openDashboard(page);

    // Basic, paid for after the trial, has one channel: adding another goes to the upsell, not to a new widget.
    await page.getByRole('button', { name: /Add new channel/ }).click();
    await page.waitForURL(/#\/please-upgrade$/);
    await page.getByRole('heading', { name: 'Time to upgrade?' }).waitFor();
    await page.getByRole('article', { name: 'Your plan: Basic' }).waitFor();
    await page.getByRole('article', { name: 'Next plan: Pro' }).getByText('3 channels').waitFor();
    const user = await server.models.User.findOne({ email });
    expect(await server.models.ChatEndpoint.countDocuments({ accountId: user?.accountId })).to.equal(1);

    await page.getByRole('button', { name: 'Yes, I want to upgrade' }).click();
    // Nothing changes before the price is confirmed.
    const dialog = page.getByRole('dialog', { name: 'Upgrade to Pro?' });
    await dialog
      .getByText(
        'Are you sure? Switching plans will change the amount you will be charged and possibly the features offered by the chosen plan.',
      )
      .waitFor();
    await dialog.getByText('You will be charged $79 a month, starting with the prorated difference today.').waitFor();
    expect((await server.models.Account.findById(user?.accountId))?.planStripeId).to.equal('parley_basic_monthly');
    await dialog.getByRole('button', { name: 'Upgrade to Pro' }).click();
    await page.waitForURL(/#\/thank-you-for-upgrading$/);
    await page.getByRole('heading', { name: 'Thank you for upgrading!' }).waitFor();
    await page.getByText('You are now on the Pro plan.').waitFor();
    const account = await server.models.Account.findById(user?.accountId);
    expect(account?.planStripeId).to.equal('parley_pro_monthly');

    // Now the team gets a second widget, straight at step 2 (Parley is already in that Slack team).
    await page.getByRole('link', { name: 'Go to the dashboard' }).click();
    await page.getByRole('link', { name: /Pro plan/ }).waitFor();
    await page.getByRole('button', { name: /Add new channel/ }).click();
    await page.waitForURL(/#\/setup\/[0-9a-f]{24}$/);
    await page.getByRole('heading', { name: 'Choose the Slack channel for this widget' }).waitFor();
    expect(await server.models.ChatEndpoint.countDocuments({ accountId: user?.accountId, Step: 2 })).to.equal(1);
  });

  it('adds a widget for a new Slack team only once Slack consents, and deletes an unfinished widget after a confirmation', async () => {
    const page = browser.page;
    const { email } = await userWithWidget(page);
    const user = await server.models.User.findOne({ email });
    await server.models.Account.updateOne({ _id: user?.accountId }, { $set: { planStripeId: 'parley_pro_monthly' } });
    await openDashboard(page);
    const widgets = () => server.models.ChatEndpoint.countDocuments({ accountId: user?.accountId });

    // Cancelled at Slack's consent: back on the dashboard with a message, and no stray widget.
    await page.getByRole('button', { name: 'Add a channel to a new Slack Team' }).click();
    await page.waitForURL(/\/sandbox\/slack\/oauth\/v2\/authorize/);
    await page.locator('#sandbox-oauth-cancel').click();
    await page.waitForURL(/#\/\?error=access_denied$/);
    await page.getByText('You cancelled the Slack authorisation, so nothing was added to Slack.').waitFor();
    expect(await widgets()).to.equal(1);
    expect(await page.getByText('New widget').count()).to.equal(0);

    // Allowed: the widget exists from then on, straight at step 2.
    await page.getByRole('button', { name: 'Add a channel to a new Slack Team' }).click();
    await page.locator('#sandbox-oauth-allow').click();
    await page.waitForURL(/#\/setup\/[0-9a-f]{24}$/);
    await page.getByRole('heading', { name: 'Choose the Slack channel for this widget' }).waitFor();
    expect(await widgets()).to.equal(2);

    // An unfinished widget (as sign-up makes) is listed apart and can be deleted.
    const token = await page
      .context()
      .cookies()
      .then((all) => all.find((c) => c.name === 'auth_token')?.value);
    const newId = String((await api('POST', '/chat_endpoints/new', token)).json.Id);
    await openDashboard(page);
    const unlinked = page.getByRole('region', { name: 'Widgets not connected to Slack' });
    await unlinked.getByRole('heading', { name: 'Unfinished widget', exact: true }).waitFor();
    await unlinked.getByText('Finish setup to link this widget to a Slack channel.').waitFor();
    const card = unlinked.locator(`[data-widget-id="${newId}"]`);
    await card.getByRole('link', { name: 'Finish setup' }).waitFor();
    await card.getByRole('img', { name: 'Offline' }).waitFor();
    await card.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete this widget?' }).getByRole('button', { name: 'Delete widget' }).click();
    await page.getByText('Widget deleted.').waitFor();
    // The page reloads a second later without the widget.
    await unlinked.waitFor({ state: 'detached' });
    expect(await server.models.ChatEndpoint.findById(newId)).to.equal(null);
    await page.getByRole('region', { name: 'Slack team Acme' }).getByRole('link', { name: '#support', exact: true }).waitFor();
  });

  it('changes the main Slack user after a confirmation and shows the swapped alert', async () => {
    const page = browser.page;
    const { ceId } = await userWithWidget(page);
    await page.goto(at('/'));
    const team = page.getByRole('region', { name: 'Slack team Acme' });
    await team.getByText('Alice', { exact: true }).waitFor();

    await team.getByRole('button', { name: '(change)' }).click();
    await page.getByRole('dialog', { name: 'Change the main Slack user?' }).getByRole('button', { name: 'Continue to Slack' }).click();
    await page.waitForURL(/\/sandbox\/slack\/oauth\/v2\/authorize/);
    await page.locator('#sandbox-oauth-user').selectOption({ label: 'Bob Baker (@bob)' });
    await page.locator('#sandbox-oauth-allow').click();
    await page.waitForURL(/#\/\?userSwapped=1$/);
    await page.getByText('Successfully swapped main user.').waitFor();
    await team.getByText('Bob', { exact: true }).waitFor();
    expect((await server.models.ChatEndpoint.findById(ceId))?.slackMainUser).to.equal('U0BOB00001');
  });

  it('shows the banners the account calls for', async () => {
    const page = browser.page;
    const { email } = await userWithWidget(page);
    const user = await server.models.User.findOne({ email });
    // Stripe's own news about the new account (its trial) is in first, so it cannot overwrite what follows.
    await server.stripe.settled();
    await server.models.Account.updateOne(
      { _id: user?.accountId },
      {
        $set: {
          delinquent: true,
          quota: { isOverquota: true, reason: '300 conversations this month' },
          trialEndAt: new Date(Date.now() - 3 * 86_400_000),
        },
      },
    );
    await server.models.ChatEndpoint.updateMany({ accountId: user?.accountId }, { $set: { OauthV1: true } });
    await openDashboard(page);
    await page.getByText('You are overquota: 300 conversations this month. Time to upgrade your plan!').waitFor();
    await page.getByText('You account is delinquent. Please update your credit card now.').waitFor();
    await page.getByText('Your trial expired 4 days ago').waitFor();
    const legacy = page.getByRole('status').filter({ hasText: 'Action Required' });
    await legacy.getByRole('link', { name: /Update Slack permissions/ }).click();
    await page.waitForURL(/#\/permissions$/);
    await page.getByRole('heading', { name: 'IMPORTANT' }).waitFor();
  });

  it('shows a widget offline with a reconnect banner after Parley is uninstalled from the Slack team', async () => {
    const page = browser.page;
    const { ceId } = await userWithWidget(page);
    const widget = await server.models.ChatEndpoint.findById(ceId);
    await page.goto(at('/'));
    await page.locator(`[data-widget-id="${ceId}"]`).getByRole('img', { name: 'Online' }).waitFor();

    await server.slack.sendEvent(widget?.slackTeamId ?? '', { type: 'app_uninstalled' }, { retries: 0 });
    await waitFor(
      'the installation marked revoked',
      async () => (await server.models.Installation.findOne({ teamId: widget?.slackTeamId }))?.revokedAt,
    );
    await page.reload();
    const banner = page.getByRole('alert').filter({ hasText: 'Parley was removed from Slack' });
    await banner.getByText(/Parley no longer has access to Acme/).waitFor();
    await page.locator(`[data-widget-id="${ceId}"]`).getByRole('img', { name: 'Offline' }).waitFor();
    await banner.getByRole('link', { name: /Reconnect Slack/ }).click();
    await page.waitForURL(new RegExp(`#/permissions/${ceId}$`));
    await page.getByRole('button', { name: 'Upgrade permissions' }).waitFor();
  });

  it('asks for a 0 to 10 rating when showNPSRating is set, saves it and hides the prompt; dismissing records -1', async () => {
    const page = browser.page;
    const { email } = await userWithWidget(page);
    // The prompt appears once an account is a few weeks old.
    const old = new Date(Date.now() - 30 * 86_400_000);
    await server.models.User.collection.updateOne({ email }, { $set: { createdAt: old } });
    await openDashboard(page);
    const prompt = page.getByRole('region', { name: 'How likely are you to recommend Parley to a friend or colleague?' });
    await prompt.getByRole('button', { name: '8', exact: true }).click();
    await prompt.waitFor({ state: 'detached' });
    expect((await server.models.User.findOne({ email }))?.npsRating).to.equal(8);
    await page.reload();
    await page.getByRole('link', { name: '#support', exact: true }).waitFor();
    expect(await prompt.count()).to.equal(0);

    await server.models.User.collection.updateOne({ email }, { $set: { npsRating: null } });
    await page.reload();
    await prompt.getByRole('button', { name: 'Dismiss' }).click();
    await prompt.waitFor({ state: 'detached' });
    expect((await server.models.User.findOne({ email }))?.npsRating).to.equal(-1);
  });
});
