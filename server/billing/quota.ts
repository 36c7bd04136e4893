/**
 * The monthly conversation quota. Conversations are never refused for it: going over marks the account over
 * quota (with the reason the console's banner shows) and a new month, or a bigger plan, clears it.
 */
import type { Types } from 'mongoose';
import type { Models } from '../models';
import { catalogPlan } from '../shared/plans';
import { EFFECTIVE_PLAN_FIELDS, effectivePlanId } from './state';

/** Start of the current calendar month, UTC. */
export function monthStart(now: Date = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

/** This month's conversations, those data retention already deleted (or is deleting) included. */
export async function conversationsThisMonth(models: Models, accountId: Types.ObjectId, now: Date = new Date()): Promise<number> {
  const month = monthStart(now);
  const [kept, deleted] = await Promise.all([
    models.Conversation.countDocuments({ accountId, createdAt: { $gte: month }, purgedAt: { $exists: false } }),
    models.DeletedConversations.findOne({ accountId, month }, { count: 1 }).lean<{ count: number }>(),
  ]);
  return kept + (deleted?.count ?? 0);
}

/** Counts this month's conversations, sets or clears the account's over-quota mark, and answers the count. */
export async function refreshQuota(models: Models, accountId: Types.ObjectId, now: Date = new Date()): Promise<number> {
  const account = await models.Account.findById(accountId, { ...EFFECTIVE_PLAN_FIELDS, quota: 1 });
  if (!account) return 0;
  const count = await conversationsThisMonth(models, accountId, now);
  const plan = catalogPlan(effectivePlanId(account, now));
  const limit = plan?.convosPerMonth ?? 0;
  const over = limit > 0 && count > limit;
  const reason =
    over && plan
      ? `${count.toLocaleString('en-US')} conversations this month, your ${plan.label} plan includes ${limit.toLocaleString('en-US')}`
      : '';
  if (account.quota.isOverquota !== over || account.quota.reason !== reason) {
    await models.Account.updateOne({ _id: accountId }, { $set: { quota: { isOverquota: over, reason } } });
  }
  return count;
}

/** Per account: a refresh is running (or pausing after one); `again` when a conversation started since it began counting. */
const refreshing = new Map<string, { again: boolean }>();

/** Between two counts of one account's conversations: a burst costs a count a second, not one a conversation. */
const RECOUNT_AFTER_MS = 1000;

/**
 * `refreshQuota` after a conversation started, without holding up its first line: at most one count runs per
 * account, and the conversations started meanwhile, or in the second after it, are covered by one more count at the
 * end of that second, so a burst of new conversations counts about once a second rather than once each. The mark is
 * what the console shows, never a refusal.
 */
export function refreshQuotaSoon(models: Models, accountId: Types.ObjectId, onError: (error: unknown) => void): void {
  const key = String(accountId);
  const running = refreshing.get(key);
  if (running) {
    running.again = true;
    return;
  }
  const state = { again: false };
  refreshing.set(key, state);
  void (async () => {
    try {
      do {
        state.again = false;
        await refreshQuota(models, accountId).catch(onError);
        await new Promise((resolve) => setTimeout(resolve, RECOUNT_AFTER_MS).unref());
        // Parley stopped meanwhile: nothing more to count here.
      } while (state.again && models.Account.db.readyState === 1);
    } finally {
      refreshing.delete(key);
    }
  })();
}
