/**
 * What the API answers: the result as JSON-safe data, a customer's tax ids only when expanded (as Stripe), a
 * Checkout session's line items with expand[]=line_items, and every other expand[] path's ids replaced by their
 * objects.
 */
import type { Ctx } from '../billing';
import { invalidRequest } from '../errors';
import { isRecord } from '../params';
import { plain } from '../state';
import type { CheckoutSession, Customer } from '../types';
import { lineItemsOf } from './checkout';

/** Answers the function that presents a result with the request's expand[] paths. */
export function createPresenter(ctx: Ctx): (result: unknown, expand: string[]) => unknown {
  const { state } = ctx;
  const presentCustomer = (c: Customer, expand: string[]) => {
    const out = plain(c) as Customer;
    if (!expand.includes('tax_ids')) delete out.tax_ids;
    else out.tax_ids ??= { object: 'list', data: [], has_more: false, url: `/v1/customers/${c.id}/tax_ids` };
    return out;
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
      out = { ...out, line_items: lineItemsOf(ctx, result as CheckoutSession) };
    }
    for (const path of expand) {
      if (path === 'tax_ids' || path === 'data.tax_ids' || (path === 'line_items' && isRecord(out) && out.object === 'checkout.session'))
        continue;
      out = expandValue(out, path.split('.'), path);
    }
    return out;
  };
  return present;
}
