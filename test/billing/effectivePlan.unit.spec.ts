import { expect } from 'chai';
import { effectivePlanId, inTrial, lostSinceTrial } from '../../server/billing/state';

const NOW = new Date('2026-05-10T12:00:00Z');
const DAY_MS = 86_400_000;
const account = (fields: Partial<Parameters<typeof effectivePlanId>[0]> = {}) => ({
  planStripeId: 'parley_basic_monthly',
  paymentType: 'none',
  trialEndAt: new Date(NOW.getTime() + 20 * DAY_MS),
  subscriptionStatus: 'trialing',
  hadPaidPlan: false,
  ...fields,
});

describe('the plan that applies now (effectivePlanId)', () => {
  it('is Business during the trial, with or without a card and whatever plan was chosen', () => {
    expect(effectivePlanId(account(), NOW)).to.equal('parley_business_monthly');
    expect(effectivePlanId(account({ subscriptionStatus: '' }), NOW)).to.equal('parley_business_monthly');
    expect(effectivePlanId(account({ paymentType: 'card', planStripeId: 'parley_pro_yearly' }), NOW)).to.equal('parley_business_monthly');
    expect(lostSinceTrial(account(), NOW)).to.deep.equal({ features: [], limits: [] });
  });

  it("is the account's own plan once the trial is over: paid, expired without a card, or canceled", () => {
    expect(inTrial(account({ subscriptionStatus: 'active', paymentType: 'card' }), NOW)).to.equal(false);
    expect(effectivePlanId(account({ subscriptionStatus: 'active', paymentType: 'card' }), NOW)).to.equal('parley_basic_monthly');
    expect(effectivePlanId(account({ trialEndAt: new Date(NOW.getTime() - DAY_MS) }), NOW)).to.equal('parley_basic_monthly');
    expect(effectivePlanId(account({ subscriptionStatus: 'canceled', planStripeId: 'parley_pro_monthly' }), NOW)).to.equal(
      'parley_pro_monthly',
    );
  });

  it('says what the trial had that the plan lacks: the features switched off, and the lower limits as the plan has them', () => {
    const paid = (planStripeId: string) => account({ subscriptionStatus: 'active', paymentType: 'card', planStripeId });
    expect(lostSinceTrial(paid('parley_basic_monthly'), NOW)).to.deep.equal({
      features: ['reports', 'triggers', 'bots', 'question groups', 'white label', 'phone support'],
      limits: ['3 operators a month', '1 channel', '300 conversations a month'],
    });
    expect(lostSinceTrial(paid('parley_pro_monthly'), NOW)).to.deep.equal({
      features: ['question groups', 'white label', 'phone support'],
      limits: ['10 operators a month', '3 channels', '1,500 conversations a month'],
    });
    const nothing = { features: [], limits: [] };
    expect(lostSinceTrial(paid('parley_business_yearly'), NOW)).to.deep.equal(nothing);
    expect(lostSinceTrial(paid('parley_custom_monthly'), NOW)).to.deep.equal(nothing);
    // An account that never had a trial lost nothing to one.
    expect(lostSinceTrial({ ...paid('parley_basic_monthly'), trialEndAt: null }, NOW)).to.deep.equal(nothing);
  });
});
