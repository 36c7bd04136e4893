// The REST API under /v1, as Stripe answers it: Bearer secret key, form-encoded bodies, expand[], lists,
// Idempotency-Key replays, and Stripe's error bodies and statuses. The routes are in one file per resource
// (products.ts, customers.ts…, listed in RESOURCES below); what a result looks like with expand[] is present.ts.
import { createHash } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import qs from 'qs';
import type { Ctx } from '../billing';
import { tick } from '../clock';
import { StripeApiError } from '../errors';
import { expandList, onlyKnown, type Params } from '../params';
import { randomId } from '../state';
import { checkoutRoutes } from './checkout';
import { clockRoutes } from './clock';
import { customerRoutes } from './customers';
import { eventRoutes } from './events';
import { invoiceRoutes } from './invoices';
import { paymentMethodRoutes } from './paymentMethods';
import { portalRoutes } from './portal';
import { createPresenter } from './present';
import { productRoutes } from './products';
import type { Resource } from './routes';
import { subscriptionRoutes } from './subscriptions';

/** Every resource the sandbox answers, one file each; a request goes to the first route its method and path match. */
const RESOURCES: readonly Resource[] = [
  productRoutes,
  customerRoutes,
  paymentMethodRoutes,
  subscriptionRoutes,
  invoiceRoutes,
  checkoutRoutes,
  portalRoutes,
  eventRoutes,
  clockRoutes,
];

export function apiRouter(ctx: Ctx, opts: { secretKey?: string }): Router {
  const { state } = ctx;
  const router = express.Router();
  const routes = RESOURCES.flatMap((resource) => resource(ctx));
  const present = createPresenter(ctx);

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
