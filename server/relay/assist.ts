/**
 * What Parley does in conversations by itself in the background: response reminders in the thread while a visitor
 * waits. Saved replies are commands (server/commands/deliverSavedReply.ts), as is what happens after a visitor
 * message and on a question group's answer (server/commands/afterVisitorMessage.ts, answerQuestion.ts).
 */
import type { Connection, Types } from 'mongoose';
import { queueThreadPost } from '../commands/threadPosts';
import { visitorLabel } from '../conversations/visitors';
import type { Models } from '../models';
import type { Conversation } from '../models/Conversation';
import { escapeMrkdwn } from '../shared/mrkdwn';
import type { RelayContext } from './context';

/** How often the worker looks for due reminders, unless told otherwise. */
export const ASSIST_TICK_MS = 5_000;

/**
 * Thread posts an earlier version kept in a queue of its own (collection threadposts) move into the outbox
 * once, at start, in their order. Each keeps its id, so a start interrupted halfway moves nothing twice.
 * Posts that queue had given up on are dropped with it. Returns how many moved.
 */
export async function moveQueuedThreadPosts(connection: Connection, models: Models): Promise<number> {
  const old = connection.collection('threadposts');
  const rows = await old.find({ failedAt: null }).sort({ _id: 1 }).toArray();
  let moved = 0;
  for (const row of rows) {
    const conversation = await models.Conversation.findById(row.conversationId, { slackChannel: 1 }).lean<{ slackChannel: string }>();
    if (!conversation) continue;
    try {
      await models.OutboxJob.create({
        _id: row._id,
        kind: 'slack.threadPost',
        key: String(row.conversationId),
        channel: conversation.slackChannel,
        conversationId: row.conversationId,
        payload: {
          conversationId: String(row.conversationId),
          text: typeof row.text === 'string' ? row.text : '',
          blocks: Array.isArray(row.blocks) ? row.blocks : [],
          ...(row.username ? { username: String(row.username) } : {}),
          ...(row.iconUrl ? { iconUrl: String(row.iconUrl) } : {}),
          ...(row.messageId ? { messageId: String(row.messageId) } : {}),
        },
      });
      moved += 1;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 11000) throw error;
    }
  }
  if (rows.length > 0 || (await old.countDocuments({})) > 0) await old.deleteMany({});
  return moved;
}

/**
 * At most this many @here reminders per wait, then one last note without @here: an abandoned chat must not
 * ping the channel every minute for ever. A new visitor message starts a new wait (and a new count).
 */
export const MAX_RESPONSE_REMINDERS = 3;

/**
 * Posts a reminder in the thread of each open conversation whose visitor waits unanswered longer than the widget's
 * responseRemindersFreq. Only conversations whose `reminderAt` has come are read (an index on it): a visitor message
 * sets it to now, and each look moves it to the next reminder's time or to null, so a pass costs what is due, not
 * what is open.
 */
export async function sendDueReminders(ctx: RelayContext, now = new Date()): Promise<number> {
  const due = await ctx.models.Conversation.find({ reminderAt: { $lte: now } })
    .sort({ reminderAt: 1 })
    .limit(1000)
    .lean<ConversationRow[]>();
  let sent = 0;
  for (const c of due) {
    const { next, reminded } = await remindOnce(ctx, c, now);
    if (reminded) sent += 1;
    // Unless a visitor message moved it meanwhile (it asks for a look now).
    await ctx.models.Conversation.updateOne({ _id: c._id, reminderAt: c.reminderAt }, { $set: { reminderAt: next } });
  }
  return sent;
}

type ConversationRow = Pick<
  Conversation,
  'ceId' | 'visitorId' | 'number' | 'status' | 'lastVisitorMsgAt' | 'lastOperatorMsgAt' | 'reminderAt' | 'slackChannel' | 'threadTs'
> & { _id: Types.ObjectId };

/** One look at a conversation: the reminder it is owed now, if any, and when to look again (null: not until the visitor writes). */
async function remindOnce(ctx: RelayContext, c: ConversationRow, now: Date): Promise<{ next: Date | null; reminded: boolean }> {
  const nothing = { next: null, reminded: false };
  const asked = c.lastVisitorMsgAt;
  if (c.status !== 'open' || !asked || (c.lastOperatorMsgAt && c.lastOperatorMsgAt.getTime() >= asked.getTime())) return nothing;
  const ce = await ctx.widgets.get(c.ceId);
  if (!ce?.responseReminders || !(ce.responseRemindersFreq > 0)) return nothing;
  const freqMs = ce.responseRemindersFreq * 1000;
  const cutoff = now.getTime() - freqMs;
  if (asked.getTime() > cutoff) return { next: new Date(asked.getTime() + freqMs), reminded: false };
  const { ConversationAssist, Visitor } = ctx.models;
  const before = await ConversationAssist.findOne({ conversationId: c._id }, { remindedAt: 1, reminders: 1 });
  const previous = before?.remindedAt ?? null;
  if (previous && previous.getTime() > cutoff) return { next: new Date(previous.getTime() + freqMs), reminded: false };
  // Reminders sent before this wait began belong to an earlier question.
  const count = previous && previous.getTime() >= asked.getTime() ? (before?.reminders ?? 0) + 1 : 1;
  if (count > MAX_RESPONSE_REMINDERS + 1) return nothing;
  const again = { next: new Date(now.getTime() + freqMs), reminded: false };
  try {
    // The claim is the guard between processes: only the one that still sees the previous remindedAt moves it.
    const claimed = await ConversationAssist.findOneAndUpdate(
      { conversationId: c._id, remindedAt: previous },
      { $set: { remindedAt: now, reminders: count } },
      { upsert: !before, setDefaultsOnInsert: true },
    );
    if (before && !claimed) return again;
  } catch (error) {
    if ((error as { code?: unknown }).code === 11000) return again;
    throw error;
  }
  const visitor = await Visitor.findById(c.visitorId, { name: 1, email: 1 });
  const who = escapeMrkdwn(visitor ? visitorLabel(visitor, c.number) : `Visitor ${c.number}`);
  const waited = waitedFor(now.getTime() - asked.getTime());
  const text =
    count <= MAX_RESPONSE_REMINDERS
      ? `<!here> :alarm_clock: ${who} has been waiting ${waited} for an answer.`
      : `:hourglass: ${who} is still unanswered after ${waited}. That was the last reminder; the visitor sees your reply whenever it comes.`;
  await queueThreadPost(ctx, c, { text, look: 'alert' });
  return { next: count <= MAX_RESPONSE_REMINDERS ? again.next : null, reminded: true };
}

/** Conversations that waited for a reminder before reminderAt existed are looked at once (a start after an upgrade). */
export async function scheduleOldReminders(ctx: RelayContext): Promise<void> {
  await ctx.models.Conversation.updateMany(
    { status: 'open', lastVisitorMsgAt: { $ne: null }, reminderAt: { $exists: false } },
    { $set: { reminderAt: new Date() } },
  );
}

function waitedFor(ms: number): string {
  const seconds = Math.max(1, Math.round(ms / 1000));
  if (seconds < 120) return `${seconds} seconds`;
  const minutes = Math.round(seconds / 60);
  return minutes < 120 ? `${minutes} minutes` : `${Math.round(minutes / 60)} hours`;
}

export type Assistant = { tick(now?: Date): Promise<void>; stop(): Promise<void> };

/** Starts the reminder pass every `tickMs`; `tick` runs one now (tests pass a clock moved forward). */
export function startAssistant(ctx: RelayContext, tickMs = ASSIST_TICK_MS): Assistant {
  // Passes run one after another on one chain; a timer firing while one waits to start adds nothing.
  let chain: Promise<void> = Promise.resolve();
  let waiting = false;
  let stopped = false;
  const queue = (work: () => Promise<void>): Promise<void> => {
    chain = chain.then(work).catch((error: unknown) => {
      if (!stopped) ctx.logger.error({ err: error }, 'assist: reminder pass failed');
    });
    return chain;
  };
  const pass = async (now?: Date) => {
    if (!stopped) await sendDueReminders(ctx, now);
  };
  void queue(() => scheduleOldReminders(ctx));
  const timer = setInterval(() => {
    if (waiting || stopped) return;
    waiting = true;
    void queue(() => {
      waiting = false;
      return pass();
    });
  }, tickMs);
  timer.unref();
  return {
    tick: (now) => queue(() => pass(now)),
    async stop() {
      stopped = true;
      clearInterval(timer);
      await chain;
    },
  };
}
