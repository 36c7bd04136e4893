/**
 * A saved reply delivered into a conversation, sent by an operator (a Slack button, a modal, /parley reply) or
 * automatically (its trigger phrase matched, afterVisitorMessage.ts): the decoded response reaches the widget as an
 * operator message and is posted in the thread.
 */
import type { Author } from '../conversations/authors';
import { operatorAuthor } from '../conversations/authors';
import type { StoredMessage } from '../conversations/history';
import type { OpenConversation } from '../conversations/record';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';
import type { SavedReply } from '../models/SavedReply';
import { escapeMrkdwn } from '../shared/mrkdwn';
import { type OperatorMessageContext, recordAnswer, recordOperatorMessage } from './operatorMessages';
import { decodeResponse, renderForSlack, renderForWidget } from './savedReplies';
import { queueThreadPost } from './threadPosts';

export type SentSavedReply = { message: StoredMessage; text: string; html: string };

/** What of a saved reply goes into a conversation. */
export type SavedReplyContent = Pick<SavedReply, 'label' | 'response'>;

/** The operator who sent it, as Slack names them. */
export type SavedReplySender = { slackUserId: string; name: string; avatarUrl: string };

/**
 * Sends a saved reply into a conversation: the decoded response to the widget (text and sanitised HTML), stored as
 * an operator message, and posted in the thread in the sender's name. `operator` null: sent automatically, in the
 * widget's name, and said so in the thread (and the conversation is not marked answered by it).
 */
export async function deliverSavedReply(
  ctx: OperatorMessageContext,
  conversation: OpenConversation,
  ce: ChatEndpointDocument,
  reply: SavedReplyContent,
  operator: SavedReplySender | null,
): Promise<SentSavedReply> {
  const decoded = decodeResponse(reply.response);
  const rendered = renderForWidget(decoded);
  const agent = ce.agentLabel || 'Support';
  const author: Author = operator
    ? operatorAuthor(ce, { slackName: operator.name, image: operator.avatarUrl })
    : operatorAuthor(ce, { slackName: agent, image: ce.teamAvatarOn ? ce.teamAvatarUrl : '' });
  const input = { ...rendered, author, slackUserId: operator?.slackUserId ?? '' };
  // A person's reply answers the visitor; an automatic one does not.
  const message = operator ? (await recordAnswer(ctx, conversation, input)).message : await recordOperatorMessage(ctx, conversation, input);
  const label = escapeMrkdwn(reply.label);
  const line = operator
    ? `Saved reply “${label}” sent by <@${operator.slackUserId}>`
    : `:robot_face: Sent automatically: saved reply “${label}” matched the visitor's message.`;
  await queueThreadPost(ctx, conversation, {
    text: renderForSlack(decoded),
    look: 'reply',
    footer: line,
    username: operator ? operator.name : author.name,
    iconUrl: operator ? operator.avatarUrl : author.avatarUrl,
    messageId: String(message._id),
  });
  return { message, ...rendered };
}
