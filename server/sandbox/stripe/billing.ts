// Stripe Billing's behaviour in the sandbox: customers and their cards, subscriptions (trials, renewals, plan
// changes with proration, cancellation), invoices and their payment attempts, and the clock that moves time.

import { type CardInput, chargeSucceeds, paymentMethodFromCard, paymentMethodFromTestId } from './cards';
import { cardError, invalidRequest, paramInvalid, paramMissing, StripeApiError } from './errors';
import { randomId, type StripeState } from './state';
import type {
  Address,
  CheckoutSession,
  Customer,
  Interval,
  Invoice,
  InvoiceLine,
  Metadata,
  PaymentMethod,
  Price,
  SetupIntent,
  Subscription,
  SubscriptionItem,
  TaxId,
} from './types';

const DAY = 86_400;
/** Days after the first failed attempt at which a renewal is tried again; after the last one the subscription is canceled. */
export const RETRY_DAYS = [3, 5, 7];
/** An incomplete subscription whose first invoice is not paid expires after 23 hours, as at Stripe. */
const INCOMPLETE_TTL = 23 * 3600;
/** customer.subscription.trial_will_end goes out three days before the trial ends. */
const TRIAL_WILL_END_BEFORE = 3 * DAY;

export interface Ctx {
  state: StripeState;
  /** Public URL of the hosted pages (hosted invoice page …). */
  baseUrl: string;
  /** The business name on invoices and the hosted pages. */
  accountName: string;
}

/** Adds `n` intervals to a timestamp, keeping the anchor's day of month (clamped to the month's last day). */
export function addIntervals(anchor: number, interval: Interval, n: number): number {
  const d = new Date(anchor * 1000);
  if (interval === 'day') return anchor + n * DAY;
  if (interval === 'week') return anchor + n * 7 * DAY;
  const months = interval === 'month' ? n : 12 * n;
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + months;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const t = Date.UTC(y, m, Math.min(d.getUTCDate(), last), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds());
  return Math.floor(t / 1000);
}

function nextPeriodEnd(start: number, interval: Interval): number {
  return addIntervals(start, interval, 1);
}

const emptyAddress = (): Address => ({ city: null, country: null, line1: null, line2: null, postal_code: null, state: null });

export function newCustomer(
  ctx: Ctx,
  p: {
    email?: string | null;
    name?: string | null;
    description?: string | null;
    phone?: string | null;
    address?: Partial<Address> | null;
    metadata?: Metadata;
  },
): Customer {
  return {
    id: randomId('cus', 14),
    object: 'customer',
    address: p.address ? { ...emptyAddress(), ...p.address } : null,
    balance: 0,
    created: ctx.state.now(),
    currency: null,
    delinquent: false,
    description: p.description ?? null,
    email: p.email ?? null,
    invoice_prefix: randomId('x', 8)
      .slice(2)
      .toUpperCase()
      .replace(/[^A-Z0-9]/g, 'X'),
    invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
    livemode: false,
    metadata: p.metadata ?? {},
    name: p.name ?? null,
    next_invoice_sequence: 1,
    phone: p.phone ?? null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: 'none',
    test_clock: null,
  };
}

export function newTaxId(ctx: Ctx, customer: Customer, type: string, value: string): TaxId {
  return {
    id: randomId('txi', 14),
    object: 'tax_id',
    country: type.includes('_') ? (type.split('_')[0] ?? '').toUpperCase() : null,
    created: ctx.state.now(),
    customer: customer.id,
    livemode: false,
    type,
    value,
    verification: { status: 'unverified', verified_address: null, verified_name: null },
  };
}

export function taxIdList(customer: Customer): TaxId[] {
  customer.tax_ids ??= { object: 'list', data: [], has_more: false, url: `/v1/customers/${customer.id}/tax_ids` };
  return customer.tax_ids.data;
}

/**
 * Resolves a payment method id for a customer: a test id (`pm_card_visa`) becomes a new card attached to the
 * customer; an existing one must be attached to that customer already.
 */
export function resolvePaymentMethod(ctx: Ctx, customer: Customer, id: string, param: string): PaymentMethod {
  const fromTest = paymentMethodFromTestId(id, ctx.state.nowMs());
  if (fromTest) return attachPaymentMethod(ctx, fromTest, customer);
  const pm = ctx.state.paymentMethod(id, param);
  if (pm.customer !== customer.id) {
    throw invalidRequest(`The PaymentMethod provided (${id}) does not belong to the Customer. Attach it to the Customer first.`, param);
  }
  return pm;
}

export function attachPaymentMethod(ctx: Ctx, pm: PaymentMethod, customer: Customer): PaymentMethod {
  const { state } = ctx;
  if (pm.customer && pm.customer !== customer.id) {
    throw invalidRequest('The payment method you provided has already been attached to a customer.', 'payment_method');
  }
  if (pm.customer === customer.id) return pm;
  if (pm.behavior === 'declined') throw cardError('declined');
  if (pm.behavior === 'insufficient_funds') throw cardError('insufficient_funds');
  pm.customer = customer.id;
  if (!state.data.paymentMethods.includes(pm)) state.data.paymentMethods.push(pm);
  state.publish('payment_method.attached', pm);
  return pm;
}

export function detachPaymentMethod(ctx: Ctx, pm: PaymentMethod): PaymentMethod {
  const { state } = ctx;
  if (!pm.customer) throw invalidRequest(`The payment method ${pm.id} is not attached to a customer so detachment is impossible.`);
  const customer = state.data.customers.find((c) => c.id === pm.customer);
  const previous = pm.customer;
  pm.customer = null;
  if (customer && customer.invoice_settings.default_payment_method === pm.id) {
    customer.invoice_settings.default_payment_method = null;
    state.publish('customer.updated', customer, { invoice_settings: { default_payment_method: pm.id } });
  }
  for (const sub of state.data.subscriptions) if (sub.default_payment_method === pm.id) sub.default_payment_method = null;
  state.publish('payment_method.detached', pm, { customer: previous });
  return pm;
}

/** Sets the customer's default card for invoices (customer.updated). */
export function setDefaultPaymentMethod(ctx: Ctx, customer: Customer, pmId: string | null): void {
  const before = customer.invoice_settings.default_payment_method;
  if (before === pmId) return;
  customer.invoice_settings.default_payment_method = pmId;
  ctx.state.publish('customer.updated', customer, { invoice_settings: { default_payment_method: before } });
}

function productName(ctx: Ctx, price: Price): string {
  return ctx.state.data.products.find((p) => p.id === price.product)?.name ?? price.product;
}

function line(
  sub: Subscription,
  item: SubscriptionItem,
  amount: number,
  description: string,
  period: { start: number; end: number },
  proration: boolean,
): InvoiceLine {
  return {
    id: randomId('il', 24),
    object: 'line_item',
    amount,
    currency: item.price.currency,
    description,
    discount_amounts: [],
    discountable: !proration,
    discounts: [],
    invoice: null,
    livemode: false,
    metadata: {},
    parent: {
      type: 'subscription_item_details',
      invoice_item_details: null,
      subscription_item_details: {
        invoice_item: null,
        proration,
        proration_details: { credited_items: null },
        subscription: sub.id,
        subscription_item: item.id,
      },
    },
    period,
    pretax_credit_amounts: [],
    pricing: {
      price_details: { price: item.price.id, product: item.price.product },
      type: 'price_details',
      unit_amount_decimal: String(item.price.unit_amount),
    },
    quantity: item.quantity,
    quantity_decimal: String(item.quantity),
    subscription: sub.id,
    subtotal: amount,
    taxes: [],
  };
}

function intervalWord(interval: Interval): string {
  return interval;
}

/** The lines billing each item for a period: "1 × Pro (at $79.00 / month)". */
function periodLines(ctx: Ctx, sub: Subscription, period: { start: number; end: number }, trial: boolean): InvoiceLine[] {
  return sub.items.data.map((item) => {
    const name = productName(ctx, item.price);
    const recurring = item.price.recurring?.interval ?? 'month';
    const description = trial
      ? `Trial period for ${name}`
      : `${item.quantity} × ${name} (at ${formatMoney(item.price.unit_amount, item.price.currency)} / ${intervalWord(recurring)})`;
    return line(sub, item, trial ? 0 : item.price.unit_amount * item.quantity, description, period, false);
  });
}

export function formatMoney(cents: number, currency: string): string {
  const sign = cents < 0 ? '-' : '';
  const symbol = currency.toLowerCase() === 'usd' ? '$' : currency.toLowerCase() === 'eur' ? '€' : `${currency.toUpperCase()} `;
  return `${sign}${symbol}${(Math.abs(cents) / 100).toFixed(2)}`;
}

function dateWords(ts: number): string {
  return new Date(ts * 1000).toLocaleDateString('en-US', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
}

/** Proration lines for replacing `oldItems` by `newItems` at `at` within the current period. */
function prorationLines(
  ctx: Ctx,
  sub: Subscription,
  oldItems: SubscriptionItem[],
  newItems: SubscriptionItem[],
  at: number,
): InvoiceLine[] {
  const first = sub.items.data[0];
  if (!first) return [];
  const start = first.current_period_start;
  const end = first.current_period_end;
  const fraction = end > start ? Math.max(0, Math.min(1, (end - at) / (end - start))) : 0;
  const period = { start: at, end };
  const lines: InvoiceLine[] = [];
  for (const item of oldItems) {
    const amount = -Math.round(item.price.unit_amount * item.quantity * fraction);
    if (amount !== 0)
      lines.push(line(sub, item, amount, `Unused time on ${productName(ctx, item.price)} after ${dateWords(at)}`, period, true));
  }
  for (const item of newItems) {
    const amount = Math.round(item.price.unit_amount * item.quantity * fraction);
    if (amount !== 0)
      lines.push(line(sub, item, amount, `Remaining time on ${productName(ctx, item.price)} after ${dateWords(at)}`, period, true));
  }
  return lines;
}

/** Builds an invoice (not kept): totals, customer credit applied, hosted page URL. */
function buildInvoice(
  ctx: Ctx,
  sub: Subscription,
  customer: Customer,
  lines: InvoiceLine[],
  reason: Invoice['billing_reason'],
  period: { start: number; end: number },
  preview = false,
): Invoice {
  const id = preview ? randomId('upcoming_in', 24) : randomId('in', 24);
  const total = lines.reduce((s, l) => s + l.amount, 0);
  const balance = customer.balance;
  const applied = total + balance;
  const amountDue = Math.max(0, applied);
  for (const l of lines) l.invoice = preview ? null : id;
  const now = ctx.state.now();
  return {
    id,
    object: 'invoice',
    account_country: 'US',
    account_name: ctx.accountName,
    amount_due: amountDue,
    amount_overpaid: 0,
    amount_paid: 0,
    amount_remaining: amountDue,
    attempt_count: 0,
    attempted: false,
    auto_advance: !preview,
    billing_reason: reason,
    collection_method: 'charge_automatically',
    created: preview ? period.end : now,
    currency: sub.currency,
    customer: customer.id,
    customer_address: customer.address,
    customer_email: customer.email,
    customer_name: customer.name,
    default_payment_method: null,
    description: null,
    ending_balance: preview ? null : Math.min(0, applied),
    hosted_invoice_url: preview ? null : `${ctx.baseUrl}/invoices/${id}`,
    invoice_pdf: null,
    last_finalization_error: null,
    lines: { object: 'list', data: lines, has_more: false, total_count: lines.length, url: `/v1/invoices/${id}/lines` },
    livemode: false,
    metadata: {},
    next_payment_attempt: preview ? period.end : null,
    number: preview ? null : `${customer.invoice_prefix}-${String(customer.next_invoice_sequence).padStart(4, '0')}`,
    parent: { type: 'subscription_details', quote_details: null, subscription_details: { metadata: sub.metadata, subscription: sub.id } },
    period_end: period.end,
    period_start: period.start,
    starting_balance: balance,
    status: preview ? 'draft' : 'open',
    status_transitions: { finalized_at: preview ? null : now, marked_uncollectible_at: null, paid_at: null, voided_at: null },
    subtotal: total,
    subtotal_excluding_tax: total,
    test_clock: null,
    total,
    total_excluding_tax: total,
    webhooks_delivered_at: preview ? null : now,
  };
}

/**
 * Keeps a finalized invoice and publishes invoice.created/finalized. The customer's balance moves to the invoice's
 * ending balance, as at Stripe: a credit it had is used up, and a negative total (a downgrade's proration) becomes
 * a credit that the next invoices take off their amount due (customer.updated).
 */
function issueInvoice(ctx: Ctx, invoice: Invoice, customer: Customer): Invoice {
  customer.next_invoice_sequence += 1;
  ctx.state.data.invoices.push(invoice);
  ctx.state.publish('invoice.created', invoice);
  ctx.state.publish('invoice.finalized', invoice);
  const before = customer.balance;
  if (invoice.ending_balance !== null && invoice.ending_balance !== before) {
    customer.balance = invoice.ending_balance;
    ctx.state.publish('customer.updated', customer, { balance: before });
  }
  return invoice;
}

function chargeablePaymentMethod(ctx: Ctx, invoice: Invoice, sub: Subscription | null, customer: Customer): PaymentMethod | null {
  const id = invoice.default_payment_method ?? sub?.default_payment_method ?? customer.invoice_settings.default_payment_method;
  if (!id) return null;
  return ctx.state.data.paymentMethods.find((p) => p.id === id && p.customer === customer.id) ?? null;
}

/**
 * One payment attempt on an open invoice. Paid: invoice.paid + invoice.payment_succeeded. Failed:
 * invoice.payment_failed and the next attempt scheduled. Returns whether it was paid.
 */
export function attemptPayment(ctx: Ctx, invoice: Invoice, opts: { paymentMethod?: PaymentMethod; scheduleRetry?: boolean } = {}): boolean {
  const { state } = ctx;
  if (invoice.status !== 'open') return invoice.status === 'paid';
  const customer = state.customer(invoice.customer);
  const subId = invoice.parent?.subscription_details.subscription;
  const sub = subId ? (state.data.subscriptions.find((s) => s.id === subId) ?? null) : null;
  const now = state.now();
  if (invoice.amount_due === 0) {
    markPaid(ctx, invoice, now);
    return true;
  }
  const pm = opts.paymentMethod ?? chargeablePaymentMethod(ctx, invoice, sub, customer);
  invoice.attempt_count += 1;
  invoice.attempted = true;
  if (pm && chargeSucceeds(pm)) {
    markPaid(ctx, invoice, now);
    if (customer.delinquent && !state.data.invoices.some((i) => i.customer === customer.id && i.status === 'open')) {
      customer.delinquent = false;
      state.publish('customer.updated', customer, { delinquent: true });
    }
    return true;
  }
  invoice.last_error = pm ? 'card_declined' : 'no_payment_method';
  const retryIndex = invoice.attempt_count - 1;
  const retryDay = RETRY_DAYS[retryIndex];
  invoice.next_payment_attempt = opts.scheduleRetry === false || retryDay === undefined ? null : now + retryDay * DAY;
  state.publish('invoice.payment_failed', invoice);
  if (!customer.delinquent) {
    customer.delinquent = true;
    state.publish('customer.updated', customer, { delinquent: false });
  }
  state.changed();
  return false;
}

function markPaid(ctx: Ctx, invoice: Invoice, now: number): void {
  invoice.status = 'paid';
  invoice.amount_paid = invoice.amount_due;
  invoice.amount_remaining = 0;
  invoice.next_payment_attempt = null;
  invoice.status_transitions.paid_at = now;
  delete invoice.last_error;
  ctx.state.publish('invoice.paid', invoice);
  ctx.state.publish('invoice.payment_succeeded', invoice);
}

function setStatus(ctx: Ctx, sub: Subscription, status: Subscription['status'], extra: Record<string, unknown> = {}): void {
  const previous: Record<string, unknown> = { ...extra };
  if (sub.status !== status) previous.status = sub.status;
  sub.status = status;
  if (Object.keys(previous).length > 0) ctx.state.publish('customer.subscription.updated', sub, previous);
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
function plannedItems(ctx: Ctx, sub: Subscription, changes: NonNullable<UpdateParams['items']>, now: number): SubscriptionItem[] {
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

function intervalOf(items: SubscriptionItem[]): Interval {
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
function endPeriod(ctx: Ctx, sub: Subscription, at: number): void {
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

interface Due {
  at: number;
  run: () => void;
}

/** The next thing due on the clock at or before `until`, if any. */
function nextDue(ctx: Ctx, until: number): Due | null {
  const { state } = ctx;
  const due: Due[] = [];
  for (const sub of state.data.subscriptions) {
    const end = sub.items.data[0]?.current_period_end;
    if (end !== undefined && (sub.status === 'trialing' || sub.status === 'active' || sub.status === 'past_due'))
      due.push({ at: end, run: () => endPeriod(ctx, sub, end) });
    if (sub.status === 'incomplete') due.push({ at: sub.created + INCOMPLETE_TTL, run: () => expireIncomplete(ctx, sub) });
    const trialEnd = sub.trial_end;
    if (sub.status === 'trialing' && trialEnd !== null && sub.sandbox?.trialWillEndFor !== trialEnd) {
      due.push({ at: Math.max(sub.created, trialEnd - TRIAL_WILL_END_BEFORE), run: () => trialWillEnd(ctx, sub, trialEnd) });
    }
  }
  for (const invoice of state.data.invoices) {
    const at = invoice.next_payment_attempt;
    if (invoice.status === 'open' && at !== null) due.push({ at, run: () => retryInvoice(ctx, invoice) });
  }
  let best: Due | null = null;
  for (const d of due) if (d.at <= until && (best === null || d.at < best.at)) best = d;
  return best;
}

/** Stripe's reminder three days before a trial ends (at once for a shorter trial). */
function trialWillEnd(ctx: Ctx, sub: Subscription, trialEnd: number): void {
  sub.sandbox = { ...sub.sandbox, trialWillEndFor: trialEnd };
  ctx.state.publish('customer.subscription.trial_will_end', sub);
}

function expireIncomplete(ctx: Ctx, sub: Subscription): void {
  const invoice = sub.latest_invoice ? ctx.state.data.invoices.find((i) => i.id === sub.latest_invoice) : undefined;
  if (invoice && invoice.status === 'open') {
    invoice.status = 'void';
    invoice.status_transitions.voided_at = ctx.state.now();
    invoice.next_payment_attempt = null;
    ctx.state.publish('invoice.voided', invoice);
  }
  setStatus(ctx, sub, 'incomplete_expired');
}

function retryInvoice(ctx: Ctx, invoice: Invoice): void {
  const paid = attemptPayment(ctx, invoice);
  const subId = invoice.parent?.subscription_details.subscription;
  const sub = subId ? ctx.state.data.subscriptions.find((s) => s.id === subId) : undefined;
  if (!sub) return;
  if (paid) {
    if (sub.status === 'past_due' || sub.status === 'incomplete') setStatus(ctx, sub, 'active');
  } else if (invoice.next_payment_attempt === null && sub.status === 'past_due') {
    cancelSubscription(ctx, sub, 'payment_failed');
  }
}

/** Pays an open invoice now (the hosted invoice page, the portal after a new card, invoices.pay). */
export function payInvoice(ctx: Ctx, invoice: Invoice, pm?: PaymentMethod): Invoice {
  if (invoice.status === 'paid') throw invalidRequest('Invoice is already paid.');
  if (invoice.status !== 'open')
    throw invalidRequest(`You can only pay an invoice that is open; this one is ${invoice.status ?? 'draft'}.`);
  const paid = attemptPayment(ctx, invoice, { paymentMethod: pm, scheduleRetry: invoice.next_payment_attempt !== null });
  if (!paid) throw cardError('declined');
  retryInvoiceFollowUp(ctx, invoice);
  return invoice;
}

function retryInvoiceFollowUp(ctx: Ctx, invoice: Invoice): void {
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

/** Tries the customer's open invoices again with their (new) default card, as Stripe does after a card update. */
export function retryOpenInvoices(ctx: Ctx, customer: Customer): void {
  for (const invoice of ctx.state.data.invoices.filter((i) => i.customer === customer.id && i.status === 'open')) {
    if (attemptPayment(ctx, invoice)) retryInvoiceFollowUp(ctx, invoice);
  }
}

/** Moves the sandbox clock to `target` (unix seconds), running every trial end, renewal and retry due on the way. */
export function advanceClock(ctx: Ctx, target: number): void {
  if (target < ctx.state.now()) throw invalidRequest('The clock only moves forward.');
  runDue(ctx, target);
}

function runDue(ctx: Ctx, target: number): void {
  const { state } = ctx;
  const offsetBefore = state.data.clockOffsetMs;
  let ran = false;
  for (let due = nextDue(ctx, target); due !== null; due = nextDue(ctx, target)) {
    if (due.at > state.now()) state.data.clockOffsetMs += due.at * 1000 - state.nowMs();
    due.run();
    ran = true;
  }
  if (target > state.now()) state.data.clockOffsetMs += target * 1000 - state.nowMs();
  if (ran || state.data.clockOffsetMs !== offsetBefore) state.changed();
}

/** Runs what became due as wall-clock time passed. */
export function tick(ctx: Ctx): void {
  runDue(ctx, ctx.state.now());
}

export interface PreviewParams {
  customer?: string;
  subscription?: string;
  items?: NonNullable<UpdateParams['items']>;
  prorationBehavior?: UpdateParams['prorationBehavior'];
  prorationDate?: number;
  cancelAtPeriodEnd?: boolean;
}

/** The invoice a subscription will get next (POST /v1/invoices/create_preview), optionally after a change. */
export function previewInvoice(ctx: Ctx, p: PreviewParams): Invoice {
  const { state } = ctx;
  if (!p.customer && !p.subscription) throw paramMissing('customer');
  const sub = p.subscription
    ? state.subscription(p.subscription)
    : state.data.subscriptions.find(
        (s) => s.customer === p.customer && ['trialing', 'active', 'past_due', 'incomplete'].includes(s.status),
      );
  const customerId = p.customer ?? sub?.customer ?? '';
  const customer = state.customer(customerId);
  const none = () =>
    new StripeApiError(404, 'invalid_request_error', `No upcoming invoices for customer: ${customer.id}`, {
      code: 'invoice_upcoming_none',
    });
  if (!sub || sub.customer !== customer.id) throw none();
  const cancels = p.cancelAtPeriodEnd ?? sub.cancel_at_period_end;
  if (sub.status === 'canceled' || sub.status === 'incomplete_expired' || (cancels && !p.items)) throw none();
  const now = state.now();
  const current = sub.items.data;
  const periodEnd = current[0]?.current_period_end ?? now;
  const periodStart = current[0]?.current_period_start ?? now;
  const planned = p.items ? plannedItems(ctx, sub, p.items, now) : current;
  const shadow: Subscription = { ...sub, items: { ...sub.items, data: planned } };
  const pending = state.data.pendingLines.filter((l) => l.subscription === sub.id).map((l) => ({ ...l }));
  const proration = p.prorationBehavior ?? 'create_prorations';
  let lines: InvoiceLine[];
  let period = { start: periodStart, end: periodEnd };
  let created = periodEnd;
  if (!p.items || sub.status === 'trialing') {
    lines = [...pending, ...periodLines(ctx, shadow, { start: periodEnd, end: nextPeriodEnd(periodEnd, intervalOf(planned)) }, false)];
  } else if (intervalOf(planned) !== intervalOf(current)) {
    const end = nextPeriodEnd(now, intervalOf(planned));
    const credit = proration === 'none' ? [] : prorationLines(ctx, sub, current, [], p.prorationDate ?? now);
    lines = [...pending, ...credit, ...periodLines(ctx, shadow, { start: now, end }, false)];
    period = { start: now, end: now };
    created = now;
  } else {
    const prorations = proration === 'none' ? [] : prorationLines(ctx, sub, current, planned, p.prorationDate ?? now);
    if (proration === 'always_invoice') {
      lines = [...pending, ...prorations];
      period = { start: now, end: now };
      created = now;
    } else {
      lines = [
        ...pending,
        ...prorations,
        ...periodLines(ctx, shadow, { start: periodEnd, end: nextPeriodEnd(periodEnd, intervalOf(planned)) }, false),
      ];
    }
  }
  const invoice = buildInvoice(ctx, shadow, customer, lines, created === now && p.items ? 'subscription_update' : 'upcoming', period, true);
  invoice.created = created;
  invoice.next_payment_attempt = created;
  return invoice;
}

/**
 * Completes a Checkout Session with a card, as the hosted page does: a declined card (or, without a trial, a card
 * whose charges fail) changes nothing; otherwise the customer, the card, the subscription and its first invoice
 * are created and checkout.session.completed is sent.
 */
export function completeCheckout(
  ctx: Ctx,
  session: CheckoutSession,
  input: { card: CardInput; email: string; name: string },
): Subscription | SetupIntent {
  const { state } = ctx;
  if (session.status !== 'open') throw invalidRequest('This Checkout Session is no longer active.');
  if (session.mode === 'setup') return completeSetup(ctx, session, input);
  const pm = paymentMethodFromCard(input.card, state.nowMs());
  const trial = session.sandbox.trialEnd !== null || (session.sandbox.trialPeriodDays ?? 0) > 0;
  if (!trial && (session.amount_total ?? 0) > 0 && !chargeSucceeds(pm)) throw cardError('declined');
  let customer = session.customer ? state.customer(session.customer) : null;
  if (!customer) {
    customer = newCustomer(ctx, { email: input.email || session.customer_email, name: input.name || null });
    state.data.customers.push(customer);
    state.publish('customer.created', customer);
  }
  pm.billing_details.email = input.email || customer.email;
  attachPaymentMethod(ctx, pm, customer);
  const sub = createSubscription(ctx, {
    customer: customer.id,
    items: session.sandbox.items,
    trialEnd: session.sandbox.trialEnd ?? undefined,
    trialPeriodDays: session.sandbox.trialPeriodDays ?? undefined,
    defaultPaymentMethod: pm.id,
    metadata: session.sandbox.subscriptionMetadata,
  });
  session.status = 'complete';
  session.payment_status = trial ? 'no_payment_required' : 'paid';
  session.customer = customer.id;
  session.customer_email = customer.email;
  session.customer_details = {
    address: pm.billing_details.address,
    email: customer.email,
    name: pm.billing_details.name,
    phone: null,
    tax_exempt: 'none',
    tax_ids: [],
  };
  session.subscription = sub.id;
  session.invoice = sub.latest_invoice;
  session.url = null;
  state.publish('checkout.session.completed', session);
  return sub;
}

/**
 * Checkout in setup mode: the card is checked (a declined one changes nothing), attached to the session's customer
 * through a SetupIntent, and nothing is charged. As at Stripe, the card does not become the customer's default:
 * the integration does that on checkout.session.completed.
 */
function completeSetup(ctx: Ctx, session: CheckoutSession, input: { card: CardInput; email: string; name: string }): SetupIntent {
  const { state } = ctx;
  const pm = paymentMethodFromCard(input.card, state.nowMs());
  const customer = session.customer ? state.customer(session.customer) : null;
  pm.billing_details.email = input.email || customer?.email || null;
  if (customer) attachPaymentMethod(ctx, pm, customer);
  else {
    if (pm.behavior === 'declined') throw cardError('declined');
    if (pm.behavior === 'insufficient_funds') throw cardError('insufficient_funds');
    state.data.paymentMethods.push(pm);
  }
  const now = state.now();
  const intent: SetupIntent = {
    id: randomId('seti', 24),
    object: 'setup_intent',
    application: null,
    automatic_payment_methods: null,
    cancellation_reason: null,
    client_secret: '',
    created: now,
    customer: customer?.id ?? null,
    description: null,
    flow_directions: null,
    last_setup_error: null,
    latest_attempt: null,
    livemode: false,
    mandate: null,
    metadata: session.sandbox.setupIntentMetadata ?? {},
    next_action: null,
    on_behalf_of: null,
    payment_method: pm.id,
    payment_method_options: { card: { mandate_options: null, network: null, request_three_d_secure: 'automatic' } },
    payment_method_types: ['card'],
    single_use_mandate: null,
    status: 'succeeded',
    usage: 'off_session',
  };
  intent.client_secret = `${intent.id}_secret_${randomId('x', 24).slice(2)}`;
  state.data.setupIntents.push(intent);
  state.publish('setup_intent.created', intent);
  state.publish('setup_intent.succeeded', intent);
  session.status = 'complete';
  session.payment_status = 'no_payment_required';
  session.customer_email = customer?.email ?? (input.email || session.customer_email);
  session.customer_details = {
    address: pm.billing_details.address,
    email: session.customer_email,
    name: pm.billing_details.name,
    phone: null,
    tax_exempt: 'none',
    tax_ids: [],
  };
  session.setup_intent = intent.id;
  session.url = null;
  state.publish('checkout.session.completed', session);
  return intent;
}

/** A new default card from the portal: for the customer and its live subscriptions; open invoices are tried again. */
export function replaceCard(ctx: Ctx, customer: Customer, card: CardInput): PaymentMethod {
  const { state } = ctx;
  const pm = paymentMethodFromCard(card, state.nowMs());
  attachPaymentMethod(ctx, pm, customer);
  setDefaultPaymentMethod(ctx, customer, pm.id);
  for (const sub of state.data.subscriptions.filter(
    (s) => s.customer === customer.id && !['canceled', 'incomplete_expired'].includes(s.status),
  )) {
    const before = sub.default_payment_method;
    sub.default_payment_method = pm.id;
    state.publish('customer.subscription.updated', sub, { default_payment_method: before });
  }
  retryOpenInvoices(ctx, customer);
  return pm;
}
