// Subscriptions: created (trial or first invoice), updated (plan changes with proration, cancellation at period end,
// trial end), canceled, and what happens when a period or a trial ends.

import { type Ctx, DAY, nextPeriodEnd } from './billing';
import { chargeSucceeds } from './cards';
import { resolvePaymentMethod } from './customers';
import { cardError, invalidRequest, paramInvalid, paramMissing, StripeApiError } from './errors';
import { attemptPayment, buildInvoice, chargeablePaymentMethod, issueInvoice, periodLines, prorationLines } from './invoices';
import { randomId } from './state';
import type { Interval, Invoice, InvoiceLine, Metadata, Price, Subscription, SubscriptionItem } from './types';

export function setStatus(ctx: Ctx, sub: Subscription, status: Subscription['status'], extra: Record<string, unknown> = {}): void {
  const previous: Record<string, unknown> = { ...extra };
  if (sub.status !== status) previous.status = sub.status;
  sub.status = status;
  if (Object.keys(previous).length > 0) ctx.state.publish('customer.subscription.updated', sub, previous);
}

/**
 * After one of a subscription's invoices is paid (a retry on the clock, the hosted invoice page, a new card): a
 * subscription that waited on payment (past due, incomplete) is active again once none of its invoices is open.
 */
export function settleAfterPayment(ctx: Ctx, invoice: Invoice): void {
  const subId = invoice.parent?.subscription_details.subscription;
  const sub = subId ? ctx.state.data.subscriptions.find((s) => s.id === subId) : undefined;
  if (
    sub &&
    (sub.status === 'past_due' || sub.status === 'incomplete') &&
    !ctx.state.data.invoices.some((i) => i.parent?.subscription_details.subscription === sub.id && i.status === 'open')
  ) {
    setStatus(ctx, sub, 'active');
  }
}

export interface SubscriptionParams {
  customer: string;
  items: { price: string; quantity: number }[];
  trialEnd?: number | 'now';
  trialPeriodDays?: number;
  defaultPaymentMethod?: string;
  paymentBehavior?: 'allow_incomplete' | 'default_incomplete' | 'error_if_incomplete' | 'pending_if_incomplete';
  cancelAtPeriodEnd?: boolean;
  metadata?: Metadata;
  description?: string;
  missingPaymentMethod?: 'cancel' | 'create_invoice' | 'pause';
}

function newItem(ctx: Ctx, subId: string, price: Price, quantity: number, start: number, end: number): SubscriptionItem {
  return {
    id: randomId('si', 14),
    object: 'subscription_item',
    created: ctx.state.now(),
    current_period_end: end,
    current_period_start: start,
    metadata: {},
    price,
    quantity,
    subscription: subId,
  };
}

export function createSubscription(ctx: Ctx, p: SubscriptionParams): Subscription {
  const { state } = ctx;
  const customer = state.customer(p.customer);
  if (p.items.length === 0) throw paramMissing('items');
  const prices = p.items.map((it, i) => state.price(it.price, `items[${i}][price]`));
  const first = prices[0] as Price;
  const interval = first.recurring?.interval;
  if (!interval)
    throw invalidRequest(
      `The price specified is set to \`type=one_time\` but this field only accepts prices with \`type=recurring\`.`,
      'items[0][price]',
    );
  if (prices.some((pr) => pr.recurring?.interval !== interval || pr.currency !== first.currency)) {
    throw invalidRequest('All prices on a subscription must have the same `recurring.interval` and `currency`.', 'items');
  }
  const now = state.now();
  let trialEnd: number | null = null;
  if (p.trialEnd !== undefined && p.trialEnd !== 'now') {
    if (p.trialEnd <= now) throw paramInvalid('trial_end', 'Invalid timestamp: must be an integer Unix timestamp in the future.');
    trialEnd = p.trialEnd;
  } else if (p.trialEnd === undefined && p.trialPeriodDays) {
    trialEnd = now + p.trialPeriodDays * DAY;
  }
  const pm = p.defaultPaymentMethod ? resolvePaymentMethod(ctx, customer, p.defaultPaymentMethod, 'default_payment_method') : null;
  const behavior = p.paymentBehavior ?? 'allow_incomplete';
  if (trialEnd === null && behavior === 'error_if_incomplete') {
    const card = pm ?? state.data.paymentMethods.find((x) => x.id === customer.invoice_settings.default_payment_method) ?? null;
    if (!card)
      throw invalidRequest(
        'This customer has no attached payment source or default payment method. Please consider adding a default payment method.',
      );
    if (!chargeSucceeds(card)) throw cardError('declined');
  }
  const id = randomId('sub', 24);
  const end = trialEnd ?? nextPeriodEnd(now, interval);
  const items = prices.map((price, i) => newItem(ctx, id, price, p.items[i]?.quantity ?? 1, now, end));
  const sub: Subscription = {
    id,
    object: 'subscription',
    billing_cycle_anchor: trialEnd ?? now,
    cancel_at: p.cancelAtPeriodEnd ? end : null,
    cancel_at_period_end: p.cancelAtPeriodEnd ?? false,
    canceled_at: p.cancelAtPeriodEnd ? now : null,
    cancellation_details: { comment: null, feedback: null, reason: p.cancelAtPeriodEnd ? 'cancellation_requested' : null },
    collection_method: 'charge_automatically',
    created: now,
    currency: first.currency,
    customer: customer.id,
    default_payment_method: pm?.id ?? null,
    description: p.description ?? null,
    ended_at: null,
    items: { object: 'list', data: items, has_more: false, total_count: items.length, url: `/v1/subscription_items?subscription=${id}` },
    latest_invoice: null,
    livemode: false,
    metadata: p.metadata ?? {},
    pending_update: null,
    start_date: now,
    status: trialEnd ? 'trialing' : 'incomplete',
    test_clock: null,
    trial_end: trialEnd,
    trial_settings: { end_behavior: { missing_payment_method: p.missingPaymentMethod ?? 'create_invoice' } },
    trial_start: trialEnd ? now : null,
  };
  customer.currency ??= first.currency;
  state.data.subscriptions.push(sub);
  const invoice = issueInvoice(
    ctx,
    buildInvoice(ctx, sub, customer, periodLines(ctx, sub, { start: now, end }, trialEnd !== null), 'subscription_create', {
      start: now,
      end: now,
    }),
    customer,
  );
  sub.latest_invoice = invoice.id;
  if (behavior !== 'default_incomplete' || invoice.amount_due === 0) {
    const paid = attemptPayment(ctx, invoice, { scheduleRetry: false });
    if (paid && !trialEnd) sub.status = 'active';
  }
  state.publish('customer.subscription.created', sub);
  return sub;
}

export interface UpdateParams {
  items?: { id?: string; price?: string; quantity?: number; deleted?: boolean }[];
  prorationBehavior?: 'create_prorations' | 'always_invoice' | 'none';
  prorationDate?: number;
  cancelAtPeriodEnd?: boolean;
  cancelAt?: number | null;
  defaultPaymentMethod?: string;
  trialEnd?: number | 'now';
  metadata?: Metadata;
  paymentBehavior?: 'allow_incomplete' | 'default_incomplete' | 'error_if_incomplete' | 'pending_if_incomplete';
  billingCycleAnchor?: 'now' | 'unchanged';
  description?: string;
  cancellationDetails?: { comment?: string; feedback?: string };
}

/** The items a subscription would have after an `items` update, and whether its interval changes. */
export function plannedItems(ctx: Ctx, sub: Subscription, changes: NonNullable<UpdateParams['items']>, now: number): SubscriptionItem[] {
  const items = sub.items.data.map((it) => ({ ...it }));
  changes.forEach((change, i) => {
    const existing = change.id ? items.find((it) => it.id === change.id) : undefined;
    if (change.id && !existing)
      throw new StripeApiError(400, 'invalid_request_error', `No such subscription item: '${change.id}'`, {
        code: 'resource_missing',
        param: `items[${i}][id]`,
      });
    if (change.deleted) {
      if (existing) items.splice(items.indexOf(existing), 1);
      return;
    }
    const price = change.price ? ctx.state.price(change.price, `items[${i}][price]`) : existing?.price;
    if (!price) throw paramMissing(`items[${i}][price]`);
    if (existing) {
      existing.price = price;
      existing.quantity = change.quantity ?? existing.quantity;
    } else {
      const first = sub.items.data[0];
      items.push(newItem(ctx, sub.id, price, change.quantity ?? 1, first?.current_period_start ?? now, first?.current_period_end ?? now));
    }
  });
  if (items.length === 0) throw invalidRequest('A subscription must have at least one active plan.', 'items');
  const interval = items[0]?.price.recurring?.interval;
  if (items.some((it) => it.price.recurring?.interval !== interval))
    throw invalidRequest('All prices on a subscription must have the same `recurring.interval`.', 'items');
  return items;
}

export function intervalOf(items: SubscriptionItem[]): Interval {
  return items[0]?.price.recurring?.interval ?? 'month';
}

export function updateSubscription(ctx: Ctx, sub: Subscription, p: UpdateParams): Subscription {
  const { state } = ctx;
  if (sub.status === 'canceled' || sub.status === 'incomplete_expired') {
    const touchesMore = Object.entries(p).some(([k, v]) => v !== undefined && k !== 'metadata' && k !== 'cancellationDetails');
    if (touchesMore) throw invalidRequest('A canceled subscription can only update its cancellation_details and metadata.');
  }
  const customer = state.customer(sub.customer);
  const now = state.now();
  const previous: Record<string, unknown> = {};
  const pm = p.defaultPaymentMethod ? resolvePaymentMethod(ctx, customer, p.defaultPaymentMethod, 'default_payment_method') : null;
  const planned = p.items ? plannedItems(ctx, sub, p.items, now) : null;
  const priceChanged =
    planned !== null &&
    JSON.stringify(planned.map((i) => [i.id, i.price.id, i.quantity])) !==
      JSON.stringify(sub.items.data.map((i) => [i.id, i.price.id, i.quantity]));
  const intervalChanged = planned !== null && intervalOf(planned) !== intervalOf(sub.items.data);
  const proration = p.prorationBehavior ?? 'create_prorations';
  const billsNow =
    priceChanged && sub.status !== 'trialing' && (intervalChanged || p.billingCycleAnchor === 'now' || proration === 'always_invoice');

  if (billsNow && p.paymentBehavior === 'error_if_incomplete') {
    const card = pm ?? chargeablePaymentMethod(ctx, { default_payment_method: null } as Invoice, sub, customer);
    if (!card)
      throw invalidRequest(
        'This customer has no attached payment source or default payment method. Please consider adding a default payment method.',
      );
    if (!chargeSucceeds(card)) throw cardError('declined');
  }

  if (pm) {
    previous.default_payment_method = sub.default_payment_method;
    sub.default_payment_method = pm.id;
  }
  if (p.metadata) {
    previous.metadata = sub.metadata;
    sub.metadata = Object.fromEntries(Object.entries({ ...sub.metadata, ...p.metadata }).filter(([, v]) => v !== ''));
  }
  if (p.description !== undefined) {
    previous.description = sub.description;
    sub.description = p.description || null;
  }
  if (p.cancellationDetails) {
    previous.cancellation_details = { ...sub.cancellation_details };
    sub.cancellation_details = {
      ...sub.cancellation_details,
      comment: p.cancellationDetails.comment ?? sub.cancellation_details.comment,
      feedback: p.cancellationDetails.feedback ?? sub.cancellation_details.feedback,
    };
  }

  let invoiceNow: Invoice | null = null;
  if (planned && priceChanged) {
    previous.items = plain(sub.items);
    const oldItems = sub.items.data;
    const at = p.prorationDate ?? now;
    if (sub.status === 'trialing') {
      sub.items.data = planned;
    } else if (intervalChanged || p.billingCycleAnchor === 'now') {
      const credit = proration === 'none' ? [] : prorationLines(ctx, sub, oldItems, [], at);
      const end = nextPeriodEnd(now, intervalOf(planned));
      for (const it of planned) {
        it.current_period_start = now;
        it.current_period_end = end;
      }
      sub.items.data = planned;
      sub.billing_cycle_anchor = now;
      const lines = [...pendingFor(ctx, sub), ...credit, ...periodLines(ctx, sub, { start: now, end }, false)];
      invoiceNow = buildInvoice(ctx, sub, customer, lines, 'subscription_update', { start: now, end: now });
    } else {
      const lines = proration === 'none' ? [] : prorationLines(ctx, sub, oldItems, planned, at);
      sub.items.data = planned;
      if (proration === 'always_invoice') {
        invoiceNow = buildInvoice(ctx, sub, customer, [...pendingFor(ctx, sub), ...lines], 'subscription_update', { start: now, end: now });
      } else {
        state.data.pendingLines.push(...lines);
      }
    }
    sub.items.total_count = sub.items.data.length;
  }

  if (p.cancelAtPeriodEnd !== undefined && p.cancelAtPeriodEnd !== sub.cancel_at_period_end) {
    previous.cancel_at_period_end = sub.cancel_at_period_end;
    previous.cancel_at = sub.cancel_at;
    previous.canceled_at = sub.canceled_at;
    sub.cancel_at_period_end = p.cancelAtPeriodEnd;
    sub.cancel_at = p.cancelAtPeriodEnd ? (sub.items.data[0]?.current_period_end ?? now) : null;
    sub.canceled_at = p.cancelAtPeriodEnd ? now : null;
    sub.cancellation_details = { ...sub.cancellation_details, reason: p.cancelAtPeriodEnd ? 'cancellation_requested' : null };
  }
  if (p.cancelAt !== undefined && p.cancelAt !== sub.cancel_at) {
    previous.cancel_at = sub.cancel_at;
    sub.cancel_at = p.cancelAt;
    sub.cancel_at_period_end = p.cancelAt !== null && p.cancelAt === sub.items.data[0]?.current_period_end;
  }

  if (invoiceNow) {
    const issued = issueInvoice(ctx, invoiceNow, customer);
    previous.latest_invoice = sub.latest_invoice;
    sub.latest_invoice = issued.id;
    const paid = attemptPayment(ctx, issued);
    if (!paid && sub.status === 'active') {
      previous.status = sub.status;
      sub.status = 'past_due';
    }
  }
  if (Object.keys(previous).length > 0) state.publish('customer.subscription.updated', sub, previous);
  else state.changed();

  if (p.trialEnd === 'now' && sub.status === 'trialing') {
    if (sub.trial_end !== null && sub.sandbox?.trialWillEndFor !== sub.trial_end) trialWillEnd(ctx, sub, sub.trial_end);
    sub.trial_end = now;
    endPeriod(ctx, sub, now);
  } else if (typeof p.trialEnd === 'number' && sub.status === 'trialing') {
    if (p.trialEnd <= now) throw paramInvalid('trial_end', 'Invalid timestamp: must be an integer Unix timestamp in the future.');
    const before = sub.trial_end;
    sub.trial_end = p.trialEnd;
    for (const it of sub.items.data) it.current_period_end = p.trialEnd;
    state.publish('customer.subscription.updated', sub, { trial_end: before });
  }
  return sub;
}

/** Takes the subscription's waiting proration lines off the pending list. */
function pendingFor(ctx: Ctx, sub: Subscription): InvoiceLine[] {
  const mine = ctx.state.data.pendingLines.filter((l) => l.subscription === sub.id);
  ctx.state.data.pendingLines = ctx.state.data.pendingLines.filter((l) => l.subscription !== sub.id);
  return mine;
}

function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

export function cancelSubscription(
  ctx: Ctx,
  sub: Subscription,
  reason: 'cancellation_requested' | 'payment_failed' = 'cancellation_requested',
): Subscription {
  if (sub.status === 'canceled') throw invalidRequest('A canceled subscription can only update its cancellation_details and metadata.');
  const now = ctx.state.now();
  sub.status = 'canceled';
  sub.ended_at = now;
  sub.canceled_at = now;
  sub.cancellation_details = { ...sub.cancellation_details, reason };
  ctx.state.data.pendingLines = ctx.state.data.pendingLines.filter((l) => l.subscription !== sub.id);
  ctx.state.publish('customer.subscription.deleted', sub);
  return sub;
}

/** What happens when a subscription's period (or trial) ends at `at`: cancel, renew and charge, or give up. */
export function endPeriod(ctx: Ctx, sub: Subscription, at: number): void {
  const { state } = ctx;
  const customer = state.customer(sub.customer);
  if (sub.cancel_at_period_end || (sub.cancel_at !== null && sub.cancel_at <= at)) {
    sub.status = 'canceled';
    sub.ended_at = at;
    state.publish('customer.subscription.deleted', sub);
    return;
  }
  const wasTrialing = sub.status === 'trialing';
  const pm = chargeablePaymentMethod(ctx, { default_payment_method: null } as Invoice, sub, customer);
  if (wasTrialing && !pm && sub.trial_settings.end_behavior.missing_payment_method === 'cancel') {
    sub.status = 'canceled';
    sub.ended_at = at;
    sub.canceled_at = at;
    sub.cancellation_details = { ...sub.cancellation_details, reason: 'cancellation_requested' };
    state.publish('customer.subscription.deleted', sub);
    return;
  }
  if (wasTrialing && !pm && sub.trial_settings.end_behavior.missing_payment_method === 'pause') {
    setStatus(ctx, sub, 'paused');
    return;
  }
  const previousItems = plain(sub.items);
  const interval = intervalOf(sub.items.data);
  const start = at;
  const end = nextPeriodEnd(at, interval);
  for (const it of sub.items.data) {
    it.current_period_start = start;
    it.current_period_end = end;
  }
  if (wasTrialing) sub.billing_cycle_anchor = at;
  const lines = [...pendingFor(ctx, sub), ...periodLines(ctx, sub, { start, end }, false)];
  const invoice = issueInvoice(
    ctx,
    buildInvoice(ctx, sub, customer, lines, 'subscription_cycle', {
      start: previousItems.data[0]?.current_period_start ?? start,
      end: start,
    }),
    customer,
  );
  const previousInvoice = sub.latest_invoice;
  sub.latest_invoice = invoice.id;
  const paid = attemptPayment(ctx, invoice);
  setStatus(ctx, sub, paid ? 'active' : 'past_due', { items: previousItems, latest_invoice: previousInvoice });
}

/** Stripe's reminder three days before a trial ends (at once for a shorter trial). */
export function trialWillEnd(ctx: Ctx, sub: Subscription, trialEnd: number): void {
  sub.sandbox = { ...sub.sandbox, trialWillEndFor: trialEnd };
  ctx.state.publish('customer.subscription.trial_will_end', sub);
}
