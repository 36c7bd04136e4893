// The upcoming-invoice preview (POST /v1/invoices/create_preview): the invoice a subscription gets next, optionally after a change.

import { type Ctx, nextPeriodEnd } from './billing';
import { paramMissing, StripeApiError } from './errors';
import { buildInvoice, periodLines, prorationLines } from './invoices';
import { intervalOf, plannedItems, type UpdateParams } from './subscriptions';
import type { Invoice, InvoiceLine, Subscription } from './types';

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
