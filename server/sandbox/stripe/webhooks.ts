// Webhook deliveries as Stripe makes them: the event as JSON, `Stripe-Signature: t=…,v1=…` (HMAC-SHA256 of
// `t.payload` with the endpoint's secret), retried with backoff until the endpoint answers 2xx. First attempts go
// out one at a time in the order events happened; an event the endpoint did not take is retried on its own
// schedule, as at Stripe, while later events go on. Tests can hold events and release them in another order, or
// send one again.
import { createHmac } from 'node:crypto';
import { randomId, type StripeState } from './state';
import type { Delivery, StripeEvent } from './types';

const MAX_DELIVERIES = 1000;

/** Stripe retries for up to three days with growing gaps; these are the gaps before retries 1, 2, 3 … */
export const STRIPE_RETRY_DELAYS_MS = [
  60_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3600_000,
  5 * 3600_000,
  10 * 3600_000,
  10 * 3600_000,
  12 * 3600_000,
  24 * 3600_000,
];

export interface WebhookConfig {
  /** Where events are sent; unset: events are kept (events.list) but not sent. */
  url?: string;
  secret: string;
  retryDelaysMs: number[];
  /** How long the endpoint has to answer an attempt. */
  timeoutMs: number;
}

/** The `Stripe-Signature` header for a payload, as Stripe computes it. */
export function signatureHeader(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

export type ReleaseOrder = 'as-happened' | 'reverse' | 'shuffle';

export class WebhookSender {
  private readonly pending = new Set<Promise<unknown>>();
  private readonly timers = new Map<NodeJS.Timeout, () => void>();
  private readonly aborts = new Set<AbortController>();
  private queue: Promise<unknown> = Promise.resolve();
  private held: StripeEvent[] | null = null;
  private closed = false;

  constructor(
    private readonly state: StripeState,
    readonly config: WebhookConfig,
  ) {}

  /** A new event: sent after the ones before it (or held while `hold()` is on). */
  onEvent(event: StripeEvent): void {
    if (this.closed || !this.config.url) return;
    if (this.held) {
      this.held.push(event);
      return;
    }
    this.enqueue(event, 'event');
  }

  /** From now on, new events wait until `release()`. */
  hold(): void {
    this.held ??= [];
  }

  /** Sends the held events in the order asked for, and stops holding. Returns the event ids in sending order. */
  release(order: ReleaseOrder = 'as-happened'): string[] {
    const events = this.held ?? [];
    this.held = null;
    const ordered = order === 'reverse' ? [...events].reverse() : order === 'shuffle' ? shuffle(events) : events;
    for (const e of ordered) this.enqueue(e, order === 'as-happened' ? 'event' : 'reordered');
    return ordered.map((e) => e.id);
  }

  /** Sends a kept event again, `times` more times (Stripe may deliver an event more than once). */
  async redeliver(eventId: string, times = 1): Promise<Delivery[]> {
    const event = this.state.data.events.find((e) => e.id === eventId);
    if (!event) throw new Error(`no event ${eventId}`);
    const out: Delivery[] = [];
    for (let i = 0; i < times; i += 1) out.push(await this.track(this.deliver(event, 'duplicate')));
    return out;
  }

  /** Sends kept events one after the other in the order given (for out-of-order tests). */
  async deliverInOrder(eventIds: string[]): Promise<Delivery[]> {
    const out: Delivery[] = [];
    for (const id of eventIds) {
      const event = this.state.data.events.find((e) => e.id === id);
      if (!event) throw new Error(`no event ${id}`);
      out.push(await this.track(this.deliver(event, 'reordered')));
    }
    return out;
  }

  /** Resolves when every delivery started so far (with its retries) is over. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  /** Stops: pending retries are dropped, attempts in flight aborted. */
  close(): void {
    this.closed = true;
    for (const [timer, wake] of this.timers) {
      clearTimeout(timer);
      wake();
    }
    this.timers.clear();
    for (const a of this.aborts) a.abort();
  }

  private enqueue(event: StripeEvent, reason: Delivery['reason']): void {
    const next = this.queue.then(() => this.deliver(event, reason));
    this.queue = next.catch(() => undefined);
    void this.track(next);
  }

  private track<T>(p: Promise<T>): Promise<T> {
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p)).catch(() => undefined);
    return p;
  }

  /**
   * First attempt now; on failure the retries run in the background on their own schedule (tracked by settled()),
   * so an event waiting for its retries holds back no later event, of this customer or any other.
   */
  private async deliver(event: StripeEvent, reason: Delivery['reason']): Promise<Delivery> {
    const delivery: Delivery = { id: randomId('whd', 14), eventId: event.id, type: event.type, status: 'pending', attempts: [], reason };
    this.state.data.deliveries.push(delivery);
    if (this.state.data.deliveries.length > MAX_DELIVERIES)
      this.state.data.deliveries.splice(0, this.state.data.deliveries.length - MAX_DELIVERIES);
    const ok = await this.attempt(event, delivery);
    if (!ok) void this.track(this.retry(event, delivery));
    return delivery;
  }

  private async retry(event: StripeEvent, delivery: Delivery): Promise<void> {
    for (const delay of this.config.retryDelaysMs) {
      await this.wait(delay);
      if (this.closed) break;
      if (await this.attempt(event, delivery)) return;
    }
    delivery.status = this.closed ? 'dropped' : 'failed';
    this.state.changed();
  }

  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.closed) {
        resolve();
        return;
      }
      const wake = () => resolve();
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, ms);
      timer.unref();
      this.timers.set(timer, wake);
    });
  }

  private async attempt(event: StripeEvent, delivery: Delivery): Promise<boolean> {
    const url = this.config.url;
    if (this.closed || !url) {
      delivery.status = 'dropped';
      return true;
    }
    const payload = JSON.stringify({ ...event, pending_webhooks: 1 }, null, 2);
    const abort = new AbortController();
    this.aborts.add(abort);
    const timer = setTimeout(() => abort.abort(), this.config.timeoutMs);
    const record: Delivery['attempts'][number] = { at: Date.now() };
    delivery.attempts.push(record);
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          'stripe-signature': signatureHeader(payload, this.config.secret),
        },
        body: payload,
        signal: abort.signal,
      });
      await res.arrayBuffer();
      record.status = res.status;
      if (res.status >= 200 && res.status < 300) {
        delivery.status = 'succeeded';
        return true;
      }
      return false;
    } catch (err) {
      record.error = this.closed
        ? 'sandbox closed'
        : abort.signal.aborted
          ? 'timed out'
          : err instanceof Error
            ? err.cause instanceof Error
              ? err.cause.message
              : err.message
            : String(err);
      return false;
    } finally {
      clearTimeout(timer);
      this.aborts.delete(abort);
      this.state.changed();
    }
  }
}

function shuffle<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}
