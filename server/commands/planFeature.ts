import type { Types } from 'mongoose';
import { EFFECTIVE_PLAN_FIELDS, effectivePlanId } from '../billing/state';
import { PaymentRequiredError } from '../errors';
import type { Models } from '../models';
import type { Plan } from '../models/Plan';
import type { PlanFeature } from '../shared/constants';
import { PLAN_FEATURE_NAMES } from '../shared/plans';

/** The plan whose features and limits apply to the account now (billing/state effectivePlanId: the trial's during it). */
export async function effectivePlanOf(models: Models, accountId: Types.ObjectId, now: Date = new Date()): Promise<Plan | null> {
  const account = await models.Account.findById(accountId, EFFECTIVE_PLAN_FIELDS).lean();
  return account ? models.Plan.findOne({ stripeId: effectivePlanId(account, now) }).lean<Plan>() : null;
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
