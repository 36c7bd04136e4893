/**
 * A suggestion sent by an operator from Slack (the thread's "Suggested" post or `/parley article`): a help-center
 * article as a card, a saved reply, or a past conversation's answer (as it was, or edited). Each goes to the visitor
 * as the operator who pressed Send (named as the widget's settings say), leaves a line in the thread saying who sent
 * what, and is counted for the Answers report (an AnswerEvent `suggestionSent`). Nothing is sent without that click.
 */
import { isValidObjectId, type Types } from 'mongoose';
import { articleUrl } from '../answers/search';
import { operatorAuthor } from '../conversations/authors';
import type { StoredMessage } from '../conversations/history';
import { NotFoundError, ValidationError } from '../errors';
import { escapeHtml } from '../escapeHtml';
import type { Models } from '../models';
import type { ConversationDocument } from '../models/Conversation';
import type { MessageArticle } from '../models/Message';
import { articlePlain } from '../ownerText';
import { escapeMrkdwn } from '../shared/mrkdwn';
import { MESSAGE_CHARS } from '../shared/widget-constants';
import type { SavedReplySender } from './deliverSavedReply';
import { type OperatorMessageContext, recordAnswer } from './operatorMessages';
import { sendSavedReply } from './sendSavedReply';
import { tagFromPick } from './tagConversation';
import { queueThreadPost } from './threadPosts';

export type SuggestionKind = 'article' | 'savedReply' | 'pastAnswer';

/** How much of an article's text its card shows. */
const SNIPPET_CHARS = 200;

/** The first words of an article, cut at a word boundary. */
export function articleSnippet(body: string, max = SNIPPET_CHARS): string {
  const plain = articlePlain(body).replace(/\s+/g, ' ').trim();
  if (plain.length <= max) return plain;
  const cut = plain.slice(0, max - 1);
  // A word cut in two is left out, unless that leaves too little.
  const whole = /\s/.test(plain[max - 1] ?? '');
  const space = cut.lastIndexOf(' ');
  return `${(whole || space <= max / 2 ? cut : cut.slice(0, space)).trimEnd()}…`;
}

async function openConversation(ctx: OperatorMessageContext, conversationId: string, what: string): Promise<ConversationDocument> {
  const conversation = isValidObjectId(conversationId) ? await ctx.models.Conversation.findById(conversationId) : null;
  if (!conversation) throw new NotFoundError('This conversation no longer exists in Parley.');
  if (conversation.status !== 'open')
    throw new ValidationError(`Conversation #${conversation.number} has already ended; the ${what} was not sent.`);
  return conversation;
}

async function widgetOf(ctx: OperatorMessageContext, conversation: ConversationDocument) {
  const ce = await ctx.widgets.get(conversation.ceId);
  if (!ce) throw new NotFoundError('The widget of this conversation was deleted.');
  return ce;
}

function recordSent(
  ctx: OperatorMessageContext,
  conversation: Pick<ConversationDocument, '_id' | 'accountId' | 'ceId'>,
  suggestion: SuggestionKind,
  articleId?: Types.ObjectId,
): Promise<unknown> {
  return ctx.models.AnswerEvent.create({
    accountId: conversation.accountId,
    ceId: conversation.ceId,
    kind: 'suggestionSent',
    suggestion,
    conversationId: conversation._id,
    ...(articleId ? { articleId } : {}),
  });
}

/**
 * Sends a published article of the conversation's widget as a card: the message's text and HTML also hold its title
 * and link, for a widget that draws no cards. Refused when the conversation ended or the article was deleted or
 * unpublished since it was suggested.
 */
export async function sendArticle(
  ctx: OperatorMessageContext,
  input: { conversationId: string; articleId: string; operator: SavedReplySender },
): Promise<{ message: StoredMessage; article: MessageArticle; number: number }> {
  const conversation = await openConversation(ctx, input.conversationId, 'article');
  const article = isValidObjectId(input.articleId)
    ? await ctx.models.Article.findOne({ _id: input.articleId, ceId: conversation.ceId, published: true })
    : null;
  if (!article) throw new NotFoundError('This article was deleted or unpublished since it was suggested; nothing was sent.');
  const ce = await widgetOf(ctx, conversation);
  const card: MessageArticle = {
    id: String(article._id),
    title: article.title,
    snippet: articleSnippet(article.body),
    url: articleUrl(ctx.publicUrl, ce.Uuid, article.slug, article.language),
  };
  const author = operatorAuthor(ce, { slackName: input.operator.name, image: input.operator.avatarUrl });
  const html = `<p><a href="${escapeHtml(card.url)}" target="_blank" rel="noopener noreferrer">${escapeHtml(card.title)}</a></p>`;
  const { message } = await recordAnswer(ctx, conversation, {
    text: `${card.title}\n${card.url}`,
    html,
    author,
    slackUserId: input.operator.slackUserId,
    articles: [card],
  });
  const title = escapeMrkdwn(card.title);
  await queueThreadPost(ctx, conversation, {
    text: `*<${escapeMrkdwn(card.url)}|${title}>*${card.snippet ? `\n${escapeMrkdwn(card.snippet)}` : ''}`,
    look: 'reply',
    footer: `Article “${title}” sent by <@${input.operator.slackUserId}>`,
    username: input.operator.name,
    iconUrl: input.operator.avatarUrl,
    messageId: String(message._id),
  });
  await recordSent(ctx, conversation, 'article', article._id);
  if (article.tag) await tagFromPick(ctx, conversation._id, ce.tags ?? [], [article.tag], `(the article “${title}” answered the visitor)`);
  return { message, article: card, number: conversation.number };
}

/** A suggested saved reply, sent the way every saved reply is (sendSavedReply), and counted as a suggestion sent. */
export async function sendSuggestedReply(
  ctx: OperatorMessageContext,
  input: { conversationId: string; replyId: string; operator: SavedReplySender },
): Promise<{ message: StoredMessage; number: number }> {
  const conversation = await openConversation(ctx, input.conversationId, 'saved reply');
  const sent = await sendSavedReply(ctx, { conversationId: input.conversationId, replyId: input.replyId, operator: input.operator });
  await recordSent(ctx, conversation, 'savedReply');
  return { message: sent.message, number: conversation.number };
}

/**
 * The operator's answer `messageId` as it is stored now, with its conversation's number: only a person's answer
 * (never an automatic message) in a conversation of the same widget and account, neither erased nor deleted.
 */
export async function pastAnswerSource(
  models: Pick<Models, 'Message' | 'Conversation'>,
  conversation: Pick<ConversationDocument, 'ceId' | 'accountId'>,
  messageId: string,
): Promise<{ source: { text: string; html: string }; past: { number: number } }> {
  const gone = new NotFoundError('This past answer is no longer available (its conversation was erased or deleted); nothing was sent.');
  const source = isValidObjectId(messageId)
    ? await models.Message.findOne(
        { _id: messageId, kind: 'msg', from: 'operator', deleted: false, slackUserId: { $ne: '' } },
        { conversationId: 1, text: 1, html: 1 },
      ).lean<{ conversationId: Types.ObjectId; text: string; html: string }>()
    : null;
  if (!source) throw gone;
  const past = await models.Conversation.findOne(
    { _id: source.conversationId, ceId: conversation.ceId, accountId: conversation.accountId, erasedAt: null },
    { number: 1 },
  ).lean<{ number: number }>();
  if (!past) throw gone;
  return { source, past };
}

/**
 * A past conversation's answer sent again: as it was stored, or `edited` (text and HTML as the widget shows them).
 * Only an operator's own answer (never an automatic message) in a conversation of the same widget that was neither
 * erased nor deleted.
 */
export async function sendPastAnswer(
  ctx: OperatorMessageContext,
  input: { conversationId: string; messageId: string; operator: SavedReplySender; edited?: { text: string; html: string } },
): Promise<{ message: StoredMessage; number: number }> {
  const conversation = await openConversation(ctx, input.conversationId, 'reply');
  const { source, past } = await pastAnswerSource(ctx.models, conversation, input.messageId);
  const content = input.edited ? { text: input.edited.text.trim(), html: input.edited.html } : { text: source.text, html: source.html };
  if (!content.text) throw new ValidationError('Write the reply to send.');
  if (content.text.length > MESSAGE_CHARS) throw new ValidationError(`A reply is at most ${MESSAGE_CHARS} characters.`);
  const ce = await widgetOf(ctx, conversation);
  const author = operatorAuthor(ce, { slackName: input.operator.name, image: input.operator.avatarUrl });
  const { message } = await recordAnswer(ctx, conversation, { ...content, author, slackUserId: input.operator.slackUserId });
  await queueThreadPost(ctx, conversation, {
    text: escapeMrkdwn(content.text),
    look: 'reply',
    footer: `Suggested reply from conversation #${past.number} ${input.edited ? 'edited and sent' : 'sent'} by <@${input.operator.slackUserId}>`,
    username: input.operator.name,
    iconUrl: input.operator.avatarUrl,
    messageId: String(message._id),
  });
  await recordSent(ctx, conversation, 'pastAnswer');
  return { message, number: conversation.number };
}
