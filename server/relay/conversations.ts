/**
 * What happens to conversations, whoever triggers it (a widget socket, a Slack event, a timer): each change
 * is stored first, then published to the visitor's sockets, then queued for Slack.
 */

import { Types } from 'mongoose';
import { refreshQuota } from '../billing/quota';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';
import type { ConversationDocument } from '../models/Conversation';
import type { MessageDocument, MessageFile } from '../models/Message';
import type { VisitorDocument } from '../models/Visitor';
import type { WidgetErrorCode } from '../shared/widget-protocol';
import type { RelayContext } from './context';
import { appendEntry, entryFrame, type NewEntry, serialised } from './history';
import { fireWebhook } from './webhooks';

export class WidgetRefusal extends Error {
  constructor(
    readonly code: WidgetErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export const REFUSALS = {
  offline: 'Nobody is available right now. Please leave a message instead.',
  tooMany: 'All our operators are busy. Please try again in a few minutes or leave a message.',
  info: 'Please tell us your e-mail address before starting the chat.',
  privacy: 'Please accept the privacy policy before starting the chat.',
} as const;

/** Stores an entry, then tells the visitor's sockets (except `exceptSocket`, which got an ack instead). */
export async function record(
  ctx: RelayContext,
  conversation: Pick<ConversationDocument, '_id' | 'visitorId'>,
  entry: NewEntry,
  exceptSocket?: string,
  conversationSet: Record<string, unknown> = {},
): Promise<MessageDocument> {
  const stored = await appendEntry(ctx.models, conversation._id, entry, conversationSet);
  const frame = entryFrame(ctx.publicUrl, stored);
  if (frame) {
    ctx.pubsub.publish(`visitor:${String(conversation.visitorId)}`, frame, {
      except: exceptSocket,
      conversationId: String(conversation._id),
    });
  }
  return stored;
}

export function headerUpdate(ctx: RelayContext, conversation: Pick<ConversationDocument, '_id' | 'slackChannel'>): Promise<void> {
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
export function openConversationOf(ctx: RelayContext, visitorId: Types.ObjectId) {
  return ctx.models.Conversation.findOne({ visitorId, status: 'open' }).sort({ _id: -1 });
}

/** Opens a new conversation after checking what the widget's settings demand. */
export async function startConversation(
  ctx: RelayContext,
  ce: ChatEndpointDocument,
  visitor: VisitorDocument,
  origin: { pageUrl: string; triggerUid: string },
): Promise<ConversationDocument> {
  if (!(await ctx.presence.isOnline(ce))) throw new WidgetRefusal('widget_offline', REFUSALS.offline);
  if (ce.requireInfo && !visitor.email) throw new WidgetRefusal('info_required', REFUSALS.info);
  if (ce.displayPrivacyPolicy && ce.requireAcceptance && !visitor.acceptedPrivacyAt) {
    throw new WidgetRefusal('privacy_not_accepted', REFUSALS.privacy);
  }
  if (ce.maxConcurrentConvos > 0) {
    const open = await ctx.models.Conversation.countDocuments({ ceId: ce._id, status: 'open' });
    if (open >= ce.maxConcurrentConvos) throw new WidgetRefusal('too_many_conversations', REFUSALS.tooMany);
  }
  const counter = await ctx.models.ConversationCounter.findOneAndUpdate(
    { ceId: ce._id },
    { $inc: { next: 1 } },
    { returnDocument: 'after', upsert: true, setDefaultsOnInsert: true },
  );
  const conversation = await ctx.models.Conversation.create({
    accountId: ce.accountId,
    ceId: ce._id,
    number: counter.next,
    visitorId: visitor._id,
    pageUrl: origin.pageUrl,
    triggerUid: origin.triggerUid,
    slackTeamId: ce.slackTeamId,
    slackChannel: ce.RoomId,
  });
  // Over the month's quota the conversation still goes through; the account is marked and its console says so.
  await refreshQuota(ctx.models, ce.accountId).catch((error: unknown) => ctx.logger.warn('quota: could not count conversations', error));
  // Started by the caller once the first message is stored: the header quotes it.
  await ctx.outbox.enqueue(
    'slack.header',
    String(conversation._id),
    { conversationId: String(conversation._id) },
    {
      channel: ce.RoomId,
      conversationId: conversation._id,
      start: false,
    },
  );
  await fireWebhook(ctx, {
    accountId: ce.accountId,
    key: `webhook:${String(conversation._id)}`,
    event: 'conversation.started',
    url: ce.newConversationWebhookURL,
    body: {
      event: 'conversation.started',
      conversation: { id: String(conversation._id), number: conversation.number, widgetId: ce.Uuid, pageUrl: origin.pageUrl },
    },
  });
  return conversation;
}

export type VisitorMessageResult = { message: MessageDocument; conversation: ConversationDocument; duplicate: boolean };

/**
 * Stores a visitor message (once per clientId) in the visitor's open conversation, opening one when needed,
 * and queues it for the Slack thread.
 */
export async function visitorMessage(
  ctx: RelayContext,
  input: {
    ce: ChatEndpointDocument;
    visitor: VisitorDocument;
    clientId: string;
    text: string;
    files?: MessageFile[];
    origin: { pageUrl: string; triggerUid: string };
    /** Id of the sending socket, which gets an ack instead of the message frame. */
    socket?: string;
  },
): Promise<VisitorMessageResult> {
  return serialised(`visitor:${String(input.visitor._id)}`, async () => {
    let conversation = await openConversationOf(ctx, input.visitor._id);
    if (conversation) {
      const earlier = await ctx.models.Message.findOne({ conversationId: conversation._id, clientId: input.clientId });
      if (earlier) return { message: earlier, conversation, duplicate: true };
    } else {
      conversation = await startConversation(ctx, input.ce, input.visitor, input.origin);
    }
    const current = conversation;
    // The Slack job and the message are written at once (one round trip less before the ack); the job is started
    // only once both are stored, and a job that runs early (another process) retries until its message exists.
    const messageId = new Types.ObjectId();
    const [message] = await Promise.all([
      serialised(String(current._id), () =>
        record(
          ctx,
          current,
          { _id: messageId, kind: 'msg', from: 'visitor', text: input.text, clientId: input.clientId, files: input.files ?? [] },
          input.socket,
          { lastVisitorMsgAt: new Date() },
        ),
      ),
      ctx.outbox.enqueue(
        'slack.reply',
        String(current._id),
        { messageId: String(messageId) },
        {
          channel: current.slackChannel,
          conversationId: current._id,
          start: false,
        },
      ),
    ]);
    ctx.outbox.poke(String(current._id));
    return { message, conversation: current, duplicate: false };
  });
}
