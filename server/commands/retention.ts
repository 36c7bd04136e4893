/**
 * Data retention: an account that set `retentionDays` keeps its conversations that long. A daily pass deletes
 * the older ones that have ended, with their messages, visitor files, queued jobs and offline messages, the
 * presence transitions the availability report no longer needs, the help center's older events (AnswerEvents:
 * searches with the questions visitors typed, views, answers), and visitors left with nothing. Slack threads
 * stay (they are the customer's Slack). Deleted conversations are counted per month first (DeletedConversations),
 * so the monthly quota still holds them.
 *
 * Work goes in small batches with a pause between them so the relay sharing the database never waits long. The
 * scheduler runs the pass once a day per deployment (server/tasks.ts); should two passes still meet (one outlasting
 * its day), a conversation is marked (purgedAt) and counted by the one process whose update marked it, so it is
 * counted once whoever deletes it.
 */
import { setImmediate as yieldToOthers } from 'node:timers/promises';
import { Types } from 'mongoose';
import type { Models } from '../models';
import { type RetentionPayload, retentionCutoff } from '../shared/retention';

export type RetentionPass = {
  accounts: number;
  conversations: number;
  messages: number;
  files: number;
  offlineMessages: number;
  answerEvents: number;
};

export async function setRetention(models: Models, accountId: Types.ObjectId, input: RetentionPayload): Promise<void> {
  await models.Account.updateOne({ _id: accountId }, { $set: { retentionDays: input.retentionDays } });
}

const BATCH = 200;

const monthOf = (date: Date) => new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1)).getTime();

/** One pass over every account with a retention period: deletes what is older than its cutoff. */
export async function purgeExpired(models: Models, options: { now?: Date; batch?: number } = {}): Promise<RetentionPass> {
  const now = options.now ?? new Date();
  const batch = options.batch ?? BATCH;
  const pass: RetentionPass = { accounts: 0, conversations: 0, messages: 0, files: 0, offlineMessages: 0, answerEvents: 0 };
  const accounts = await models.Account.find({ retentionDays: { $gte: 1 } }, { retentionDays: 1 }).lean();
  for (const account of accounts) {
    const cutoff = retentionCutoff(account.retentionDays ?? null, now);
    if (!cutoff) continue;
    pass.accounts += 1;
    await purgeAccount(models, account._id, cutoff, batch, pass);
  }
  return pass;
}

async function purgeAccount(models: Models, accountId: Types.ObjectId, cutoff: Date, batch: number, pass: RetentionPass): Promise<void> {
  // Conversation ids carry their creation time: the account's older ones are a range of its { accountId, _id } index.
  const before = Types.ObjectId.createFromTime(Math.floor(cutoff.getTime() / 1000));
  for (;;) {
    const found = await models.Conversation.find(
      { accountId, _id: { $lt: before }, status: 'ended', endedAt: { $lt: cutoff } },
      { createdAt: 1, purgedAt: 1 },
    )
      .sort({ _id: 1 })
      .limit(batch)
      .lean<{ _id: Types.ObjectId; createdAt: Date; purgedAt?: Date }[]>();
    if (found.length === 0) break;
    await countAndMark(
      models,
      accountId,
      found.filter((c) => !c.purgedAt),
    );
    const ids = found.map((c) => c._id);
    const [messages, files] = await Promise.all([
      models.Message.deleteMany({ conversationId: { $in: ids } }),
      models.WidgetFile.deleteMany({ conversationId: { $in: ids } }),
      models.OutboxJob.deleteMany({ conversationId: { $in: ids } }),
      models.InboundMail.deleteMany({ conversationId: { $in: ids } }),
    ]);
    const removed = await models.Conversation.deleteMany({ _id: { $in: ids }, purgedAt: { $exists: true } });
    pass.conversations += removed.deletedCount;
    pass.messages += messages.deletedCount;
    pass.files += files.deletedCount;
    await yieldToOthers();
    if (found.length < batch) break;
  }
  const offline = await models.OfflineMessage.deleteMany({ accountId, createdAt: { $lt: cutoff } });
  pass.offlineMessages += offline.deletedCount;
  // A range of the { accountId, at } index.
  const answerEvents = await models.AnswerEvent.deleteMany({ accountId, at: { $lt: cutoff } });
  pass.answerEvents += answerEvents.deletedCount;
  await purgePresence(models, accountId, cutoff);
  await purgeVisitors(models, accountId, cutoff, batch);
}

/** Counts the conversations this process marks, per month of their start, before they are deleted. */
async function countAndMark(
  models: Models,
  accountId: Types.ObjectId,
  unmarked: { _id: Types.ObjectId; createdAt: Date }[],
): Promise<void> {
  const byMonth = new Map<number, Types.ObjectId[]>();
  for (const c of unmarked) byMonth.set(monthOf(c.createdAt), [...(byMonth.get(monthOf(c.createdAt)) ?? []), c._id]);
  for (const [month, ids] of byMonth) {
    const marked = await models.Conversation.updateMany(
      { _id: { $in: ids }, purgedAt: { $exists: false } },
      { $set: { purgedAt: new Date() } },
      { timestamps: false },
    );
    if (marked.modifiedCount === 0) continue;
    await models.DeletedConversations.updateOne(
      { accountId, month: new Date(month) },
      { $inc: { count: marked.modifiedCount } },
      { upsert: true },
    );
  }
}

/**
 * Presence transitions before the cutoff, except each widget's last one: the availability report needs the state
 * a widget was in when its kept range starts, and the transition numbers go on from it.
 */
async function purgePresence(models: Models, accountId: Types.ObjectId, cutoff: Date): Promise<void> {
  const widgets = await models.ChatEndpoint.find({ accountId }, { _id: 1 }).lean();
  for (const { _id: ceId } of widgets) {
    const last = await models.PresenceChange.findOne({ ceId, at: { $lt: cutoff } }, { _id: 1 })
      .sort({ at: -1, _id: -1 })
      .lean();
    if (last) await models.PresenceChange.deleteMany({ ceId, at: { $lt: cutoff }, _id: { $ne: last._id } });
  }
}

/** Visitors not seen since the cutoff whose conversations are all gone: their name and e-mail go too. */
async function purgeVisitors(models: Models, accountId: Types.ObjectId, cutoff: Date, batch: number): Promise<void> {
  let after: Types.ObjectId | null = null;
  for (;;) {
    const filter: Record<string, unknown> = { accountId, lastSeenAt: { $lt: cutoff } };
    if (after) filter._id = { $gt: after };
    const visitors = await models.Visitor.find(filter, { _id: 1 }).sort({ _id: 1 }).limit(batch).lean<{ _id: Types.ObjectId }[]>();
    if (visitors.length === 0) return;
    after = visitors[visitors.length - 1]._id;
    const ids = visitors.map((v) => v._id);
    const withConversations: Types.ObjectId[] = await models.Conversation.distinct('visitorId', { visitorId: { $in: ids } });
    const keep = new Set(withConversations.map(String));
    const gone = ids.filter((id) => !keep.has(String(id)));
    if (gone.length > 0) {
      await models.WidgetFile.deleteMany({ visitorId: { $in: gone } });
      await models.Visitor.deleteMany({ _id: { $in: gone }, lastSeenAt: { $lt: cutoff } });
    }
    await yieldToOthers();
    if (visitors.length < batch) return;
  }
}
