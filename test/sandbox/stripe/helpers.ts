/**
 * Test fixtures for the Stripe sandbox: the sandbox on a real loopback port, the official `stripe` client
 * pointed at it through host/port/protocol, and a stand-in webhook endpoint that verifies each delivery with
 * `stripe.webhooks.constructEvent` and answers as told.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { stripeSeed } from '../../../server/billing/sandbox';
import { createStripeSandbox, type StripeSandbox, type StripeSandboxOptions } from '../../../server/sandbox/stripe';
import { PLAN_CATALOG } from '../../../server/shared/plans';

export const SECRET_KEY = 'sk_test_sandbox_0123456789abcdef';
export const WEBHOOK_SECRET = 'whsec_test_0123456789abcdef';

export function clientFor(apiUrl: string, key = SECRET_KEY): Stripe {
  const url = new URL(apiUrl);
  return new Stripe(key, { host: url.hostname, port: Number(url.port), protocol: 'http', maxNetworkRetries: 0, telemetry: false });
}

/** The error the client throws, for asserting on its Stripe fields (type, code, decline_code, param, statusCode). */
export async function stripeError(p: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof Stripe.errors.StripeError) return err;
    throw err;
  }
  throw new Error('expected a Stripe error');
}

export interface ReceivedEvent {
  event: Stripe.Event;
  signature: string;
}

/** A webhook endpoint: verifies signatures, records events, answers `status` (200 unless changed; 503 to what `refuses`). */
export class WebhookEndpoint {
  readonly received: ReceivedEvent[] = [];
  readonly rejected: string[] = [];
  status = 200;
  /** Events answered 503 whatever `status` says (an endpoint that fails on some events only). */
  refuses: (event: Stripe.Event) => boolean = () => false;
  private server: Server | null = null;
  private waiters: { check: () => boolean; resolve: () => void }[] = [];
  url = '';

  async start(): Promise<void> {
    const verifier = new Stripe(SECRET_KEY);
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const signature = String(req.headers['stripe-signature'] ?? '');
        let status = this.status;
        try {
          const event = verifier.webhooks.constructEvent(body, signature, WEBHOOK_SECRET, 300);
          if (this.refuses(event)) status = 503;
          if (status >= 200 && status < 300) this.received.push({ event, signature });
        } catch (err) {
          this.rejected.push(err instanceof Error ? err.message : String(err));
          res.statusCode = 400;
          res.end();
          return;
        }
        res.statusCode = status;
        res.end('{}');
        this.wake();
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', () => resolve()));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/webhook`;
  }

  types(): string[] {
    return this.received.map((r) => r.event.type);
  }

  /** Resolves when `check` holds after a delivery (or at once). */
  waitFor(check: () => boolean): Promise<void> {
    if (check()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ check, resolve }));
  }

  private wake(): void {
    this.waiters = this.waiters.filter((w) => {
      if (!w.check()) return true;
      w.resolve();
      return false;
    });
  }

  async stop(): Promise<void> {
    const s = this.server;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
}

export interface Fixture {
  sandbox: StripeSandbox;
  stripe: Stripe;
  apiUrl: string;
  endpoint: WebhookEndpoint;
  close(): Promise<void>;
}

/** The sandbox alone (as `npm run sandbox:stripe` runs it), seeded with Parley's catalog, with a webhook endpoint. */
export async function startSandbox(overrides: Partial<StripeSandboxOptions> = {}): Promise<Fixture> {
  const endpoint = new WebhookEndpoint();
  await endpoint.start();
  // No baseUrl: the pages live at the root of the sandbox's own server.
  const sandbox = createStripeSandbox({
    secretKey: SECRET_KEY,
    webhook: { url: endpoint.url, secret: WEBHOOK_SECRET, retryDelaysMs: [50, 100, 200] },
    seed: stripeSeed(PLAN_CATALOG),
    ...overrides,
  });
  const apiUrl = await sandbox.listen(0, '127.0.0.1');
  return {
    sandbox,
    stripe: clientFor(apiUrl),
    apiUrl,
    endpoint,
    async close() {
      await sandbox.close();
      await endpoint.stop();
    },
  };
}
