/**
 * Invoices: listed, read, previewed (a plan change's proration), their lines, paid.
 */
import type { Ctx } from '../billing';
import { resolvePaymentMethod } from '../customers';
import { previewInvoice } from '../invoice-preview';
import { bool, int, obj, onlyKnown, str } from '../params';
import { payInvoice } from '../payments';
import { LIST_PARAMS, listOf, type Route, routeTable } from './routes';
import { itemsParam, prorationParam } from './subscriptions';

export function invoiceRoutes(ctx: Ctx): Route[] {
  const { state } = ctx;
  const { routes, on } = routeTable();
  on('GET', '/v1/invoices', [...LIST_PARAMS, 'customer', 'subscription', 'status', 'collection_method'], (p) => {
    const customer = str(p, 'customer');
    const subscription = str(p, 'subscription');
    const status = str(p, 'status');
    return listOf(
      state.data.invoices.filter(
        (i) =>
          (!customer || i.customer === customer) &&
          (!subscription || i.parent?.subscription_details.subscription === subscription) &&
          (!status || i.status === status),
      ),
      p,
      '/v1/invoices',
    );
  });
  on('POST', '/v1/invoices/create_preview', ['customer', 'subscription', 'subscription_details', 'automatic_tax', 'preview_mode'], (p) => {
    const details = obj(p, 'subscription_details') ?? {};
    onlyKnown(details, [
      'items',
      'proration_behavior',
      'proration_date',
      'cancel_at_period_end',
      'billing_cycle_anchor',
      'trial_end',
      'default_tax_rates',
    ]);
    return previewInvoice(ctx, {
      customer: str(p, 'customer'),
      subscription: str(p, 'subscription'),
      items: itemsParam(details),
      prorationBehavior: prorationParam(details),
      prorationDate: int(details, 'proration_date', 'subscription_details[proration_date]'),
      cancelAtPeriodEnd: bool(details, 'cancel_at_period_end'),
    });
  });
  on('GET', '/v1/invoices/:id', [], (_p, [id]) => state.invoice(id ?? '', 'id'));
  on('GET', '/v1/invoices/:id/lines', [...LIST_PARAMS], (p, [id]) => {
    const invoice = state.invoice(id ?? '', 'id');
    const lines = invoice.lines.data.map((l) => ({ ...l, created: invoice.created }));
    const page = listOf(lines, p, `/v1/invoices/${invoice.id}/lines`);
    return { ...page, data: page.data.map(({ created: _created, ...l }) => l) };
  });
  on('POST', '/v1/invoices/:id/pay', ['payment_method', 'off_session', 'paid_out_of_band'], (p, [id]) => {
    const invoice = state.invoice(id ?? '', 'id');
    const pmId = str(p, 'payment_method');
    const pm = pmId ? resolvePaymentMethod(ctx, state.customer(invoice.customer), pmId, 'payment_method') : undefined;
    return payInvoice(ctx, invoice, pm);
  });
  return routes;
}
