/**
 * Fan-out of frames to the sockets that watch a conversation or a widget. In one process this is a map of
 * listeners; with several processes behind a load balancer an implementation over Redis pub/sub (REDIS_URL)
 * takes its place behind the same interface, because a socket may live in another process than the one that
 * stored the message.
 */
import type { ServerFrame } from '../shared/widget-protocol';

export type Topic = `conversation:${string}` | `widget:${string}` | `visitor:${string}`;
/**
 * `except`: id of a socket that must not get this frame (the sender, which got an ack instead);
 * `conversationId`: the conversation a history frame belongs to (its seq counts within it).
 */
export type FrameMeta = { except?: string; conversationId?: string };
export type Listener = (frame: ServerFrame, meta: FrameMeta) => void;

export interface PubSub {
  publish(topic: Topic, frame: ServerFrame, meta?: FrameMeta): void;
  /** Returns the unsubscribe function. */
  subscribe(topic: Topic, listener: Listener): () => void;
  close(): Promise<void>;
}

export function inProcessPubSub(): PubSub {
  const topics = new Map<Topic, Set<Listener>>();
  return {
    publish(topic, frame, meta = {}) {
      const listeners = topics.get(topic);
      if (!listeners) return;
      for (const listener of [...listeners]) listener(frame, meta);
    },
    subscribe(topic, listener) {
      let listeners = topics.get(topic);
      if (!listeners) {
        listeners = new Set();
        topics.set(topic, listeners);
      }
      listeners.add(listener);
      return () => {
        const set = topics.get(topic);
        if (!set) return;
        set.delete(listener);
        if (set.size === 0) topics.delete(topic);
      };
    },
    async close() {
      topics.clear();
    },
  };
}
