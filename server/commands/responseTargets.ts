/**
 * Response targets (issue #31, "are we fast enough"): a visitor's wait for the team, from the line that starts it to
 * the team's answer, counted in business time (conversations/businessTime.ts: the widget's operating hours in its
 * time zone, all the time without a schedule).
 *
 * - A wait starts when the conversation opens (a `first` target) and with a visitor line after the team answered
 *   (`next`); a further line while the visitor already waits does not move it. A snooze's end starts one too: the
 *   conversation is open again, waiting for the team.
 * - `waitingSince` holds its start; when the widget has a target of that kind, `targetDueAt` is the start plus the
 *   target's minutes of business time and `targetKind` says which (the header's target line, App Home's flag).
 * - The team's answer (recordAnswer: a Slack reply, a saved reply, a suggestion sent) ends the wait in the write that
 *   stores the answer and records one `response` InboxEvent: first or next, the business seconds waited, and whether
 *   that was within the target (null without one). Reports → Team reads those.
 * - A snooze, the end, and an article the visitor said answered them end the wait without a response: a snoozed
 *   conversation is not flagged or reminded, and its snooze's end starts a new wait from that moment.
 * - The relay's due work gives a missed target one reminder (remindMissedTarget): the claim on `targetRemindedAt` is
 *   one conditional write, so of two passes or processes only one posts.
 */
import type { Types } from 'mongoose';
import { afterBusinessMinutes, type BusinessHours, businessSecondsBetween } from '../conversations/businessTime';
import type { ConversationContext } from '../conversations/context';
import { recordInboxEvent } from '../conversations/inboxEvents';
import { headerUpdate } from '../conversations/record';
import { slackTime } from '../conversations/snooze';
import { visitorLabel } from '../conversations/visitors';
import type { ChatEndpoint } from '../models/ChatEndpoint';
import type { Conversation } from '../models/Conversation';
import { escapeMrkdwn } from '../shared/mrkdwn';
import { queueThreadPost } from './threadPosts';

/** The widget settings a wait reads: its targets and its hours. */
export type TargetSettings = Pick<ChatEndpoint, 'firstResponseTargetMins' | 'nextResponseTargetMins'> & BusinessHours;

/** The widget fields TargetSettings reads. */
export const TARGET_SETTINGS = {
  firstResponseTargetMins: 1,
  nextResponseTargetMins: 1,
  operatingHours: 1,
  tz: 1,
  onOffSchedule: 1,
} as const;

/** The fields that end a wait (and its target): set by the write that answers, snoozes or ends the conversation. */
export const WAIT_ENDED = { waitingSince: null, targetDueAt: null, targetKind: null, targetRemindedAt: null } as const;

/** The fields a write that ends a wait reads as they were, for its response event. */
export const WAIT_READ = {
  waitingSince: 1,
  targetDueAt: 1,
  targetRemindedAt: 1,
  firstResponseAt: 1,
  accountId: 1,
  slackTeamId: 1,
  status: 1,
  startedAt: 1,
} as const;
export type WaitBefore = Partial<
  Pick<
    Conversation,
    'waitingSince' | 'targetDueAt' | 'targetRemindedAt' | 'firstResponseAt' | 'accountId' | 'slackTeamId' | 'status' | 'startedAt'
  >
>;

const targetMins = (ce: Partial<TargetSettings>, kind: 'first' | 'next') =>
  Math.max(0, (kind === 'first' ? ce.firstResponseTargetMins : ce.nextResponseTargetMins) ?? 0) || 0;

const hoursOf = (ce: Partial<TargetSettings>): BusinessHours => ({
  operatingHours: ce.operatingHours ?? [],
  tz: ce.tz ?? 'UTC',
  onOffSchedule: ce.onOffSchedule ?? false,
});

/** The due time of a target of `kind` for a wait begun `at`; null when the widget has no such target. */
export function targetDueAt(ce: Partial<TargetSettings>, kind: 'first' | 'next', at: Date): Date | null {
  const mins = targetMins(ce, kind);
  return mins > 0 ? afterBusinessMinutes(hoursOf(ce), at, mins) : null;
}

/** The wait of a conversation opening at `at` (its first target), for the write that creates it. */
export function openingWait(ce: Partial<TargetSettings>, at: Date): Pick<Conversation, 'waitingSince' | 'targetDueAt' | 'targetKind'> {
  const due = targetDueAt(ce, 'first', at);
  return { waitingSince: at, targetDueAt: due, targetKind: due ? 'first' : null };
}

/**
 * A visitor line stored at `at` (or a snooze's end): starts a wait unless one runs, the conversation ended, or the
 * team answered after `at`. One conditional write, with the kind read in it (first until the team's first answer).
 * True when a target started (the header then has a line to show).
 */
export async function startWait(
  ctx: Pick<ConversationContext, 'models'>,
  conversationId: Types.ObjectId,
  ce: Partial<TargetSettings>,
  at: Date,
): Promise<boolean> {
  const first = targetDueAt(ce, 'first', at);
  const next = targetDueAt(ce, 'next', at);
  const isFirst = { $eq: [{ $ifNull: ['$firstResponseAt', null] }, null] };
  const result = await ctx.models.Conversation.updateOne(
    {
      _id: conversationId,
      status: 'open',
      waitingSince: null,
      inboxState: { $ne: 'snoozed' },
      $or: [{ lastOperatorMsgAt: null }, { lastOperatorMsgAt: { $lt: at } }],
    },
    [
      {
        $set: {
          waitingSince: at,
          targetDueAt: { $cond: [isFirst, first, next] },
          targetKind: { $cond: [isFirst, first ? 'first' : null, next ? 'next' : null] },
          targetRemindedAt: null,
        },
      },
    ],
    { updatePipeline: true },
  );
  return result.modifiedCount === 1 && (first !== null || next !== null);
}

/**
 * The team answered at `at` (the write that stored the answer ended the wait: WAIT_ENDED, and read `before`): one
 * `response` event for the operator, when a wait ran.
 */
export async function recordResponse(
  ctx: Pick<ConversationContext, 'models'>,
  c: { _id: Types.ObjectId; ceId: Types.ObjectId },
  before: WaitBefore,
  ce: Partial<TargetSettings> | null,
  operatorId: string,
  at: Date,
): Promise<void> {
  if (!before.waitingSince || before.status !== 'open' || !before.accountId) return;
  const waitSecs = businessSecondsBetween(hoursOf(ce ?? {}), before.waitingSince, at);
  await recordInboxEvent(
    ctx.models,
    {
      accountId: before.accountId,
      ceId: c.ceId,
      conversationId: c._id,
      kind: 'response',
      at,
      teamId: before.slackTeamId ?? '',
      operatorId,
      responseKind: before.firstResponseAt ? 'next' : 'first',
      waitSecs,
      // A target the team was reminded of was missed, whatever the clocks of the processes say.
      withinTarget: before.targetDueAt ? !before.targetRemindedAt && at.getTime() <= before.targetDueAt.getTime() : null,
    },
    // A conversation opened today has no event of an earlier day to read.
    { openedAt: before.startedAt },
  );
}

/** What the due work reads of a conversation past its target. */
export type MissedRow = Pick<Conversation, 'targetDueAt'> & { _id: Types.ObjectId };
export const MISSED_ROW = { targetDueAt: 1 } as const;

type Claimed = Pick<
  Conversation,
  'ceId' | 'visitorId' | 'number' | 'slackChannel' | 'assigneeId' | 'targetKind' | 'targetDueAt' | 'waitingSince'
> & { _id: Types.ObjectId };

/**
 * A conversation whose target's due time came: the one reminder, to its assignee (a mention) or, when nobody has it,
 * to the thread (@here when the widget's reminders mention it), and the header refreshed to say the target was missed.
 * The claim (targetRemindedAt set while null and the due time unchanged) lets only one pass of one process post.
 */
export async function remindMissedTarget(ctx: Pick<ConversationContext, 'models' | 'outbox'>, row: MissedRow, now: Date): Promise<boolean> {
  const c = await ctx.models.Conversation.findOneAndUpdate(
    { _id: row._id, status: 'open', targetDueAt: row.targetDueAt, targetRemindedAt: null },
    { $set: { targetRemindedAt: now } },
    {
      returnDocument: 'after',
      projection: { ceId: 1, visitorId: 1, number: 1, slackChannel: 1, assigneeId: 1, targetKind: 1, targetDueAt: 1, waitingSince: 1 },
    },
  )
    .lean<Claimed>()
    .exec();
  if (!c?.targetDueAt) return false;
  const [visitor, ce] = await Promise.all([
    ctx.models.Visitor.findById(c.visitorId, { name: 1, email: 1 }).lean<{ name: string; email: string }>().exec(),
    ctx.models.ChatEndpoint.findById(c.ceId, { responseRemindersMention: 1, firstResponseTargetMins: 1, nextResponseTargetMins: 1 })
      .lean<Pick<ChatEndpoint, 'responseRemindersMention' | 'firstResponseTargetMins' | 'nextResponseTargetMins'>>()
      .exec(),
  ]);
  const who = escapeMrkdwn(visitor ? visitorLabel(visitor, c.number) : `Visitor ${c.number}`);
  const kind = c.targetKind === 'next' ? 'next' : 'first';
  const mins = ce ? targetMins(ce, kind) : 0;
  const mention = c.assigneeId ? `<@${c.assigneeId}> ` : ce?.responseRemindersMention ? '<!here> ' : '';
  const target = `${kind === 'first' ? 'first' : 'next'}-response target${mins > 0 ? ` (${mins} min of operating hours)` : ''}`;
  const since = c.waitingSince ? ` ${who} has waited since ${slackTime(c.waitingSince)}.` : '';
  await queueThreadPost(ctx, c, {
    text: `${mention}:rotating_light: The ${target} was missed: the answer was due ${slackTime(c.targetDueAt)}.${since}`,
    look: 'alert',
  });
  await headerUpdate(ctx, c);
  return true;
}
