/**
 * Keeping an account in step with Stripe: whatever Stripe says about an account is re-read from Stripe
 * (`syncCustomer`: the customer, its card, its subscriptions), never taken from an event's payload, so webhooks may
 * arrive late, twice or out of order.
 */
import { Error as MongooseError } from 'mongoose';
import type { AccountDocument } from '../models/Account';
import { catalogPlan } from '../shared/plans';
import { type BillingContext, idOf, LIVE, toDate } from './stripeCall';
import type { Stripe } from './stripeClient';

export type Sync = ReturnType<typeof createSync>;

export function createSync({ models, stripe, call }: Pick<BillingContext, 'models' | 'stripe' | 'call'>) {
  /** Writes what a subscription says onto the account (plan, status, dates, delinquency). */
  async function applySubscription(account: AccountDocument, subscription: Stripe.Subscription, paid = false): Promise<void> {
    const item = subscription.items.data[0];
    const price = item?.price.id ?? '';
    const live = LIVE.has(subscription.status);
    const cancelAt = live ? toDate(subscription.cancel_at ?? (subscription.cancel_at_period_end ? item?.current_period_end : null)) : null;
    const endedAfterTrial = subscription.trial_end === null || (subscription.ended_at ?? 0) > subscription.trial_end;
    account.set({
      stripeSubscriptionId: subscription.id,
      subscriptionStatus: subscription.status,
      // During the trial the plan is Parley's choice (the trial subscription's price follows it); afterwards Stripe's.
      ...(catalogPlan(price) && subscription.status !== 'trialing' ? { planStripeId: price } : {}),
      hadPaidPlan:
        account.hadPaidPlan ||
        paid ||
        ['active', 'past_due', 'unpaid'].includes(subscription.status) ||
        (subscription.status === 'canceled' && endedAfterTrial),
      cancelAt,
      canceledAt: live ? (cancelAt ? toDate(subscription.canceled_at) : null) : toDate(subscription.ended_at ?? subscription.canceled_at),
      nextInvoiceAt:
        live && !cancelAt ? toDate(subscription.status === 'trialing' ? subscription.trial_end : item?.current_period_end) : null,
      delinquent: subscription.status === 'past_due' || subscription.status === 'unpaid',
    });
    await account.save();
  }

  /**
   * Re-reads a customer, its card and its subscriptions from Stripe and writes them onto its account. Null when no
   * account has the customer, and when the account was deleted while Stripe was being read (its owner closed it as a
   * webhook came in): there is nothing left to bring up to date, so the webhook is taken rather than retried for days.
   */
  async function syncCustomer(customerId: string): Promise<AccountDocument | null> {
    try {
      return await syncAccountOf(customerId);
    } catch (error) {
      if (error instanceof MongooseError.DocumentNotFoundError) return null;
      throw error;
    }
  }

  async function syncAccountOf(customerId: string): Promise<AccountDocument | null> {
    const account = await models.Account.findOne({ stripeCustomerId: customerId });
    if (!account) return null;
    const customer = await call(() => stripe.customers.retrieve(customerId, { expand: ['invoice_settings.default_payment_method'] }));
    if (customer.deleted) return account;
    const subscriptions = (await call(() => stripe.subscriptions.list({ customer: customerId, status: 'all', limit: 20 }))).data;
    const newestFirst = [...subscriptions].sort((a, b) => b.created - a.created);
    const primary = newestFirst.find((s) => LIVE.has(s.status)) ?? newestFirst[0];

    let card =
      typeof customer.invoice_settings.default_payment_method === 'object' ? customer.invoice_settings.default_payment_method : null;
    if (!card) {
      const fromSubscription = idOf(primary?.default_payment_method ?? null);
      const methods = fromSubscription
        ? []
        : (await call(() => stripe.customers.listPaymentMethods(customerId, { type: 'card', limit: 1 }))).data;
      card = fromSubscription ? await call(() => stripe.paymentMethods.retrieve(fromSubscription)) : (methods[0] ?? null);
    }
    const address = customer.address;
    account.set({
      paymentType: card?.card ? 'card' : 'none',
      brand: card?.card?.brand ?? '',
      last4: card?.card?.last4 ?? '',
      expMonth: card?.card?.exp_month ?? null,
      expYear: card?.card?.exp_year ?? null,
      ...(customer.email ? { email: customer.email } : {}),
      ...(customer.name ? { orgName: customer.name } : {}),
      ...(address
        ? {
            billingAddressLine1: address.line1 ?? '',
            billingCity: address.city ?? '',
            billingState: address.state ?? '',
            billingPostalCode: address.postal_code ?? '',
            billingCountry: address.country ?? '',
          }
        : {}),
    });
    if (primary) {
      // A subscription started without a trial (Checkout, a plan change) was paid for.
      const paid = subscriptions.some((s) => s.trial_end === null && s.status !== 'incomplete' && s.status !== 'incomplete_expired');
      await applySubscription(account, primary, paid);
    } else {
      await account.save();
    }
    return account;
  }

  return { applySubscription, syncCustomer };
}
