import type { Types } from 'mongoose';
import { effectivePlanId } from '../billing/state';
import { PaymentRequiredError } from '../errors';
import type { Models } from '../models';
import { accountBillingState } from '../models/Account';
import { type Plan, planByStripeId } from '../models/Plan';
import type { PlanFeature } from '../shared/constants';
import { PLAN_FEATURE_NAMES } from '../shared/plans';

/**
 * The plan whose features and limits apply to the account now (billing/state effectivePlanId: the trial's during it).
 * The account's billing state and the plan are each kept a second (models/Account.ts, models/Plan.ts; a write through
 * this process drops them): the widget's settings ask it at every page view of a site.
 */
export async function effectivePlanOf(models: Models, accountId: Types.ObjectId, now: Date = new Date()): Promise<Plan | null> {
  const account = await accountBillingState(models.Account, accountId);
  return account ? planByStripeId(models.Plan, effectivePlanId(account, now)) : null;
}

/** Whether the plan that applies to the account now includes the feature. */
export async function planHasFeature(models: Models, accountId: Types.ObjectId, feature: PlanFeature): Promise<boolean> {
  return Boolean((await effectivePlanOf(models, accountId))?.[feature]);
}

/** Throws 402 (Error 'plan_feature') unless the account's plan includes the feature. */
export async function requirePlanFeature(models: Models, accountId: Types.ObjectId, feature: PlanFeature): Promise<void> {
  if (!(await planHasFeature(models, accountId, feature))) {
    throw new PaymentRequiredError(`Your plan does not have access to ${PLAN_FEATURE_NAMES[feature]}. Please upgrade.`, 'plan_feature');
  }
}
