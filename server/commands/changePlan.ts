import type { Models } from '../models';
import type { AccountDocument } from '../models/Account';
import { PaymentRequiredError, ValidationError } from '../errors';

export const ADD_PAYMENT_METHOD_FIRST = 'Add a payment method first';

/**
 * Switches the plan of an account still on its free trial without a payment method. Paid plan
 * changes go through billing, which is not here yet: they get 402.
 */
export async function changeTrialPlan(models: Models, account: AccountDocument, planStripeId: string, now = new Date()): Promise<AccountDocument> {
  const plan = await models.Plan.findOne({ stripeId: planStripeId });
  if (!plan) throw new ValidationError(`Unknown plan: ${planStripeId}`, 'unknown_plan');
  const onTrial = account.paymentType === 'none' && account.trialEndAt !== null && account.trialEndAt.getTime() > now.getTime();
  if (!onTrial) throw new PaymentRequiredError(ADD_PAYMENT_METHOD_FIRST);
  if (plan.maxChannels !== 0) {
    const widgets = await models.ChatEndpoint.countDocuments({ accountId: account._id });
    if (widgets > plan.maxChannels) {
      throw new ValidationError(
        `The ${plan.label} plan allows ${plan.maxChannels} channel${plan.maxChannels === 1 ? '' : 's'} and you have ${widgets}: delete some widgets first.`,
        'too_many_channels',
      );
    }
  }
  account.planStripeId = plan.stripeId;
  return account.save();
}
