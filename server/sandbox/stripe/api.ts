// The REST API under /v1, as Stripe answers it: Bearer secret key, form-encoded bodies, expand[], lists,
// Idempotency-Key replays, and Stripe's error bodies and statuses.
import { createHash } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import qs from 'qs';
import {
  advanceClock,
  attachPaymentMethod,
  type Ctx,
  cancelSubscription,
  createSubscription,
  detachPaymentMethod,
  newCustomer,
  newTaxId,
  payInvoice,
  previewInvoice,
  resolvePaymentMethod,
  setDefaultPaymentMethod,
  taxIdList,
  tick,
  updateSubscription,
} from './billing';
import { paymentMethodFromTestId } from './cards';
import { invalidRequest, missing, paramMissing, StripeApiError } from './errors';
import {
  arr,
  bool,
  expandList,
  int,
  isRecord,
  metadata,
  nullableStr,
  obj,
  onlyKnown,
  type Params,
  requiredStr,
  str,
  timestampOrNow,
} from './params';
import { plain, randomId } from './state';
import type { Address, CheckoutSession, Customer, PortalSession } from './types';

type Handler = (params: Params, id: string[]) => unknown;
interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  pattern: RegExp;
  allowed: readonly string[];
  handle: Handler;
}

const LIST_PARAMS = ['limit', 'starting_after', 'ending_before', 'created'] as const;

/** A Stripe list page: newest first, `limit` (1–100, default 10), `starting_after` / `ending_before`. */
function listOf<T extends { id: string; created: number }>(
  items: T[],
  params: Params,
  url: string,
): { object: 'list'; data: T[]; has_more: boolean; url: string } {
  const limit = int(params, 'limit') ?? 10;
  if (limit < 1 || limit > 100)
    throw invalidRequest('This value must be greater than or equal to 1 and less than or equal to 100.', 'limit');
  const sorted = items
    .map((x, i) => ({ x, i }))
    .sort((a, b) => b.x.created - a.x.created || b.i - a.i)
    .map(({ x }) => x);
  let start = 0;
  const after = str(params, 'starting_after');
  const before = str(params, 'ending_before');
  if (after) {
    const at = sorted.findIndex((x) => x.id === after);
    if (at < 0) throw invalidRequest(`No such object: '${after}'`, 'starting_after');
    start = at + 1;
  }
  let slice = sorted.slice(start);
  if (before) {
    const at = sorted.findIndex((x) => x.id === before);
    if (at < 0) throw invalidRequest(`No such object: '${before}'`, 'ending_before');
    slice = sorted.slice(Math.max(0, at - limit), at);
    return { object: 'list', data: slice, has_more: at - limit > 0, url };
  }
  return { object: 'list', data: slice.slice(0, limit), has_more: slice.length > limit, url };
}

function addressParam(params: Params, key: string): Partial<Address> | null | undefined {
  if (params[key] === '') return null;
  const a = obj(params, key);
  if (!a) return undefined;
  onlyKnown(a, ['city', 'country', 'line1', 'line2', 'postal_code', 'state']);
  const out: Partial<Address> = {};
  for (const k of ['city', 'country', 'line1', 'line2', 'postal_code', 'state'] as const) {
    const v = nullableStr(a, k);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

function itemsParam(params: Params): { id?: string; price?: string; quantity?: number; deleted?: boolean }[] | undefined {
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

function prorationParam(params: Params): 'create_prorations' | 'always_invoice' | 'none' | undefined {
  const v = str(params, 'proration_behavior');
  if (v === undefined) return undefined;
  if (v !== 'create_prorations' && v !== 'always_invoice' && v !== 'none')
    throw invalidRequest(`Invalid proration_behavior: must be one of create_prorations, none, or always_invoice`, 'proration_behavior');
  return v;
}

function paymentBehaviorParam(
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

export function apiRouter(ctx: Ctx, opts: { secretKey?: string }): Router {
  const { state } = ctx;
  const router = express.Router();
  const routes: Route[] = [];
  const on = (method: Route['method'], path: string, allowed: readonly string[], handle: Handler) => {
    const pattern = new RegExp(`^${path.replace(/:id/g, '([^/]+)')}$`);
    routes.push({ method, pattern, allowed, handle });
  };

  const presentCustomer = (c: Customer, expand: string[]) => {
    const out = plain(c) as Customer;
    if (!expand.includes('tax_ids')) delete out.tax_ids;
    else out.tax_ids ??= { object: 'list', data: [], has_more: false, url: `/v1/customers/${c.id}/tax_ids` };
    return out;
  };

  // Products and prices (seeded from Parley's catalog).
  on('GET', '/v1/products', [...LIST_PARAMS, 'active', 'ids'], (p) => {
    const active = bool(p, 'active');
    const ids = arr(p, 'ids');
    return listOf(
      state.data.products.filter((x) => (active === undefined || x.active === active) && (!ids || ids.includes(x.id))),
      p,
      '/v1/products',
    );
  });
  on('GET', '/v1/products/:id', [], (_p, [id]) => state.product(id ?? ''));
  on('GET', '/v1/prices', [...LIST_PARAMS, 'active', 'product', 'lookup_keys', 'type', 'currency', 'recurring'], (p) => {
    const active = bool(p, 'active');
    const product = str(p, 'product');
    const keys = arr(p, 'lookup_keys');
    const type = str(p, 'type');
    const currency = str(p, 'currency');
    const interval = obj(p, 'recurring')?.interval;
    return listOf(
      state.data.prices.filter(
        (x) =>
          (active === undefined || x.active === active) &&
          (!product || x.product === product) &&
          (!keys || (x.lookup_key !== null && keys.includes(x.lookup_key))) &&
          (!type || x.type === type) &&
          (!currency || x.currency === currency) &&
          (!interval || x.recurring?.interval === interval),
      ),
      p,
      '/v1/prices',
    );
  });
  on('GET', '/v1/prices/:id', [], (_p, [id]) => state.price(id ?? '', 'id'));

  // Customers.
  const CUSTOMER_FIELDS = [
    'email',
    'name',
    'description',
    'phone',
    'address',
    'metadata',
    'invoice_settings',
    'preferred_locales',
    'tax_exempt',
  ] as const;
  const applyCustomer = (c: Customer, p: Params): Record<string, unknown> => {
    const previous: Record<string, unknown> = {};
    for (const key of ['email', 'name', 'description', 'phone'] as const) {
      const v = nullableStr(p, key);
      if (v !== undefined && v !== c[key]) {
        previous[key] = c[key];
        c[key] = v;
      }
    }
    const address = addressParam(p, 'address');
    if (address !== undefined) {
      previous.address = c.address;
      c.address =
        address === null
          ? null
          : { city: null, country: null, line1: null, line2: null, postal_code: null, state: null, ...(c.address ?? {}), ...address };
    }
    const meta = metadata(p);
    if (meta) {
      previous.metadata = { ...c.metadata };
      c.metadata = Object.fromEntries(Object.entries({ ...c.metadata, ...meta }).filter(([, v]) => v !== ''));
    }
    const te = str(p, 'tax_exempt');
    if (te !== undefined) {
      if (te !== 'none' && te !== 'exempt' && te !== 'reverse') throw invalidRequest('Invalid tax_exempt', 'tax_exempt');
      previous.tax_exempt = c.tax_exempt;
      c.tax_exempt = te;
    }
    const settings = obj(p, 'invoice_settings');
    if (settings) {
      onlyKnown(settings, ['default_payment_method', 'footer', 'custom_fields', 'rendering_options']);
      const pmId = nullableStr(settings, 'default_payment_method');
      if (pmId) {
        const pm = resolvePaymentMethod(ctx, c, pmId, 'invoice_settings[default_payment_method]');
        previous.invoice_settings = { ...c.invoice_settings };
        c.invoice_settings.default_payment_method = pm.id;
      } else if (pmId === null) {
        previous.invoice_settings = { ...c.invoice_settings };
        c.invoice_settings.default_payment_method = null;
      }
      const footer = nullableStr(settings, 'footer');
      if (footer !== undefined) c.invoice_settings.footer = footer;
    }
    const locales = arr(p, 'preferred_locales');
    if (locales) c.preferred_locales = locales.filter((x): x is string => typeof x === 'string');
    return previous;
  };
  on('POST', '/v1/customers', [...CUSTOMER_FIELDS, 'payment_method', 'tax_id_data'], (p) => {
    const c = newCustomer(ctx, {});
    const taxData = arr(p, 'tax_id_data') ?? [];
    const taxIds = taxData.map((raw, i) => {
      if (!isRecord(raw)) throw invalidRequest('Invalid object', `tax_id_data[${i}]`);
      return newTaxId(ctx, c, requiredStr(raw, 'type', `tax_id_data[${i}][type]`), requiredStr(raw, 'value', `tax_id_data[${i}][value]`));
    });
    const pmId = str(p, 'payment_method');
    const settings = obj(p, 'invoice_settings');
    state.data.customers.push(c);
    try {
      applyCustomer(c, { ...p, invoice_settings: settings ? { ...settings, default_payment_method: undefined } : undefined });
      if (taxIds.length > 0) taxIdList(c).push(...taxIds);
      state.publish('customer.created', c);
      if (pmId) resolvePaymentMethod(ctx, c, pmId, 'payment_method');
      const defaultPm = settings ? str(settings, 'default_payment_method') : undefined;
      if (defaultPm)
        setDefaultPaymentMethod(ctx, c, resolvePaymentMethod(ctx, c, defaultPm, 'invoice_settings[default_payment_method]').id);
    } catch (err) {
      state.data.customers.splice(state.data.customers.indexOf(c), 1);
      throw err;
    }
    return c;
  });
  on('GET', '/v1/customers', [...LIST_PARAMS, 'email'], (p) => {
    const email = str(p, 'email');
    return listOf(
      state.data.customers.filter((c) => !email || c.email === email),
      p,
      '/v1/customers',
    );
  });
  on('GET', '/v1/customers/:id', [], (_p, [id]) => state.customer(id ?? '', 'id'));
  on('POST', '/v1/customers/:id', [...CUSTOMER_FIELDS, 'default_source'], (p, [id]) => {
    const c = state.customer(id ?? '', 'id');
    const previous = applyCustomer(c, p);
    if (Object.keys(previous).length > 0) state.publish('customer.updated', c, previous);
    return c;
  });
  on('DELETE', '/v1/customers/:id', [], (_p, [id]) => {
    const c = state.customer(id ?? '', 'id');
    for (const sub of state.data.subscriptions.filter((s) => s.customer === c.id && s.status !== 'canceled')) cancelSubscription(ctx, sub);
    state.data.customers.splice(state.data.customers.indexOf(c), 1);
    state.publish('customer.deleted', c);
    return { id: c.id, object: 'customer', deleted: true };
  });
  on('POST', '/v1/customers/:id/tax_ids', ['type', 'value'], (p, [id]) => {
    const c = state.customer(id ?? '', 'id');
    const t = newTaxId(ctx, c, requiredStr(p, 'type'), requiredStr(p, 'value'));
    taxIdList(c).push(t);
    state.publish('customer.tax_id.created', t);
    return t;
  });
  on('GET', '/v1/customers/:id/tax_ids', [...LIST_PARAMS], (p, [id]) => {
    const c = state.customer(id ?? '', 'id');
    return listOf(taxIdList(c), p, `/v1/customers/${c.id}/tax_ids`);
  });
  on('DELETE', '/v1/customers/:id/tax_ids/:id', [], (_p, [id, taxId]) => {
    const c = state.customer(id ?? '', 'id');
    const list = taxIdList(c);
    const t = list.find((x) => x.id === taxId);
    if (!t) throw missing('txi', taxId ?? '');
    list.splice(list.indexOf(t), 1);
    state.publish('customer.tax_id.deleted', t);
    return { id: t.id, object: 'tax_id', deleted: true };
  });
  on('GET', '/v1/customers/:id/payment_methods', [...LIST_PARAMS, 'type'], (p, [id]) => {
    const c = state.customer(id ?? '', 'id');
    return listOf(
      state.data.paymentMethods.filter((pm) => pm.customer === c.id),
      p,
      `/v1/customers/${c.id}/payment_methods`,
    );
  });

  // Payment methods.
  on('POST', '/v1/payment_methods', ['type', 'card', 'billing_details', 'metadata'], (p) => {
    if (requiredStr(p, 'type') !== 'card') throw invalidRequest('The sandbox takes card payment methods only.', 'type');
    const card = obj(p, 'card');
    const token = card ? str(card, 'token', 'card[token]') : undefined;
    if (!token) throw paramMissing('card[token]');
    const pm = paymentMethodFromTestId(token, state.nowMs());
    if (!pm) throw invalidRequest(`No such token: '${token}'`, 'card[token]');
    state.data.paymentMethods.push(pm);
    state.changed();
    return pm;
  });
  on('GET', '/v1/payment_methods', [...LIST_PARAMS, 'customer', 'type'], (p) => {
    const customer = str(p, 'customer');
    if (customer) state.customer(customer);
    return listOf(
      state.data.paymentMethods.filter((pm) => pm.customer !== null && (!customer || pm.customer === customer)),
      p,
      '/v1/payment_methods',
    );
  });
  on('GET', '/v1/payment_methods/:id', [], (_p, [id]) => state.paymentMethod(id ?? '', 'id'));
  on('POST', '/v1/payment_methods/:id/attach', ['customer'], (p, [id]) => {
    const c = state.customer(requiredStr(p, 'customer'));
    const pm = paymentMethodFromTestId(id ?? '', state.nowMs()) ?? state.paymentMethod(id ?? '', 'id');
    return attachPaymentMethod(ctx, pm, c);
  });
  on('POST', '/v1/payment_methods/:id/detach', [], (_p, [id]) => detachPaymentMethod(ctx, state.paymentMethod(id ?? '', 'id')));

  // Subscriptions.
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

  // Invoices.
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

  // Checkout sessions (mode subscription or setup) and customer portal sessions.
  on(
    'POST',
    '/v1/checkout/sessions',
    [
      'mode',
      'line_items',
      'success_url',
      'cancel_url',
      'currency',
      'custom_text',
      'customer',
      'customer_email',
      'client_reference_id',
      'metadata',
      'subscription_data',
      'setup_intent_data',
      'payment_method_types',
      'allow_promotion_codes',
      'billing_address_collection',
      'tax_id_collection',
      'customer_update',
      'locale',
      'ui_mode',
    ],
    (p) => {
      const mode = requiredStr(p, 'mode');
      if (mode !== 'subscription' && mode !== 'setup')
        throw invalidRequest('The sandbox supports Checkout in `subscription` and `setup` mode only.', 'mode');
      const successUrl = str(p, 'success_url');
      if (!successUrl) throw invalidRequest('You must provide `success_url` when `ui_mode` is `hosted`.', 'success_url');
      const lineItems = arr(p, 'line_items');
      let items: { price: string; quantity: number }[] = [];
      if (mode === 'subscription') {
        if (!lineItems || lineItems.length === 0) throw paramMissing('line_items');
        if (p.setup_intent_data !== undefined)
          throw invalidRequest('You can only pass `setup_intent_data` in `setup` mode.', 'setup_intent_data');
        items = lineItems.map((raw, i) => {
          if (!isRecord(raw)) throw invalidRequest('Invalid object', `line_items[${i}]`);
          const price = state.price(requiredStr(raw, 'price', `line_items[${i}][price]`), `line_items[${i}][price]`);
          return { price: price.id, quantity: int(raw, 'quantity', `line_items[${i}][quantity]`) ?? 1 };
        });
      } else {
        if (lineItems !== undefined) throw invalidRequest('You cannot pass `line_items` in `setup` mode.', 'line_items');
        if (p.subscription_data !== undefined)
          throw invalidRequest('You can only pass `subscription_data` in `subscription` mode.', 'subscription_data');
        if (!str(p, 'currency') && !arr(p, 'payment_method_types'))
          throw invalidRequest('`currency` is required in `setup` mode when `payment_method_types` is not set.', 'currency');
      }
      const customerId = str(p, 'customer');
      const customer = customerId ? state.customer(customerId) : null;
      const customerEmail = str(p, 'customer_email');
      if (customer && customerEmail)
        throw invalidRequest('You may only specify one of these parameters: customer, customer_email.', 'customer_email');
      const subData = obj(p, 'subscription_data') ?? {};
      onlyKnown(subData, ['trial_end', 'trial_period_days', 'metadata', 'description', 'trial_settings', 'default_tax_rates']);
      const setupData = obj(p, 'setup_intent_data') ?? {};
      onlyKnown(setupData, ['metadata', 'description', 'on_behalf_of']);
      const customText = obj(p, 'custom_text') ?? {};
      onlyKnown(customText, ['after_submit', 'shipping_address', 'submit', 'terms_of_service_acceptance']);
      const textOf = (key: string) => {
        const part = obj(customText, key);
        if (!part) return null;
        onlyKnown(part, ['message']);
        const message = requiredStr(part, 'message', `custom_text[${key}][message]`);
        if (message.length > 1200) throw invalidRequest('This value must be at most 1200 characters long.', `custom_text[${key}][message]`);
        return { message };
      };
      const now = state.now();
      const id = randomId('cs_test', 58);
      const amount = mode === 'setup' ? null : items.reduce((s, it) => s + state.price(it.price).unit_amount * it.quantity, 0);
      const session: CheckoutSession = {
        id,
        object: 'checkout.session',
        cancel_url: str(p, 'cancel_url') ?? null,
        client_reference_id: str(p, 'client_reference_id') ?? null,
        created: now,
        currency: mode === 'setup' ? (str(p, 'currency') ?? 'usd').toLowerCase() : state.price(items[0]?.price ?? '').currency,
        customer: customer?.id ?? null,
        customer_details: null,
        customer_email: customerEmail ?? null,
        expires_at: now + 24 * 3600,
        invoice: null,
        livemode: false,
        metadata: metadata(p) ?? {},
        mode,
        payment_status: mode === 'setup' ? 'no_payment_required' : 'unpaid',
        status: 'open',
        subscription: null,
        setup_intent: null,
        success_url: successUrl,
        url: `${ctx.baseUrl}/checkout/${id}`,
        amount_subtotal: amount,
        amount_total: amount,
        custom_text: {
          after_submit: textOf('after_submit'),
          shipping_address: textOf('shipping_address'),
          submit: textOf('submit'),
          terms_of_service_acceptance: textOf('terms_of_service_acceptance'),
        },
        sandbox: {
          items,
          trialEnd: int(subData, 'trial_end', 'subscription_data[trial_end]') ?? null,
          trialPeriodDays: int(subData, 'trial_period_days', 'subscription_data[trial_period_days]') ?? null,
          subscriptionMetadata: metadata(subData) ?? {},
          setupIntentMetadata: metadata(setupData) ?? {},
        },
      };
      state.data.checkoutSessions.push(session);
      state.changed();
      return session;
    },
  );
  on('GET', '/v1/checkout/sessions/:id', [], (_p, [id]) => {
    const s = state.data.checkoutSessions.find((x) => x.id === id);
    if (!s) throw missing('cs', id ?? '');
    return s;
  });
  on('GET', '/v1/checkout/sessions/:id/line_items', [...LIST_PARAMS], (_p, [id]) => {
    const s = state.data.checkoutSessions.find((x) => x.id === id);
    if (!s) throw missing('cs', id ?? '');
    return lineItemsOf(s);
  });
  on('POST', '/v1/checkout/sessions/:id/expire', [], (_p, [id]) => {
    const s = state.data.checkoutSessions.find((x) => x.id === id);
    if (!s) throw missing('cs', id ?? '');
    if (s.status !== 'open')
      throw invalidRequest(
        `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${s.status}".`,
      );
    s.status = 'expired';
    s.url = null;
    state.publish('checkout.session.expired', s);
    return s;
  });
  on('GET', '/v1/setup_intents/:id', ['client_secret'], (_p, [id]) => {
    const intent = state.data.setupIntents.find((x) => x.id === id);
    if (!intent) throw missing('seti', id ?? '');
    return intent;
  });
  on('POST', '/v1/billing_portal/sessions', ['customer', 'return_url', 'flow_data', 'configuration', 'locale', 'on_behalf_of'], (p) => {
    const customer = state.customer(requiredStr(p, 'customer'));
    const id = randomId('bps', 24);
    const flowData = obj(p, 'flow_data');
    let flow: PortalSession['flow'] = null;
    if (flowData) {
      const type = requiredStr(flowData, 'type', 'flow_data[type]');
      if (type !== 'subscription_cancel' && type !== 'payment_method_update')
        throw invalidRequest('The sandbox supports the flows subscription_cancel and payment_method_update.', 'flow_data[type]');
      let cancel: { retention: null; subscription: string } | null = null;
      if (type === 'subscription_cancel') {
        const subId = requiredStr(
          obj(flowData, 'subscription_cancel') ?? {},
          'subscription',
          'flow_data[subscription_cancel][subscription]',
        );
        const sub = state.subscription(subId, 'flow_data[subscription_cancel][subscription]');
        if (sub.customer !== customer.id)
          throw invalidRequest(
            `The subscription ${subId} does not belong to the customer ${customer.id}.`,
            'flow_data[subscription_cancel][subscription]',
          );
        if (sub.status === 'canceled' || sub.cancel_at_period_end)
          throw invalidRequest(
            `The subscription ${subId} has already been canceled or is set to cancel at period end.`,
            'flow_data[subscription_cancel][subscription]',
          );
        cancel = { retention: null, subscription: subId };
      }
      const after = obj(flowData, 'after_completion') ?? {};
      const afterType = str(after, 'type') ?? 'portal_homepage';
      if (afterType !== 'redirect' && afterType !== 'portal_homepage' && afterType !== 'hosted_confirmation')
        throw invalidRequest('Invalid flow_data[after_completion][type]', 'flow_data[after_completion][type]');
      const redirect =
        afterType === 'redirect'
          ? { return_url: requiredStr(obj(after, 'redirect') ?? {}, 'return_url', 'flow_data[after_completion][redirect][return_url]') }
          : null;
      flow = {
        type,
        after_completion: { type: afterType, redirect, hosted_confirmation: null },
        subscription_cancel: cancel,
        subscription_update: null,
        subscription_update_confirm: null,
      };
    }
    const session: PortalSession = {
      id,
      object: 'billing_portal.session',
      configuration: 'bpc_sandbox_default',
      created: state.now(),
      customer: customer.id,
      flow,
      livemode: false,
      locale: null,
      on_behalf_of: null,
      return_url: str(p, 'return_url') ?? null,
      url: `${ctx.baseUrl}/portal/${id}`,
    };
    state.data.portalSessions.push(session);
    state.changed();
    return session;
  });

  // Events.
  on('GET', '/v1/events', [...LIST_PARAMS, 'type', 'types', 'delivery_success'], (p) => {
    const type = str(p, 'type');
    const types = arr(p, 'types');
    const matches = (t: string) =>
      (!type || (type.endsWith('*') ? t.startsWith(type.slice(0, -1)) : t === type)) && (!types || types.includes(t));
    return listOf(
      state.data.events.filter((e) => matches(e.type)),
      p,
      '/v1/events',
    );
  });
  on('GET', '/v1/events/:id', [], (_p, [id]) => {
    const e = state.data.events.find((x) => x.id === id);
    if (!e) throw missing('evt', id ?? '');
    return e;
  });

  // The clock, as a sandbox-only endpoint for scripts (the operator page and the handle use it too).
  on('POST', '/v1/sandbox/clock/advance', ['seconds', 'to'], (p) => {
    const to = int(p, 'to') ?? state.now() + (int(p, 'seconds') ?? 0);
    advanceClock(ctx, to);
    return { object: 'sandbox.clock', now: state.now() };
  });

  /** A session's line items, which Stripe shows only through expand[]=line_items or their own list call. */
  const lineItemsOf = (s: CheckoutSession) => {
    const items = s.sandbox.items.map((it, i) => {
      const price = state.price(it.price);
      const amount = price.unit_amount * it.quantity;
      const product = state.data.products.find((x) => x.id === price.product);
      return {
        id: `li_${s.id.slice(8, 30)}${i}`,
        object: 'item',
        amount_discount: 0,
        amount_subtotal: amount,
        amount_tax: 0,
        amount_total: amount,
        currency: price.currency,
        description: product?.name ?? price.id,
        price: plain(price),
        quantity: it.quantity,
      };
    });
    return { object: 'list', data: items, has_more: false, url: `/v1/checkout/sessions/${s.id}/line_items` };
  };

  const expandValue = (value: unknown, parts: string[], fullPath: string): unknown => {
    if (parts.length === 0) return value;
    if (Array.isArray(value)) return value.map((v) => expandValue(v, parts, fullPath));
    if (!isRecord(value)) return value;
    const [head, ...rest] = parts;
    if (head === undefined || !(head in value)) throw invalidRequest(`This property cannot be expanded (${fullPath}).`, 'expand');
    let child = value[head];
    if (typeof child === 'string') {
      const found = state.find(child);
      if (!found) throw invalidRequest(`This property cannot be expanded (${fullPath}).`, 'expand');
      child = plain(found);
    }
    return { ...value, [head]: expandValue(child, rest, fullPath) };
  };

  const present = (result: unknown, expand: string[]): unknown => {
    let out: unknown = plain(result);
    if (isRecord(out) && out.object === 'customer' && !('deleted' in out)) out = presentCustomer(result as Customer, expand);
    else if (isRecord(out) && out.object === 'list' && Array.isArray(out.data)) {
      out = {
        ...out,
        data: out.data.map((x) =>
          isRecord(x) && x.object === 'customer'
            ? presentCustomer(
                x as unknown as Customer,
                expand.map((e) => e.replace(/^data\./, '')),
              )
            : x,
        ),
      };
    }
    if (isRecord(out) && out.object === 'checkout.session' && expand.includes('line_items')) {
      out = { ...out, line_items: lineItemsOf(result as CheckoutSession) };
    }
    for (const path of expand) {
      if (path === 'tax_ids' || path === 'data.tax_ids' || (path === 'line_items' && isRecord(out) && out.object === 'checkout.session'))
        continue;
      out = expandValue(out, path.split('.'), path);
    }
    return out;
  };

  const send = (res: Response, status: number, body: string) => {
    res.status(status).type('application/json').setHeader('request-id', randomId('req', 14));
    res.send(body);
  };
  const errorBody = (err: unknown): { status: number; body: string } => {
    if (err instanceof StripeApiError) return { status: err.status, body: JSON.stringify(err.body(), null, 2) };
    console.error('[stripe sandbox] unexpected error', err);
    return { status: 500, body: JSON.stringify({ error: { type: 'api_error', message: 'An unknown error occurred' } }, null, 2) };
  };

  router.use('/v1', express.raw({ type: () => true, limit: '1mb' }), (req: Request, res: Response) => {
    const path = `/v1${req.path}`.replace(/\/+$/, '');
    const auth = req.headers.authorization ?? '';
    const bearer = /^Bearer (.+)$/i.exec(auth)?.[1];
    const basic = /^Basic (.+)$/i.exec(auth)?.[1];
    const key = bearer ?? (basic ? Buffer.from(basic, 'base64').toString('utf8').split(':')[0] : undefined);
    if (!key) {
      send(
        res,
        401,
        JSON.stringify(
          {
            error: {
              message:
                "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
              type: 'invalid_request_error',
            },
          },
          null,
          2,
        ),
      );
      return;
    }
    if ((opts.secretKey !== undefined && key !== opts.secretKey) || !key.startsWith('sk_test_')) {
      send(
        res,
        401,
        JSON.stringify(
          {
            error: {
              message: `Invalid API Key provided: ${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`,
              type: 'invalid_request_error',
            },
          },
          null,
          2,
        ),
      );
      return;
    }
    const method = req.method.toUpperCase();
    const raw = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '';
    const query = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?') + 1) : '';
    const text = method === 'POST' ? raw : query;
    const idempotencyKey = method === 'POST' ? req.headers['idempotency-key'] : undefined;
    const fingerprint = createHash('sha256').update(`${method} ${path}\n${text}`).digest('hex');
    if (typeof idempotencyKey === 'string') {
      state.sweepIdempotency();
      const kept = state.data.idempotency[idempotencyKey];
      if (kept) {
        if (kept.fingerprint !== fingerprint) {
          send(
            res,
            400,
            JSON.stringify(
              {
                error: {
                  message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
                  type: 'idempotency_error',
                },
              },
              null,
              2,
            ),
          );
          return;
        }
        res.setHeader('idempotent-replayed', 'true');
        send(res, kept.status, kept.body);
        return;
      }
    }
    let status = 200;
    let body: string;
    try {
      tick(ctx);
      const candidates = routes.filter((r) => r.pattern.test(path));
      const route = candidates.find((r) => r.method === method);
      if (!route) {
        throw new StripeApiError(
          404,
          'invalid_request_error',
          `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
        );
      }
      const params = qs.parse(text, { depth: 10, arrayLimit: 100, parameterLimit: 2000 }) as Params;
      onlyKnown(params, route.allowed);
      const ids = (route.pattern.exec(path) ?? []).slice(1).map((x) => decodeURIComponent(x));
      const result = route.handle(params, ids);
      body = JSON.stringify(present(result, expandList(params)), null, 2);
    } catch (err) {
      ({ status, body } = errorBody(err));
    }
    // Stripe keeps the outcome of requests that ran (success or a card error), not of rejected parameters.
    if (typeof idempotencyKey === 'string' && (status === 200 || status === 402)) {
      state.data.idempotency[idempotencyKey] = { fingerprint, status, body, at: Date.now() };
      state.changed();
    }
    res.setHeader('stripe-version', String(req.headers['stripe-version'] ?? ''));
    if (typeof idempotencyKey === 'string') res.setHeader('idempotency-key', idempotencyKey);
    send(res, status, body);
  });
  return router;
}
