/**
 * What conversation logic needs from the running relay, as interfaces the relay implements (RelayContext has
 * them all): commands and this module take these, so neither imports the relay.
 */
import type { Models } from '../models';
import type { JobQueue } from '../outbox/catalogue';
import type { ServerFrame } from '../shared/widget-protocol';
import type { JustStarted } from './justStarted';

export type { JobQueue } from '../outbox/catalogue';

/** Tells the sockets watching a topic (`visitor:<id>`, `widget:<id>`); `except`: a socket that got an ack instead. */
export interface FramePublisher {
  publish(topic: `visitor:${string}` | `widget:${string}`, frame: ServerFrame, meta?: { except?: string; conversationId?: string }): void;
}

/** The Segment events Parley sends for a widget with a write key (server/conversations/analytics.ts). */
export type TrackEvent =
  | 'Chat Started'
  | 'Visitor Message Sent'
  | 'Operator Replied'
  | 'Chat Ended'
  | 'Chat Rated'
  | 'Offline Message Left';

/** One track call: the visitor's identify userId when there is one, its anonymous id otherwise. */
export type TrackMessage = {
  event: TrackEvent;
  userId?: string;
  anonymousId: string;
  properties: Record<string, string | number | boolean | null>;
  timestamp: Date;
};

/** Track calls to a widget's Segment source, batched and sent later (server/analytics/segment.ts); never throws. */
export interface ConversationAnalytics {
  track(writeKey: string, message: TrackMessage): void;
}

export type ConversationContext = {
  models: Models;
  pubsub: FramePublisher;
  outbox: JobQueue;
  /** Segment, for widgets with a write key. */
  analytics: ConversationAnalytics;
  /** Base URL of Parley, for file links handed to widgets. */
  publicUrl: string;
  /** New conversations handed to their header job (the relay's; without it, the header job reads them). */
  justStarted?: JustStarted;
};
