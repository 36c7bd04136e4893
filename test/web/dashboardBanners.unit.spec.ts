import { expect } from 'chai';
import type { AccountView, CurrentUser } from '../../server/shared';
import { PLAN_CATALOG } from '../../server/shared/plans';
import { bannersFor } from '../../web/console/scenes/dashboard/dashboardRules';

const NOW = new Date('2026-05-10T12:00:00Z');
const DAY_MS = 86_400_000;
const basic = PLAN_CATALOG.find((p) => p.stripeId === 'parley_basic_monthly');
const pro = PLAN_CATALOG.find((p) => p.stripeId === 'parley_pro_monthly');
const business = PLAN_CATALOG.find((p) => p.stripeId === 'parley_business_monthly');
const words = (ms: number) => new Date(ms).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });

const userWith = (account: Partial<AccountView>): Pick<CurrentUser, 'account' | 'admin'> => ({
  admin: true,
  account: {
    state: 'trialing',
    firstChargeAt: null,
    paymentType: 'none',
    trialEndAt: null,
    cancelAt: null,
    canceledAt: null,
    delinquent: false,
    quota: { isOverquota: false, reason: '' },
    billingAddressLine1: '',
    plan: basic,
    // After the trial the plan that applies is the one billed.
    effectivePlan: account.plan ?? basic,
    switchedOff: [],
    lowerLimits: [],
    ...account,
  } as AccountView,
});

describe('the trial banner', () => {
  it('right after sign-up counts 29 days and says they run to the last day to add a card, the day before the end', () => {
    const end = NOW.getTime() + 30 * DAY_MS;
    const [banner] = bannersFor(userWith({ trialEndAt: new Date(end).toISOString() }), [], NOW);
    expect(banner?.text).to.equal(
      `There are 29 days left on the trial. They count to ${words(end - DAY_MS)}, the last day to add a card before the trial ends on ${words(end)}. Nothing is charged before then.`,
    );
    expect(banner?.link).to.deep.equal({ to: '/account', label: 'Add payment method' });
  });

  it('with a card saved during the trial, says when the first charge comes and how much', () => {
    const end = new Date(NOW.getTime() + 12 * DAY_MS).toISOString();
    const banners = bannersFor(userWith({ state: 'paying', paymentType: 'card', trialEndAt: end, firstChargeAt: end, plan: pro }), [], NOW);
    const trial = banners.find((b) => b.id === 'trial');
    expect(trial?.text).to.equal(
      `Your free trial ends on ${words(Date.parse(end))}. Your card is saved: its first charge, $79 for Pro (monthly), is on ${words(Date.parse(end))}.`,
    );
  });
});

describe('the trial on the top plan, and what its end switched off', () => {
  it('during the trial, its banner says every Business feature is on', () => {
    const end = new Date(NOW.getTime() + 10 * DAY_MS).toISOString();
    const [banner] = bannersFor(userWith({ trialEndAt: end, effectivePlan: business }), [], NOW);
    expect(banner?.text).to.match(/Nothing is charged before then\. Until then every Business feature is on\.$/);
  });

  it('after the trial on Basic, says exactly what was switched off and that the settings come back, for a month', () => {
    const ended = new Date(NOW.getTime() - 2 * DAY_MS).toISOString();
    const user = userWith({
      state: 'paying',
      paymentType: 'card',
      billingAddressLine1: '1 Main St',
      trialEndAt: ended,
      switchedOff: ['reports', 'triggers', 'bots', 'question groups'],
      lowerLimits: ['3 operators a month', '1 channel'],
    });
    const banner = bannersFor(user, [], NOW).find((b) => b.id === 'switched-off');
    expect(banner?.text).to.equal(
      "Your trial has ended, and your Basic plan does not include reports, triggers, bots and question groups: these are switched off. Their settings are kept and come back when you upgrade. Basic's limits apply now: 3 operators a month and 1 channel.",
    );
    expect(banner?.link).to.deep.equal({ to: '/account', label: 'Compare plans' });
    expect(bannersFor(user, [], new Date(NOW.getTime() + 31 * DAY_MS)).map((b) => b.id)).to.not.include('switched-off');
  });
});
