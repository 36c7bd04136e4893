/** The please-upgrade rule (spec section 9): which plan comes after the current one. */
import type { PlanView } from '../../../../server/shared';

/**
 * The first plan of the current plan's duration whose maxChannels exceeds the channels in use; otherwise a
 * custom plan with no price ('Contact us!'). Plans are taken in the order the account lists them.
 */
export function nextPlan(current: PlanView, available: readonly PlanView[], channelsInUse: number): PlanView {
  const next = available.find(
    (plan) => plan.duration === current.duration && plan.stripeId !== current.stripeId && plan.maxChannels > channelsInUse,
  );
  return next ?? { ...current, label: 'Custom', price: null, stripeId: '', maxChannels: Math.max(current.maxChannels, channelsInUse + 1) };
}

/** Monthly figure of a plan in whole currency units: yearly prices are shown per month, rounded up. */
export function monthlyPrice(plan: PlanView): number | null {
  if (plan.price === null) return null;
  return plan.duration === 'yearly' ? Math.ceil(plan.price / 12 / 100) : plan.price / 100;
}
