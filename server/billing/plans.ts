/**
 * Plan changes: during the trial only Parley's plan (and the trial subscription's price) changes; with a card the
 * subscription is updated at once with proration, or a new one started; a plan must fit the account's channels.
 */
import type { Types } from 'mongoose';
import { PaymentRequiredError, ValidationError } from '../errors';
import type { AccountDocument } from '../models/Account';
import { catalogPlan } from '../shared/plans';
import { accountState } from './state';
import { type BillingContext, LIVE } from './stripeCall';
import type { Sync } from './sync';

export const ADD_PAYMENT_METHOD_FIRST = 'Add a payment method first';

export type Plans = ReturnType<typeof createPlans>;

export function createPlans({ models, stripe, call }: BillingContext, { syncCustomer }: Pick<Sync, 'syncCustomer'>) {
  /** During the trial the plan is Parley's choice: the account's plan and the trial subscription's price, nothing charged. */
  async function setTrialPlan(account: AccountDocument, planStripeId: string): Promise<AccountDocument> {
    if (account.stripeSubscriptionId && account.subscriptionStatus === 'trialing') {
      const subscription = await call(() => stripe.subscriptions.retrieve(account.stripeSubscriptionId));
      const item = subscription.items.data[0];
      if (subscription.status === 'trialing' && item && item.price.id !== planStripeId) {
        await call(() =>
          stripe.subscriptions.update(subscription.id, { items: [{ id: item.id, price: planStripeId }], proration_behavior: 'none' }),
        );
      }
    }
    account.planStripeId = planStripeId;
    return account.save();
  }

  async function assertChannelsFit(accountId: Types.ObjectId, planStripeId: string): Promise<void> {
    const plan = catalogPlan(planStripeId);
    if (!plan || plan.maxChannels === 0) return;
    const widgets = await models.ChatEndpoint.countDocuments({ accountId });
    if (widgets > plan.maxChannels) {
      throw new ValidationError(
        `The ${plan.label} plan allows ${plan.maxChannels} channel${plan.maxChannels === 1 ? '' : 's'} and you have ${widgets}: delete some widgets first.`,
        'too_many_channels',
      );
    }
  }

  /**
   * Moves the account to another plan. On trial without a card only Parley's plan (and the trial
   * subscription's price) changes; with a card the subscription is updated at once with proration and the
   * difference charged, or a new subscription is started when the last one ended. A refused card changes nothing.
   */
  async function changePlan(account: AccountDocument, planStripeId: string): Promise<AccountDocument> {
    const plan = catalogPlan(planStripeId);
    if (!plan) throw new ValidationError(`Unknown plan: ${planStripeId}`, 'unknown_plan');
    if (plan.price === null) throw new ValidationError('The Custom plan is arranged with us: contact support.', 'custom_plan');
    await assertChannelsFit(account._id, plan.stripeId);
    const state = accountState(account);
    // During the trial, with a card or without, only the plan changes: the first charge comes at the trial's end.
    if (account.paymentType === 'none' || account.subscriptionStatus === 'trialing') {
      if (account.paymentType === 'none' && state !== 'trialing') throw new PaymentRequiredError(ADD_PAYMENT_METHOD_FIRST);
      return setTrialPlan(account, plan.stripeId);
    }
    if (plan.stripeId === account.planStripeId && LIVE.has(account.subscriptionStatus)) return account;
    const live =
      account.stripeSubscriptionId && LIVE.has(account.subscriptionStatus)
        ? await call(() => stripe.subscriptions.retrieve(account.stripeSubscriptionId))
        : null;
    const item = live?.items.data[0];
    if (live && item && LIVE.has(live.status)) {
      await call(() =>
        stripe.subscriptions.update(live.id, {
          items: [{ id: item.id, price: plan.stripeId }],
          proration_behavior: 'always_invoice',
          payment_behavior: 'error_if_incomplete',
        }),
      );
    } else {
      await call(() =>
        stripe.subscriptions.create({
          customer: account.stripeCustomerId,
          items: [{ price: plan.stripeId }],
          payment_behavior: 'error_if_incomplete',
          metadata: { accountId: account.id },
        }),
      );
    }
    return (await syncCustomer(account.stripeCustomerId)) ?? account;
  }

  return { setTrialPlan, assertChannelsFit, changePlan };
}
