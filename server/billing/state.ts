/**
 * The account's billing state (spec section 4), computed from what Stripe last told Parley. Pure: used by the
 * API presenter, by the relay (does the widget take new conversations?) and by the tests.
 */
import type { Account } from '../models/Account';
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
