/**
 * A conversation's state in the shared inbox as operators change it: snoozed until a time, and back to open when the
 * snooze ends, the visitor writes, or an operator opens it again. (The message flow keeps the rest: a visitor line sets
 * `open`, an operator reply `waiting`, the end `ended`, each in the write that stores it.) Each change is one
 * conditional write, one context line in the thread, a header refresh and an InboxEvent.
 */
import type { Types } from 'mongoose';
import { eventOf, recordInboxEvent } from '../conversations/inboxEvents';
import { headerUpdate } from '../conversations/record';
import { slackTime } from '../conversations/snooze';
import { ActionRefused } from '../errors';
import type { Conversation } from '../models/Conversation';
import type { InboxContext } from './assignConversation';
import { startWait, TARGET_SETTINGS, type TargetSettings, WAIT_ENDED } from './responseTargets';
import { queueThreadNote } from './threadPosts';

type Stated = Pick<
  Conversation,
  'accountId' | 'ceId' | 'number' | 'slackTeamId' | 'slackChannel' | 'status' | 'assigneeId' | 'inboxState' | 'snoozedUntil'
> & { _id: Types.ObjectId };
const STATE_FIELDS = {
  accountId: 1,
  ceId: 1,
  number: 1,
  slackTeamId: 1,
  slackChannel: 1,
  status: 1,
  assigneeId: 1,
  inboxState: 1,
  snoozedUntil: 1,
} as const;

/** Puts an open conversation away until `until`; `byId` the operator. Snoozing again moves the end. */
export async function snoozeConversation(ctx: InboxContext, conversationId: Types.ObjectId, until: Date, byId: string): Promise<void> {
  const at = new Date();
  const before = await ctx.models.Conversation.findOneAndUpdate(
    { _id: conversationId, status: 'open' },
    // A snooze stops the visitor's wait: a snoozed conversation is neither flagged nor reminded for its target.
    { $set: { inboxState: 'snoozed', snoozedUntil: until, ...WAIT_ENDED } },
    { returnDocument: 'before', projection: STATE_FIELDS },
  )
    .lean<Stated>()
    .exec();
  if (!before) {
    const c = await ctx.models.Conversation.findById(conversationId, { number: 1 }).lean<{ number: number }>().exec();
    throw new ActionRefused(c ? `Conversation #${c.number} has already ended.` : 'This conversation no longer exists in Parley.');
  }
  if (before.inboxState === 'snoozed' && before.snoozedUntil?.getTime() === until.getTime()) return;
  await queueThreadNote(ctx, before, `:zzz: <@${byId}> snoozed this conversation until ${slackTime(until)}.`);
  await headerUpdate(ctx, before);
  await recordInboxEvent(ctx.models, eventOf(before, { kind: 'snoozed', at, operatorId: before.assigneeId ?? '', byId }));
}

export type WakeReason =
  /** The snooze's time came (the relay's due work); `dueAt` the end it read, so a snooze moved meanwhile stays. */
  | { kind: 'time'; dueAt: Date }
  /** An operator opened it before its time. */
  | { kind: 'operator'; byId: string };

/** Back to open from a snooze; true when this call did it (another process or a visitor line may have first). */
export async function wakeConversation(ctx: InboxContext, conversationId: Types.ObjectId, reason: WakeReason): Promise<boolean> {
  const before = await ctx.models.Conversation.findOneAndUpdate(
    {
      _id: conversationId,
      status: 'open',
      inboxState: 'snoozed',
      ...(reason.kind === 'time' ? { snoozedUntil: reason.dueAt } : {}),
    },
    { $set: { inboxState: 'open', snoozedUntil: null } },
    { returnDocument: 'before', projection: STATE_FIELDS },
  )
    .lean<Stated>()
    .exec();
  if (!before) {
    if (reason.kind === 'operator') {
      const c = await ctx.models.Conversation.findById(conversationId, { number: 1, status: 1 }).lean<Stated>().exec();
      if (c?.status !== 'open')
        throw new ActionRefused(c ? `Conversation #${c.number} has already ended.` : 'This conversation no longer exists in Parley.');
    }
    return false;
  }
  // Open again, it waits for the team: a new wait (and its target) starts now; the header below shows it.
  const ce = await ctx.models.ChatEndpoint.findById(before.ceId, TARGET_SETTINGS).lean<TargetSettings>().exec();
  if (ce) await startWait(ctx, before._id, ce, new Date());
  const mention = before.assigneeId ? ` <@${before.assigneeId}>` : '';
  const line =
    reason.kind === 'time'
      ? `:alarm_clock: The snooze is over: this conversation is open again.${mention}`
      : `:alarm_clock: <@${reason.byId}> ended the snooze: this conversation is open again.${mention}`;
  await reopened(ctx, before, line, reason.kind === 'operator' ? reason.byId : '');
  return true;
}

/** A snoozed conversation is open again: said in the thread (naming its assignee), the header refreshed, an InboxEvent. */
async function reopened(ctx: InboxContext, c: Stated, line: string, byId: string): Promise<void> {
  await queueThreadNote(ctx, c, line);
  await headerUpdate(ctx, c);
  await recordInboxEvent(ctx.models, eventOf(c, { kind: 'reopened', at: new Date(), operatorId: c.assigneeId ?? '', byId }));
}

/**
 * After a visitor's line (or their answer by mail) was stored, with the state it found (`before`, read by the same
 * write that set `open`): a snoozed conversation is said to be open again, naming its assignee; one that waited for
 * the visitor only gets its header refreshed.
 */
export async function visitorLineReopened(
  ctx: InboxContext,
  c: Pick<Conversation, 'accountId' | 'ceId' | 'number' | 'slackTeamId' | 'slackChannel'> & { _id: Types.ObjectId },
  before: { inboxState?: Conversation['inboxState']; assigneeId?: string },
  by: 'widget' | 'mail',
): Promise<void> {
  if (before.inboxState === 'snoozed') {
    const mention = before.assigneeId ? ` <@${before.assigneeId}>` : '';
    const line = `:envelope_with_arrow: The visitor ${by === 'mail' ? 'answered by e-mail' : 'wrote again'}: this snoozed conversation is open again.${mention}`;
    await reopened(ctx, { ...c, status: 'open', assigneeId: before.assigneeId ?? '', inboxState: 'snoozed', snoozedUntil: null }, line, '');
  } else if (before.inboxState === 'waiting') {
    await headerUpdate(ctx, c);
  }
}
