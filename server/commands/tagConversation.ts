/**
 * Changes a conversation's tags, whoever asks: an operator's pick on the thread header, `/parley tag|untag N …`, or
 * the question group or help-center article a visitor picked. Two operators changing tags at once both count: adding
 * and removing are atomic writes ($addToSet, $pull), each answering what it really changed. Each tag
 * added or removed is an InboxEvent (Reports → Team), a line in the thread, and the header is rebuilt.
 */
import type { Types } from 'mongoose';
import type { JobQueue } from '../conversations/context';
import { recordInboxEvents } from '../conversations/inboxEvents';
import { headerUpdate } from '../conversations/record';
import { nextTags, type TagChange, tagNote } from '../conversations/tags';
import type { Models } from '../models';
import { queueThreadNote } from './threadPosts';

export type TagContext = { models: Models; outbox: JobQueue };
export type TagResult = { tags: string[]; added: string[]; removed: string[] };

/**
 * Applies `change` to the conversation's tags on behalf of `byId` (a Slack user id; '' for Parley's own, with `why`
 * saying what led to it in the thread). Answers the tags after it and what it added and removed (nothing when the
 * tags already were so). Whether the tags are the widget's is the caller's to check.
 */
export async function tagConversation(
  ctx: TagContext,
  conversationId: Types.ObjectId,
  change: TagChange,
  byId: string,
  why = '',
): Promise<TagResult> {
  const fields = { tags: 1, accountId: 1, ceId: 1, slackTeamId: 1, slackChannel: 1 } as const;
  let c = await ctx.models.Conversation.findById(conversationId, fields).lean();
  if (!c) return { tags: [], added: [], removed: [] };
  // A whole new set (the picker without what it showed) is what it adds and removes against the tags read now.
  const wanted = nextTags(c.tags ?? [], change);
  const remove = (c.tags ?? []).filter((t) => !wanted.includes(t));
  const add = wanted.filter((t) => !(c?.tags ?? []).includes(t));
  // Each step is one atomic write that answers the tags just before it: what it really changed, even when another
  // operator changes the tags at the same moment.
  let removed: string[] = [];
  let added: string[] = [];
  if (remove.length > 0) {
    const before = await ctx.models.Conversation.findOneAndUpdate(
      { _id: conversationId },
      { $pull: { tags: { $in: remove } } },
      { projection: fields, returnDocument: 'before' },
    ).lean();
    removed = remove.filter((t) => (before?.tags ?? []).includes(t));
  }
  if (add.length > 0) {
    const before = await ctx.models.Conversation.findOneAndUpdate(
      { _id: conversationId },
      { $addToSet: { tags: { $each: add } } },
      { projection: fields, returnDocument: 'before' },
    ).lean();
    added = add.filter((t) => !(before?.tags ?? []).includes(t));
  }
  c = (await ctx.models.Conversation.findById(conversationId, fields).lean()) ?? c;
  const tags = c.tags ?? [];
  if (added.length === 0 && removed.length === 0) return { tags, added, removed };
  const at = new Date();
  const event = (kind: 'tagged' | 'untagged', tag: string) => ({
    accountId: c.accountId,
    ceId: c.ceId,
    conversationId,
    kind,
    at,
    teamId: c.slackTeamId,
    operatorId: '',
    byId,
    tag,
  });
  await recordInboxEvents(ctx.models, [...added.map((t) => event('tagged', t)), ...removed.map((t) => event('untagged', t))]);
  const thread = { _id: conversationId, slackChannel: c.slackChannel };
  await queueThreadNote(ctx, thread, tagNote(byId, added, removed, why));
  await headerUpdate(ctx, thread);
  return { tags, added, removed };
}
