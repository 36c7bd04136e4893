/**
 * The Stripe API's table: each resource's file (products.ts, customers.ts…) answers its routes, each a method, a
 * path with `:id` parts, the parameters it allows and a handler; index.ts lists the resources and dispatches.
 * Lists are answered by `listOf`, as Stripe pages them.
 */
import type { Ctx } from '../billing';
import { invalidRequest } from '../errors';
import { int, type Params, str } from '../params';

/** A route's handler: the request's parameters and the ids its path's `:id` parts matched. */
export type Handler = (params: Params, id: string[]) => unknown;

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  pattern: RegExp;
  allowed: readonly string[];
  handle: Handler;
}

/** A resource's routes, built with what every handler needs (the sandbox's state, its clock and pages). */
export type Resource = (ctx: Ctx) => Route[];

/** A resource's routes, added one by one with `on`. */
export function routeTable(): {
  routes: Route[];
  on: (method: Route['method'], path: string, allowed: readonly string[], handle: Handler) => void;
} {
  const routes: Route[] = [];
  const on = (method: Route['method'], path: string, allowed: readonly string[], handle: Handler) => {
    const pattern = new RegExp(`^${path.replace(/:id/g, '([^/]+)')}$`);
    routes.push({ method, pattern, allowed, handle });
  };
  return { routes, on };
}

export const LIST_PARAMS = ['limit', 'starting_after', 'ending_before', 'created'] as const;

/** A Stripe list page: newest first, `limit` (1–100, default 10), `starting_after` / `ending_before`. */
export function listOf<T extends { id: string; created: number }>(
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
