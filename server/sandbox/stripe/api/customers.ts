/**
 * Customers: created (with tax ids and a payment method), listed, read, updated (address, invoice settings,
 * default payment method), deleted; their tax ids and payment methods.
 */
import type { Ctx } from '../billing';
import { newCustomer, newTaxId, resolvePaymentMethod, setDefaultPaymentMethod, taxIdList } from '../customers';
import { invalidRequest, missing } from '../errors';
import type { Params } from '../params';
import { arr, isRecord, metadata, nullableStr, obj, onlyKnown, requiredStr, str } from '../params';
import { cancelSubscription } from '../subscriptions';
import type { Address, Customer } from '../types';
import { LIST_PARAMS, listOf, type Route, routeTable } from './routes';

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

export function customerRoutes(ctx: Ctx): Route[] {
  const { state } = ctx;
  const { routes, on } = routeTable();
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
  return routes;
}
