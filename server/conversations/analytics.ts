/**
 * The Segment events of a conversation, for widgets with a `segmentWriteKey`: Chat Started, Visitor Message Sent,
 * Operator Replied, Chat Ended, Chat Rated and Offline Message Left. Each is tied to the visitor's identify
 * userId when the site gave one (`parley.identify`), to the visitor's id as anonymousId otherwise. Nothing is
 * read and nothing is sent for a widget without a write key.
 */
import type { Types } from 'mongoose';
import type { ChatEndpoint } from '../models/ChatEndpoint';
import type { Visitor } from '../models/Visitor';
import type { ConversationContext, TrackEvent, TrackMessage } from './context';

export type TrackedWidget = Pick<ChatEndpoint, 'segmentWriteKey' | 'Uuid'>;

/**
 * Queues `event` for the widget's Segment source. `visitorId` null (an offline message from someone without a
 * visitor token): `anonymousId` is the fallback id given.
 */
export async function trackEvent(
  ctx: Pick<ConversationContext, 'models' | 'analytics'>,
  input: {
    ce: TrackedWidget;
    event: TrackEvent;
    visitorId: Types.ObjectId | null;
    fallbackId?: string;
    properties: TrackMessage['properties'];
    at?: Date;
  },
): Promise<void> {
  const writeKey = input.ce.segmentWriteKey.trim();
  if (!writeKey) return;
  const visitor = input.visitorId
    ? await ctx.models.Visitor.findById(input.visitorId, { identUserId: 1 }).lean<Pick<Visitor, 'identUserId'>>().exec()
    : null;
  const anonymousId = input.visitorId ? String(input.visitorId) : (input.fallbackId ?? 'unknown');
  ctx.analytics.track(writeKey, {
    event: input.event,
    ...(visitor?.identUserId ? { userId: visitor.identUserId } : {}),
    anonymousId,
    properties: { widgetId: input.ce.Uuid, ...input.properties },
    timestamp: input.at ?? new Date(),
  });
}

/** The properties every conversation event carries. */
export function conversationProperties(conversation: { _id: Types.ObjectId; number: number }): TrackMessage['properties'] {
  return { conversationId: String(conversation._id), conversationNumber: conversation.number };
}
