// The sandbox's clock moving forward, and what falls due on the way in time order: trial-end reminders, period
// ends, payment retries, incomplete subscriptions expiring.

import { type Ctx, DAY } from './billing';
import { invalidRequest } from './errors';
import { attemptPayment } from './invoices';
import { cancelSubscription, endPeriod, setStatus, settleAfterPayment, trialWillEnd } from './subscriptions';
import type { Invoice, Subscription } from './types';

/** An incomplete subscription whose first invoice is not paid expires after 23 hours, as at Stripe. */
const INCOMPLETE_TTL = 23 * 3600;
/** customer.subscription.trial_will_end goes out three days before the trial ends. */
const TRIAL_WILL_END_BEFORE = 3 * DAY;

interface Due {
  at: number;
  run: () => void;
}

/** The next thing due on the clock at or before `until`, if any. */
function nextDue(ctx: Ctx, until: number): Due | null {
  const { state } = ctx;
  const due: Due[] = [];
  for (const sub of state.data.subscriptions) {
    const end = sub.items.data[0]?.current_period_end;
    if (end !== undefined && (sub.status === 'trialing' || sub.status === 'active' || sub.status === 'past_due'))
      due.push({ at: end, run: () => endPeriod(ctx, sub, end) });
    if (sub.status === 'incomplete') due.push({ at: sub.created + INCOMPLETE_TTL, run: () => expireIncomplete(ctx, sub) });
    const trialEnd = sub.trial_end;
    if (sub.status === 'trialing' && trialEnd !== null && sub.sandbox?.trialWillEndFor !== trialEnd) {
      due.push({ at: Math.max(sub.created, trialEnd - TRIAL_WILL_END_BEFORE), run: () => trialWillEnd(ctx, sub, trialEnd) });
    }
  }
  for (const invoice of state.data.invoices) {
    const at = invoice.next_payment_attempt;
    if (invoice.status === 'open' && at !== null) due.push({ at, run: () => retryInvoice(ctx, invoice) });
  }
  let best: Due | null = null;
  for (const d of due) if (d.at <= until && (best === null || d.at < best.at)) best = d;
  return best;
}

function expireIncomplete(ctx: Ctx, sub: Subscription): void {
  const invoice = sub.latest_invoice ? ctx.state.data.invoices.find((i) => i.id === sub.latest_invoice) : undefined;
  if (invoice && invoice.status === 'open') {
    invoice.status = 'void';
    invoice.status_transitions.voided_at = ctx.state.now();
    invoice.next_payment_attempt = null;
    ctx.state.publish('invoice.voided', invoice);
  }
  setStatus(ctx, sub, 'incomplete_expired');
}

function retryInvoice(ctx: Ctx, invoice: Invoice): void {
  if (attemptPayment(ctx, invoice)) {
    settleAfterPayment(ctx, invoice);
    return;
  }
  const subId = invoice.parent?.subscription_details.subscription;
  const sub = subId ? ctx.state.data.subscriptions.find((s) => s.id === subId) : undefined;
  if (sub && invoice.next_payment_attempt === null && sub.status === 'past_due') cancelSubscription(ctx, sub, 'payment_failed');
}

/** Moves the sandbox clock to `target` (unix seconds), running every trial end, renewal and retry due on the way. */
export function advanceClock(ctx: Ctx, target: number): void {
  if (target < ctx.state.now()) throw invalidRequest('The clock only moves forward.');
  runDue(ctx, target);
}

function runDue(ctx: Ctx, target: number): void {
  const { state } = ctx;
  const offsetBefore = state.data.clockOffsetMs;
  let ran = false;
  for (let due = nextDue(ctx, target); due !== null; due = nextDue(ctx, target)) {
    if (due.at > state.now()) state.data.clockOffsetMs += due.at * 1000 - state.nowMs();
    due.run();
    ran = true;
  }
  if (target > state.now()) state.data.clockOffsetMs += target * 1000 - state.nowMs();
  if (ran || state.data.clockOffsetMs !== offsetBefore) state.changed();
}

/** Runs what became due as wall-clock time passed. */
export function tick(ctx: Ctx): void {
  runDue(ctx, ctx.state.now());
}
