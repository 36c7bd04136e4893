/**
 * "Did this answer your question?" on an automatic answer (the widget's `helpful` frame, commands/autoAnswers.ts sent
 * the question). Answered once per automatic answer: Yes ends the visitor's wait (the conversation counts as resolved
 * by the article: no more response reminders, no no-answer webhook, off App Home's waiting list) and No keeps it
 * waiting for a person; either way the thread is told and the Answers report counts it (AnswerEvent `helpful`, and
 * `resolved` for Yes).
 */
import { Types } from 'mongoose';
import type { ConversationContext } from '../conversations/context';
import { headerUpdate, WidgetRefusal } from '../conversations/record';
import { linkOf } from './autoAnswers';
import { WAIT_ENDED } from './responseTargets';
import { queueThreadNote } from './threadPosts';

/**
 * The visitor's answer to the automatic answer `messageId` of their conversation; `articleId`: the article they mean
 * (the one they opened), else the answer's first. False when it was answered already (another tab, a second click).
 */
export async function answerHelpful(
  ctx: Pick<ConversationContext, 'models' | 'outbox'>,
  visitorId: Types.ObjectId,
  input: { messageId: string; helpful: boolean; articleId?: string },
): Promise<boolean> {
  const { models } = ctx;
  const message = Types.ObjectId.isValid(input.messageId)
    ? await models.Message.findOne({ _id: new Types.ObjectId(input.messageId), automatic: true }, { conversationId: 1, articles: 1 })
    : null;
  const conversation = message
    ? await models.Conversation.findOne({ _id: message.conversationId, visitorId }, { accountId: 1, ceId: 1, slackChannel: 1, status: 1 })
    : null;
  const articles = message?.articles ?? [];
  if (!message || !conversation || articles.length === 0) {
    throw new WidgetRefusal('bad_frame', 'No automatic answer of yours waits for this.');
  }
  const article = articles.find((a) => a.id === input.articleId) ?? articles[0];
  const taken = await models.Message.updateOne(
    { _id: message._id, answer: { $exists: false } },
    { $set: { answer: input.helpful ? 'yes' : 'no' } },
  );
  if (taken.modifiedCount === 0 || !article) return false;
  const now = new Date();
  const articleId = Types.ObjectId.isValid(article.id) ? new Types.ObjectId(article.id) : undefined;
  const event = { accountId: conversation.accountId, ceId: conversation.ceId, conversationId: conversation._id, articleId, at: now };
  if (input.helpful) {
    // The wait ends as an operator's answer would end it, without naming an operator: reminders and the no-answer
    // webhook look for an answer after the visitor's question, App Home lists conversations nobody resolved.
    // No operator answered: the wait ends without a response event, and a running target's line leaves the header.
    const resolved = await models.Conversation.findOneAndUpdate(
      { _id: conversation._id, resolvedByArticleAt: null },
      {
        $set: {
          resolvedByArticleAt: now,
          resolvedArticleId: article.id,
          reminderAt: null,
          noAnswerAt: null,
          autoAnswerAt: null,
          ...WAIT_ENDED,
        },
      },
      { returnDocument: 'before', projection: { targetDueAt: 1 } },
    )
      .lean<{ targetDueAt?: Date | null }>()
      .exec();
    if (resolved?.targetDueAt) await headerUpdate(ctx, conversation);
    await models.AnswerEvent.create([
      { ...event, kind: 'helpful', helpful: true },
      { ...event, kind: 'resolved' },
    ]);
    await queueThreadNote(
      ctx,
      conversation,
      `:white_check_mark: Answered by the article ${linkOf(article)}: the visitor says it answered their question.`,
    );
  } else {
    await models.AnswerEvent.create({ ...event, kind: 'helpful', helpful: false });
    await queueThreadNote(
      ctx,
      conversation,
      `:raising_hand: The visitor still needs a person: the article ${linkOf(article)} did not answer their question.`,
    );
  }
  return true;
}
