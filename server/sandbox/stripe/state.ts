// The sandbox's whole state, its clock and its events. Mutations call `changed()` so the data file is written;
// every Stripe event goes through `publish()`, which keeps it for events.list and hands it to the webhook sender.

import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { missing } from './errors';
import type { Customer, Invoice, PaymentMethod, Price, Product, StripeData, StripeEvent, StripeSeed, Subscription } from './types';

/** The API version events carry: the one of the `stripe` package Parley installs. */
export const API_VERSION = '2026-10-28.endive';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const MAX_EVENTS = 5000;
const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;

export function randomId(prefix: string, length = 24): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += ALPHABET[b % ALPHABET.length];
  return `${prefix}_${out}`;
}

export function emptyData(): StripeData {
  return {
    clockOffsetMs: 0,
    products: [],
    prices: [],
    customers: [],
    paymentMethods: [],
    subscriptions: [],
    invoices: [],
    checkoutSessions: [],
    setupIntents: [],
    portalSessions: [],
    events: [],
    deliveries: [],
    idempotency: {},
    pendingLines: [],
  };
}

/** A copy without the sandbox-only fields (card behaviour, checkout items, last error). */
export function plain<T>(value: T): T {
  return JSON.parse(
    JSON.stringify(value, (key, v: unknown) => (key === 'behavior' || key === 'last_error' || key === 'sandbox' ? undefined : v)),
  ) as T;
}

export class StripeState extends EventEmitter {
  private saveTimer: NodeJS.Timeout | null = null;

  constructor(
    readonly data: StripeData,
    private readonly dataFile?: string,
  ) {
    super();
  }

  static load(file: string): StripeData | null {
    if (!existsSync(file)) return null;
    const data: StripeData = { ...emptyData(), ...(JSON.parse(readFileSync(file, 'utf8')) as Partial<StripeData>) };
    // Retries do not survive a restart: say so rather than show them pending forever.
    for (const d of data.deliveries) if (d.status === 'pending') d.status = 'dropped';
    return data;
  }

  /** Unix seconds on the sandbox clock. */
  now(): number {
    return Math.floor(this.nowMs() / 1000);
  }

  nowMs(): number {
    return Date.now() + this.data.clockOffsetMs;
  }

  seed(seed: StripeSeed): void {
    const created = this.now();
    for (const p of seed.products) {
      if (this.data.products.some((x) => x.id === p.id)) continue;
      const product: Product = {
        id: p.id,
        object: 'product',
        active: true,
        created,
        default_price: p.prices[0]?.id ?? null,
        description: p.description ?? null,
        livemode: false,
        metadata: p.metadata ?? {},
        name: p.name,
        updated: created,
      };
      this.data.products.push(product);
      for (const pr of p.prices) {
        if (this.data.prices.some((x) => x.id === pr.id)) continue;
        this.data.prices.push({
          id: pr.id,
          object: 'price',
          active: true,
          billing_scheme: 'per_unit',
          created,
          currency: pr.currency,
          livemode: false,
          lookup_key: pr.lookup_key ?? null,
          metadata: pr.metadata ?? {},
          nickname: pr.nickname ?? null,
          product: p.id,
          recurring: { interval: pr.interval, interval_count: 1, usage_type: 'licensed', trial_period_days: null },
          tax_behavior: 'unspecified',
          type: 'recurring',
          unit_amount: pr.unit_amount,
          unit_amount_decimal: String(pr.unit_amount),
        });
      }
    }
    this.changed();
  }

  customer(id: string, param = 'customer'): Customer {
    const c = this.data.customers.find((x) => x.id === id);
    if (!c) throw missing('cus', id, param);
    return c;
  }

  price(id: string, param = 'price'): Price {
    const p = this.data.prices.find((x) => x.id === id);
    if (!p) throw missing('price', id, param);
    return p;
  }

  product(id: string): Product {
    const p = this.data.products.find((x) => x.id === id);
    if (!p) throw missing('prod', id);
    return p;
  }

  subscription(id: string, param = 'subscription'): Subscription {
    const s = this.data.subscriptions.find((x) => x.id === id);
    if (!s) throw missing('sub', id, param);
    return s;
  }

  invoice(id: string, param = 'invoice'): Invoice {
    const i = this.data.invoices.find((x) => x.id === id);
    if (!i) throw missing('in', id, param);
    return i;
  }

  paymentMethod(id: string, param = 'payment_method'): PaymentMethod {
    const p = this.data.paymentMethods.find((x) => x.id === id);
    if (!p) throw missing('pm', id, param);
    return p;
  }

  /** Any kept object by id, for expand[]. */
  find(id: string): object | undefined {
    const d = this.data;
    for (const list of [
      d.customers,
      d.subscriptions,
      d.invoices,
      d.paymentMethods,
      d.prices,
      d.products,
      d.checkoutSessions,
      d.setupIntents,
    ] as {
      id: string;
    }[][]) {
      const hit = list.find((x) => x.id === id);
      if (hit) return hit;
    }
    return undefined;
  }

  /** Records a Stripe event (data.object as it is now) and hands it to the webhook sender. */
  publish(type: string, object: object, previous?: Record<string, unknown>): StripeEvent {
    const event: StripeEvent = {
      id: randomId('evt'),
      object: 'event',
      api_version: API_VERSION,
      created: this.now(),
      data: { object: plain(object) as Record<string, unknown>, ...(previous ? { previous_attributes: plain(previous) } : {}) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
    this.data.events.push(event);
    if (this.data.events.length > MAX_EVENTS) this.data.events.splice(0, this.data.events.length - MAX_EVENTS);
    this.changed();
    this.emit('stripe-event', event);
    return event;
  }

  /** Forgets idempotency keys older than a day, as Stripe does. */
  sweepIdempotency(): void {
    const cutoff = Date.now() - IDEMPOTENCY_TTL_MS;
    for (const [key, answer] of Object.entries(this.data.idempotency)) if (answer.at < cutoff) delete this.data.idempotency[key];
  }

  changed(): void {
    this.emit('change');
    if (!this.dataFile || this.saveTimer) return;
    this.saveTimer = setTimeout(() => this.flush(), 200);
    this.saveTimer.unref();
  }

  flush(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    if (!this.dataFile) return;
    mkdirSync(path.dirname(this.dataFile), { recursive: true });
    const tmp = `${this.dataFile}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.data));
    renameSync(tmp, this.dataFile);
  }
}
