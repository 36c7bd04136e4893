/**
 * Answering while nobody is there: a new conversation no operator answered within the widget's
 * autoAnswerAfterSeconds (or whose widget went offline while the visitor waited) gets, once, a message from Parley
 * with up to three help-center articles matching the visitor's first lines, marked as automatic, with "Did this
 * answer your question?" (answered by commands/answerHelpful.ts). One of the relay's due checks: relay/index.ts reads
 * the conversations whose `autoAnswerAt` has come (set by commands/conversationDueTimes.ts).
 *
 * Once per conversation, whatever the number of processes: the look claims the conversation (`autoAnsweredAt`, only
 * while no operator answered) before it searches, so a second process or a second pass finds it claimed. A process
 * stopped between the claim and the message sends none: an automatic answer is never sent twice, at worst not at all.
 */
import type { Types } from 'mongoose';
import type { ArticleSearch, ArticleSearchHit } from '../answers/search';
import type { ConversationContext } from '../conversations/context';
import { serialised } from '../conversations/history';
import { record } from '../conversations/record';
import { pickWidgetLocale } from '../conversations/widgetLanguage';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';
import type { Conversation } from '../models/Conversation';
import type { MessageArticle } from '../models/Message';
import { plainOfHtml } from '../ownerText';
import { escapeMrkdwn } from '../shared/mrkdwn';
import { BUILT_IN_TEXTS } from '../shared/widget-texts/all';
import { tagFromPick, tagsOfArticles } from './tagConversation';
import { queueThreadNote } from './threadPosts';

/** At most this many articles in an automatic answer. */
export const AUTO_ANSWER_ARTICLES = 3;
/** The visitor's first lines searched with: at most this many messages, this many characters. */
const QUESTION_LINES = 3;
const QUESTION_CHARS = 500;
/** A card's snippet: the search's (HTML with <mark>) as plain words, the widget draws text only. */
const SNIPPET_CHARS = 300;

export type AutoAnswerContext = ConversationContext & {
  widgets: { get(id: Types.ObjectId): Promise<ChatEndpointDocument | null> };
  articleSearch: Pick<ArticleSearch, 'search'>;
};

export type AutoAnswerRow = Pick<
  Conversation,
  'ceId' | 'visitorId' | 'slackChannel' | 'firstResponseAt' | 'autoAnswerAt' | 'autoAnsweredAt'
> & { _id: Types.ObjectId };
export const AUTO_ANSWER_ROW = { ceId: 1, visitorId: 1, slackChannel: 1, firstResponseAt: 1, autoAnswerAt: 1, autoAnsweredAt: 1 } as const;

/**
 * A conversation whose `autoAnswerAt` came: sends its automatic answer if it is still owed and an article matches.
 * True when one was sent.
 */
export async function autoAnswerIfDue(ctx: AutoAnswerContext, c: AutoAnswerRow, now: Date): Promise<boolean> {
  const ce = await ctx.widgets.get(c.ceId);
  const { Conversation } = ctx.models;
  if (!ce || c.firstResponseAt || c.autoAnsweredAt || !(ce.autoAnswerAfterSeconds > 0)) {
    await Conversation.updateOne({ _id: c._id, autoAnswerAt: c.autoAnswerAt }, { $set: { autoAnswerAt: null } });
    return false;
  }
  // The guard between processes, and against an operator's answer meanwhile: only one look claims it.
  const claimed = await Conversation.updateOne(
    { _id: c._id, status: 'open', autoAnswerAt: c.autoAnswerAt, autoAnsweredAt: null, firstResponseAt: null },
    { $set: { autoAnswerAt: null, autoAnsweredAt: now } },
  );
  if (claimed.modifiedCount !== 1) return false;
  const lines = await ctx.models.Message.find({ conversationId: c._id, kind: 'msg', from: 'visitor', deleted: false }, { text: 1 })
    .sort({ seq: 1 })
    .limit(QUESTION_LINES)
    .lean<{ text: string }[]>()
    .exec();
  const question = lines
    .map((m) => m.text.trim())
    .filter(Boolean)
    .join('\n')
    .slice(0, QUESTION_CHARS);
  if (!question) return false;
  const visitor = await ctx.models.Visitor.findById(c.visitorId, { language: 1 }).lean<{ language?: string }>().exec();
  const locale = pickWidgetLocale(visitor?.language ? [visitor.language] : []);
  const hits = (await ctx.articleSearch.search(ce, question, locale, AUTO_ANSWER_ARTICLES)).slice(0, AUTO_ANSWER_ARTICLES);
  if (hits.length === 0) return false;
  const articles = hits.map(cardOf);
  const ui = BUILT_IN_TEXTS[locale].ui;
  const message = await serialised(String(c._id), () =>
    record(ctx, c, {
      kind: 'msg',
      from: 'system',
      automatic: true,
      author: { name: ui.automaticAnswer, avatarUrl: '' },
      // What a transcript or an export shows; the widget draws the card in the visitor's own texts.
      text: [ui.autoAnswerIntro, ...articles.map((a) => `${a.title}: ${a.url}`)].join('\n'),
      articles,
    }),
  );
  await Conversation.updateOne({ _id: c._id }, { $set: { autoAnswerMessageId: String(message._id) } });
  await queueThreadNote(
    ctx,
    c,
    `:robot_face: Nobody had answered yet, so Parley sent the visitor ${articles.length === 1 ? 'an article' : `${articles.length} articles`} from the help center: ${articles.map(linkOf).join(', ')}`,
  );
  // The articles' tags, as the owner set them on each.
  const tags = await tagsOfArticles(
    ctx.models,
    articles.map((a) => a.id),
  );
  await tagFromPick(ctx, c._id, ce.tags ?? [], tags, '(the help center answered the visitor)');
  return true;
}

function cardOf(hit: ArticleSearchHit): MessageArticle {
  return { id: hit.id, title: hit.title, snippet: plainOfHtml(hit.snippet).slice(0, SNIPPET_CHARS), url: hit.url };
}

/** An article as a link in the thread: its title, escaped for mrkdwn. */
export function linkOf(article: Pick<MessageArticle, 'title' | 'url'>): string {
  return `<${article.url}|${escapeMrkdwn(article.title)}>`;
}
