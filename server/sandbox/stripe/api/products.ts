/**
 * Products and prices, as Stripe lists and reads them (seeded from Parley's catalog).
 */
import type { Ctx } from '../billing';
import { arr, bool, obj, str } from '../params';
import { LIST_PARAMS, listOf, type Route, routeTable } from './routes';

export function productRoutes(ctx: Ctx): Route[] {
  const { state } = ctx;
  const { routes, on } = routeTable();
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
  return routes;
}
