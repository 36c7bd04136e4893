/**
 * Subscriptions: created (trials, payment behaviour), listed, read, updated with proration, cancelled.
 */
import type { Ctx } from '../billing';
import { invalidRequest, paramMissing } from '../errors';
import type { Params } from '../params';
import { arr, bool, int, isRecord, metadata, obj, onlyKnown, requiredStr, str, timestampOrNow } from '../params';
import { cancelSubscription, createSubscription, updateSubscription } from '../subscriptions';
import { LIST_PARAMS, listOf, type Route, routeTable } from './routes';

export function itemsParam(params: Params): { id?: string; price?: string; quantity?: number; deleted?: boolean }[] | undefined {
  const list = arr(params, 'items');
  if (!list) return undefined;
  return list.map((raw, i) => {
    if (!isRecord(raw)) throw invalidRequest('Invalid object', `items[${i}]`);
    onlyKnown(raw, ['id', 'price', 'quantity', 'deleted', 'metadata']);
    return {
      id: str(raw, 'id', `items[${i}][id]`),
      price: str(raw, 'price', `items[${i}][price]`),
      quantity: int(raw, 'quantity', `items[${i}][quantity]`),
      deleted: bool(raw, 'deleted'),
    };
  });
}

export function prorationParam(params: Params): 'create_prorations' | 'always_invoice' | 'none' | undefined {
  const v = str(params, 'proration_behavior');
  if (v === undefined) return undefined;
  if (v !== 'create_prorations' && v !== 'always_invoice' && v !== 'none')
    throw invalidRequest(`Invalid proration_behavior: must be one of create_prorations, none, or always_invoice`, 'proration_behavior');
  return v;
}

export function paymentBehaviorParam(
  params: Params,
): 'allow_incomplete' | 'default_incomplete' | 'error_if_incomplete' | 'pending_if_incomplete' | undefined {
  const v = str(params, 'payment_behavior');
  if (v === undefined) return undefined;
  if (v !== 'allow_incomplete' && v !== 'default_incomplete' && v !== 'error_if_incomplete' && v !== 'pending_if_incomplete') {
    throw invalidRequest(
      'Invalid payment_behavior: must be one of allow_incomplete, default_incomplete, error_if_incomplete, or pending_if_incomplete',
      'payment_behavior',
    );
  }
  return v;
}

export function subscriptionRoutes(ctx: Ctx): Route[] {
  const { state } = ctx;
  const { routes, on } = routeTable();
  on(
    'POST',
    '/v1/subscriptions',
    [
      'customer',
      'items',
      'trial_end',
      'trial_period_days',
      'default_payment_method',
      'payment_behavior',
      'cancel_at_period_end',
      'metadata',
      'description',
      'trial_settings',
      'proration_behavior',
      'collection_method',
      'off_session',
      'payment_settings',
    ],
    (p) => {
      const items = itemsParam(p);
      if (!items || items.length === 0) throw paramMissing('items');
      const behavior = str(
        obj(obj(p, 'trial_settings') ?? {}, 'end_behavior') ?? {},
        'missing_payment_method',
        'trial_settings[end_behavior][missing_payment_method]',
      );
      if (behavior !== undefined && behavior !== 'cancel' && behavior !== 'create_invoice' && behavior !== 'pause') {
        throw invalidRequest(
          'Invalid trial_settings[end_behavior][missing_payment_method]',
          'trial_settings[end_behavior][missing_payment_method]',
        );
      }
      return createSubscription(ctx, {
        customer: requiredStr(p, 'customer'),
        items: items.map((it, i) => {
          if (!it.price) throw paramMissing(`items[${i}][price]`);
          return { price: it.price, quantity: it.quantity ?? 1 };
        }),
        trialEnd: timestampOrNow(p, 'trial_end'),
        trialPeriodDays: int(p, 'trial_period_days'),
        defaultPaymentMethod: str(p, 'default_payment_method'),
        paymentBehavior: paymentBehaviorParam(p),
        cancelAtPeriodEnd: bool(p, 'cancel_at_period_end'),
        metadata: metadata(p),
        description: str(p, 'description'),
        missingPaymentMethod: behavior as 'cancel' | 'create_invoice' | 'pause' | undefined,
      });
    },
  );
  on('GET', '/v1/subscriptions', [...LIST_PARAMS, 'customer', 'status', 'price'], (p) => {
    const customer = str(p, 'customer');
    const status = str(p, 'status');
    const price = str(p, 'price');
    return listOf(
      state.data.subscriptions.filter(
        (s) =>
          (!customer || s.customer === customer) &&
          (status === 'all' || (status ? s.status === status : s.status !== 'canceled' && s.status !== 'incomplete_expired')) &&
          (!price || s.items.data.some((it) => it.price.id === price)),
      ),
      p,
      '/v1/subscriptions',
    );
  });
  on('GET', '/v1/subscriptions/:id', [], (_p, [id]) => state.subscription(id ?? '', 'id'));
  on(
    'POST',
    '/v1/subscriptions/:id',
    [
      'items',
      'proration_behavior',
      'proration_date',
      'cancel_at_period_end',
      'cancel_at',
      'default_payment_method',
      'trial_end',
      'metadata',
      'payment_behavior',
      'billing_cycle_anchor',
      'description',
      'cancellation_details',
      'off_session',
    ],
    (p, [id]) => {
      const sub = state.subscription(id ?? '', 'id');
      const anchor = str(p, 'billing_cycle_anchor');
      if (anchor !== undefined && anchor !== 'now' && anchor !== 'unchanged')
        throw invalidRequest('Invalid billing_cycle_anchor: must be one of now or unchanged', 'billing_cycle_anchor');
      const details = obj(p, 'cancellation_details');
      return updateSubscription(ctx, sub, {
        items: itemsParam(p),
        prorationBehavior: prorationParam(p),
        prorationDate: int(p, 'proration_date'),
        cancelAtPeriodEnd: bool(p, 'cancel_at_period_end'),
        cancelAt: p.cancel_at === '' ? null : int(p, 'cancel_at'),
        defaultPaymentMethod: str(p, 'default_payment_method'),
        trialEnd: timestampOrNow(p, 'trial_end'),
        metadata: metadata(p),
        paymentBehavior: paymentBehaviorParam(p),
        billingCycleAnchor: anchor,
        description: str(p, 'description'),
        cancellationDetails: details ? { comment: str(details, 'comment'), feedback: str(details, 'feedback') } : undefined,
      });
    },
  );
  on('DELETE', '/v1/subscriptions/:id', ['invoice_now', 'prorate', 'cancellation_details'], (_p, [id]) =>
    cancelSubscription(ctx, state.subscription(id ?? '', 'id')),
  );
  return routes;
}
