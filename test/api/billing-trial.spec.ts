/**
 * The trial's billing against the Stripe sandbox and its clock: a card added during the trial is saved and first
 * charged at the trial's end (Checkout in setup mode), plan changes during the trial charge nothing, and the mails
 * around the trial's end (a reminder three days before, "trial ended", a receipt per paid invoice) reach the
 * outbox once each as the clock moves.
 */
import { expect } from 'chai';
import request from 'supertest';
import { waitFor } from '../e2e/widgetHelpers';
import { useServer } from '../helpers/app';
import { payCheckout, type TrialAccount, trialAccount } from '../helpers/billing';

const DAY = 24 * 60 * 60;

describe('billing during and after the trial', function () {
  this.timeout(90_000);
  const server = useServer();

  const api = () => request(server.url);
  const as = (token: string) => ({ Authorization: `Bearer ${token}` });
  const dayWords = (seconds: number) =>
    new Date(seconds * 1000).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

  /** Opens Checkout for `plan` and saves `card` on its page, then comes back through the return link. */
  const addCard = async (trial: TrialAccount, plan: string, card = '4242 4242 4242 4242') => {
    const { body } = await api()
      .post(`/v1/accounts/${trial.accountId}/create_checkout_session`)
      .set(as(trial.token))
      .send({ plan })
      .expect(200);
    const page = await (await fetch(body.url)).text();
    const paid = await payCheckout(body.url, card);
    expect(paid.status).to.equal(303);
    const back = await fetch(paid.location, { redirect: 'manual' });
    return { page, back: back.headers.get('location') ?? '' };
  };

  const trialEndOf = async (trial: TrialAccount) => {
    const account = await server.models.Account.findById(trial.accountId);
    return Math.floor((account?.trialEndAt?.getTime() ?? 0) / 1000);
  };

  const mailsTo = async (email: string) => (await server.outbox.list()).filter((mail) => mail.to === email);

  describe('a card added during the trial', () => {
    it('is saved, not charged: Checkout says when the first charge comes and the trial goes on with the chosen plan', async () => {
      const trial = await trialAccount(server);
      const trialEnd = await trialEndOf(trial);
      const { page, back } = await addCard(trial, 'parley_pro_monthly');
      // Checkout saves a card: no "Total due today $79.00", and the first charge said next to the button.
      expect(page).to.include('Save a card').and.include('Save card');
      expect(page).not.to.include('Total due today');
      expect(page).to.include(`Your card will be charged $79.00 for Pro (monthly) on ${dayWords(trialEnd)}, when your free trial ends.`);
      expect(back).to.equal(`${server.url}/app/#/thank-you-for-upgrading`);

      const me = await api().get('/v1/users/current').set(as(trial.token)).expect(200);
      expect(me.body.account).to.include({ paymentType: 'card', last4: '4242' });
      expect(me.body.account.plan.stripeId).to.equal('parley_pro_monthly');
      expect(Date.parse(me.body.account.firstChargeAt)).to.equal(trialEnd * 1000);
      // Nothing charged: the trial's $0 invoice only; the next one is the plan's price at the trial's end.
      const invoices = await api().get(`/v1/accounts/${trial.accountId}/invoices`).set(as(trial.token)).expect(200);
      expect(invoices.body.map((i: { amount: number }) => i.amount)).to.deep.equal([0]);
      const next = await api().get(`/v1/accounts/${trial.accountId}/next-invoice`).set(as(trial.token)).expect(200);
      expect(next.body).to.deep.equal({ amount: 7900, dateTs: trialEnd });
      // Stripe keeps the one trial subscription, now on Pro, and the card is the customer's default.
      const subscriptions = server.stripe.state.data.subscriptions.filter((s) => s.customer === trial.customerId);
      expect(subscriptions.map((s) => [s.status, s.items.data[0]?.price.id, s.trial_end])).to.deep.equal([
        ['trialing', 'parley_pro_monthly', trialEnd],
      ]);
      const customer = server.stripe.state.data.customers.find((c) => c.id === trial.customerId);
      expect(customer?.invoice_settings.default_payment_method).to.match(/^pm_/);
    });

    it('lets the plan change during the trial without a charge, and leaves a declined card out', async () => {
      const trial = await trialAccount(server);
      const declined = await api()
        .post(`/v1/accounts/${trial.accountId}/create_checkout_session`)
        .set(as(trial.token))
        .send({ plan: 'parley_business_monthly' })
        .expect(200);
      const refused = await payCheckout(declined.body.url, '4000 0000 0000 0002');
      expect(refused.status).to.equal(402);
      expect(refused.body).to.include('Your card was declined.');
      expect(await server.models.Account.findById(trial.accountId)).to.include({
        paymentType: 'none',
        planStripeId: 'parley_basic_monthly',
      });

      await addCard(trial, 'parley_basic_monthly');
      const res = await api().post(`/v1/accounts/${trial.accountId}/upgrade/parley_business_monthly`).set(as(trial.token)).expect(200);
      expect(res.body.account.plan.stripeId).to.equal('parley_business_monthly');
      expect(res.body.account.firstChargeAt).to.be.a('string');
      const invoices = await api().get(`/v1/accounts/${trial.accountId}/invoices`).set(as(trial.token)).expect(200);
      expect(invoices.body.map((i: { amount: number }) => i.amount)).to.deep.equal([0]);
      const subscription = server.stripe.state.data.subscriptions.find((s) => s.customer === trial.customerId);
      expect(subscription).to.include({ status: 'trialing' });
      expect(subscription?.items.data[0]?.price.id).to.equal('parley_business_monthly');
    });
  });

  describe('as the sandbox clock passes the trial', () => {
    let withoutCard: TrialAccount;
    let withCard: TrialAccount;
    let trialEnd: number;

    before(async () => {
      withoutCard = await trialAccount(server);
      withCard = await trialAccount(server);
      await addCard(withCard, 'parley_basic_monthly');
      await server.stripe.settled();
      trialEnd = Math.min(await trialEndOf(withoutCard), await trialEndOf(withCard));
    });

    it('mails a reminder three days before the end, saying what happens with a card and without one', async () => {
      server.stripe.advanceClockTo(trialEnd - 3 * DAY + 60);
      const [bare] = await waitFor('the reminder without a card', async () => {
        const mails = await mailsTo(withoutCard.email);
        return mails.length > 0 ? mails : null;
      });
      expect(bare?.subject).to.equal(`Your Parley trial ends on ${dayWords(await trialEndOf(withoutCard))}: add a card to stay online`);
      expect(bare?.text).to.include('nothing is charged before the trial ends');
      expect(bare?.links).to.deep.equal([`${server.url}/app/#/account`]);
      const [carded] = await waitFor('the reminder with a card', async () => {
        const mails = await mailsTo(withCard.email);
        return mails.length > 0 ? mails : null;
      });
      expect(carded?.subject).to.equal(`Your Parley trial ends on ${dayWords(await trialEndOf(withCard))}`);
      expect(carded?.text).to.include('Then your visa card ending in 4242 will be charged $29.00 for the Basic (monthly) plan');
    });

    it('mails "trial ended" at the end, and a receipt with the hosted invoice link for the first payment, once each', async () => {
      server.stripe.advanceClockTo(trialEnd + 2 * DAY);
      await server.stripe.settled();
      const ended = await waitFor('the trial-ended mail', async () =>
        (await mailsTo(withoutCard.email)).find((mail) => mail.subject === 'Your Parley trial has ended'),
      );
      expect(ended?.text).to.include('No card was added, so your widgets show visitors the offline form');
      const subjects = await waitFor('the trial-ended mail and the receipt', async () => {
        const mails = (await mailsTo(withCard.email)).map((mail) => mail.subject);
        return mails.length >= 3 ? mails : null;
      });
      const paidOn = dayWords(await trialEndOf(withCard));
      expect(subjects).to.have.members([
        `Your Parley trial ends on ${paidOn}`,
        'Your Parley trial has ended: your Basic (monthly) plan has started',
        `Your Parley receipt: $29.00 on ${paidOn}`,
      ]);
      const receipt = (await mailsTo(withCard.email)).find((mail) => mail.subject.startsWith('Your Parley receipt'));
      expect(receipt?.text).to.include('Amount paid: $29.00').and.include('For: Basic (monthly) plan');
      const invoiceLink = receipt?.links.find((link) => link.includes('/sandbox/stripe/invoices/in_')) ?? '';
      const invoicePage = await fetch(invoiceLink);
      expect(invoicePage.status).to.equal(200);
      expect(await invoicePage.text()).to.include('$29.00');

      // Stripe delivering the same events again (retries, a replay) sends nothing more.
      const again = server.stripe
        .events()
        .filter((e) =>
          [
            'invoice.paid',
            'customer.subscription.updated',
            'customer.subscription.deleted',
            'customer.subscription.trial_will_end',
          ].includes(e.type),
        )
        .map((e) => e.id);
      await server.stripe.deliverInOrder(again);
      await server.stripe.settled();
      expect(await mailsTo(withCard.email)).to.have.length(3);
      expect(await mailsTo(withoutCard.email)).to.have.length(2);
      expect((await server.models.Account.findById(withCard.accountId))?.subscriptionStatus).to.equal('active');
    });
  });
});
