/** What the Stripe sandbox offers Parley and the specs: its options and its face (createStripeSandbox in index.ts). */
import type { Router } from 'express';
import type { StripeState } from './state';
import type { Delivery, PaymentMethod, StripeEvent, StripeSeed } from './types';
import type { ReleaseOrder } from './webhooks';

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
