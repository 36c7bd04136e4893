/**
 * Words the help center learns from its own widget's conversations: when a conversation was resolved by an article
 * or an operator sent an article in it (AnswerEvent `resolved` or `suggestionSent` with both ids), the visitor's
 * first lines of that conversation are words that article answers. Read per widget only, from the messages as they
 * are now: a conversation whose messages were erased (GDPR, retention) has none and teaches nothing.
 */
import type { Models } from '../models';

/** The latest answered conversations read (the newest teach the most), and the first lines read of each. */
const MAX_CONVERSATIONS = 1000;
const FIRST_LINES = 3;
const MAX_LINE_CHARS = 300;

/** The visitors' first lines, by the id of the article that answered them. */
export async function learnedWords(models: Pick<Models, 'AnswerEvent' | 'Message'>, ceId: string): Promise<Map<string, string[]>> {
  const events = await models.AnswerEvent.find({
    ceId,
    kind: { $in: ['resolved', 'suggestionSent'] },
    articleId: { $exists: true },
    conversationId: { $exists: true },
  })
    .sort({ at: -1 })
    .limit(MAX_CONVERSATIONS)
    .select('articleId conversationId')
    .lean();
  const learned = new Map<string, string[]>();
  if (events.length === 0) return learned;
  const articlesOf = new Map<string, Set<string>>();
  for (const e of events) {
    if (!e.articleId || !e.conversationId) continue;
    const set = articlesOf.get(String(e.conversationId)) ?? new Set<string>();
    set.add(String(e.articleId));
    articlesOf.set(String(e.conversationId), set);
  }
  const messages = await models.Message.find({
    conversationId: { $in: [...articlesOf.keys()] },
    from: 'visitor',
    kind: 'msg',
    deleted: { $ne: true },
  })
    .sort({ conversationId: 1, seq: 1 })
    .select('conversationId text seq')
    .lean();
  const lines = new Map<string, string[]>();
  for (const m of messages) {
    const key = String(m.conversationId);
    const list = lines.get(key) ?? [];
    if (list.length < FIRST_LINES && m.text) list.push(m.text.slice(0, MAX_LINE_CHARS));
    lines.set(key, list);
  }
  for (const [conversationId, articleIds] of articlesOf) {
    const first = lines.get(conversationId);
    if (!first?.length) continue;
    for (const articleId of articleIds) learned.set(articleId, [...(learned.get(articleId) ?? []), ...first]);
  }
  return learned;
}
