// Invoices and their payment attempts: the lines that bill a period or prorate a change, the invoice built from
// them with the customer's balance applied, its issue, and each attempt to charge it (with the retries it schedules).

import { type Ctx, DAY } from './billing';
import { chargeSucceeds } from './cards';
import { randomId } from './state';
import type { Customer, Invoice, InvoiceLine, PaymentMethod, Price, Subscription, SubscriptionItem } from './types';

/** Days after the first failed attempt at which a renewal is tried again; after the last one the subscription is canceled. */
export const RETRY_DAYS = [3, 5, 7];

/** A price's product name, as Stripe's pages and invoice lines show it (the product id when the product is gone). */
export function productName(ctx: Ctx, price: Price): string {
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

/** The lines billing each item for a period: "1 × Pro (at $79.00 / month)". */
export function periodLines(ctx: Ctx, sub: Subscription, period: { start: number; end: number }, trial: boolean): InvoiceLine[] {
  return sub.items.data.map((item) => {
    const name = productName(ctx, item.price);
    const recurring = item.price.recurring?.interval ?? 'month';
    const description = trial
      ? `Trial period for ${name}`
      : `${item.quantity} × ${name} (at ${formatMoney(item.price.unit_amount, item.price.currency)} / ${recurring})`;
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
export function prorationLines(
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
export function buildInvoice(
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
export function issueInvoice(ctx: Ctx, invoice: Invoice, customer: Customer): Invoice {
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

export function chargeablePaymentMethod(ctx: Ctx, invoice: Invoice, sub: Subscription | null, customer: Customer): PaymentMethod | null {
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
