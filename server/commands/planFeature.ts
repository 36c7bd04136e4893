import type { Types } from 'mongoose';
import { PaymentRequiredError } from '../errors';
import type { Models } from '../models';
import type { PlanFeature } from '../shared/constants';

const FEATURE_NAMES: Record<PlanFeature, string> = {
  reports: 'reports',
  triggers: 'triggers',
  savedReplies: 'saved replies',
  bots: 'bots',
  whiteLabel: 'white label',
  phoneSupport: 'phone support',
  questionGroups: 'question groups',
};

/** Whether the account's plan includes the feature. */
export async function planHasFeature(models: Models, accountId: Types.ObjectId, feature: PlanFeature): Promise<boolean> {
  const account = await models.Account.findById(accountId, { planStripeId: 1 });
  const plan = account ? await models.Plan.findOne({ stripeId: account.planStripeId }) : null;
  return Boolean(plan?.[feature]);
}

/** Throws 402 (Error 'plan_feature') unless the account's plan includes the feature. */
export async function requirePlanFeature(models: Models, accountId: Types.ObjectId, feature: PlanFeature): Promise<void> {
  if (!(await planHasFeature(models, accountId, feature))) {
    throw new PaymentRequiredError(`Your plan does not have access to ${FEATURE_NAMES[feature]}. Please upgrade.`, 'plan_feature');
  }
}
