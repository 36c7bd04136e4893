import { expect } from 'chai';
import { accountState } from '../../server/billing/state';
import type { AccountView, InvoiceView, PlanView } from '../../server/shared';
import { monthlyPrice, nextPlan, PLAN_CATALOG, yearlyListMonthlyPrice } from '../../server/shared/plans';
import { planButton, statusText, usage, visibleInvoices } from '../../web/console/scenes/account/accountRules';

const plan = (stripeId: string): PlanView => {
  const found = PLAN_CATALOG.find((p) => p.stripeId === stripeId);
  if (!found) throw new Error(stripeId);
  return found;
};
const NOW = new Date('2026-05-10T12:00:00Z');
const inDays = (days: number) => new Date(NOW.getTime() + days * 86_400_000).toISOString();

describe('Account screen rules', () => {
  describe('the plan button of a tile', () => {
    const card = { paymentType: 'card', state: 'paying' as const };
    const trial = { paymentType: 'none', state: 'trialing' as const };
    const basic = plan('parley_basic_monthly');

    it('offers Choose Plan on every other priced tile while no card is on file, and Current plan on its own', () => {
      expect(planButton(plan('parley_pro_yearly'), basic, trial)).to.include({ label: 'Choose Plan', kind: 'checkout' });
      expect(planButton(basic, basic, trial)).to.include({ label: 'Current plan', disabled: true });
    });

    it('offers the ended plan again, through Checkout, once the subscription is over', () => {
      const canceled = { paymentType: 'card', state: 'canceled' as const };
      expect(planButton(basic, basic, canceled)).to.deep.equal({ label: 'Choose Plan', disabled: false, kind: 'checkout' });
      expect(planButton(plan('parley_pro_monthly'), basic, canceled)).to.include({ label: 'Choose Plan', kind: 'checkout' });
      expect(planButton(basic, basic, { paymentType: 'none', state: 'trial_expired' })).to.include({
        label: 'Choose Plan',
        disabled: false,
      });
      expect(planButton(basic, basic, card)).to.include({ label: 'Current plan', disabled: true });
    });

    it('says Upgrade, Downgrade, or Switch to annual/monthly for the same plan in the other duration', () => {
      expect(planButton(plan('parley_pro_monthly'), basic, card)?.label).to.equal('Upgrade');
      expect(planButton(basic, plan('parley_pro_monthly'), card)?.label).to.equal('Downgrade');
      expect(planButton(plan('parley_basic_yearly'), basic, card)?.label).to.equal('Switch to annual');
      expect(planButton(basic, plan('parley_basic_yearly'), card)?.label).to.equal('Switch to monthly');
      expect(planButton(plan('parley_pro_yearly'), basic, card)?.label).to.equal('Upgrade');
    });

    it('offers Choose Plan on every priced tile, the last plan included, once the trial or the subscription is over', () => {
      for (const state of ['trial_expired', 'canceled'] as const) {
        expect(planButton(basic, basic, { paymentType: 'none', state })).to.include({
          label: 'Choose Plan',
          disabled: false,
          kind: 'checkout',
        });
        expect(planButton(plan('parley_pro_monthly'), basic, { paymentType: 'none', state })).to.include({
          label: 'Choose Plan',
          kind: 'checkout',
        });
        // With a card still on file too: a new subscription goes through Checkout, which shows what is due today.
        expect(planButton(basic, basic, { paymentType: 'card', state })).to.include({
          label: 'Choose Plan',
          disabled: false,
          kind: 'checkout',
        });
      }
      expect(planButton(basic, basic, { paymentType: 'none', state: 'trialing' })).to.include({ label: 'Current plan', disabled: true });
    });

    it('has no button for the custom plan', () => {
      expect(planButton(plan('parley_custom_monthly'), basic, card)).to.equal(null);
    });
  });

  it('shows yearly prices per month rounded up, struck through at the yearly price over 11 (one month free)', () => {
    expect(monthlyPrice(plan('parley_basic_yearly'))).to.equal(Math.ceil((2900 * 11) / 12 / 100));
    expect(yearlyListMonthlyPrice(plan('parley_basic_yearly'))).to.equal(29);
    expect(monthlyPrice(plan('parley_custom_yearly'))).to.equal(null);
  });

  it('takes as next plan the first of the same duration with more channels than in use, else a custom one', () => {
    const monthly = PLAN_CATALOG.filter((p) => p.duration === 'monthly');
    expect(nextPlan(plan('parley_basic_monthly'), PLAN_CATALOG, 1).stripeId).to.equal('parley_pro_monthly');
    expect(nextPlan(plan('parley_pro_monthly'), monthly, 3).stripeId).to.equal('parley_business_monthly');
    expect(nextPlan(plan('parley_custom_monthly'), monthly, 100)).to.include({ label: 'Custom', price: null });
  });

  describe('the account status text', () => {
    const base: Pick<AccountView, 'state' | 'paymentType' | 'cancelAt' | 'canceledAt' | 'delinquent' | 'trialEndAt'> = {
      state: 'paying',
      paymentType: 'card',
      cancelAt: null,
      canceledAt: null,
      delinquent: false,
      trialEndAt: null,
    };
    it('names a pending cancellation first, then delinquency or good standing, else when the subscription ended', () => {
      expect(statusText({ ...base, cancelAt: inDays(9), canceledAt: inDays(0) }, NOW)).to.equal(
        'subscription canceled and will end on May 19, 2026',
      );
      expect(statusText({ ...base, delinquent: true }, NOW)).to.equal('delinquent, update billing info');
      expect(statusText(base, NOW)).to.equal('in good standing');
      expect(statusText({ ...base, state: 'canceled', canceledAt: inDays(-3) }, NOW)).to.equal('subscription ended on May 7, 2026');
      expect(statusText({ ...base, state: 'trial_expired', paymentType: 'none', trialEndAt: inDays(-1) }, NOW)).to.equal(
        'subscription ended on May 9, 2026',
      );
    });
  });

  it('draws usage bars 400 pixels wide at most, in danger style from 100 percent', () => {
    expect(usage(150, 300)).to.deep.equal({ used: 150, limit: 300, width: 200, danger: false });
    expect(usage(300, 300)).to.include({ width: 400, danger: true });
    expect(usage(450, 300)).to.include({ width: 400, danger: true });
    // Channels: every channel of the plan in use is a full bar, not a red one; one more than the plan is.
    expect(usage(1, 1, true)).to.include({ width: 400, danger: false });
    expect(usage(2, 1, true)).to.include({ width: 400, danger: true });
  });

  it('hides a 0 invoice only when it is the only one', () => {
    const invoice = (amount: number): InvoiceView => ({
      id: `in_${amount}`,
      stripePlanId: 'parley_basic_monthly',
      dateTs: 1,
      amount,
      stripeInvoiceUrl: '',
    });
    expect(visibleInvoices([invoice(0)])).to.deep.equal([]);
    expect(visibleInvoices([invoice(2900), invoice(0)])).to.have.length(2);
    expect(visibleInvoices([invoice(2900)])).to.have.length(1);
  });
});

describe('the account state', () => {
  const trial = { paymentType: 'none', trialEndAt: new Date(inDays(5)), subscriptionStatus: 'trialing', hadPaidPlan: false };
  it('is trialing before trialEndAt without a card, trial expired after it or once Stripe ended the trial', () => {
    expect(accountState(trial, NOW)).to.equal('trialing');
    expect(accountState({ ...trial, trialEndAt: new Date(inDays(-1)) }, NOW)).to.equal('trial_expired');
    expect(accountState({ ...trial, subscriptionStatus: 'canceled' }, NOW)).to.equal('trial_expired');
    expect(accountState({ ...trial, subscriptionStatus: '' }, NOW)).to.equal('trialing');
  });

  it('is paying while Stripe bills the subscription (past due included), canceled once a paid one ended', () => {
    expect(accountState({ ...trial, paymentType: 'card', subscriptionStatus: 'active' }, NOW)).to.equal('paying');
    expect(accountState({ ...trial, paymentType: 'card', subscriptionStatus: 'past_due' }, NOW)).to.equal('paying');
    expect(accountState({ ...trial, paymentType: 'card', subscriptionStatus: 'canceled', hadPaidPlan: true }, NOW)).to.equal('canceled');
  });
});
