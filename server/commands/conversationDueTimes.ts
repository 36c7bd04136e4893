/**
 * When an open conversation next needs the relay's due work (one loop, relay/index.ts): `inactiveAt` (it may be ended
 * for visitor inactivity), `noAnswerAt` (the no-answer webhook is due), `autoAnswerAt` (the automatic answer from the
 * help center is due: commands/autoAnswers.ts) and `reminderAt` (a response reminder in the
 * thread may be owed: a visitor message sets it to when its wait's first reminder is due, or to null when the widget's
 * reminders are off; each look then moves it to the next reminder or to null).
 * The unseen-replies mail has its own, `unseenMailAt` (commands/unseenReplies.ts). They are set where the facts
 * change — a conversation opens, the visitor writes, an operator answers, a widget's settings change — so the checks
 * read only what is due instead of every open conversation.
 */
import type { Types } from 'mongoose';
import type { Models } from '../models';
import type { ChatEndpoint } from '../models/ChatEndpoint';
import { reminderScheduleSecs } from '../shared/settings';
import { HEARTBEAT_MS } from '../shared/widget-constants';
import { SEEN_SAVED_EVERY_MS } from './visitorFrames';

/** The widget settings the due times follow. */
export type DueSettings = Pick<ChatEndpoint, 'maxVisitorInactiveMins' | 'noAnswerMessageAfterSecs'> &
  Partial<Pick<ChatEndpoint, 'autoAnswerAfterSeconds'>>;

/** The widget settings a wait's response reminders follow. */
export type ReminderSettings = Pick<ChatEndpoint, 'responseReminders' | 'responseRemindersFreq'>;

/** When a conversation started at `startedAt` gets its automatic answer; null when the widget's setting is off (0). */
export function autoAnswerDueAt(startedAt: Date, ce: Pick<DueSettings, 'autoAnswerAfterSeconds'>): Date | null {
  const secs = ce.autoAnswerAfterSeconds ?? 0;
  return secs > 0 ? new Date(startedAt.getTime() + secs * 1000) : null;
}

/**
 * The visitor was last active at `lastActivity`: when the conversation may be ended, if the visitor is gone by then.
 * A grace period of 0 is the settings' "Immediately (not recommended)": as soon as the visitor's widget is gone.
 */
export function inactiveAt(lastActivity: Date, ce: Pick<DueSettings, 'maxVisitorInactiveMins'>): Date {
  return new Date(lastActivity.getTime() + graceMs(ce));
}

function graceMs(ce: Pick<DueSettings, 'maxVisitorInactiveMins'>): number {
  return Math.max(0, ce.maxVisitorInactiveMins || 0) * 60_000;
}

/**
 * How old the lastSeenAt of a visitor whose widget is open can be: saved at most every SEEN_SAVED_EVERY_MS, on a
 * frame that comes every heartbeat (a socket silent for two is closed). A visitor seen within this and the grace
 * period is still on the page.
 */
export const SEEN_STALE_MS = SEEN_SAVED_EVERY_MS + 2 * HEARTBEAT_MS;

/**
 * When the next response reminder of a visitor's wait (begun `asked`) is due, `sent` reminders of this wait already
 * posted: on the schedule of the widget's responseRemindersFreq (shared/settings.ts reminderScheduleSecs), null once
 * the wait had them all.
 */
export function reminderDueAt(asked: Date, sent: number, freqSecs: number): Date | null {
  const after = reminderScheduleSecs(freqSecs)[sent];
  return after === undefined ? null : new Date(asked.getTime() + after * 1000);
}

/**
 * When the first response reminder of a wait begun `asked` is due: null when the widget's reminders are off. The line
 * that begins the wait writes it, so the reminder pass reads the conversation only once a reminder may be owed (and
 * not a first time only to learn when that is, an update for every conversation a visitor wrote in). A change of the
 * widget's reminder settings has the pass look at the waits under way again (reviewReminders).
 */
export function firstReminderAt(asked: Date, ce: ReminderSettings): Date | null {
  return ce.responseReminders && ce.responseRemindersFreq > 0 ? reminderDueAt(asked, 0, ce.responseRemindersFreq) : null;
}

/**
 * The fields that mark a visitor's wait answered, set by the write that stores the answer: `lastOperatorMsgAt` at or
 * after the visitor's last message ends the wait's reminders (relay/reminders.ts), and `reminderAt` is cleared so the
 * reminder pass no longer reads the conversation. Every answer sets them: an operator's reply in Slack or a saved reply
 * (recordAnswer in commands/operatorMessages.ts), and any later kind of answer, such as an automatic article answer
 * the visitor accepted, must set them too.
 */
export function answeredFields(at: Date): { lastOperatorMsgAt: Date; reminderAt: null } {
  return { lastOperatorMsgAt: at, reminderAt: null };
}

/** The due fields of a conversation opening now (with its start, so both follow the same instant). */
export function openingDueTimes(
  ce: DueSettings,
  now = new Date(),
): { startedAt: Date; inactiveAt: Date; noAnswerAt: Date; autoAnswerAt: Date | null } {
  return {
    startedAt: now,
    inactiveAt: inactiveAt(now, ce),
    noAnswerAt: new Date(now.getTime() + ce.noAnswerMessageAfterSecs * 1000),
    autoAnswerAt: autoAnswerDueAt(now, ce),
  };
}

/**
 * The widget went offline: its open conversations still waiting for their automatic answer get it now instead of
 * at their time (nobody will answer them before then). The relay's presence calls it on the transition.
 */
export async function autoAnswerNow(models: Pick<Models, 'Conversation'>, ceId: Types.ObjectId, now: Date): Promise<number> {
  const result = await models.Conversation.updateMany(
    { ceId, status: 'open', autoAnswerAt: { $gt: now } },
    { $set: { autoAnswerAt: now } },
  );
  return result.modifiedCount;
}

/** True when the field is null or missing (in aggregation expressions a missing field is not equal to null). */
const isNull = (field: string) => ({ $eq: [{ $ifNull: [field, null] }, null] });

/**
 * Recomputes the due times of a widget's open conversations from their own facts and the widget's settings, in one
 * pipeline update (no conversation is read). `only` narrows the conversations (a start after an upgrade).
 */
export async function recomputeDueTimes(
  models: Pick<Models, 'Conversation'>,
  ce: DueSettings & { _id: Types.ObjectId },
  only: Record<string, unknown> = {},
): Promise<number> {
  const result = await models.Conversation.updateMany(
    { ...only, ceId: ce._id, status: 'open' },
    [
      {
        $set: {
          // $max passes over a null lastVisitorMsgAt: a conversation without visitor messages counts from its start.
          // A conversation stored before the field existed has none at all: $ifNull makes it null, as the embedded
          // store's $max (mingo) answers null, not the other value, for a missing field.
          inactiveAt: { $add: [{ $max: ['$startedAt', { $ifNull: ['$lastVisitorMsgAt', null] }] }, graceMs(ce)] },
          noAnswerAt: {
            $cond: [
              { $and: [isNull('$firstResponseAt'), isNull('$noAnswerNotifiedAt'), isNull('$resolvedByArticleAt')] },
              { $add: ['$startedAt', ce.noAnswerMessageAfterSecs * 1000] },
              null,
            ],
          },
          autoAnswerAt:
            (ce.autoAnswerAfterSeconds ?? 0) > 0
              ? {
                  $cond: [
                    { $and: [isNull('$firstResponseAt'), isNull('$autoAnsweredAt')] },
                    { $add: ['$startedAt', (ce.autoAnswerAfterSeconds ?? 0) * 1000] },
                    null,
                  ],
                }
              : null,
        },
      },
    ],
    { updatePipeline: true },
  );
  return result.modifiedCount;
}

/**
 * The widget's reminder settings changed (on or off, their pace): its open conversations a visitor wrote in are looked
 * at by the next reminder pass, which owes each the reminder of the new settings (or none, and forgets it), so a
 * wait already under way follows the change too.
 */
export async function reviewReminders(models: Pick<Models, 'Conversation'>, ceId: Types.ObjectId, now: Date): Promise<number> {
  const result = await models.Conversation.updateMany(
    { ceId, status: 'open', lastVisitorMsgAt: { $ne: null } },
    { $set: { reminderAt: now } },
  );
  return result.modifiedCount;
}

/**
 * Conversations that were open before the due fields existed get them once (a start after an upgrade); those of a
 * widget that is gone get none, as the checks never touched them. One that waited for a reminder is looked at now.
 */
export async function scheduleOldDueTimes(models: Pick<Models, 'Conversation' | 'ChatEndpoint'>): Promise<void> {
  await models.Conversation.updateMany(
    { status: 'open', lastVisitorMsgAt: { $ne: null }, reminderAt: { $exists: false } },
    { $set: { reminderAt: new Date() } },
  );
  const unscheduled = { inactiveAt: { $exists: false } };
  const ceIds = await models.Conversation.distinct('ceId', { status: 'open', ...unscheduled });
  for (const ceId of ceIds) {
    const ce = await models.ChatEndpoint.findById(ceId, {
      maxVisitorInactiveMins: 1,
      noAnswerMessageAfterSecs: 1,
      autoAnswerAfterSeconds: 1,
    })
      .lean<DueSettings & { _id: Types.ObjectId }>()
      .exec();
    if (ce) await recomputeDueTimes(models, ce, unscheduled);
    else await models.Conversation.updateMany({ ceId, status: 'open', ...unscheduled }, { $set: { inactiveAt: null, noAnswerAt: null } });
  }
}
