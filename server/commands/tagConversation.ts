/**
 * Changes a conversation's tags, whoever asks: an operator's pick on the thread header, `/parley tag|untag N …`, or
 * the question group or help-center article a visitor picked. Two operators changing tags at once both count: adding
 * and removing are atomic writes ($addToSet, $pull), each answering what it really changed. Each tag
 * added or removed is an InboxEvent (Reports → Team), a line in the thread, and the header is rebuilt.
 */
import type { Types } from 'mongoose';
import type { JobQueue } from '../conversations/context';
import { eventOf, recordInboxEvents } from '../conversations/inboxEvents';
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
  const event = (kind: 'tagged' | 'untagged', tag: string) =>
    eventOf({ ...c, _id: conversationId }, { kind, at, operatorId: '', byId, tag });
  await recordInboxEvents(ctx.models, [...added.map((t) => event('tagged', t)), ...removed.map((t) => event('untagged', t))]);
  const thread = { _id: conversationId, slackChannel: c.slackChannel };
  await queueThreadNote(ctx, thread, tagNote(byId, added, removed, why));
  await headerUpdate(ctx, thread);
  return { tags, added, removed };
}

/**
 * Tags a conversation with what its visitor picked (a question group's or an article's tag, as the owner set it), by
 * Parley (byId ''), `why` saying what led to it (mrkdwn, escaped by the caller). Only tags the conversation's widget
 * still lists (`widgetTags`); null when none is left to add.
 */
export async function tagFromPick(
  ctx: TagContext,
  conversationId: Types.ObjectId,
  widgetTags: readonly string[],
  tags: readonly string[],
  why: string,
): Promise<TagResult | null> {
  const listed = [...new Set(tags)].filter((t) => t !== '' && widgetTags.includes(t));
  if (listed.length === 0) return null;
  return tagConversation(ctx, conversationId, { add: listed }, '', why);
}

/** The tags the owner set on these articles, in the order of `articleIds` (articles without one give none). */
export async function tagsOfArticles(models: Models, articleIds: readonly string[]): Promise<string[]> {
  const ids = articleIds.filter((id) => /^[0-9a-f]{24}$/i.test(id));
  if (ids.length === 0) return [];
  const tagged = await models.Article.find({ _id: { $in: ids }, tag: { $gt: '' } }, { tag: 1 }).lean();
  const byId = new Map(tagged.map((a) => [String(a._id), a.tag]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
