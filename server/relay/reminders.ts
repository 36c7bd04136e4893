/**
 * Response reminders in the thread while a visitor waits unanswered: one of the relay's due checks (relay/index.ts
 * reads the conversations whose `reminderAt` has come, commands/conversationDueTimes.ts says when that is).
 */
import type { Types } from 'mongoose';
import { firstReminderAt, reminderDueAt } from '../commands/conversationDueTimes';
import { queueThreadPost } from '../commands/threadPosts';
import { visitorLabel } from '../conversations/visitors';
import type { Conversation } from '../models/Conversation';
import { escapeMrkdwn } from '../shared/mrkdwn';
import { RESPONSE_REMINDER_STEPS } from '../shared/settings';
import type { RelayContext } from './context';

/**
 * A wait's reminders (shared/settings.ts RESPONSE_REMINDER_STEPS): spaced further apart each time, the last one saying
 * it is the last, so an abandoned chat does not ping the channel for ever. @here only with responseRemindersMention.
 * A new visitor message starts a new wait (and a new count); any answer ends it (answeredFields).
 */
export const MAX_RESPONSE_REMINDERS = RESPONSE_REMINDER_STEPS.length;

export type ReminderRow = Pick<
  Conversation,
  | 'ceId'
  | 'visitorId'
  | 'number'
  | 'status'
  | 'lastVisitorMsgAt'
  | 'lastOperatorMsgAt'
  | 'resolvedByArticleAt'
  | 'reminderAt'
  | 'slackChannel'
  | 'threadTs'
  | 'assigneeId'
> & { _id: Types.ObjectId };
export const REMINDER_ROW = {
  ceId: 1,
  visitorId: 1,
  number: 1,
  status: 1,
  lastVisitorMsgAt: 1,
  lastOperatorMsgAt: 1,
  resolvedByArticleAt: 1,
  reminderAt: 1,
  slackChannel: 1,
  threadTs: 1,
  assigneeId: 1,
} as const;

/**
 * A conversation whose `reminderAt` came: posts the reminder it is owed now, if any, and moves `reminderAt` to the
 * next look (null: not until the visitor writes), unless a visitor message moved it meanwhile. True when it reminded.
 */
export async function remindIfDue(ctx: RelayContext, c: ReminderRow, now: Date): Promise<boolean> {
  const { next, reminded } = await remindOnce(ctx, c, now);
  await ctx.models.Conversation.updateOne({ _id: c._id, reminderAt: c.reminderAt }, { $set: { reminderAt: next } });
  return reminded;
}

/** One look at a conversation: the reminder it is owed now, if any, and when to look again (null: not until the visitor writes). */
async function remindOnce(ctx: RelayContext, c: ReminderRow, now: Date): Promise<{ next: Date | null; reminded: boolean }> {
  const nothing = { next: null, reminded: false };
  const asked = c.lastVisitorMsgAt;
  // Answered since the visitor asked: by an operator, or by an article the visitor said answered them.
  const answeredAt = Math.max(c.lastOperatorMsgAt?.getTime() ?? 0, c.resolvedByArticleAt?.getTime() ?? 0);
  if (c.status !== 'open' || !asked || answeredAt >= asked.getTime()) return nothing;
  const ce = await ctx.widgets.get(c.ceId);
  if (!ce) return nothing;
  // The same first reminder the visitor's line stored (null with the widget's reminders off).
  const firstDue = firstReminderAt(asked, ce);
  if (!firstDue) return nothing;
  if (firstDue > now) return { next: firstDue, reminded: false };
  const { ConversationAssist, Visitor } = ctx.models;
  const before = await ConversationAssist.findOne({ conversationId: c._id }, { remindedAt: 1, reminders: 1 });
  const previous = before?.remindedAt ?? null;
  // Reminders sent before this wait began belong to an earlier question.
  const sent = previous && previous.getTime() >= asked.getTime() ? (before?.reminders ?? 0) : 0;
  const due = reminderDueAt(asked, sent, ce.responseRemindersFreq);
  if (!due) return nothing;
  if (due > now) return { next: due, reminded: false };
  const count = sent + 1;
  const again = { next: new Date(now.getTime() + 30_000), reminded: false };
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
  // An assignee hears of the wait first, alone; the channel (@here when the owner asked for it) only once they stayed
  // silent past the first reminder, or when nobody has the conversation.
  const assignee = c.assigneeId ?? '';
  const channel = ce.responseRemindersMention ? '<!here> ' : '';
  const mention = assignee ? (count === 1 ? `<@${assignee}> ` : `${channel}<@${assignee}> has not answered yet. `) : channel;
  const text =
    count < MAX_RESPONSE_REMINDERS
      ? `${mention}:alarm_clock: ${who} has been waiting ${waited} for an answer.`
      : `${mention}:hourglass: ${who} is still unanswered after ${waited}. That was the last reminder; the visitor sees your reply whenever it comes.`;
  await queueThreadPost(ctx, c, { text, look: 'alert' });
  return { next: reminderDueAt(asked, count, ce.responseRemindersFreq), reminded: true };
}

function waitedFor(ms: number): string {
  const seconds = Math.max(1, Math.round(ms / 1000));
  if (seconds < 120) return `${seconds} seconds`;
  const minutes = Math.round(seconds / 60);
  return minutes < 120 ? `${minutes} minutes` : `${Math.round(minutes / 60)} hours`;
}
