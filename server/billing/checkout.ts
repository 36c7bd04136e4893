/**
 * Stripe Checkout: the session a plan is bought (or, during the trial, a card saved) with, what a completed session
 * changes (the new subscription replaces older ones, its card becomes the default, a trial's chosen plan is
 * applied once), and the return from Checkout into the console.
 */
import { ValidationError } from '../errors';
import type { AccountDocument } from '../models/Account';
import { CHECKOUT_NOT_COMPLETED } from '../shared/constants';
import { catalogPlan } from '../shared/plans';
import type { Customers } from './customers';
import type { Plans } from './plans';
import { accountState } from './state';
import { type BillingContext, billingError, claimOnce, idOf, LIVE, releaseOnce } from './stripeCall';
import type { Stripe } from './stripeClient';
import type { Sync } from './sync';
import { formatCents, formatDay } from './texts';

/** Where Checkout sends the browser back; the route syncs the account, then opens the console. */
export const CHECKOUT_RETURN_PATH = '/v1/billing/checkout-return';

export type Checkout = ReturnType<typeof createCheckout>;

export function createCheckout(
  { config, models, stripe, logger, call, consoleUrl }: BillingContext,
  {
    ensureCustomer,
    setTrialPlan,
    assertChannelsFit,
    syncCustomer,
  }: Pick<Customers, 'ensureCustomer'> & Pick<Plans, 'setTrialPlan' | 'assertChannelsFit'> & Pick<Sync, 'syncCustomer'>,
) {
  /**
   * After a Checkout: the new subscription replaces the trial (or any older) one, and its card becomes the
   * customer's default so renewals and later plan changes use it. Only while nothing newer is live: Stripe
   * retries an event for three days, so a checkout's event may come after a later Checkout or plan change, and
   * then it changes nothing (it never cancels a subscription started after its own). 'unknown': Stripe has no
   * such session; null: the session is not complete.
   */
  async function completeCheckout(sessionId: string): Promise<{ customerId: string; returnTo: string } | 'unknown' | null> {
    let session: Stripe.Checkout.Session;
    try {
      session = await stripe.checkout.sessions.retrieve(sessionId);
    } catch (error) {
      if ((error as { code?: string }).code === 'resource_missing') return 'unknown';
      throw billingError(error, logger);
    }
    const customerId = idOf(session.customer);
    if (session.status !== 'complete' || !customerId) return null;
    if (session.mode === 'setup') return completeSetup(session, customerId);
    const subscriptionId = idOf(session.subscription);
    if (subscriptionId) {
      // Newest first, as Stripe lists them (created, then creation order within a second); ended ones left out.
      const listed = (await call(() => stripe.subscriptions.list({ customer: customerId, limit: 20 }))).data;
      const at = listed.findIndex((s) => s.id === subscriptionId);
      const subscription = listed[at];
      const newerLive = listed.slice(0, Math.max(at, 0)).some((s) => LIVE.has(s.status));
      if (subscription && LIVE.has(subscription.status) && !newerLive) {
        for (const older of listed.slice(at + 1).filter((s) => LIVE.has(s.status))) {
          await call(() => stripe.subscriptions.cancel(older.id));
        }
        const card = idOf(subscription.default_payment_method);
        if (card) {
          await call(() => stripe.customers.update(customerId, { invoice_settings: { default_payment_method: card } }));
        }
      }
    }
    return { customerId, returnTo: session.metadata?.returnTo === 'account' ? 'account' : 'thanks' };
  }

  /**
   * A trial's Checkout (setup mode) saved a card: it becomes the customer's default, so Stripe charges it when the
   * trial ends, and the plan chosen with it becomes the trial subscription's price. The plan is applied once per
   * session, so a late repeat of the session's event never undoes a later plan change.
   */
  async function completeSetup(session: Stripe.Checkout.Session, customerId: string): Promise<{ customerId: string; returnTo: string }> {
    const returnTo = session.metadata?.returnTo === 'account' ? 'account' : 'thanks';
    const intentId = idOf(session.setup_intent);
    const intent = intentId ? await call(() => stripe.setupIntents.retrieve(intentId)) : null;
    const card = idOf(intent?.payment_method ?? null);
    const claim = `checkout-plan:${session.id}`;
    if (!card || !(await claimOnce(models, claim, 'parley.checkout_plan'))) return { customerId, returnTo };
    try {
      await call(() => stripe.customers.update(customerId, { invoice_settings: { default_payment_method: card } }));
      const account = await models.Account.findOne({ stripeCustomerId: customerId });
      const plan = catalogPlan(session.metadata?.plan ?? '');
      if (account && plan && plan.price !== null) await setTrialPlan(account, plan.stripeId);
    } catch (error) {
      await releaseOnce(models, claim);
      throw error;
    }
    return { customerId, returnTo };
  }

  /** What the first charge after a trial will be, said next to Checkout's button. */
  const firstChargeText = (plan: NonNullable<ReturnType<typeof catalogPlan>>, trialEnd: Date) =>
    `Nothing is charged today. Your card will be charged ${formatCents(plan.price ?? 0)} for ${plan.label} (${plan.duration}) on ${formatDay(trialEnd)}, when your free trial ends.`;

  async function checkoutUrl(account: AccountDocument, email: string, planStripeId: string): Promise<string> {
    const plan = catalogPlan(planStripeId);
    if (!plan) throw new ValidationError(`Unknown plan: ${planStripeId}`, 'unknown_plan');
    if (plan.price === null) throw new ValidationError('The Custom plan is arranged with us: contact support.', 'custom_plan');
    await assertChannelsFit(account._id, plan.stripeId);
    const customer = await ensureCustomer(account, email);
    // Choosing the current plan means adding a card to it: back to the account page, not the thank-you page.
    const returnTo = plan.stripeId === account.planStripeId ? 'account' : 'thanks';
    const trialEnd = account.trialEndAt;
    const inTrial = accountState(account) === 'trialing' || account.subscriptionStatus === 'trialing';
    if (inTrial && trialEnd && trialEnd.getTime() > Date.now()) {
      // During the trial Checkout only saves the card (setup mode): Stripe charges it when the trial ends.
      const session = await call(() =>
        stripe.checkout.sessions.create({
          mode: 'setup',
          currency: 'usd',
          customer,
          client_reference_id: account.id,
          success_url: `${config.publicUrl}${CHECKOUT_RETURN_PATH}?session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: consoleUrl('/account'),
          metadata: { accountId: account.id, returnTo, plan: plan.stripeId },
          setup_intent_data: { metadata: { accountId: account.id } },
          custom_text: { submit: { message: firstChargeText(plan, trialEnd) } },
        }),
      );
      if (!session.url) throw billingError(new Error('Checkout answered without a URL'), logger);
      return session.url;
    }
    const session = await call(() =>
      stripe.checkout.sessions.create({
        mode: 'subscription',
        customer,
        client_reference_id: account.id,
        line_items: [{ price: plan.stripeId, quantity: 1 }],
        success_url: `${config.publicUrl}${CHECKOUT_RETURN_PATH}?session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: consoleUrl('/account'),
        metadata: { accountId: account.id, returnTo },
        subscription_data: { metadata: { accountId: account.id } },
      }),
    );
    if (!session.url) throw billingError(new Error('Checkout answered without a URL'), logger);
    return session.url;
  }

  /**
   * Checkout's return: the account is synced before the console opens, so it shows the new plan at once. A
   * session Stripe does not have, or one not paid, opens the account screen saying the checkout was not completed.
   */
  async function checkoutReturn(sessionId: string): Promise<string> {
    const done = await completeCheckout(sessionId);
    if (done === null || done === 'unknown') return consoleUrl(`/account?checkout=${CHECKOUT_NOT_COMPLETED}`);
    await syncCustomer(done.customerId);
    return done.returnTo === 'account' ? consoleUrl('/account?success=true') : consoleUrl('/thank-you-for-upgrading');
  }

  return { completeCheckout, checkoutUrl, checkoutReturn };
}
