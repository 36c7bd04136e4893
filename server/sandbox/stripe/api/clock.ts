/**
 * The sandbox's clock, moved forward: an endpoint of the sandbox only, for scripts (the operator page and the
 * handle use it too).
 */
import type { Ctx } from '../billing';
import { advanceClock } from '../clock';
import { int } from '../params';
import { type Route, routeTable } from './routes';

export function clockRoutes(ctx: Ctx): Route[] {
  const { state } = ctx;
  const { routes, on } = routeTable();
  on('POST', '/v1/sandbox/clock/advance', ['seconds', 'to'], (p) => {
    const to = int(p, 'to') ?? state.now() + (int(p, 'seconds') ?? 0);
    advanceClock(ctx, to);
    return { object: 'sandbox.clock', now: state.now() };
  });
  return routes;
}
