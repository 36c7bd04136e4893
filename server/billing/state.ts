/**
 * The account's billing state (spec section 4), computed from what Stripe last told Parley. Pure: used by the
 * API presenter, by the relay (does the widget take new conversations?) and by the tests.
 */
import type { Account } from '../models/Account';
import { catalogPlan, lossBetween, type PlanLoss, TRIAL_FEATURES_STRIPE_ID } from '../shared/plans';
import type { AccountState } from '../shared/types';

type StateFields = Pick<Account, 'paymentType' | 'trialEndAt' | 'subscriptionStatus' | 'hadPaidPlan'>;

/** Stripe statuses of a subscription that is still billed (past_due and unpaid: Stripe is still retrying). */
const BILLED = new Set(['active', 'past_due', 'unpaid']);

export function accountState(account: StateFields, now: Date = new Date()): AccountState {
  const status = account.subscriptionStatus;
  if (BILLED.has(status) || (status === 'trialing' && account.paymentType !== 'none')) return 'paying';
  if (status === 'trialing' || status === '' || status === 'incomplete') {
    return account.trialEndAt !== null && account.trialEndAt.getTime() > now.getTime() ? 'trialing' : 'trial_expired';
  }
  // canceled, incomplete_expired, paused: the subscription is over.
  return account.hadPaidPlan ? 'canceled' : 'trial_expired';
}

/** Widgets of trialing and paying accounts take new conversations; expired and canceled ones show the offline form. */
export function acceptsConversations(account: StateFields, now: Date = new Date()): boolean {
  const state = accountState(account, now);
  return state === 'trialing' || state === 'paying';
}

/**
 * Whether the account is in its free trial now: no subscription billed yet and the trial not over, or a card saved
 * during the trial (Stripe keeps the subscription 'trialing' until the trial's end, then charges it).
 */
export function inTrial(account: StateFields, now: Date = new Date()): boolean {
  const state = accountState(account, now);
  return state === 'trialing' || (state === 'paying' && account.subscriptionStatus === 'trialing');
}

type PlanFields = StateFields & Pick<Account, 'planStripeId'>;

/** The projection that effectivePlanId needs of a stored account. */
export const EFFECTIVE_PLAN_FIELDS = { planStripeId: 1, paymentType: 1, trialEndAt: 1, subscriptionStatus: 1, hadPaidPlan: 1 } as const;

/**
 * The one answer to "which plan's features and limits apply now": during the trial the top self-serve plan
 * (whatever plan the account chose to be billed for), afterwards the account's own plan. Every gate (402s, the
 * relay's quota, operator seats, automatic replies, triggers, Slack scopes), the presenters and so the console
 * read it here. The account's planStripeId stays the plan it is billed for.
 */
export function effectivePlanId(account: PlanFields, now: Date = new Date()): string {
  return inTrial(account, now) ? TRIAL_FEATURES_STRIPE_ID : account.planStripeId;
}

/**
 * What the end of the trial took away: the trial's features the account's plan lacks ('reports' ...), switched off,
 * and its limits the plan lowers ('1 channel' ...). Empty during the trial, for accounts that never had one and on
 * the top plans. The settings of switched-off features are kept; they apply again on a plan that has them.
 */
export function lostSinceTrial(account: PlanFields, now: Date = new Date()): PlanLoss {
  const none = { features: [], limits: [] };
  if (account.trialEndAt === null || inTrial(account, now)) return none;
  const trial = catalogPlan(TRIAL_FEATURES_STRIPE_ID);
  const own = catalogPlan(account.planStripeId);
  return trial && own ? lossBetween(trial, own) : none;
}
