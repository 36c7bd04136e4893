// Open invoices paid when someone acts rather than on schedule: invoices.pay, the hosted invoice page, a new card
// from the portal. A subscription that waited on them becomes active again.

import type { Ctx } from './billing';
import { type CardInput, paymentMethodFromCard } from './cards';
import { attachPaymentMethod, setDefaultPaymentMethod } from './customers';
import { cardError, invalidRequest } from './errors';
import { attemptPayment } from './invoices';
import { settleAfterPayment } from './subscriptions';
import type { Customer, Invoice, PaymentMethod } from './types';

/** Pays an open invoice now (the hosted invoice page, the portal after a new card, invoices.pay). */
export function payInvoice(ctx: Ctx, invoice: Invoice, pm?: PaymentMethod): Invoice {
  if (invoice.status === 'paid') throw invalidRequest('Invoice is already paid.');
  if (invoice.status !== 'open')
    throw invalidRequest(`You can only pay an invoice that is open; this one is ${invoice.status ?? 'draft'}.`);
  const paid = attemptPayment(ctx, invoice, { paymentMethod: pm, scheduleRetry: invoice.next_payment_attempt !== null });
  if (!paid) throw cardError('declined');
  settleAfterPayment(ctx, invoice);
  return invoice;
}

/** Tries the customer's open invoices again with their (new) default card, as Stripe does after a card update. */
export function retryOpenInvoices(ctx: Ctx, customer: Customer): void {
  for (const invoice of ctx.state.data.invoices.filter((i) => i.customer === customer.id && i.status === 'open')) {
    if (attemptPayment(ctx, invoice)) settleAfterPayment(ctx, invoice);
  }
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
