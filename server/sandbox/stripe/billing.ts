// What every part of the sandbox's Stripe Billing takes and shares: the context its functions are given and the
// calendar of billing periods. The behaviour itself is in customers.ts, invoices.ts, subscriptions.ts, clock.ts,
// payments.ts, invoice-preview.ts and checkout.ts.

import type { StripeState } from './state';
import type { Interval } from './types';

export const DAY = 86_400;

export interface Ctx {
  state: StripeState;
  /** Public URL of the hosted pages (hosted invoice page …). */
  baseUrl: string;
  /** The business name on invoices and the hosted pages. */
  accountName: string;
}

/** Adds `n` intervals to a timestamp, keeping the anchor's day of month (clamped to the month's last day). */
export function addIntervals(anchor: number, interval: Interval, n: number): number {
  const d = new Date(anchor * 1000);
  if (interval === 'day') return anchor + n * DAY;
  if (interval === 'week') return anchor + n * 7 * DAY;
  const months = interval === 'month' ? n : 12 * n;
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + months;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const t = Date.UTC(y, m, Math.min(d.getUTCDate(), last), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds());
  return Math.floor(t / 1000);
}

export function nextPeriodEnd(start: number, interval: Interval): number {
  return addIntervals(start, interval, 1);
}
