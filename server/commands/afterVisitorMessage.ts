/**
 * What Parley does by itself once a visitor message is stored: the widget's saved replies whose trigger phrases
 * match are sent automatically (each at most once per conversation), and a new conversation starts the account's
 * automatic question group, and its first line queues the thread's "Suggested" post (slack.suggest). The gateway
 * runs it after the message's ack, in the order of the conversation's messages.
 */
import type { StoredMessage } from '../conversations/history';
import type { OpenConversation } from '../conversations/record';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';
import { askFirstQuestion } from './askFirstQuestion';
import type { AutoSendReplies } from './autoSendReplies';
import { deliverSavedReply } from './deliverSavedReply';
import type { OperatorMessageContext } from './operatorMessages';
import { planHasFeature } from './planFeature';
import { automaticQuestionGroup } from './questionGroups';

export type AfterVisitorMessageContext = OperatorMessageContext & {
  /** The widgets' automatic saved replies, kept in memory. */
  autoReplies: Pick<AutoSendReplies, 'of'>;
};

export async function afterVisitorMessage(
  ctx: AfterVisitorMessageContext,
  conversation: OpenConversation,
  message: StoredMessage,
): Promise<void> {
  const ce = await ctx.widgets.get(conversation.ceId);
  if (!ce) return;
  if (message.seq === 1) {
    const auto = await automaticQuestionGroup(ctx.models, ce.accountId);
    if (auto && (await planHasFeature(ctx.models, ce.accountId, 'questionGroups'))) await askFirstQuestion(ctx, conversation, ce, auto);
  }
  if (!message.text) return;
  await sendTriggeredReplies(ctx, conversation, ce, message);
  // The thread's "Suggested" post for operators follows what was sent automatically (not suggested again); it is
  // worked out by its outbox job, in the conversation's order, after the header and the first line.
  if (message.seq === 1) {
    await ctx.outbox.enqueue(
      'slack.suggest',
      String(conversation._id),
      { conversationId: String(conversation._id), text: message.text },
      { channel: conversation.slackChannel, conversationId: conversation._id },
    );
  }
}

async function sendTriggeredReplies(
  ctx: AfterVisitorMessageContext,
  conversation: OpenConversation,
  ce: ChatEndpointDocument,
  message: StoredMessage,
): Promise<void> {
  const matching = (await ctx.autoReplies.of(ce._id)).filter((reply) => reply.matches(message.text));
  // The plan is read only when a reply would go out.
  if (matching.length === 0 || !(await planHasFeature(ctx.models, ce.accountId, 'savedReplies'))) return;
  for (const reply of matching) {
    // Each reply at most once per conversation, even when two processes see matching messages at once.
    const claimed = await ctx.models.ConversationAssist.findOneAndUpdate(
      { conversationId: conversation._id, autoSentReplyIds: { $ne: reply._id } },
      { $push: { autoSentReplyIds: reply._id } },
      { upsert: true, setDefaultsOnInsert: true },
    ).catch((error: unknown) => {
      if ((error as { code?: unknown }).code === 11000) return 'taken' as const;
      throw error;
    });
    if (claimed === 'taken') continue;
    await deliverSavedReply(ctx, conversation, ce, reply, null);
  }
}
