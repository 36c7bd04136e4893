/**
 * Operator replies the visitor did not see go out by e-mail. A "wait" starts with an operator reply the visitor
 * has not seen: `unseenMailAt` is set to its time plus the widget's emailUnseenAfterMinutes (indexed, like the
 * other due times of conversationDueTimes.ts, so the check reads only what is due). What the visitor's tabs show
 * with the panel open and the page visible comes back as `seen` frames (seenSeq); a wait whose replies are all
 * seen ends without a mail, and Slack gets an :eyes: reaction on the latest seen reply (one call per seen frame
 * that brings news, not one per message). A wait that comes due queues one `mail.unseen` job (relay/unseenMail.ts
 * sends it, with every reply still unseen then, each reply at most once).
 */
import type { Types } from 'mongoose';
import type { JobQueue } from '../conversations/context';
import { maskEmail } from '../conversations/mailTokens';
import type { Models } from '../models';
import type { Conversation } from '../models/Conversation';
import type { Visitor } from '../models/Visitor';
import { queueThreadNote } from './threadPosts';

/** The widget setting the wait follows. */
export type UnseenSettings = { emailUnseenAfterMinutes: number };
type Widgets = { get(ceId: Types.ObjectId): Promise<UnseenSettings | null> };

/** The operator messages of a wait: chat lines the visitor can see (not deleted, not notes). */
export const OPERATOR_LINES = { kind: 'msg', from: 'operator', deleted: false } as const;

/** The thread's line when a reply waits for a visitor Parley cannot mail. */
export const CANNOT_REACH_NOTE = 'The visitor has left without an e-mail address: they cannot be reached until they come back.';
export const UNSUBSCRIBED_NOTE = 'The visitor unsubscribed from e-mails: this reply waits until they come back.';
export const sentByEmailNote = (email: string) => `Sent by e-mail to ${maskEmail(email)}`;

/**
 * An operator reply was stored with `seq`: it starts a wait unless one runs already, the visitor has seen it
 * (a seen frame can come before this), or the widget mails nothing.
 */
export async function startUnseenWait(
  ctx: { models: Models; widgets: Widgets },
  conversation: { _id: Types.ObjectId; ceId: Types.ObjectId },
  seq: number,
  now: Date,
): Promise<void> {
  const ce = await ctx.widgets.get(conversation.ceId);
  const minutes = ce?.emailUnseenAfterMinutes ?? 0;
  if (minutes <= 0) return;
  await ctx.models.Conversation.updateOne(
    { _id: conversation._id, unseenMailAt: null, seenSeq: { $lt: seq } },
    { $set: { unseenMailAt: new Date(now.getTime() + minutes * 60_000) } },
  );
}

/**
 * A tab of the visitor showed their conversation up to `seq` (panel open, page visible). Ends the wait when no
 * reply is left unseen, and queues :eyes: on the latest reply seen now that had none.
 */
export async function visitorSaw(
  ctx: { models: Models; outbox: JobQueue },
  input: { conversationId: Types.ObjectId; visitorId: Types.ObjectId; seq: number },
): Promise<void> {
  const { Conversation, Message } = ctx.models;
  // Only the visitor's own conversation, and never beyond what exists.
  const seen = await Conversation.findOneAndUpdate(
    { _id: input.conversationId, visitorId: input.visitorId, lastSeq: { $gte: input.seq }, seenSeq: { $lt: input.seq } },
    { $set: { seenSeq: input.seq } },
    { returnDocument: 'after', projection: { seenSeq: 1, unseenMailAt: 1, eyesSeq: 1, slackChannel: 1, slackTeamId: 1 } },
  )
    .lean<Pick<Conversation, 'seenSeq' | 'unseenMailAt' | 'eyesSeq' | 'slackChannel' | 'slackTeamId'> & { _id: Types.ObjectId }>()
    .exec();
  if (!seen) return;
  if (seen.unseenMailAt) {
    const left = await Message.exists({ conversationId: seen._id, ...OPERATOR_LINES, seq: { $gt: seen.seenSeq } });
    if (!left) await Conversation.updateOne({ _id: seen._id, unseenMailAt: seen.unseenMailAt }, { $set: { unseenMailAt: null } });
  }
  const latest = await Message.findOne(
    { conversationId: seen._id, ...OPERATOR_LINES, seq: { $gt: seen.eyesSeq, $lte: seen.seenSeq }, slackTs: { $ne: '' } },
    { seq: 1, slackTs: 1 },
  )
    .sort({ seq: -1 })
    .lean<{ seq: number; slackTs: string }>()
    .exec();
  if (!latest || !seen.slackChannel) return;
  // One process, one reaction: whoever moves eyesSeq queues it.
  const claimed = await Conversation.updateOne({ _id: seen._id, eyesSeq: seen.eyesSeq }, { $set: { eyesSeq: latest.seq } });
  if (claimed.modifiedCount !== 1) return;
  await ctx.outbox.enqueue(
    'slack.react',
    String(seen._id),
    { teamId: seen.slackTeamId, channel: seen.slackChannel, ts: latest.slackTs, name: 'eyes' },
    { channel: seen.slackChannel, conversationId: seen._id },
  );
}

export type UnseenRow = Pick<Conversation, 'ceId' | 'visitorId' | 'slackChannel' | 'seenSeq' | 'mailedSeq' | 'unseenMailAt' | 'lastSeq'> & {
  _id: Types.ObjectId;
};
export const UNSEEN_ROW = { ceId: 1, visitorId: 1, slackChannel: 1, seenSeq: 1, mailedSeq: 1, unseenMailAt: 1, lastSeq: 1 } as const;

/**
 * A wait came due: queues its mail of the replies up to now (or, for a visitor Parley cannot mail, the thread's
 * note) and ends the wait. The job is queued before the wait is cleared, so a crash in between leaves a second job
 * at worst, which finds its replies claimed and sends nothing (relay/unseenMail.ts). A reply stored meanwhile, after
 * the ones this mail takes, starts a wait of its own. True when a mail was queued.
 */
export async function unseenWaitDue(
  ctx: { models: Models; outbox: JobQueue; widgets: Widgets },
  c: UnseenRow,
  now: Date,
): Promise<boolean> {
  const { Conversation, Message, Visitor } = ctx.models;
  const end = () => Conversation.updateOne({ _id: c._id, unseenMailAt: c.unseenMailAt }, { $set: { unseenMailAt: null } });
  const ce = await ctx.widgets.get(c.ceId);
  const unseen =
    ce && ce.emailUnseenAfterMinutes > 0
      ? await Message.exists({ conversationId: c._id, ...OPERATOR_LINES, seq: { $gt: Math.max(c.seenSeq, c.mailedSeq) } })
      : null;
  if (!unseen) {
    await end();
    return false;
  }
  const visitor = await Visitor.findById(c.visitorId, { email: 1, emailUnsubscribedAt: 1 })
    .lean<Pick<Visitor, 'email' | 'emailUnsubscribedAt'>>()
    .exec();
  if (!visitor?.email || visitor.emailUnsubscribedAt) {
    const ended = await end();
    if (ended.modifiedCount === 1 && visitor && c.slackChannel) {
      await queueThreadNote(ctx, c, visitor.email ? UNSUBSCRIBED_NOTE : CANNOT_REACH_NOTE);
    }
    return false;
  }
  await ctx.outbox.enqueue(
    'mail.unseen',
    `mail:${String(c._id)}`,
    { conversationId: String(c._id), upToSeq: c.lastSeq },
    { conversationId: c._id },
  );
  await end();
  // Its wait may have seen this one still running and not started: it starts now.
  const newer = await Message.findOne({ conversationId: c._id, ...OPERATOR_LINES, seq: { $gt: c.lastSeq } }, { seq: 1 })
    .lean<{ seq: number }>()
    .exec();
  if (newer) await startUnseenWait(ctx, c, newer.seq, now);
  return true;
}
