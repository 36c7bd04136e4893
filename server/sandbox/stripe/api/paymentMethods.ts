/**
 * Payment methods: cards from test tokens, listed, read, attached to a customer and detached.
 */
import type { Ctx } from '../billing';
import { paymentMethodFromTestId } from '../cards';
import { attachPaymentMethod, detachPaymentMethod } from '../customers';
import { invalidRequest, paramMissing } from '../errors';
import { obj, requiredStr, str } from '../params';
import { LIST_PARAMS, listOf, type Route, routeTable } from './routes';

export function paymentMethodRoutes(ctx: Ctx): Route[] {
  const { state } = ctx;
  const { routes, on } = routeTable();
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
  return routes;
}
