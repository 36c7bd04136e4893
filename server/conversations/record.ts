/**
 * What happens to conversations, whoever triggers it (a widget socket, a Slack event, a command, a timer): each
 * change is stored first, then published to the visitor's sockets, then queued for Slack.
 */
import type { Types } from 'mongoose';
import type { Conversation } from '../models/Conversation';
import type { ConversationContext } from './context';
import { appendEntry, entryFrame, type NewEntry, type StoredMessage } from './history';

export { WidgetRefusal } from '../errors';

export const REFUSALS = {
  offline: 'Nobody is available right now. Please leave a message instead.',
  tooMany: 'All our operators are busy. Please try again in a few minutes or leave a message.',
  info: 'Please tell us your e-mail address before starting the chat.',
  privacy: 'Please accept the privacy policy before starting the chat.',
} as const;

/** Stores an entry, then tells the visitor's sockets (except `exceptSocket`, which got an ack instead). */
export async function record(
  ctx: ConversationContext,
  conversation: Pick<Conversation, 'visitorId'> & { _id: Types.ObjectId },
  entry: NewEntry,
  exceptSocket?: string,
): Promise<StoredMessage> {
  const stored = await appendEntry(ctx.models, conversation._id, entry);
  if (!stored) throw new Error(`conversation ${String(conversation._id)} is gone`);
  publishEntry(ctx, conversation, stored, exceptSocket);
  return stored;
}

export function publishEntry(
  ctx: ConversationContext,
  conversation: Pick<Conversation, 'visitorId'> & { _id: Types.ObjectId },
  stored: StoredMessage,
  exceptSocket?: string,
): void {
  const frame = entryFrame(ctx.publicUrl, stored);
  if (frame) {
    ctx.pubsub.publish(`visitor:${String(conversation.visitorId)}`, frame, {
      except: exceptSocket,
      conversationId: String(conversation._id),
    });
  }
}

export function headerUpdate(
  ctx: Pick<ConversationContext, 'outbox'>,
  conversation: Pick<Conversation, 'slackChannel'> & { _id: Types.ObjectId },
): Promise<void> {
  return ctx.outbox.enqueue(
    'slack.updateHeader',
    String(conversation._id),
    { conversationId: String(conversation._id) },
    {
      channel: conversation.slackChannel,
      conversationId: conversation._id,
    },
  );
}

/** The visitor's open conversation in this widget, if any. */
export function openConversationOf(ctx: Pick<ConversationContext, 'models'>, visitorId: Types.ObjectId) {
  return ctx.models.Conversation.findOne({ visitorId, status: 'open' }).sort({ _id: -1 });
}

/** What a visitor message needs of its open conversation; a socket keeps it between messages. */
export type OpenConversation = Pick<Conversation, 'visitorId' | 'ceId' | 'accountId' | 'number' | 'slackTeamId' | 'slackChannel'> & {
  _id: Types.ObjectId;
};
const OPEN_CONVERSATION_FIELDS = { visitorId: 1, ceId: 1, accountId: 1, number: 1, slackTeamId: 1, slackChannel: 1 } as const;

/** The visitor's open conversation, lean: only the fields a visitor message needs. */
export function findOpenConversation(
  ctx: Pick<ConversationContext, 'models'>,
  visitorId: Types.ObjectId,
): Promise<OpenConversation | null> {
  return ctx.models.Conversation.findOne({ visitorId, status: 'open' }, OPEN_CONVERSATION_FIELDS)
    .sort({ _id: -1 })
    .lean<OpenConversation>()
    .exec();
}
