/**
 * Every HTTP request, logged and timed. pino-http writes one line per request when it is answered (info; error for a
 * 5xx, but info without a stack for an outage a sandbox was told to act, which marks its answer `res.locals.sandboxFault`;
 * debug for /health and /metrics polls: method, path with query values blanked, headers with credentials
 * redacted, status, time) on a logger carrying its request id: `X-Request-Id` when the
 * caller sent a usable one (a load balancer's), else a new UUID, and sent back in the answer either way. The line
 * names the account, widget and conversation when the request was about them. The same finish feeds
 * parley_http_request_seconds{route,status}, labelled by the route's template (`/v1/chat_endpoints/:id`), never
 * the raw path.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { pinoHttp } from 'pino-http';
import type { Logger } from '../logger';
import type { Metrics } from '../metrics';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Paths answered without a route (static files, the widget's scripts, sandboxes' pages), by their fixed prefix. */
const UNROUTED_PREFIXES = ['/app/', '/widget/', '/sandbox/slack/', '/sandbox/stripe/', '/docs/', '/dev/outbox/'];

/** The route template a request matched, e.g. `/v1/chat_endpoints/:id`: a bounded set of labels. */
export function routeLabel(req: Request, res: Response): string {
  const route = req.route as { path?: unknown } | undefined;
  if (route && typeof route.path === 'string') return `${req.baseUrl}${route.path}` || '/';
  if (res.statusCode === 404) return 'unmatched';
  const path = req.originalUrl.split('?')[0];
  const prefix = UNROUTED_PREFIXES.find((p) => path.startsWith(p));
  return prefix ? `${prefix}*` : 'other';
}

/** The path with every query value blanked (`?code=…&state=…` carry one-time secrets). */
function loggedUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const keys = url
    .slice(at + 1)
    .split('&')
    .map((pair) => `${pair.split('=')[0]}=…`);
  return `${url.slice(0, at)}?${keys.join('&')}`;
}

/** Segment names before a `:param` that say which id it is. */
const ID_OF: [RegExp, string][] = [
  [/conversation/i, 'conversationId'],
  [/chat_endpoint|widget/i, 'widgetId'],
];

/** The ids a finished request was about: its account (session or API key), and its route's widget or conversation. */
function idsOf(req: Request, res: Response): Record<string, string> {
  const ids: Record<string, string> = {};
  const auth = res.locals.auth as { user?: { accountId?: unknown } } | undefined;
  const key = res.locals.apiKey as { accountId?: unknown } | undefined;
  const accountId = auth?.user?.accountId ?? key?.accountId;
  if (accountId) ids.accountId = String(accountId);
  const route = req.route as { path?: unknown } | undefined;
  if (route && typeof route.path === 'string' && req.params) {
    const segments = `${req.baseUrl}${route.path}`.split('/');
    for (const [i, segment] of segments.entries()) {
      if (!segment.startsWith(':') || i === 0) continue;
      const name = segment.slice(1).replace(/[^A-Za-z0-9_]/g, '');
      const value = (req.params as Record<string, unknown>)[name];
      const field = ID_OF.find(([pattern]) => pattern.test(segments[i - 1]))?.[1];
      if (field && typeof value === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(value)) ids[field] = value;
    }
  }
  return ids;
}

/** An answer a sandbox gave because a test or its operator page told it to act an outage (Slack down, rate limited). */
const actedOutage = (res: ServerResponse) => (res as Partial<Response>).locals?.sandboxFault === true;

/** The URL as the client sent it (Express rewrites `req.url` inside mounted routers). */
const urlOf = (req: IncomingMessage) => (req as Partial<Request>).originalUrl ?? req.url ?? '';

export function requestLog(deps: { logger: Logger; metrics: Metrics }): RequestHandler[] {
  const { httpRequests } = deps.metrics;
  const timing: RequestHandler = (req, res, next) => {
    const started = performance.now();
    res.once('finish', () => {
      httpRequests.observe({ route: routeLabel(req, res), status: String(res.statusCode) }, (performance.now() - started) / 1000);
    });
    next();
  };
  const logging = pinoHttp({
    logger: deps.logger,
    genReqId(req: IncomingMessage, res: ServerResponse) {
      const given = req.headers['x-request-id'];
      const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    customAttributeKeys: { reqId: 'requestId' },
    // The request's own logger (req.log) carries its id alone; the request itself, and the ids it was about, are
    // added to its one line when it is answered, so nothing is serialized for a line LOG_LEVEL leaves out.
    quietReqLogger: true,
    quietResLogger: true,
    customSuccessObject: (req, res, line: object) => ({ req, ...idsOf(req as Request, res as Response), ...line }),
    customErrorObject: (req, res, _error, line: { err?: unknown }) => {
      if (!actedOutage(res)) return { req, ...idsOf(req as Request, res as Response), ...line };
      const { err: _stack, ...rest } = line;
      return { req, ...rest };
    },
    serializers: {
      req: (req: { id: unknown; method: string; url: string; headers: Record<string, unknown>; remoteAddress?: string }) => ({
        method: req.method,
        url: loggedUrl(req.url),
        headers: req.headers,
        remoteAddress: req.remoteAddress,
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    customLogLevel: (req, res, error) => {
      if (!error && actedOutage(res)) return 'info';
      if (error || res.statusCode >= 500) return 'error';
      // Load balancers' and Prometheus' polls would drown the rest.
      const path = urlOf(req).split('?')[0];
      if (path === '/health' || path === '/metrics') return 'debug';
      // A 4xx is the caller's business (a bad form, an expired session), not the operator's: info like any answer.
      return 'info';
    },
    customSuccessMessage: (req, res, ms) => `${req.method} ${loggedUrl(urlOf(req))} ${res.statusCode} ${ms} ms`,
    customErrorMessage: (req, res) =>
      `${req.method} ${loggedUrl(urlOf(req))} ${res.statusCode} ${actedOutage(res) ? 'answered as the sandbox was told (an outage it acts)' : 'failed'}`,
  });
  return [timing, logging];
}
