/** Pure rules of the Account screen (spec sections 4 and 9): plan buttons, status text, usage and invoices. */
import type { AccountView, InvoiceView, PlanDuration, PlanView } from '../../../../server/shared';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Bars of the Plan Usage panel are this many pixels wide at 100 percent. */
export const USAGE_BAR_WIDTH = 400;

export function formatDate(value: string | number | Date): string {
  return new Date(value).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
}

export function hasCard(account: Pick<AccountView, 'paymentType'>): boolean {
  return account.paymentType !== 'none';
}

/**
 * The status line (spec section 4, "Account status text"): a pending cancellation first; then, with a card,
 * delinquent or in good standing; without one (or once the subscription is over), when it ended.
 */
export function statusText(
  account: Pick<AccountView, 'state' | 'paymentType' | 'cancelAt' | 'canceledAt' | 'delinquent' | 'trialEndAt'>,
  now: Date = new Date(),
): string {
  if (account.cancelAt && Date.parse(account.cancelAt) > now.getTime()) {
    return `subscription canceled and will end on ${formatDate(account.cancelAt)}`;
  }
  if (hasCard(account) && account.state === 'paying') return account.delinquent ? 'delinquent, update billing info' : 'in good standing';
  const ended = account.canceledAt ?? account.trialEndAt;
  return ended ? `subscription ended on ${formatDate(ended)}` : 'subscription ended';
}

/** Whole days until the pending cancellation takes effect. */
export function daysUntil(iso: string, now: Date = new Date()): number {
  return Math.max(0, Math.ceil((Date.parse(iso) - now.getTime()) / DAY_MS));
}

/** What a month of the plan costs, in cents, for comparing plans of either duration. */
function perMonth(plan: PlanView): number {
  return plan.price === null ? Number.POSITIVE_INFINITY : plan.duration === 'yearly' ? plan.price / 12 : plan.price;
}

export type PlanButton = { label: string; disabled: boolean; kind: 'current' | 'checkout' | 'change' };

/** Once the subscription is over (canceled, or a trial that expired) no plan is current: the plan shown is the one that ended. */
export function subscriptionEnded(account: Pick<AccountView, 'state'>): boolean {
  return account.state === 'canceled' || account.state === 'trial_expired';
}

/**
 * The button of a plan tile (spec section 4): none for a custom plan; 'Choose Plan' on every priced tile, the
 * ended plan's included, once the trial or the subscription is over (nothing is current then: Checkout, which shows
 * what is due today); 'Current plan' (disabled) for the account's plan; 'Choose Plan' (Checkout) without
 * a card; otherwise Switch to annual/monthly for the same plan in the other duration, Upgrade when it costs more per
 * month, Downgrade when less.
 */
export function planButton(
  plan: PlanView,
  current: PlanView,
  account: Pick<AccountView, 'paymentType'> & Partial<Pick<AccountView, 'state'>>,
): PlanButton | null {
  if (plan.price === null) return null;
  // A new subscription goes through Checkout, where the customer sees what is due today and confirms the card.
  if (account.state && subscriptionEnded({ state: account.state })) return { label: 'Choose Plan', disabled: false, kind: 'checkout' };
  if (plan.stripeId === current.stripeId) return { label: 'Current plan', disabled: true, kind: 'current' };
  if (!hasCard(account)) return { label: 'Choose Plan', disabled: false, kind: 'checkout' };
  if (plan.label === current.label && plan.duration !== current.duration) {
    return { label: plan.duration === 'yearly' ? 'Switch to annual' : 'Switch to monthly', disabled: false, kind: 'change' };
  }
  const delta = perMonth(plan) - perMonth(current);
  if (delta === 0) return { label: 'Current plan', disabled: true, kind: 'current' };
  return { label: delta > 0 ? 'Upgrade' : 'Downgrade', disabled: false, kind: 'change' };
}

/** The plans shown for one position of the Monthly / Annually toggle, in ladder order. */
export function plansFor(available: readonly PlanView[], duration: PlanDuration): PlanView[] {
  return available.filter((plan) => plan.duration === duration);
}

/** Operators, channels (plural above 1) and conversations per month (spec section 9). */
export function planLimits(plan: PlanView): string[] {
  return [
    plan.maxOperators === 0 ? 'Unlimited operators' : `${plan.maxOperators} ${plan.maxOperators === 1 ? 'operator' : 'operators'}`,
    `${plan.maxChannels} ${plan.maxChannels > 1 ? 'channels' : 'channel'}`,
    `${plan.convosPerMonth.toLocaleString('en-US')} conversations per month`,
  ];
}

export type Usage = { used: number; limit: number; width: number; danger: boolean };

/**
 * A usage bar: its width out of USAGE_BAR_WIDTH, in danger style once the limit is reached (spec section 9), or,
 * for a limit that is fine to fill (`fullIsFine`: the channels a plan includes), only once it is exceeded.
 */
export function usage(used: number, limit: number, fullIsFine = false): Usage {
  const ratio = limit > 0 ? Math.min(1, used / limit) : 1;
  const over = limit > 0 ? used > limit : used > 0;
  return { used, limit, width: Math.round(ratio * USAGE_BAR_WIDTH), danger: fullIsFine ? over : ratio >= 1 };
}

/** Invoices with amount 0 are hidden when only one invoice exists (spec section 9). */
export function visibleInvoices(invoices: readonly InvoiceView[]): InvoiceView[] {
  return invoices.length === 1 && invoices[0]?.amount === 0 ? [] : [...invoices];
}
