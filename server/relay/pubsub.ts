/**
 * Fan-out of frames to the sockets that watch a conversation or a widget, and of signals between processes.
 * In one process this is a map of listeners. With REDIS_URL (several processes behind a load balancer, any of
 * which may hold any socket) the same interface goes over Redis pub/sub: a frame is handed to this process's
 * listeners at once and published to the others, which hand it to theirs. Each process subscribes only to the
 * topics its sockets watch, so a frame travels only to the processes that need it.
 *
 * Redis away: frames still reach this process's sockets; what it publishes meanwhile is kept (up to
 * MAX_KEPT_WHILE_AWAY) and published when Redis is back. Subscriptions are made again, all at once, each time the
 * connection is back, and then `onReconnect` listeners run: the gateway sends its sockets what their conversations
 * stored meanwhile (frames another process published while this one was not subscribed are gone).
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from '../logger';
import { closeRedis, type Redis, subscriberOf } from '../redis';
import type { ServerFrame } from '../shared/widget-protocol';

export type Topic = `conversation:${string}` | `widget:${string}` | `visitor:${string}`;
/**
 * `except`: id of a socket that must not get this frame (the sender, which got an ack instead);
 * `conversationId`: the conversation a history frame belongs to (its seq counts within it).
 */
export type FrameMeta = { except?: string; conversationId?: string };
export type Listener = (frame: ServerFrame, meta: FrameMeta) => void;

/** What one process tells the others so that their caches and timers follow a change made here. */
export type Signal =
  /** A widget's settings changed: drop it from caches, recheck its presence for the sockets watching it. */
  | { kind: 'widget'; ceId: string }
  /** A widget's saved replies changed: drop its automatic ones from memory. */
  | { kind: 'savedReplies'; ceId: string }
  /** A team's Slack installation changed (installed again, uninstalled, tokens revoked): drop its cached clients. */
  | { kind: 'team'; teamId: string }
  /** A process let go of these outbox keys (it is stopping): the others take them now, not at their next poll. */
  | { kind: 'outbox'; keys: string[] };

export interface PubSub {
  publish(topic: Topic, frame: ServerFrame, meta?: FrameMeta): void;
  /** Returns the unsubscribe function. */
  subscribe(topic: Topic, listener: Listener): () => void;
  /**
   * Settles once the subscriptions made so far also receive what other processes publish (at once in one
   * process). A socket awaits it before reading history, so no frame falls between history and live frames.
   */
  ready(): Promise<void>;
  /** Tells the other processes (not this one: it acted already). Nothing to do in one process. */
  signal(signal: Signal): void;
  /** Listens to other processes' signals; returns the function that stops it. */
  onSignal(listener: (signal: Signal) => void): () => void;
  /**
   * Runs `listener` each time this process is subscribed again after Redis was away (never in one process):
   * frames published meanwhile by other processes did not reach it. Returns the function that stops it.
   */
  onReconnect(listener: () => void): () => void;
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
    ready: async () => {},
    signal() {},
    onSignal: () => () => {},
    onReconnect: () => () => {},
    async close() {
      topics.clear();
    },
  };
}

/** Redis pub/sub when the deployment has Redis, the in-process map otherwise. */
export function createPubSub(deps: { redis?: Redis; logger: Logger }): PubSub {
  return deps.redis ? redisPubSub(deps.redis, deps.logger) : inProcessPubSub();
}

const TOPIC_PREFIX = 'parley:topic:';
const SIGNALS = 'parley:signals';
/** Longest a socket waits for Redis to confirm its subscriptions before it goes on without. */
const READY_WAIT_MS = 1_000;
/** Channels per SUBSCRIBE when subscribing again after a reconnect. */
const RESUBSCRIBE_BATCH = 1_000;
/** Publishes kept while Redis is away, sent when it is back; beyond this the oldest are dropped (and counted). */
const MAX_KEPT_WHILE_AWAY = 10_000;

type Envelope = { o: string; f?: ServerFrame; m?: FrameMeta; s?: Signal };

/**
 * Pub/sub over Redis: `redis` publishes (the caller owns it); a second connection, opened here, subscribes.
 * Messages carry the id of the process that sent them, which skips its own (it delivered them already).
 */
export function redisPubSub(redis: Redis, logger: Logger): PubSub {
  const origin = randomBytes(9).toString('base64url');
  const local = inProcessPubSub();
  const subscriber = subscriberOf(redis, logger);
  /** Local listeners per topic: the topics this process subscribes to in Redis. */
  const counts = new Map<Topic, number>();
  const signalListeners = new Set<(signal: Signal) => void>();
  const reconnectListeners = new Set<() => void>();
  const pending = new Set<Promise<unknown>>();
  let closed = false;
  let dropped = 0;
  /** Publishes made while Redis was away, in order. */
  let kept: [string, string][] = [];
  let subscribedOnce = false;

  const track = (command: Promise<unknown>) => {
    const settled = command.catch(() => undefined).finally(() => pending.delete(settled));
    pending.add(settled);
  };

  subscriber.on('ready', () => {
    // A new connection has no subscriptions: make them all again (ioredis's own resubscription is off, so that
    // the topics subscribed while Redis was away are included).
    const channels = [SIGNALS, ...[...counts.keys()].map((topic) => TOPIC_PREFIX + topic)];
    const batches: Promise<unknown>[] = [];
    for (let i = 0; i < channels.length; i += RESUBSCRIBE_BATCH) {
      const batch = subscriber.subscribe(...channels.slice(i, i + RESUBSCRIBE_BATCH));
      track(batch);
      batches.push(batch);
    }
    const again = subscribedOnce;
    subscribedOnce = true;
    if (again)
      void Promise.all(batches).then(
        () => {
          if (!closed) for (const listener of [...reconnectListeners]) listener();
        },
        () => undefined,
      );
  });

  const flushKept = () => {
    if (kept.length === 0 || closed) return;
    const out = kept;
    kept = [];
    logger.warn({ frames: out.length, dropped }, 'pubsub: Redis is back; publishing what was kept meanwhile');
    dropped = 0;
    for (const [channel, message] of out) {
      redis.publish(channel, message).catch((error: unknown) => logger.warn({ channel, err: error }, 'pubsub: could not publish'));
    }
  };
  redis.on('ready', flushKept);

  subscriber.on('message', (channel: string, message: string) => {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(message) as Envelope;
    } catch {
      logger.warn({ channel }, 'pubsub: a message is not JSON; ignored');
      return;
    }
    if (envelope.o === origin) return;
    if (channel === SIGNALS) {
      const signal = envelope.s;
      if (signal) for (const listener of [...signalListeners]) listener(signal);
      return;
    }
    if (channel.startsWith(TOPIC_PREFIX) && envelope.f)
      local.publish(channel.slice(TOPIC_PREFIX.length) as Topic, envelope.f, envelope.m ?? {});
  });

  const send = (channel: string, envelope: Envelope) => {
    if (closed) return;
    if (redis.status !== 'ready') {
      // The connection's own log said Redis is away: kept for when it is back (the oldest go beyond the cap).
      kept.push([channel, JSON.stringify(envelope)]);
      if (kept.length > MAX_KEPT_WHILE_AWAY) {
        kept.shift();
        dropped += 1;
      }
      return;
    }
    if (kept.length > 0) flushKept();
    redis.publish(channel, JSON.stringify(envelope)).catch((error: unknown) => {
      logger.warn({ channel, err: error }, 'pubsub: could not publish');
    });
  };

  return {
    publish(topic, frame, meta = {}) {
      local.publish(topic, frame, meta);
      send(TOPIC_PREFIX + topic, { o: origin, f: frame, m: meta });
    },
    subscribe(topic, listener) {
      const unsubscribe = local.subscribe(topic, listener);
      const count = (counts.get(topic) ?? 0) + 1;
      counts.set(topic, count);
      if (count === 1 && subscriber.status === 'ready') track(subscriber.subscribe(TOPIC_PREFIX + topic));
      let done = false;
      return () => {
        if (done) return;
        done = true;
        unsubscribe();
        const left = (counts.get(topic) ?? 1) - 1;
        if (left > 0) {
          counts.set(topic, left);
          return;
        }
        counts.delete(topic);
        if (subscriber.status === 'ready' && !closed) track(subscriber.unsubscribe(TOPIC_PREFIX + topic));
      };
    },
    async ready() {
      // Still connecting for the first time: its 'ready' subscribes everything. Reconnecting: go on without.
      const starting = ['wait', 'connecting', 'connect'].includes(subscriber.status);
      if (!starting && (subscriber.status !== 'ready' || pending.size === 0)) return;
      let timer: NodeJS.Timeout | undefined;
      const subscribed = async () => {
        if (starting) await new Promise((resolve) => subscriber.once('ready', resolve));
        await Promise.all([...pending]);
      };
      await Promise.race([
        subscribed(),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, READY_WAIT_MS);
        }),
      ]);
      clearTimeout(timer);
    },
    signal(signal) {
      send(SIGNALS, { o: origin, s: signal });
    },
    onSignal(listener) {
      signalListeners.add(listener);
      return () => signalListeners.delete(listener);
    },
    onReconnect(listener) {
      reconnectListeners.add(listener);
      return () => reconnectListeners.delete(listener);
    },
    async close() {
      closed = true;
      redis.off('ready', flushKept);
      kept = [];
      signalListeners.clear();
      reconnectListeners.clear();
      counts.clear();
      await local.close();
      await closeRedis(subscriber);
    },
  };
}
