/**
 * Billing as a customer goes through it, in Chromium against the Stripe sandbox: paying a trial through
 * Checkout, a declined card, the annual switch, cancelling in the portal, and (with the sandbox clock moved
 * past the trial and the renewal) the expired trial's offline widget and the delinquent banner.
 */
import { expect } from 'chai';
import type { Locator, Page } from 'playwright-core';
import request from 'supertest';
import { createSession } from '../../server/commands/sessions';
import { TERMS_VERSION } from '../../server/shared/constants';
import { useServer } from '../helpers/app';
import { endTrialNow, payCheckout, type TrialAccount, trialAccount } from '../helpers/billing';
import { picturesAtBothSizes, useBrowser } from '../helpers/browser';
import { configuredWidget, waitFor } from './widgetHelpers';

const DAY = 24 * 60 * 60;

describe('billing in the browser', function () {
  this.timeout(120_000);
  const browser = useBrowser({ context: 'suite', page: 'suite' });
  const server = useServer();

  const at = (hashPath: string) => `${server.url}/app/#${hashPath}`;

  /** A trial account whose user accepted the terms, signed in on `page`. */
  const signedInTrial = async (page: Page): Promise<TrialAccount> => {
    const trial = await trialAccount(server);
    await server.models.User.updateOne({ _id: trial.userId }, { $set: { ActiveTOSPP: TERMS_VERSION } });
    await page.context().addCookies([{ name: 'auth_token', value: trial.token, url: server.url }]);
    return trial;
  };

  const fillCard = async (page: Page, card: string) => {
    await page.locator('#cardnumber').fill(card);
    await page.locator('#expiry').fill('12 / 34');
    await page.locator('#cvc').fill('123');
    await page.locator('#name').fill('Ada Admin');
  };

  /** Reloads the account screen until `text` shows: Stripe's webhook may land just after the browser came back. */
  const accountShows = async (page: Page, text: string | RegExp) => {
    await waitFor(`the account screen to show ${String(text)}`, async () => {
      await page.goto(at('/account'));
      await page.getByRole('heading', { name: 'Manage your account' }).waitFor();
      return (await page.getByText(text).count()) > 0 ? true : null;
    });
  };

  const planTile = (page: Page, label: string) => page.getByRole('article', { name: `${label} plan` });

  it('saves a card on Checkout with 4242 during the trial, thanks, then shows the plan, the card and the first charge at the trial end', async () => {
    const page = browser.page;
    const trial = await signedInTrial(page);
    await page.goto(at('/account'));
    await planTile(page, 'Basic').getByRole('button', { name: 'Current plan' }).waitFor();
    await planTile(page, 'Pro').getByRole('button', { name: 'Choose Plan' }).click();

    await page.waitForURL(/\/sandbox\/stripe\/checkout\/cs_/);
    await fillCard(page, '4242 4242 4242 4242');
    await page.locator('#checkout-submit').click();

    await page.waitForURL(/#\/thank-you-for-upgrading$/);
    await page.getByText('You are now on the Pro plan.').waitFor();
    await page.getByText(/^Your card is saved: its first charge is on .+, when your trial ends\.$/).waitFor();
    await page.getByRole('link', { name: 'Account settings' }).click();
    await planTile(page, 'Pro').getByRole('button', { name: 'Current plan' }).waitFor();
    await page.getByText('Pro plan · free trial').waitFor();
    const billing = page.getByRole('region', { name: 'Billing Info' });
    await billing.getByText('•••• 4242').waitFor();
    await billing.getByText('12/2034').waitFor();
    await billing.getByText(/^First charge on .+, when your trial ends\.$/).waitFor();
    const invoices = page.getByRole('region', { name: 'Recent Invoices' });
    await invoices.getByText(/Next invoice: \$79 on/).waitFor();
    expect(await invoices.getByRole('cell', { name: '$79' }).count()).to.equal(0);
    expect((await server.models.Account.findById(trial.accountId))?.planStripeId).to.equal('parley_pro_monthly');
  });

  it('shows the decline on Checkout and changes nothing when the card is declined', async () => {
    const page = browser.page;
    const trial = await signedInTrial(page);
    await page.goto(at('/account'));
    await planTile(page, 'Business').getByRole('button', { name: 'Choose Plan' }).click();
    await page.waitForURL(/\/sandbox\/stripe\/checkout\/cs_/);
    await fillCard(page, '4000 0000 0000 0002');
    await page.locator('#checkout-submit').click();
    await page.locator('#checkout-error').getByText('Your card was declined.').waitFor();

    await page.goto(at('/account'));
    await planTile(page, 'Basic').getByRole('button', { name: 'Current plan' }).waitFor();
    await page.getByRole('region', { name: 'Billing Info' }).getByText('No payment method on file.').waitFor();
    const account = await server.models.Account.findById(trial.accountId);
    expect(account).to.include({ planStripeId: 'parley_basic_monthly', paymentType: 'none', subscriptionStatus: 'trialing' });
  });

  /**
   * A paying account on the Basic plan, signed in on `page` at the account screen, after adding a 4242 card through
   * Checkout (its page posted without the browser: the tests above drive it in one) and its trial's end.
   */
  const payingAccount = async (page: Page): Promise<TrialAccount> => {
    const trial = await signedInTrial(page);
    const { body } = await request(server.url)
      .post(`/v1/accounts/${trial.accountId}/create_checkout_session`)
      .set('Authorization', `Bearer ${trial.token}`)
      .send({ plan: 'parley_basic_monthly' })
      .expect(200);
    const paid = await payCheckout(body.url);
    expect(paid.location).to.match(/\/v1\/billing\/checkout-return\?session_id=cs_/);
    await fetch(paid.location, { redirect: 'manual' });
    // The card is charged at the trial's end: end it now, as Stripe's trial_end=now does.
    await endTrialNow(server, trial.accountId);
    await page.goto(at('/account'));
    await page.getByText('Basic plan · in good standing').waitFor();
    return trial;
  };

  it('switches to the annual plan after the confirmation, charging the prorated difference', async () => {
    const page = browser.page;
    const paying = await payingAccount(page);
    // The billing period is a tab list: the arrow keys move the choice, as a click does.
    const period = page.getByRole('tablist', { name: 'Billing period' });
    await period.getByRole('tab', { name: 'Monthly', selected: true }).focus();
    await page.keyboard.press('ArrowRight');
    await period.getByRole('tab', { name: 'Annually', selected: true }).waitFor();
    expect(await period.getByRole('tab', { name: 'Annually' }).evaluate((tab) => tab === document.activeElement)).to.equal(true);
    await planTile(page, 'Basic').getByRole('button', { name: 'Switch to annual' }).click();
    const dialog = page.getByRole('dialog');
    await dialog
      .getByText(
        'Are you sure? Switching plans will change the amount you will be charged and possibly the features offered by the chosen plan.',
      )
      .waitFor();
    await dialog.getByText('$319').waitFor();
    expect((await server.models.Account.findById(paying.accountId))?.planStripeId).to.equal('parley_basic_monthly');
    await dialog.getByRole('button', { name: 'Switch to annual' }).click();
    await page.getByText('Successfully updated account plan.').waitFor();
    await planTile(page, 'Basic').getByRole('button', { name: 'Current plan' }).waitFor();
    expect((await server.models.Account.findById(paying.accountId))?.planStripeId).to.equal('parley_basic_yearly');
    await page.getByRole('region', { name: 'Recent Invoices' }).getByRole('cell', { name: 'Basic plan, yearly' }).waitFor();
  });

  it('cancels in the portal; the webhook brings the account to "subscription canceled and will end on {date}"', async () => {
    const page = browser.page;
    const paying = await payingAccount(page);
    await page.getByRole('button', { name: 'Cancel subscription' }).click();
    await page.waitForURL(/\/sandbox\/stripe\/portal\/.*\/cancel/);
    await page.locator('#portal-cancel-confirm').click();
    await page.waitForURL(/\/app\/#\/account/);
    const account = await waitFor('the cancellation from the webhook', async () => {
      const found = await server.models.Account.findById(paying.accountId);
      return found?.cancelAt ? found : null;
    });
    const date = (account.cancelAt as Date).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
    await accountShows(page, `subscription canceled and will end on ${date}`);
    await page.getByRole('button', { name: 'Renew subscription' }).waitFor();
  });

  /** Pictures of what the person sees, at 1280×800 and 390×844 (test-results/billing/). */
  const pictures = (page: Page, name: string, shown?: Locator) =>
    picturesAtBothSizes(page, 'billing', name, shown && (() => shown.scrollIntoViewIfNeeded()));

  it('comes back from a checkout Stripe does not have to the account screen, saying it was not completed', async () => {
    const page = browser.page;
    await signedInTrial(page);
    await page.goto(`${server.url}/v1/billing/checkout-return?session_id=cs_test_a1NoSuchSession`);
    await page.waitForURL(/#\/account\?checkout=not_completed$/);
    await page.getByText('That checkout was not completed. Nothing was charged.').waitFor();
    await planTile(page, 'Basic').getByRole('button', { name: 'Current plan' }).waitFor();
    await pictures(page, 'checkout-not-completed');
  });

  it("keeps the second Checkout's plan when the first checkout's event arrives after it", async () => {
    const page = browser.page;
    const trial = await signedInTrial(page);
    // After the trial, Checkout subscribes (during it, it only saves the card).
    await endTrialNow(server, trial.accountId);
    await server.stripe.settled();
    // Parley's endpoint takes no event for a while (it answered 503): Stripe retries them later.
    server.stripe.holdWebhooks();
    try {
      await page.goto(at('/account'));
      await planTile(page, 'Pro').getByRole('button', { name: 'Choose Plan' }).click();
      await page.waitForURL(/\/sandbox\/stripe\/checkout\/cs_/);
      await fillCard(page, '4242 4242 4242 4242');
      await page.locator('#checkout-submit').click();
      await page.getByText('You are now on the Pro plan.').waitFor();
      const { body } = await request(server.url)
        .post(`/v1/accounts/${trial.accountId}/create_checkout_session`)
        .set('Authorization', `Bearer ${trial.token}`)
        .send({ plan: 'parley_business_monthly' })
        .expect(200);
      await page.goto(body.url);
      await fillCard(page, '4242 4242 4242 4242');
      await page.locator('#checkout-submit').click();
      await page.getByText('You are now on the Business plan.').waitFor();
    } finally {
      server.stripe.releaseWebhooks();
    }
    await server.stripe.settled();
    // A fresh load of the console, which reads the account again.
    await page.goto('about:blank');
    await accountShows(page, 'Business plan · in good standing');
    await planTile(page, 'Business').getByRole('button', { name: 'Current plan' }).waitFor();
    expect(await server.models.Account.findById(trial.accountId)).to.include({
      planStripeId: 'parley_business_monthly',
      subscriptionStatus: 'active',
    });
  });

  it("shows the next charge less the downgrade's credit", async () => {
    const page = browser.page;
    const trial = await signedInTrial(page);
    await endTrialNow(server, trial.accountId);
    const { body } = await request(server.url)
      .post(`/v1/accounts/${trial.accountId}/create_checkout_session`)
      .set('Authorization', `Bearer ${trial.token}`)
      .send({ plan: 'parley_business_monthly' })
      .expect(200);
    await page.goto(body.url);
    await fillCard(page, '4242 4242 4242 4242');
    await page.locator('#checkout-submit').click();
    await page.getByText('You are now on the Business plan.').waitFor();
    await page.goto(at('/account'));
    const invoices = page.getByRole('region', { name: 'Recent Invoices' });
    await invoices.getByText(/Next invoice: \$199 on/).waitFor();

    await planTile(page, 'Pro').getByRole('button', { name: 'Downgrade' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Downgrade' }).click();
    await page.getByText('Successfully updated account plan.').waitFor();
    await planTile(page, 'Pro').getByRole('button', { name: 'Current plan' }).waitFor();
    // About $120 of Business's month is unused: the next month of Pro ($79) is covered by it.
    await invoices.getByText(/Next invoice: \$0 on/).waitFor();
    // The downgrade's invoice is that credit.
    await invoices.getByRole('cell', { name: /^-\$1[12]\d$/ }).waitFor();
    await pictures(page, 'next-invoice-after-downgrade', invoices);
  });

  it('offers the ended plan again once the subscription is canceled, and Checkout brings it back', async () => {
    const page = browser.page;
    const paying = await payingAccount(page);
    const account = await server.models.Account.findById(paying.accountId);
    // Canceled at once, as from Stripe's dashboard.
    await server.parley.billing.stripe.subscriptions.cancel(account?.stripeSubscriptionId ?? '');
    await waitFor('the cancellation from the webhook', async () =>
      (await server.models.Account.findById(paying.accountId))?.subscriptionStatus === 'canceled' ? true : null,
    );
    await page.goto('about:blank');
    await accountShows(page, /Basic plan · subscription ended on/);
    await planTile(page, 'Basic').getByRole('button', { name: 'Choose Plan' }).waitFor();
    await planTile(page, 'Pro').getByRole('button', { name: 'Choose Plan' }).waitFor();
    expect(await page.getByRole('button', { name: 'Current plan' }).count()).to.equal(0);
    await pictures(page, 'plans-after-cancellation', planTile(page, 'Basic').getByRole('button', { name: 'Choose Plan' }));

    await planTile(page, 'Basic').getByRole('button', { name: 'Choose Plan' }).click();
    await page.waitForURL(/\/sandbox\/stripe\/checkout\/cs_/);
    await fillCard(page, '4242 4242 4242 4242');
    await page.locator('#checkout-submit').click();
    await page.waitForURL(/\/app\/#\/account/);
    await page.getByText('Basic plan · in good standing').waitFor();
    await planTile(page, 'Basic').getByRole('button', { name: 'Current plan' }).waitFor();
  });

  describe('once the sandbox clock passes the trial and a renewal', () => {
    let expired: TrialAccount & { uuid: string };
    let failing: TrialAccount;

    before(async function () {
      this.timeout(90_000);
      // A trial with a live widget and no card, and a paying account whose card takes no charges (0341).
      const widget = await configuredWidget(server);
      const ce = await server.models.ChatEndpoint.findById(widget.ceId);
      const owner = await server.models.User.findById(ce?.userId);
      await server.models.User.updateOne({ _id: owner?._id }, { $set: { ActiveTOSPP: TERMS_VERSION } });
      const account = await waitFor('the widget trial in Stripe', async () => {
        const found = await server.models.Account.findById(ce?.accountId);
        return found?.stripeSubscriptionId ? found : null;
      });
      expired = {
        uuid: widget.uuid,
        token: await createSession(server.models, server.config.jwtSecret, owner?._id ?? account._id),
        email: owner?.email ?? '',
        password: '',
        accountId: account.id,
        userId: owner?.id ?? '',
        customerId: account.stripeCustomerId,
      };
      // Paid through Checkout's page without a browser: this hook has no page of its own.
      failing = await trialAccount(server);
      const { body } = await request(server.url)
        .post(`/v1/accounts/${failing.accountId}/create_checkout_session`)
        .set('Authorization', `Bearer ${failing.token}`)
        .send({ plan: 'parley_basic_monthly' })
        .expect(200);
      const paid = await payCheckout(body.url);
      await fetch(paid.location, { redirect: 'manual' });
      await server.models.User.updateOne({ _id: failing.userId }, { $set: { ActiveTOSPP: TERMS_VERSION } });
      const failingAccount = await server.models.Account.findById(failing.accountId);
      const card = server.stripe.addCard(failing.customerId, '4000000000000341', { makeDefault: true });
      await server.parley.billing.stripe.subscriptions.update(failingAccount?.stripeSubscriptionId ?? '', {
        default_payment_method: card.id,
      });
      await server.stripe.settled();
      server.stripe.advanceClock(32 * DAY);
      await waitFor('the trial to end in Stripe', async () =>
        (await server.models.Account.findById(expired.accountId))?.subscriptionStatus === 'canceled' ? true : null,
      );
      await waitFor('the renewal to fail', async () =>
        (await server.models.Account.findById(failing.accountId))?.delinquent ? true : null,
      );
    });

    it('shows visitors of the expired trial the offline form, still mails what they send, and the console the expired banner', async () => {
      const page = browser.page;
      await page.goto(`${server.demoUrl}/?widget=${expired.uuid}`);
      const host = page.locator('parley-widget');
      await host.locator('.launcher').click();
      const form = host.locator('form.form');
      await form.getByLabel('Email').fill('jane@example.com');
      await form.getByLabel('Your message').fill('Do you still sell the blue kettles?');
      await form.getByRole('button', { name: 'Send' }).click();
      await host.getByRole('status').getByText("Thanks for your message. We'll be in touch soon!").waitFor();
      // Not the owner's latest mail: the trial-ended mail may be sent after it.
      await waitFor('the offline message in the owner mailbox', async () =>
        (await server.outbox.list()).find((mail) => mail.to.includes(expired.email) && mail.text.includes('blue kettles')),
      );

      await page.context().addCookies([{ name: 'auth_token', value: expired.token, url: server.url }]);
      await page.goto(at('/'));
      await page.getByText(/Your trial has ended\. Your widgets show visitors the offline form/).waitFor();
      await page.goto(at('/account'));
      await page.getByText(/Basic plan · subscription ended on/).waitFor();
    });

    it('shows the delinquent banner after the failed renewal, and paying with a new card clears it', async () => {
      const page = browser.page;
      await page.context().addCookies([{ name: 'auth_token', value: failing.token, url: server.url }]);
      await page.goto(at('/'));
      await page.getByText('You account is delinquent. Please update your credit card now.').waitFor();
      await page.goto(at('/account'));
      await page.getByText('Basic plan · delinquent, update billing info').waitFor();

      await page.getByRole('button', { name: 'Update credit card' }).click();
      await page.waitForURL(/\/sandbox\/stripe\/portal\/bps_/);
      await page.locator('#portal-update-card').click();
      await fillCard(page, '4242 4242 4242 4242');
      await page.locator('#portal-card-save').click();
      await page.locator('#portal-notice').waitFor();
      await waitFor('the account paid up', async () =>
        (await server.models.Account.findById(failing.accountId))?.delinquent === false ? true : null,
      );
      await accountShows(page, 'Basic plan · in good standing');
      expect(await page.getByText('You account is delinquent.').count()).to.equal(0);
    });
  });
});
