import { expect } from 'chai';
import type { AccountView, CurrentUser } from '../../server/shared';
import { PLAN_CATALOG } from '../../server/shared/plans';
import { bannersFor, planStateName, trialCountdown, trialPlanText } from '../../web/console/scenes/dashboard/dashboardRules';

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
  it('right after sign-up counts 29 days and names only the day they run to, the last day to add a card', () => {
    const end = NOW.getTime() + 30 * DAY_MS;
    const [banner] = bannersFor(userWith({ trialEndAt: new Date(end).toISOString() }), [], NOW);
    expect(banner?.text).to.equal(
      `There are 29 days left on the trial. Add a card by ${words(end - DAY_MS)} to keep your widgets online after it. Nothing is charged before the trial ends.`,
    );
    expect(trialCountdown({ trialEndAt: new Date(end).toISOString(), paymentType: 'none' }, NOW)).to.deep.equal({
      days: 29,
      countsTo: new Date(end - DAY_MS),
    });
    // On the last day no later end date contradicts "today".
    const [last] = bannersFor(userWith({ trialEndAt: new Date(NOW.getTime() + DAY_MS / 2).toISOString() }), [], NOW);
    expect(last?.text).to.equal(
      'Your trial expires today: add a card today to keep your widgets online. Nothing is charged before the trial ends.',
    );
    expect(banner?.link).to.deep.equal({ to: '/account', label: 'Add payment method' });
  });

  it("leaves the trial's later end date out of the Account page's plan text while the banner counts to the day before", () => {
    const end = NOW.getTime() + 30 * DAY_MS;
    const { account } = userWith({ trialEndAt: new Date(end).toISOString(), effectivePlan: business });
    const [banner] = bannersFor({ admin: true, account }, [], NOW);
    const plan = trialPlanText(account);
    expect(banner?.text).to.include(words(end - DAY_MS));
    expect(plan).to.match(/^Your trial has every Business feature until it ends: reports, /);
    expect(plan).to.not.include(words(end));
    // With a card the trial's end is the one date of the banner too, and the plan text names it.
    const withCard = userWith({
      state: 'paying',
      paymentType: 'card',
      trialEndAt: new Date(end).toISOString(),
      firstChargeAt: new Date(end).toISOString(),
      effectivePlan: business,
    });
    expect(trialPlanText(withCard.account)).to.include(`until it ends on ${words(end)}: `);
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

describe('the plan and trial name', () => {
  it('is one name for the dashboard chip and the Account page, in and after the trial', () => {
    const inTrial = userWith({ trialEndAt: new Date(NOW.getTime() + 9 * DAY_MS).toISOString(), effectivePlan: business });
    expect(planStateName(inTrial.account)).to.equal('Basic plan · free trial with every Business feature');
    const sameTop = userWith({ trialEndAt: new Date(NOW.getTime() + 9 * DAY_MS).toISOString(), plan: business, effectivePlan: business });
    expect(planStateName(sameTop.account)).to.equal('Business plan · free trial');
    expect(planStateName(userWith({ state: 'paying', plan: pro }).account)).to.equal('Pro plan');
  });
});

describe('the trial on the top plan, and what its end switched off', () => {
  it('during the trial, its banner says every Business feature is on', () => {
    const end = new Date(NOW.getTime() + 10 * DAY_MS).toISOString();
    const [banner] = bannersFor(userWith({ trialEndAt: end, effectivePlan: business }), [], NOW);
    expect(banner?.text).to.match(/Nothing is charged before the trial ends\. Until it ends every Business feature is on\.$/);
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
