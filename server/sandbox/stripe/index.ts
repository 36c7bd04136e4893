// The Stripe sandbox: a local stand-in for Stripe that Parley's unchanged `stripe` client talks to through its
// host/port/protocol options. The API (`/v1/...`, which the client cannot put under a path prefix) is served by
// `listen()` on its own port; the hosted pages and the operator page are `router`, mounted at the path of
// `baseUrl`. README.md lists the URLs, the test knobs and the choices made.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Router } from 'express';
import { apiRouter } from './api';
import { advanceClock, attachPaymentMethod, type Ctx, setDefaultPaymentMethod, tick } from './billing';
import { paymentMethodFromCard, paymentMethodFromTestId } from './cards';
import { pagesRouter } from './pages';
import { emptyData, StripeState } from './state';
import type { Delivery, PaymentMethod, StripeEvent, StripeSeed } from './types';
import { type ReleaseOrder, STRIPE_RETRY_DELAYS_MS, WebhookSender } from './webhooks';

export { StripeState } from './state';
export type * from './types';
export { STRIPE_RETRY_DELAYS_MS, signatureHeader } from './webhooks';

export interface StripeSandboxOptions {
  /**
   * Public URL where `router` (hosted pages, operator page) is mounted, without a trailing slash. Unset: the
   * pages are served at the root of the server `listen()` starts, and this becomes its URL.
   */
  baseUrl?: string;
  /** The secret key callers must send; unset: any `sk_test_…` key. */
  secretKey?: string;
  webhook: {
    /** The app's webhook endpoint; unset: events are kept but not sent (set later with setWebhookUrl). */
    url?: string;
    /** Signs every delivery (`whsec_…`). */
    secret: string;
    /** Gaps before each retry of a delivery the endpoint did not take (default: Stripe's, up to three days). */
    retryDelaysMs?: number[];
    /** How long the endpoint has to answer (default 10 s). */
    timeoutMs?: number;
  };
  /** Products and prices to start with (Parley's plan catalog); existing ids are kept. */
  seed?: StripeSeed;
  /** Keeps the state across restarts. */
  dataFile?: string;
  /** The business name on Checkout, the portal and invoices (default "Parley"). */
  accountName?: string;
}

export interface StripeSandbox {
  /** Hosted Checkout, Customer Portal and invoice pages, and the operator page; mount at the path of baseUrl. */
  router: Router;
  /** The REST API under /v1; `listen()` serves it, or mount it at the root of a server of your own. */
  apiRouter: Router;
  /** Inspect from tests: customers, subscriptions, invoices, events, deliveries … */
  state: StripeState;
  webhookSecret: string;
  /** Serves the API (and the pages, under their path) on its own port; resolves with its base URL. */
  listen(port?: number, host?: string): Promise<string>;
  /** The API's base URL once listening, e.g. http://127.0.0.1:41234. */
  apiUrl(): string;
  setWebhookUrl(url: string | undefined): void;
  webhookUrl(): string | undefined;
  /** The sandbox clock, unix seconds (Stripe's test clocks, for the whole sandbox). */
  now(): number;
  /** Moves the clock forward, running trial ends, renewals, payment retries and cancellations due on the way. */
  advanceClock(seconds: number): void;
  advanceClockTo(unixSeconds: number): void;
  /** Attaches a test card (`4000000000000341`, or a test id like `pm_card_visa`) to a customer, as its default when asked. */
  addCard(customerId: string, card: string, opts?: { makeDefault?: boolean }): PaymentMethod;
  /** Events so far, oldest first; filtered by type when given. */
  events(type?: string): StripeEvent[];
  deliveries(): Delivery[];
  /** Holds new webhook deliveries until release() … */
  holdWebhooks(): void;
  /** … then sends them, in the order they happened, reversed or shuffled. Returns the event ids in sending order. */
  releaseWebhooks(order?: ReleaseOrder): string[];
  /** Delivers a kept event `times` more times. */
  redeliver(eventId: string, times?: number): Promise<Delivery[]>;
  /** Delivers kept events in the order given. */
  deliverInOrder(eventIds: string[]): Promise<Delivery[]>;
  /** Resolves once every webhook delivery started so far (with its retries) is over. */
  settled(): Promise<void>;
  /** Stops the API server, drops pending retries, writes the data file. */
  close(): Promise<void>;
}

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
