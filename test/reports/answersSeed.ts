/**
 * Help-center events for the Answers report tests, written straight through the models (as the widget's search,
 * the article views, "Did this answer" and the Slack suggestions record them), around the seeded widget of
 * seed.ts in America/New_York: the range Mar 7–9 2026 holds all but two of them.
 */
import { Types } from 'mongoose';
import type { Models } from '../../server/models';
import type { AnswerEvent } from '../../server/models/AnswerEvent';

export type AnswersSeeded = { reset: string; twoFactor: string; livraison: string; deleted: string };

export async function seedAnswerEvents(models: Models, accountId: Types.ObjectId, ceId: Types.ObjectId): Promise<AnswersSeeded> {
  const article = (title: string, slug: string, language = 'en') =>
    models.Article.create({ accountId, ceId, title, slug, language, body: `About ${title}`, published: true });
  const reset = await article('Reset your password', 'reset-your-password');
  const twoFactor = await article('Two-factor authentication', 'two-factor');
  const livraison = await article('Livraison gratuite', 'livraison', 'fr');
  const deleted = new Types.ObjectId();
  const events: (Omit<Partial<AnswerEvent>, 'at'> & { kind: AnswerEvent['kind']; at: string })[] = [
    // Sat Mar 7 10:00 EST
    { kind: 'search', at: '2026-03-07T15:00:00Z', query: 'how do i reset my password', language: 'en', hits: 2 },
    { kind: 'view', at: '2026-03-07T15:00:05Z', articleId: reset._id },
    { kind: 'helpful', at: '2026-03-07T15:00:30Z', articleId: reset._id, helpful: true },
    { kind: 'resolved', at: '2026-03-07T15:00:30Z', articleId: reset._id, conversationId: new Types.ObjectId() },
    { kind: 'search', at: '2026-03-07T16:00:00Z', query: 'Do you sell printers', language: 'en', hits: 0 },
    // Sun Mar 8, the 23-hour day
    { kind: 'search', at: '2026-03-08T07:30:00Z', query: '  do you sell   PRINTERS ', language: 'en', hits: 0 },
    { kind: 'search', at: '2026-03-08T08:00:00Z', query: 'Where is my invoice?', language: 'en', hits: 0 },
    { kind: 'search', at: '2026-03-08T09:00:00Z', query: 'livraison en Belgique', language: 'fr', hits: 0 },
    { kind: 'view', at: '2026-03-08T09:00:10Z', articleId: livraison._id },
    { kind: 'view', at: '2026-03-08T10:00:00Z', articleId: reset._id },
    { kind: 'view', at: '2026-03-08T10:00:00Z', articleId: twoFactor._id },
    { kind: 'helpful', at: '2026-03-08T10:01:00Z', articleId: twoFactor._id, helpful: false },
    { kind: 'helpful', at: '2026-03-08T10:02:00Z', articleId: reset._id, helpful: false },
    { kind: 'view', at: '2026-03-08T11:00:00Z', articleId: deleted },
    { kind: 'suggestionSent', at: '2026-03-08T12:00:00Z', articleId: reset._id, suggestion: 'article' },
    { kind: 'suggestionSent', at: '2026-03-08T12:05:00Z', suggestion: 'savedReply' },
    { kind: 'suggestionSent', at: '2026-03-08T12:10:00Z', suggestion: 'savedReply' },
    { kind: 'suggestionSent', at: '2026-03-08T12:15:00Z', suggestion: 'pastAnswer' },
    // Mon Mar 9 23:30 EDT: still Mar 9 in New York, Mar 10 in UTC
    { kind: 'search', at: '2026-03-10T03:30:00Z', query: 'Do you sell printers', language: 'en', hits: 0 },
    { kind: 'view', at: '2026-03-10T03:30:10Z', articleId: reset._id },
    // Outside the range: Sun Mar 1, and Tue Mar 10 00:00 EDT
    { kind: 'search', at: '2026-03-01T15:00:00Z', query: 'an old question', language: 'en', hits: 0 },
    { kind: 'view', at: '2026-03-10T04:00:00Z', articleId: reset._id },
  ];
  await models.AnswerEvent.insertMany(events.map((e) => ({ ...e, accountId, ceId, at: new Date(e.at) })));
  // Another widget's event never counts here.
  await models.AnswerEvent.create({
    accountId,
    ceId: new Types.ObjectId(),
    kind: 'search',
    at: new Date('2026-03-08T10:00:00Z'),
    hits: 0,
    query: 'elsewhere',
  });
  return { reset: String(reset._id), twoFactor: String(twoFactor._id), livraison: String(livraison._id), deleted: String(deleted) };
}
