/**
 * The trial's billing as a person sees it, in Chromium against the Stripe sandbox: adding a card during the trial
 * (saved, first charged at the trial's end), a refused card on a plan change (Stripe's reason and a way to update
 * the card), and once the sandbox clock passes the trial, the last plan chosen again and the trial's mails in the
 * outbox. Each screen is also saved at 1280x800 and 390x844 under test-results/billing/.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import request from 'supertest';
import { TERMS_VERSION } from '../../server/shared/constants';
import { useServer } from '../helpers/app';
import { endTrialNow, payCheckout, type TrialAccount, trialAccount } from '../helpers/billing';
import { picturesAtBothSizes, useBrowser } from '../helpers/browser';
import { waitFor } from './widgetHelpers';

const DAY = 24 * 60 * 60;

describe('trial billing in the browser', function () {
  this.timeout(120_000);
  const browser = useBrowser({ context: 'suite' });
  const server = useServer();

  const at = (hashPath: string) => `${server.url}/app/#${hashPath}`;
  const dayWords = (date: Date) => date.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });

  /** Saves what the window shows at both sizes (from `top`, scrolled into view), back at 1280x800 afterwards. */
  const shots = (page: Page, name: string, top?: string) =>
    picturesAtBothSizes(page, 'billing', name, top ? () => page.locator(top).first().scrollIntoViewIfNeeded() : undefined);

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

  const planTile = (page: Page, label: string) => page.getByRole('article', { name: `${label} plan` });

  it('adds a card during the trial without a charge, and the console says when the first charge comes', async () => {
    const page = browser.page;
    const trial = await signedInTrial(page);
    const trialEnd = (await server.models.Account.findById(trial.accountId))?.trialEndAt as Date;
    // Right after sign-up the count is 29 days, and the banner names the day they run to: the last day to add a card.
    await page.goto(at('/'));
    const dayBefore = dayWords(new Date(trialEnd.getTime() - DAY * 1000));
    await page
      .getByText(
        `There are 29 days left on the trial. Add a card by ${dayBefore} to keep your widgets online after it. Nothing is charged before the trial ends.`,
      )
      .waitFor();
    await shots(page, 'dashboard-trial');
    await page.goto(at('/account'));
    const billing = page.getByRole('region', { name: 'Billing Info' });
    await billing.getByText(`A card added now is saved, not charged before ${dayWords(trialEnd)}.`).waitFor();
    await billing.getByRole('button', { name: 'Add payment method' }).click();

    await page.waitForURL(/\/sandbox\/stripe\/checkout\/cs_/);
    await page.getByText('Save a card').first().waitFor();
    const note = await page.locator('#checkout-submit-message').textContent();
    expect(note).to.match(
      /^Nothing is charged today\. Your card will be charged \$29\.00 for Basic \(monthly\) on .+, when your free trial ends\.$/,
    );
    expect(await page.getByText('Total due today').count()).to.equal(0);
    await fillCard(page, '4242 4242 4242 4242');
    await shots(page, 'checkout-setup');
    await page.getByRole('button', { name: 'Save card' }).click();

    await page.waitForURL(/#\/account\?success=true$/);
    await page.getByText('You have successfully added your billing information.').waitFor();
    await page.getByText('Basic plan · free trial').waitFor();
    await page
      .getByText(`Your free trial ends on ${dayWords(trialEnd)}. Your card is saved: its first charge, $29 for Basic (monthly), is on`)
      .waitFor();
    await billing.getByText('•••• 4242').waitFor();
    await billing.getByText(/^First charge on .+, when your trial ends\.$/).waitFor();
    await page
      .getByRole('region', { name: 'Recent Invoices' })
      .getByText(/Next invoice: \$29 on/)
      .waitFor();
    await shots(page, 'account-card-in-trial');
    await page.goto(at('/thank-you-for-upgrading'));
    await page.getByText(`Your card is saved: its first charge is on ${dayWords(trialEnd)}, when your trial ends.`).waitFor();
    await shots(page, 'thanks-card-in-trial');
    const account = await server.models.Account.findById(trial.accountId);
    expect(account).to.include({ paymentType: 'card', subscriptionStatus: 'trialing', planStripeId: 'parley_basic_monthly' });
  });

  it("shows Stripe's reason and a link to update the card when the card is refused on a plan change", async () => {
    const page = browser.page;
    const trial = await signedInTrial(page);
    const { body } = await request(server.url)
      .post(`/v1/accounts/${trial.accountId}/create_checkout_session`)
      .set('Authorization', `Bearer ${trial.token}`)
      .send({ plan: 'parley_basic_monthly' })
      .expect(200);
    await fetch((await payCheckout(body.url)).location, { redirect: 'manual' });
    await endTrialNow(server, trial.accountId);
    // The card on file now takes no charge (0341).
    const account = await server.models.Account.findById(trial.accountId);
    const failing = server.stripe.addCard(trial.customerId, '4000000000000341', { makeDefault: true });
    await server.parley.billing.stripe.subscriptions.update(account?.stripeSubscriptionId ?? '', { default_payment_method: failing.id });
    await server.parley.billing.syncCustomer(trial.customerId);

    await page.goto(at('/account'));
    await planTile(page, 'Business').getByRole('button', { name: 'Upgrade' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Upgrade' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Your card was declined.' });
    await alert.getByText('Your card was declined. Your plan was not changed.').waitFor();
    expect(await page.getByText(/Error updating plan/).count()).to.equal(0);
    await shots(page, 'plan-change-declined');
    await alert.getByRole('button', { name: 'Update your card' }).click();
    await page.waitForURL(/\/sandbox\/stripe\/portal\/bps_/);
    await page.locator('#portal-update-card').waitFor();
    expect((await server.models.Account.findById(trial.accountId))?.planStripeId).to.equal('parley_basic_monthly');
  });

  it('after the sandbox clock passes the trial: the reminder and "trial ended" mails are in the outbox, and Basic can be chosen again', async () => {
    const page = browser.page;
    const trial = await signedInTrial(page);
    await server.stripe.settled();
    server.stripe.advanceClock(31 * DAY);
    await waitFor('the trial to end in Stripe', async () =>
      (await server.models.Account.findById(trial.accountId))?.subscriptionStatus === 'canceled' ? true : null,
    );

    await waitFor('the trial-ended mail', async () =>
      (await server.outbox.list()).find((mail) => mail.to === trial.email && mail.subject === 'Your Parley trial has ended'),
    );
    await page.goto(`${server.url}/dev/outbox`);
    const mails = page.locator('.mail').filter({ hasText: trial.email });
    await mails.first().getByRole('heading', { name: 'Your Parley trial has ended', exact: true }).waitFor();
    await mails
      .first()
      .getByText(/No card was added, so your widgets show visitors the offline form/)
      .waitFor();
    await mails
      .nth(1)
      .getByRole('heading', { name: /^Your Parley trial ends on .+: add a card to stay online$/ })
      .waitFor();
    await shots(page, 'outbox-trial-mails');

    await page.goto(at('/account'));
    await page.getByText(/Basic plan · subscription ended on/).waitFor();
    const basic = planTile(page, 'Basic').getByRole('button', { name: 'Choose Plan' });
    expect(await basic.isEnabled()).to.equal(true);
    expect(await page.getByRole('button', { name: 'Current plan' }).count()).to.equal(0);
    await shots(page, 'account-trial-expired');
    await basic.click();

    await page.waitForURL(/\/sandbox\/stripe\/checkout\/cs_/);
    await page.locator('#checkout-total').getByText('$29.00').waitFor();
    await fillCard(page, '4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await page.waitForURL(/#\/account\?success=true$/);
    await page.getByText('Basic plan · in good standing').waitFor();
    await planTile(page, 'Basic').getByRole('button', { name: 'Current plan' }).waitFor();
    await page.getByRole('region', { name: 'Recent Invoices' }).getByRole('cell', { name: '$29' }).waitFor();
  });

  it('shows the pricing tiles with what the trial includes', async () => {
    const page = browser.page;
    await page.goto(`${server.url}/pricing`);
    await page
      .getByText('The 30-day trial has every Business feature. Choose Pro when you add a card: nothing is charged before the trial ends.')
      .first()
      .waitFor();
    await shots(page, 'pricing');
  });
});
