/**
 * What Parley does in a conversation by itself (saved replies, question groups), as the commands that trigger it
 * by hand need it. The relay's assistant implements it (server/relay/assistant.ts) and is passed in.
 */
import type { StoredMessage } from '../conversations/history';
import type { OpenConversation } from '../conversations/record';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';
import type { QuestionGroupDocument } from '../models/QuestionGroup';
import type { SavedReply } from '../models/SavedReply';

export type SentSavedReply = { message: StoredMessage; text: string; html: string };

/** What of a saved reply goes into a conversation. */
export type SavedReplyContent = Pick<SavedReply, 'label' | 'response'>;

export interface ConversationAssistant {
  /** Stores the reply as an operator message (the widget shows it) and posts it in the thread; `operator` null: sent automatically. */
  deliverSavedReply(
    conversation: OpenConversation,
    ce: ChatEndpointDocument,
    reply: SavedReplyContent,
    operator: { slackUserId: string; name: string; avatarUrl: string } | null,
  ): Promise<SentSavedReply>;
  /** Shows the group's prompt and asks its first question. */
  askFirstQuestion(conversation: OpenConversation, ce: ChatEndpointDocument, group: QuestionGroupDocument): Promise<void>;
}
