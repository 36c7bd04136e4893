/**
 * Billing on Stripe: customers and the trial subscription, Checkout and the payment portal, plan changes with
 * proration, invoices, and keeping each account in step with Stripe. `server/billing` is the only place that
 * talks to Stripe. Whatever Stripe says about an account is re-read from Stripe (`syncCustomer`), never taken
 * from an event's payload, so webhooks may arrive late, twice or out of order.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Types } from 'mongoose';
import type { Config } from '../config';
import { AppError, external, PaymentRequiredError, ValidationError } from '../errors';
import type { Logger } from '../logger';
import type { Mailer } from '../mail';
import { receiptMail, trialEndedMail, trialEndingMail } from '../mail/templates';
import type { Models } from '../models';
import type { AccountDocument } from '../models/Account';
import { CHECKOUT_NOT_COMPLETED } from '../shared/constants';
import { catalogPlan } from '../shared/plans';
import type { AccountInfoPayload, InvoiceView, NextInvoiceView, PortalReason } from '../shared/types';
import { accountState } from './state';
import type { Stripe } from './stripeClient';
import { formatCents, formatDay } from './texts';

export { conversationsThisMonth, refreshQuota } from './quota';
export { acceptsConversations, accountState } from './state';
export { createStripeClient } from './stripeClient';

export const ADD_PAYMENT_METHOD_FIRST = 'Add a payment method first';
/** Where Checkout sends the browser back; the route syncs the account, then opens the console. */
export const CHECKOUT_RETURN_PATH = '/v1/billing/checkout-return';
/** Where the payment portal sends the browser back; signed per account, it syncs the account before the console opens. */
export const PORTAL_RETURN_PATH = '/v1/billing/portal-return';
export { STRIPE_WEBHOOK_PATH as WEBHOOK_PATH } from './sandbox';

/** Subscription statuses Stripe still bills or may still bill. */
const LIVE = new Set(['trialing', 'active', 'past_due', 'unpaid', 'incomplete', 'paused']);

export type BillingDeps = { config: Config; models: Models; stripe: Stripe; logger: Logger; mailer: Mailer };

export type Billing = ReturnType<typeof createBilling>;

const toDate = (seconds: number | null | undefined): Date | null => (seconds ? new Date(seconds * 1000) : null);
const toSeconds = (date: Date): number => Math.floor(date.getTime() / 1000);
const idOf = (value: string | { id: string } | null | undefined): string => (typeof value === 'string' ? value : (value?.id ?? ''));

/** Stripe's errors as Parley's: a card problem is the user's to fix (402), anything else is Stripe being unreachable. */
function billingError(error: unknown, logger: Logger): AppError {
  if (error instanceof AppError) return error;
  const stripeError = error as { type?: string; message?: string; code?: string };
  if (stripeError.type === 'StripeCardError') {
    return new PaymentRequiredError(stripeError.message || 'Your card was declined.', external(stripeError.code || 'card_declined'));
  }
  // Stripe's messages and request ids only: never the request (it may carry the key) or card data.
  logger.error(
    { stripeErrorType: stripeError.type ?? 'unknown', detail: stripeError.message ?? String(error) },
    'billing: Stripe call failed',
  );
  return new AppError('Billing is not reachable right now. Please try again in a minute.', {
    status: 503,
    code: 'billing_unavailable',
    isReportable: true,
  });
}

export function createBilling({ config, models, stripe, logger, mailer }: BillingDeps) {
  const consoleUrl = (hashPath: string) => `${config.publicUrl}/app/#${hashPath}`;

  const call = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw billingError(error, logger);
    }
  };

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

  /** Re-reads a customer, its card and its subscriptions from Stripe and writes them onto its account. */
  async function syncCustomer(customerId: string): Promise<AccountDocument | null> {
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
   * Claims a once-only step (a checkout's plan, a billing mail) under `key` in the table of taken webhook events:
   * true for the first caller only. `release` gives the claim back when the step failed.
   */
  async function claimOnce(key: string, type: string): Promise<boolean> {
    try {
      await models.StripeEvent.create({ eventId: key, type });
      return true;
    } catch (error) {
      if ((error as { code?: number }).code === 11000) return false;
      throw error;
    }
  }
  const release = (key: string) => models.StripeEvent.deleteOne({ eventId: key });

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
    if (!card || !(await claimOnce(claim, 'parley.checkout_plan'))) return { customerId, returnTo };
    try {
      await call(() => stripe.customers.update(customerId, { invoice_settings: { default_payment_method: card } }));
      const account = await models.Account.findOne({ stripeCustomerId: customerId });
      const plan = catalogPlan(session.metadata?.plan ?? '');
      if (account && plan && plan.price !== null) await setTrialPlan(account, plan.stripeId);
    } catch (error) {
      await release(claim);
      throw error;
    }
    return { customerId, returnTo };
  }

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

  const portalSignature = (accountId: string) =>
    createHmac('sha256', config.jwtSecret).update(`portal-return:${accountId}`).digest('base64url');

  async function portalUrl(account: AccountDocument, email: string, reason: PortalReason): Promise<string> {
    const customer = await ensureCustomer(account, email);
    const returnUrl = `${config.publicUrl}${PORTAL_RETURN_PATH}?account=${account.id}&sig=${portalSignature(account.id)}`;
    const cancellable = reason === 'subscription_cancel' && account.stripeSubscriptionId !== '' && LIVE.has(account.subscriptionStatus);
    const session = await call(() =>
      stripe.billingPortal.sessions.create({
        customer,
        return_url: returnUrl,
        ...(cancellable
          ? {
              flow_data: {
                type: 'subscription_cancel' as const,
                subscription_cancel: { subscription: account.stripeSubscriptionId },
                after_completion: { type: 'redirect' as const, redirect: { return_url: returnUrl } },
              },
            }
          : {}),
      }),
    );
    return session.url;
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

  async function listInvoices(account: AccountDocument): Promise<InvoiceView[]> {
    if (!account.stripeCustomerId) return [];
    const invoices = await call(() => stripe.invoices.list({ customer: account.stripeCustomerId, limit: 24 }));
    return invoices.data
      .filter((invoice) => invoice.status === 'paid' || invoice.status === 'open' || invoice.status === 'uncollectible')
      .map((invoice) => {
        // A proration invoice credits the old plan first: the plan billed is on the last line charged.
        const line = [...invoice.lines.data].reverse().find((l) => l.amount > 0) ?? invoice.lines.data[0];
        const subscription = invoice.parent?.subscription_details?.subscription;
        return {
          id: invoice.id ?? '',
          stripePlanId: subscription ? idOf(line?.pricing?.price_details?.price ?? null) : '',
          dateTs: invoice.status_transitions?.paid_at ?? invoice.created,
          amount: invoice.total,
          stripeInvoiceUrl: invoice.hosted_invoice_url ?? '',
        };
      });
  }

  async function nextInvoice(account: AccountDocument): Promise<NextInvoiceView> {
    if (account.paymentType === 'none' || !account.stripeSubscriptionId || !LIVE.has(account.subscriptionStatus) || account.cancelAt)
      return null;
    const preview = await call(() =>
      stripe.invoices.createPreview({ customer: account.stripeCustomerId, subscription: account.stripeSubscriptionId }),
    );
    const dateTs = account.nextInvoiceAt ? toSeconds(account.nextInvoiceAt) : preview.period_end;
    // What will be charged: the total less the customer's credit (a downgrade's proration), as Stripe applies it.
    return { amount: preview.amount_due, dateTs };
  }

  /** Saves the Account Info form to the Stripe customer first, then to Parley: a Stripe failure changes nothing. */
  async function updateInfo(account: AccountDocument, email: string, info: AccountInfoPayload): Promise<AccountDocument> {
    const customer = await ensureCustomer(account, email);
    await call(() =>
      stripe.customers.update(customer, {
        name: info.orgName,
        email: info.email || email,
        address: {
          line1: info.billingAddressLine1,
          city: info.billingCity,
          state: info.billingState,
          postal_code: info.billingPostalCode,
          country: info.billingCountry,
        },
        metadata: { taxID: info.taxID },
        invoice_settings: { custom_fields: info.taxID ? [{ name: 'Tax ID', value: info.taxID }] : '' },
      }),
    );
    account.set(info);
    return account.save();
  }

  /**
   * A verified webhook event: brings the account it is about up to date, then sends the billing mail it calls for.
   * A Checkout session Stripe does not have is bad input (400, nothing changed).
   */
  async function handleEvent(event: Stripe.Event): Promise<void> {
    const object = event.data.object as { object?: string; id?: string; customer?: string | { id: string } | null };
    if (event.type === 'checkout.session.completed' && object.id && (await completeCheckout(object.id)) === 'unknown') {
      throw new ValidationError('No such Checkout session', 'bad_session');
    }
    const customerId = object.object === 'customer' ? (object.id ?? '') : idOf(object.customer ?? null);
    const account = customerId ? await syncCustomer(customerId) : null;
    if (account && object.id) await billingMail(event.type, object.id, event.created, account);
  }

  /** A week after a trial's end its "trial ended" mail is no longer news (a later update of the same subscription). */
  const TRIAL_ENDED_NEWS = 7 * 24 * 60 * 60;

  /**
   * The mails around the trial's end and each payment, decided on what Stripe says now (the event only names the
   * object) and sent once each: three days before the trial ends (trial_will_end), when it has ended, and a
   * receipt for each paid invoice with its hosted page. A failed send gives its claim back and fails the event,
   * so Stripe's retry sends it.
   */
  async function billingMail(type: string, objectId: string, at: number, account: AccountDocument): Promise<void> {
    const to = account.email || (await models.User.findOne({ accountId: account._id, admin: true }).sort({ _id: 1 }))?.email || '';
    if (!to) return;
    const accountUrl = consoleUrl('/account');
    const planName = (price: string) => {
      const plan = catalogPlan(price);
      return plan ? `${plan.label} (${plan.duration})` : 'Parley';
    };
    let key = '';
    let mail: Parameters<Mailer['send']>[0] | null = null;
    if (type === 'customer.subscription.trial_will_end') {
      const subscription = await call(() => stripe.subscriptions.retrieve(objectId));
      const price = subscription.items.data[0]?.price;
      // Sent even when it arrives after the trial's end (a clock moved past both), but not for a trial ended at once
      // (trial_end=now: Stripe sends the event as the trial ends) or cut short by a cancellation.
      const cutShort = subscription.status === 'canceled' && (subscription.ended_at ?? 0) < (subscription.trial_end ?? 0);
      if (!subscription.trial_end || at >= subscription.trial_end || !price || cutShort) return;
      const card = account.paymentType !== 'none' && account.last4 ? `${account.brand || 'card'} card ending in ${account.last4}` : '';
      key = `mail:trial-will-end:${subscription.id}:${subscription.trial_end}`;
      mail = await trialEndingMail(to, {
        endsOn: formatDay(new Date(subscription.trial_end * 1000)),
        accountUrl,
        charge: card ? { card, amount: formatCents(price.unit_amount ?? 0), plan: planName(price.id) } : null,
      });
    } else if (type === 'customer.subscription.updated' || type === 'customer.subscription.deleted') {
      const subscription = await call(() => stripe.subscriptions.retrieve(objectId));
      const trialEnd = subscription.trial_end;
      if (!trialEnd || subscription.status === 'trialing' || at < trialEnd || at - trialEnd > TRIAL_ENDED_NEWS) return;
      // Ended by the trial, not cancelled before it (a trial replaced by a paid subscription).
      if (subscription.status === 'canceled' && (subscription.ended_at ?? 0) < trialEnd) return;
      const outcome = subscription.status === 'active' ? 'started' : subscription.status === 'canceled' ? 'no_card' : 'payment_failed';
      key = `mail:trial-ended:${subscription.id}`;
      mail = await trialEndedMail(to, {
        endedOn: formatDay(new Date(trialEnd * 1000)),
        accountUrl,
        outcome,
        plan: planName(subscription.items.data[0]?.price.id ?? ''),
      });
    } else if (type === 'invoice.paid') {
      const invoice = await call(() => stripe.invoices.retrieve(objectId));
      if (invoice.amount_paid <= 0) return;
      const line = [...invoice.lines.data].reverse().find((l) => l.amount > 0) ?? invoice.lines.data[0];
      const price = idOf(line?.pricing?.price_details?.price ?? null);
      key = `mail:receipt:${invoice.id}`;
      mail = await receiptMail(to, {
        amount: formatCents(invoice.amount_paid),
        paidOn: formatDay(new Date((invoice.status_transitions?.paid_at ?? invoice.created) * 1000)),
        description: catalogPlan(price) ? `${planName(price)} plan` : 'Parley',
        number: invoice.number ?? '',
        invoiceUrl: invoice.hosted_invoice_url ?? '',
      });
    }
    if (!mail || !(await claimOnce(key, 'parley.mail'))) return;
    try {
      await mailer.send(mail);
    } catch (error) {
      await release(key);
      throw error;
    }
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

  /**
   * The portal's return: with a valid signature the account is re-read from Stripe (a cancellation or a new card
   * shows at once, before its webhook); the console's account screen opens either way.
   */
  async function portalReturn(accountId: string, signature: string): Promise<string> {
    const expected = Buffer.from(portalSignature(accountId));
    const given = Buffer.from(signature);
    if (expected.length === given.length && timingSafeEqual(expected, given)) {
      const account = await models.Account.findById(accountId, { stripeCustomerId: 1 });
      if (account?.stripeCustomerId) await syncCustomer(account.stripeCustomerId);
    }
    return consoleUrl('/account');
  }

  return {
    webhookSecret: config.stripe.webhookSecret,
    stripe,
    ensureCustomer,
    startTrial,
    startTrialSoon,
    idle,
    syncCustomer,
    checkoutUrl,
    portalUrl,
    changePlan,
    listInvoices,
    nextInvoice,
    updateInfo,
    handleEvent,
    checkoutReturn,
    portalReturn,
  };
}
