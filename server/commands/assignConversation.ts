/**
 * Who has a conversation in the team's shared inbox: at most one assignee (a Slack user id of the conversation's
 * workspace). Each change is one conditional write, so two operators acting at once make at most one change each and
 * never a doubled one; each change that happened leaves one context line in the thread, refreshes the header, and is
 * an InboxEvent for Reports → Team. Who may be assigned (a member of the linked channel, of this workspace) is
 * checked by the Slack side before it calls here.
 */
import type { Types } from 'mongoose';
import type { ConversationContext } from '../conversations/context';
import { eventOf, recordInboxEvents } from '../conversations/inboxEvents';
import { headerUpdate } from '../conversations/record';
import { ActionRefused } from '../errors';
import type { Conversation } from '../models/Conversation';
import { queueThreadNote } from './threadPosts';

export type InboxContext = Pick<ConversationContext, 'models' | 'outbox'>;

type Assigned = Pick<Conversation, 'accountId' | 'ceId' | 'number' | 'slackTeamId' | 'slackChannel' | 'status' | 'assigneeId'> & {
  _id: Types.ObjectId;
};
const ASSIGNED_FIELDS = { accountId: 1, ceId: 1, number: 1, slackTeamId: 1, slackChannel: 1, status: 1, assigneeId: 1 } as const;

/** Nobody has it: '' or, on conversations stored before the inbox, no field at all. */
const NOBODY = { $in: ['', null] };

export type AssignChange = {
  /** Who gets it ('' = nobody). */
  assigneeId: string;
  /** Who did it ('' = Parley, on a first reply). */
  byId: string;
  /**
   * Only while the conversation is still with this assignee ('' = nobody): what the person saw when they acted (the
   * header's Assign to me). Without it, any other assignee is replaced.
   */
  expected?: string;
  /** Parley assigns the author of the first reply. */
  automatic?: boolean;
};

/**
 * Gives the conversation to `change.assigneeId` (or to nobody). Answers the assignee it had before, or null when
 * nothing changed because it already was so. Refuses an ended conversation, and one someone else took meanwhile when
 * `expected` is given.
 */
export async function setAssignee(
  ctx: InboxContext,
  conversationId: Types.ObjectId,
  change: AssignChange,
): Promise<{ previous: string } | null> {
  const now = new Date();
  const who = change.expected === undefined ? { $ne: change.assigneeId } : change.expected === '' ? NOBODY : { $eq: change.expected };
  const before = await ctx.models.Conversation.findOneAndUpdate(
    { _id: conversationId, status: 'open', assigneeId: who },
    { $set: { assigneeId: change.assigneeId, assignedAt: change.assigneeId ? now : null } },
    { returnDocument: 'before', projection: ASSIGNED_FIELDS },
  )
    .lean<Assigned>()
    .exec();
  if (!before) return explainUnchanged(ctx, conversationId, change);
  const previous = before.assigneeId ?? '';
  await announce(ctx, before, previous, change, now);
  return { previous };
}

async function explainUnchanged(ctx: InboxContext, id: Types.ObjectId, change: AssignChange): Promise<null> {
  const now = await ctx.models.Conversation.findById(id, ASSIGNED_FIELDS).lean<Assigned>().exec();
  if (!now) throw new ActionRefused('This conversation no longer exists in Parley.');
  if (now.status !== 'open') throw new ActionRefused(`Conversation #${now.number} has already ended.`);
  const current = now.assigneeId ?? '';
  if (current === change.assigneeId) return null;
  // `expected` no longer holds: someone else changed it between the header the person saw and their click.
  throw new ActionRefused(
    current
      ? `<@${current}> took conversation #${now.number} a moment ago. Pick someone in the header's assignee menu to change it.`
      : `Conversation #${now.number} was unassigned a moment ago.`,
  );
}

async function announce(ctx: InboxContext, c: Assigned, previous: string, change: AssignChange, at: Date): Promise<void> {
  const { assigneeId, byId } = change;
  const line = change.automatic
    ? `:bust_in_silhouette: Assigned to <@${assigneeId}>, whose reply was the first.`
    : !assigneeId
      ? `:bust_in_silhouette: <@${byId}> unassigned <@${previous}>: nobody has this conversation now.`
      : assigneeId === byId
        ? `:bust_in_silhouette: <@${byId}> took this conversation${previous ? ` from <@${previous}>` : ''}.`
        : `:bust_in_silhouette: <@${byId}> assigned this conversation to <@${assigneeId}>${previous ? ` (it was with <@${previous}>)` : ''}.`;
  await queueThreadNote(ctx, c, line);
  await headerUpdate(ctx, c);
  const events = [
    ...(previous ? [eventOf(c, { kind: 'unassigned', at, operatorId: previous, byId })] : []),
    ...(assigneeId ? [eventOf(c, { kind: 'assigned', at, operatorId: assigneeId, byId })] : []),
  ];
  await recordInboxEvents(ctx.models, events);
}

/**
 * The first reply's author gets a conversation nobody has (the widget's autoAssignOnReply); nothing happens when
 * someone has it by now or it ended. Answers whether it was assigned (its header update is queued then).
 */
export async function assignFirstReplier(ctx: InboxContext, conversationId: Types.ObjectId, slackUserId: string): Promise<boolean> {
  if (!slackUserId) return false;
  try {
    return (await setAssignee(ctx, conversationId, { assigneeId: slackUserId, byId: '', expected: '', automatic: true })) !== null;
  } catch (error) {
    if (!(error instanceof ActionRefused)) throw error;
    return false;
  }
}
