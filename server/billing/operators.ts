/**
 * The plan's operator limit (maxOperators, 0 = unlimited): the first maxOperators Slack users who answer
 * visitors of an account in a calendar month take its seats. Anyone else's replies still reach the visitor;
 * they are told, privately and once per conversation, that the plan is full.
 */
import type { Types } from 'mongoose';
import type { Models } from '../models';
import { catalogPlan } from '../shared/plans';

const DUPLICATE_KEY = 11000;

export function monthKey(now: Date = new Date()): string {
  return now.toISOString().slice(0, 7);
}

export function operatorLimitText(planLabel: string, maxOperators: number): string {
  return `Your reply reached the visitor, but your team's ${planLabel} plan includes ${maxOperators} ${maxOperators === 1 ? 'operator' : 'operators'} a month and they are all taken. Ask an admin to upgrade the plan in Parley (Account).`;
}

/**
 * Takes or checks the seat of `slackUserId`; answers the text to show them privately when they are over the
 * limit and were not yet told in this conversation, else null.
 */
export async function operatorSeat(
  models: Models,
  accountId: Types.ObjectId,
  slackUserId: string,
  conversationId: Types.ObjectId,
  now: Date = new Date(),
): Promise<string | null> {
  const account = await models.Account.findById(accountId, { planStripeId: 1 }).lean();
  const plan = account ? catalogPlan(account.planStripeId) : undefined;
  if (!plan || plan.maxOperators === 0) return null;
  const month = monthKey(now);
  const key = { accountId, month, slackUserId };
  let seat = await models.OperatorSeat.findOne(key).lean();
  if (!seat) {
    const seated = (await models.OperatorSeat.countDocuments({ accountId, month, seated: true })) < plan.maxOperators;
    try {
      seat = (await models.OperatorSeat.create({ ...key, seated })).toObject();
    } catch (error) {
      // Two replies of the same person at once: the other one created the seat.
      if ((error as { code?: number }).code !== DUPLICATE_KEY) throw error;
      seat = await models.OperatorSeat.findOne(key).lean();
    }
  }
  if (!seat || seat.seated) return null;
  const warned = await models.OperatorSeat.updateOne(
    { ...key, warnedConversationIds: { $ne: conversationId } },
    { $addToSet: { warnedConversationIds: conversationId } },
  );
  return warned.modifiedCount === 1 ? operatorLimitText(plan.label, plan.maxOperators) : null;
}
