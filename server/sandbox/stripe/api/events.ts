/**
 * Events: listed (by type, with * wildcards) and read.
 */
import type { Ctx } from '../billing';
import { missing } from '../errors';
import { arr, str } from '../params';
import { LIST_PARAMS, listOf, type Route, routeTable } from './routes';

export function eventRoutes(ctx: Ctx): Route[] {
  const { state } = ctx;
  const { routes, on } = routeTable();
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
  return routes;
}
