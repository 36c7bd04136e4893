// The Stripe sandbox: a local stand-in for Stripe that Parley's unchanged `stripe` client talks to through its
// host/port/protocol options. The API (`/v1/...`, which the client cannot put under a path prefix) is served by
// `listen()` on its own port; the hosted pages and the operator page are `router`, mounted at the path of
// `baseUrl`. README.md lists the URLs, the test knobs and the choices made.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { apiRouter } from './api';
import type { Ctx } from './billing';
import { paymentMethodFromCard, paymentMethodFromTestId } from './cards';
import { advanceClock, tick } from './clock';
import { attachPaymentMethod, setDefaultPaymentMethod } from './customers';
import { pagesRouter } from './pages';
import { emptyData, StripeState } from './state';
import type { StripeEvent } from './types';
import { STRIPE_RETRY_DELAYS_MS, WebhookSender } from './webhooks';

export type * from './contract';
export { StripeState } from './state';
export type * from './types';

import type { StripeSandbox, StripeSandboxOptions } from './contract';

export { STRIPE_RETRY_DELAYS_MS, signatureHeader } from './webhooks';

const TICK_MS = 60_000;

export function createStripeSandbox(opts: StripeSandboxOptions): StripeSandbox {
  const loaded = opts.dataFile ? StripeState.load(opts.dataFile) : null;
  const state = new StripeState(loaded ?? emptyData(), opts.dataFile);
  if (opts.seed) state.seed(opts.seed);
  const ctx: Ctx = { state, baseUrl: opts.baseUrl?.replace(/\/+$/, '') ?? '', accountName: opts.accountName ?? 'Parley' };
  const sender = new WebhookSender(state, {
    url: opts.webhook.url,
    secret: opts.webhook.secret,
    retryDelaysMs: opts.webhook.retryDelaysMs ?? STRIPE_RETRY_DELAYS_MS,
    timeoutMs: opts.webhook.timeoutMs ?? 10_000,
  });
  state.on('stripe-event', (event: StripeEvent) => sender.onEvent(event));
  // Renewals and trial ends due as wall-clock time passes happen even when nobody calls the API.
  const ticker = setInterval(() => tick(ctx), TICK_MS);
  ticker.unref();

  const api = apiRouter(ctx, { secretKey: opts.secretKey });
  let server: Server | null = null;
  let listeningUrl = '';

  const sandbox: StripeSandbox = {
    router: express.Router(),
    apiRouter: api,
    state,
    webhookSecret: opts.webhook.secret,

    async listen(port = 0, host = '127.0.0.1') {
      const app = express();
      app.disable('x-powered-by');
      app.use(api);
      const s = createServer(app);
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.listen(port, host, () => resolve());
      });
      server = s;
      const address = s.address() as AddressInfo;
      listeningUrl = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${address.port}`;
      if (!ctx.baseUrl) ctx.baseUrl = listeningUrl;
      app.use(new URL(ctx.baseUrl).pathname.replace(/\/+$/, '') || '/', sandbox.router);
      return listeningUrl;
    },

    apiUrl() {
      if (!listeningUrl) throw new Error('the Stripe sandbox is not listening; call listen() first');
      return listeningUrl;
    },

    setWebhookUrl(url) {
      sender.config.url = url;
    },

    webhookUrl() {
      return sender.config.url;
    },

    now() {
      return state.now();
    },

    advanceClock(seconds) {
      advanceClock(ctx, state.now() + seconds);
    },

    advanceClockTo(unixSeconds) {
      advanceClock(ctx, unixSeconds);
    },

    addCard(customerId, card, o = {}) {
      const customer = state.customer(customerId);
      const nowMs = state.nowMs();
      const pm = /^[\d\s]+$/.test(card)
        ? paymentMethodFromCard({ number: card, expMonth: 12, expYear: new Date(nowMs).getUTCFullYear() + 1, cvc: '123' }, nowMs)
        : paymentMethodFromTestId(card, nowMs);
      if (!pm) throw new Error(`not a test card: ${card}`);
      attachPaymentMethod(ctx, pm, customer);
      if (o.makeDefault) setDefaultPaymentMethod(ctx, customer, pm.id);
      return pm;
    },

    events(type) {
      return state.data.events.filter((e) => !type || e.type === type);
    },

    deliveries() {
      return state.data.deliveries;
    },

    holdWebhooks() {
      sender.hold();
    },

    releaseWebhooks(order) {
      return sender.release(order);
    },

    redeliver(eventId, times) {
      return sender.redeliver(eventId, times);
    },

    deliverInOrder(eventIds) {
      return sender.deliverInOrder(eventIds);
    },

    settled() {
      return sender.settled();
    },

    async close() {
      clearInterval(ticker);
      sender.close();
      await sender.settled();
      state.removeAllListeners();
      state.flush();
      const s = server;
      server = null;
      if (s) {
        s.closeAllConnections();
        await new Promise<void>((resolve) => s.close(() => resolve()));
      }
    },
  };
  sandbox.router.use(pagesRouter(ctx, sandbox));
  return sandbox;
}
