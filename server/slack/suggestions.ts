/**
 * The "Suggested" post of a new conversation (the slack.suggest outbox job, queued after its first line): the
 * help-center articles, saved replies and past answers close to the visitor's first line, posted once in the thread
 * under the header, each with a Send button (listeners/suggestions.ts). Nothing is posted when nothing is close.
 * The work runs in the outbox, in the conversation's order, never in the header's path.
 */
import { Types } from 'mongoose';
import type { PastAnswers } from '../answers/pastAnswers';
import type { ArticleSearch } from '../answers/search';
import { CloseTexts, meaningfulTerms } from '../answers/wordMatch';
import { planHasFeature } from '../commands/planFeature';
import { decodeResponse } from '../commands/savedReplies';
import { pickWidgetLocale } from '../conversations/widgetLanguage';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';
import type { Conversation } from '../models/Conversation';
import { type JobHandler, PermanentJobError } from '../outbox/engine';
import type { RelayContext } from '../relay/context';
import { type SuggestedReply, type Suggestions, suggestedMessage } from './blocks/suggestions';
import { postOnce } from './postOnce';
import type { SlackClients } from './slackClients';

/** The help center's search and the past answers, built once by main.ts: what suggestions are made of. */
export type SlackAnswers = { articleSearch: ArticleSearch; pastAnswers: Pick<PastAnswers, 'suggest'> };

/** At most this many of each kind. */
const PER_KIND = 3;
/** A saved reply is close when its label, trigger phrases and response hold half the question's meaningful words. */
const REPLY_SHARE = 0.5;

type SuggestOf = Pick<Conversation, 'accountId' | 'ceId' | 'visitorId' | 'status' | 'slackTeamId' | 'slackChannel' | 'threadTs'> & {
  _id: Types.ObjectId;
};

/** The visitor's language among the widget's 11 (the browser's, kept on the visitor). */
export async function visitorLocale(ctx: Pick<RelayContext, 'models'>, visitorId: Types.ObjectId): Promise<string> {
  const visitor = await ctx.models.Visitor.findById(visitorId, { language: 1 }).lean<{ language?: string }>();
  return pickWidgetLocale(visitor?.language ? [visitor.language] : []);
}

/** The widget's saved replies close to `question`, leaving out those already sent in the conversation. */
async function closeReplies(ctx: RelayContext, conversation: SuggestOf, question: string): Promise<SuggestedReply[]> {
  const replies = await ctx.models.SavedReply.find({ ceId: conversation.ceId }, { label: 1, triggerPhrases: 1, response: 1 })
    .limit(500)
    .lean<{ _id: Types.ObjectId; label: string; triggerPhrases: string; response: string }[]>();
  // The plan and the replies sent automatically are read only for a widget that has saved replies.
  if (replies.length === 0) return [];
  const [allowed, assist] = await Promise.all([
    planHasFeature(ctx.models, conversation.accountId, 'savedReplies'),
    ctx.models.ConversationAssist.findOne({ conversationId: conversation._id }, { autoSentReplyIds: 1 }).lean<{
      autoSentReplyIds?: Types.ObjectId[];
    }>(),
  ]);
  if (!allowed) return [];
  const sent = new Set((assist?.autoSentReplyIds ?? []).map(String));
  const index = new CloseTexts<SuggestedReply>({ label: 3, triggers: 3, response: 1 });
  for (const reply of replies) {
    if (sent.has(String(reply._id))) continue;
    const text = decodeResponse(reply.response);
    index.add({ id: String(reply._id), label: reply.label, text }, { label: reply.label, triggers: reply.triggerPhrases, response: text });
  }
  return index.close(question, { share: REPLY_SHARE, limit: PER_KIND }).map(({ item }) => item);
}

/** What to suggest for a conversation's first line. */
export async function gatherSuggestions(
  ctx: RelayContext,
  answers: SlackAnswers,
  conversation: SuggestOf,
  ce: Pick<ChatEndpointDocument, '_id' | 'Uuid'>,
  question: string,
): Promise<Suggestions> {
  // A greeting alone ("hi there") says nothing to search for.
  if (meaningfulTerms(question).length === 0) return { articles: [], replies: [], past: [] };
  // The visitor's language is read only for a help center in more than one language.
  const language = () => visitorLocale(ctx, conversation.visitorId);
  const [hits, replies, past] = await Promise.all([
    answers.articleSearch.search({ _id: ce._id, Uuid: ce.Uuid }, question, language, PER_KIND),
    closeReplies(ctx, conversation, question),
    answers.pastAnswers.suggest(conversation.ceId, question, { limit: PER_KIND, exclude: String(conversation._id) }),
  ]);
  return {
    articles: hits.slice(0, PER_KIND).map((hit) => ({ id: hit.id, title: hit.title, snippet: hit.snippet, url: hit.url })),
    replies,
    past: past.map((answer) => ({ messageId: answer.messageId, number: answer.number, question: answer.question, text: answer.text })),
  };
}

/** The slack.suggest job: the Suggested post, once, in the conversation's thread; nothing when nothing is close. */
export function suggestionPoster(answers: SlackAnswers): JobHandler<RelayContext & { slack: SlackClients }, 'slack.suggest'> {
  return async (ctx, job) => {
    const { conversationId } = job.payload;
    const question = job.payload.text.slice(0, 1000);
    const conversation = Types.ObjectId.isValid(conversationId)
      ? await ctx.models.Conversation.findById(conversationId, {
          accountId: 1,
          ceId: 1,
          visitorId: 1,
          status: 1,
          slackTeamId: 1,
          slackChannel: 1,
          threadTs: 1,
        }).lean<SuggestOf>()
      : null;
    // Ended before its suggestions were worked out: nothing could be sent any more.
    if (conversation?.status !== 'open') return;
    if (!conversation.threadTs) throw new PermanentJobError('the conversation never got a Slack thread');
    const ce = await ctx.widgets.get(conversation.ceId);
    if (!ce) return;
    const message = suggestedMessage(conversationId, await gatherSuggestions(ctx, answers, conversation, ce, question));
    if (!message) return;
    const team = await ctx.slack.forTeam(conversation.slackTeamId);
    if (!team) throw new PermanentJobError(`Parley is not installed in team ${conversation.slackTeamId}`);
    await postOnce(ctx.models, job, {
      client: team.client,
      postId: String(job._id),
      args: {
        channel: conversation.slackChannel,
        thread_ts: conversation.threadTs,
        ...message,
        unfurl_links: false,
        unfurl_media: false,
      },
    });
  };
}
