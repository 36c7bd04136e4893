/** Billing texts of the spec (sections 5 and 8) used by more than one screen. */

/** Asked before any plan change (spec section 5). */
export const SWITCH_CONFIRMATION =
  'Are you sure? Switching plans will change the amount you will be charged and possibly the features offered by the chosen plan.';

export const PLAN_UPDATED = 'Successfully updated account plan.';

/** 'Error updating plan, contact support@{host}' (spec section 8). */
export function planErrorText(host: string = window.location.hostname): string {
  return `Error updating plan, contact support@${host}`;
}

/** A price in cents as dollars: $29, $79.50; a credit (a downgrade's invoice) as -$120. */
export function formatCents(cents: number): string {
  const dollars = Math.abs(cents) / 100;
  return `${cents < 0 ? '-' : ''}$${Number.isInteger(dollars) ? dollars.toString() : dollars.toFixed(2)}`;
}
