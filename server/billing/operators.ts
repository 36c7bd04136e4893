/**
 * The plan's operator limit (maxOperators, 0 = unlimited): the first maxOperators Slack users who answer
 * visitors of an account in a calendar month take its seats. Anyone else's replies still reach the visitor;
 * they are told, privately and once per conversation, that the plan is full.
 */
import type { Types } from 'mongoose';
import type { Models } from '../models';
import { accountBillingState } from '../models/Account';
import { catalogPlan } from '../shared/plans';
import { EFFECTIVE_PLAN_FIELDS, effectivePlanId } from './state';

const DUPLICATE_KEY = 11000;

export function monthKey(now: Date = new Date()): string {
  return now.toISOString().slice(0, 7);
}

export function operatorLimitText(planLabel: string, maxOperators: number): string {
  return `Your reply reached the visitor, but your team's ${planLabel} plan includes ${maxOperators} ${maxOperators === 1 ? 'operator' : 'operators'} a month and they are all taken. Ask an admin to upgrade the plan in Parley (Account).`;
}

/** How many seated operators a process remembers; past it, the memory starts over (seats are re-read once). */
const REMEMBERED_SEATS = 10_000;

/**
 * operatorSeat with a memory of the seats this process saw taken: a seat once taken stays taken for its month
 * (nothing unseats an operator), so the next replies of a seated operator cost no database read.
 */
export class OperatorSeats {
  private readonly seated = new Set<string>();
  private month = '';

  constructor(private readonly models: Models) {}

  async check(
    accountId: Types.ObjectId,
    slackUserId: string,
    conversationId: Types.ObjectId,
    now: Date = new Date(),
  ): Promise<string | null> {
    const month = monthKey(now);
    if (month !== this.month || this.seated.size >= REMEMBERED_SEATS) {
      this.seated.clear();
      this.month = month;
    }
    const key = `${String(accountId)} ${slackUserId}`;
    if (this.seated.has(key)) return null;
    // A plan without an operator limit (the billing state as kept a second for presence): nobody needs a seat, and
    // the reply costs no read. A plan that gains a limit is seen within that second, like a new conversation sees it.
    const billing = await accountBillingState(this.models.Account, accountId);
    if (billing && catalogPlan(effectivePlanId(billing, now))?.maxOperators === 0) return null;
    const result = await operatorSeat(this.models, accountId, slackUserId, conversationId, now);
    if (result.seated) this.seated.add(key);
    return result.tell;
  }
}

/**
 * Takes or checks the seat of `slackUserId`; answers (`tell`) the text to show them privately when they are over
 * the limit and were not yet told in this conversation, else null, and whether they hold a seat this month.
 */
export async function operatorSeat(
  models: Models,
  accountId: Types.ObjectId,
  slackUserId: string,
  conversationId: Types.ObjectId,
  now: Date = new Date(),
): Promise<{ tell: string | null; seated: boolean }> {
  const account = await models.Account.findById(accountId, EFFECTIVE_PLAN_FIELDS).lean();
  const plan = account ? catalogPlan(effectivePlanId(account, now)) : undefined;
  // Without a limit nobody needs a seat; a plan that gains one later counts seats from its first reply on.
  if (!plan || plan.maxOperators === 0) return { tell: null, seated: false };
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
  if (!seat || seat.seated) return { tell: null, seated: seat?.seated ?? false };
  const warned = await models.OperatorSeat.updateOne(
    { ...key, warnedConversationIds: { $ne: conversationId } },
    { $addToSet: { warnedConversationIds: conversationId } },
  );
  return { tell: warned.modifiedCount === 1 ? operatorLimitText(plan.label, plan.maxOperators) : null, seated: false };
}
