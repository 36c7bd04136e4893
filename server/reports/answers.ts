/**
 * The Answers report of one widget over a range (docs/reports.md, Answers): what the help center did, read from
 * the AnswerEvents recorded as it happened. One aggregation on the {ceId, at} index groups the range's events by
 * kind, article, answer and unanswered question next to the data, so a year of searches never travels to Parley;
 * Parley merges the questions that differ only in case and spacing, and names the articles.
 */
import type { Models } from '../models';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';
import {
  ANSWERS_QUESTIONS_SHOWN,
  type AnswersFigures,
  type AnswersReport,
  type ArticleAnswers,
  type UnansweredQuestion,
} from '../shared/reports';
import type { ReportRange } from './range';

/** A search that found nothing: its question and language are kept in the group key, everything else drops them. */
const noHit = { $and: [{ $eq: ['$kind', 'search'] }, { $eq: ['$hits', 0] }] };

/** What the database hands back: one row per kind × article × answer × suggestion kind × unanswered question. */
type EventGroup = {
  _id: { k: string; a?: unknown; h?: boolean | null; s?: string | null; q?: string | null; l?: string | null };
  n: number;
  last: Date;
};

function eventGroups(models: Models, ce: Pick<ChatEndpointDocument, '_id'>, range: Pick<ReportRange, 'start' | 'end'>) {
  return models.AnswerEvent.collection
    .aggregate<EventGroup>([
      { $match: { ceId: ce._id, at: { $gte: range.start, $lt: range.end } } },
      {
        $group: {
          _id: {
            k: '$kind',
            a: '$articleId',
            h: '$helpful',
            s: '$suggestion',
            q: { $cond: [noHit, '$query', null] },
            l: { $cond: [noHit, '$language', null] },
          },
          n: { $sum: 1 },
          last: { $max: '$at' },
        },
      },
    ])
    .toArray();
}

/** Questions that differ only in case and spacing are one question. */
export function questionKey(query: string): string {
  return query.trim().replace(/\s+/g, ' ').toLocaleLowerCase();
}

type QuestionAcc = { language: string; count: number; last: Date; spellings: Map<string, number> };

/** The unanswered questions, grouped case-insensitively per language, most asked first (then the latest). */
export function groupQuestions(rows: { query: string; language: string; count: number; last: Date }[]): UnansweredQuestion[] {
  const byKey = new Map<string, QuestionAcc>();
  for (const row of rows) {
    const text = row.query.trim().replace(/\s+/g, ' ');
    if (!text) continue;
    const key = `${row.language}\u0000${questionKey(text)}`;
    const acc = byKey.get(key) ?? { language: row.language, count: 0, last: row.last, spellings: new Map<string, number>() };
    acc.count += row.count;
    if (row.last > acc.last) acc.last = row.last;
    acc.spellings.set(text, (acc.spellings.get(text) ?? 0) + row.count);
    byKey.set(key, acc);
  }
  return [...byKey.values()]
    .map((acc) => ({
      // The spelling visitors used most (the first in code-point order on a tie, so the answer is stable).
      query: [...acc.spellings.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0][0],
      language: acc.language,
      count: acc.count,
      lastAskedAt: acc.last.toISOString(),
    }))
    .sort((a, b) => b.count - a.count || b.lastAskedAt.localeCompare(a.lastAskedAt) || a.query.localeCompare(b.query));
}

/** By title, a deleted article ('') last. */
const byTitle = (a: string, b: string) => (!a || !b ? Number(!a) - Number(!b) : a.localeCompare(b));

/** The whole report; `allQuestions` keeps every unanswered question (the download), else the first ANSWERS_QUESTIONS_SHOWN. */
export async function answersReport(
  models: Models,
  ce: Pick<ChatEndpointDocument, '_id'>,
  range: Pick<ReportRange, 'start' | 'end'>,
  opts: { allQuestions?: boolean } = {},
): Promise<AnswersReport> {
  const groups = await eventGroups(models, ce, range);
  const totals: AnswersFigures = {
    searches: 0,
    searchesWithoutAnswer: 0,
    articleViews: 0,
    helpfulYes: 0,
    helpfulNo: 0,
    resolved: 0,
    suggestionsSent: 0,
  };
  const suggestions = new Map<string, number>();
  const questions: { query: string; language: string; count: number; last: Date }[] = [];
  const articles = new Map<string, Omit<ArticleAnswers, 'title' | 'language'>>();
  const article = (id: unknown) => {
    const key = String(id);
    const row = articles.get(key) ?? { id: key, views: 0, helpfulYes: 0, helpfulNo: 0, resolved: 0, sent: 0 };
    articles.set(key, row);
    return row;
  };

  for (const { _id: g, n, last } of groups) {
    const hasArticle = g.a !== undefined && g.a !== null;
    switch (g.k) {
      case 'search':
        totals.searches += n;
        if (typeof g.q === 'string') {
          totals.searchesWithoutAnswer += n;
          questions.push({ query: g.q, language: g.l ?? '', count: n, last });
        }
        break;
      case 'view':
        totals.articleViews += n;
        if (hasArticle) article(g.a).views += n;
        break;
      case 'helpful':
        if (g.h === true) totals.helpfulYes += n;
        else if (g.h === false) totals.helpfulNo += n;
        if (hasArticle && g.h === true) article(g.a).helpfulYes += n;
        if (hasArticle && g.h === false) article(g.a).helpfulNo += n;
        break;
      case 'resolved':
        totals.resolved += n;
        if (hasArticle) article(g.a).resolved += n;
        break;
      case 'suggestionSent': {
        totals.suggestionsSent += n;
        const kind = g.s || (hasArticle ? 'article' : 'other');
        suggestions.set(kind, (suggestions.get(kind) ?? 0) + n);
        if (hasArticle) article(g.a).sent += n;
        break;
      }
    }
  }

  const stored = await models.Article.find({ _id: { $in: [...articles.keys()] }, ceId: ce._id }, { title: 1, language: 1 }).lean();
  const names = new Map(stored.map((a) => [String(a._id), a]));
  const unanswered = groupQuestions(questions);
  return {
    totals,
    suggestions: [...suggestions.entries()]
      .map(([kind, sent]) => ({ kind, sent }))
      .sort((a, b) => b.sent - a.sent || a.kind.localeCompare(b.kind)),
    unanswered: opts.allQuestions ? unanswered : unanswered.slice(0, ANSWERS_QUESTIONS_SHOWN),
    unansweredTotal: unanswered.length,
    articles: [...articles.values()]
      .map((row) => ({ ...row, title: names.get(row.id)?.title ?? '', language: names.get(row.id)?.language ?? '' }))
      .sort((a, b) => b.views - a.views || b.resolved - a.resolved || b.helpfulYes - a.helpfulYes || byTitle(a.title, b.title)),
  };
}
