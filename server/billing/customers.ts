/**
 * An account's Stripe customer, created on first need, and its trial: a trialing subscription that Stripe cancels
 * at the trial's end unless a card was added, started in the background when an account is created.
 */
import type { Types } from 'mongoose';
import type { AccountDocument } from '../models/Account';
import { accountState } from './state';
import { type BillingContext, toSeconds } from './stripeCall';
import type { Sync } from './sync';

export type Customers = ReturnType<typeof createCustomers>;

export function createCustomers({ models, stripe, logger, call }: BillingContext, { applySubscription }: Pick<Sync, 'applySubscription'>) {
  /** The account's Stripe customer, created on first need (the id is kept; Stripe's idempotency covers races). */
  async function ensureCustomer(account: AccountDocument, email: string): Promise<string> {
    if (account.stripeCustomerId) return account.stripeCustomerId;
    const customer = await call(() =>
      stripe.customers.create(
        { email: account.email || email, name: account.orgName || undefined, metadata: { accountId: account.id } },
        { idempotencyKey: `parley-customer-${account.id}` },
      ),
    );
    await models.Account.updateOne({ _id: account._id, stripeCustomerId: '' }, { $set: { stripeCustomerId: customer.id } });
    account.stripeCustomerId = customer.id;
    return customer.id;
  }

  /**
   * A trialing account gets its Stripe customer and a trialing subscription that Stripe cancels at trialEndAt
   * unless a card was added: the trial ends on Stripe's clock like every other billing event.
   */
  async function startTrial(account: AccountDocument, email: string): Promise<void> {
    if (account.stripeSubscriptionId || accountState(account) !== 'trialing' || !account.trialEndAt) return;
    const customer = await ensureCustomer(account, email);
    const subscription = await call(() =>
      stripe.subscriptions.create(
        {
          customer,
          items: [{ price: account.planStripeId }],
          trial_end: toSeconds(account.trialEndAt as Date),
          trial_settings: { end_behavior: { missing_payment_method: 'cancel' } },
          metadata: { accountId: account.id },
        },
        { idempotencyKey: `parley-trial-${account.id}` },
      ),
    );
    await applySubscription(account, subscription);
  }

  const starting = new Map<string, Promise<void>>();
  /** startTrial in the background, once at a time per account; a failure is logged and retried on a later call. */
  function startTrialSoon(accountId: Types.ObjectId, email: string): void {
    const key = accountId.toHexString();
    if (starting.has(key)) return;
    const work = (async () => {
      const account = await models.Account.findById(accountId);
      if (account && !account.stripeSubscriptionId) await startTrial(account, email);
    })()
      .catch((error: unknown) => logger.warn({ accountId: key, err: error }, 'billing: the trial of an account is not in Stripe yet'))
      .finally(() => starting.delete(key));
    starting.set(key, work);
  }

  /** Resolves once the background work started so far is over (before shutting down). */
  async function idle(): Promise<void> {
    while (starting.size > 0) await Promise.all([...starting.values()]);
  }

  return { ensureCustomer, startTrial, startTrialSoon, idle };
}
