import { expect } from 'chai';
import type { AccountView, CurrentUser } from '../../server/shared';
import { PLAN_CATALOG } from '../../server/shared/plans';
import { bannersFor } from '../../web/console/scenes/dashboard/dashboardRules';

const NOW = new Date('2026-05-10T12:00:00Z');
const DAY_MS = 86_400_000;
const basic = PLAN_CATALOG.find((p) => p.stripeId === 'parley_basic_monthly');
const pro = PLAN_CATALOG.find((p) => p.stripeId === 'parley_pro_monthly');
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
    effectivePlan: basic,
    switchedOff: [],
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
