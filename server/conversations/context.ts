/**
 * What conversation logic needs from the running relay, as interfaces the relay implements (RelayContext has
 * them all): commands and this module take these, so neither imports the relay.
 */
import type { Types } from 'mongoose';
import type { Models } from '../models';
import type { OutboxKind } from '../models/OutboxJob';
import type { ServerFrame } from '../shared/widget-protocol';

/** Tells the sockets watching a topic (`visitor:<id>`, `widget:<id>`); `except`: a socket that got an ack instead. */
export interface FramePublisher {
  publish(topic: `visitor:${string}` | `widget:${string}`, frame: ServerFrame, meta?: { except?: string; conversationId?: string }): void;
}

/** The durable outbox: jobs stored first, run in order per key. `start: false`: stored now, run once poked. */
export interface JobQueue {
  enqueue(
    kind: OutboxKind,
    key: string,
    payload: Record<string, unknown>,
    opts?: { channel?: string; conversationId?: Types.ObjectId | null; runAt?: Date; start?: boolean },
  ): Promise<void>;
  poke(key: string): void;
}

export type ConversationContext = {
  models: Models;
  pubsub: FramePublisher;
  outbox: JobQueue;
  /** Base URL of Parley, for file links handed to widgets. */
  publicUrl: string;
};
