/**
 * Redis, when REDIS_URL is set: what lets several Parley processes behave as one (frames and signals between
 * processes, shared rate-limit counters). Without it every counter and fan-out stays in the process.
 *
 * Redis going away never stops a process: commands fail at once instead of queueing (no offline queue), each
 * user of Redis falls back to what the process can do alone (local sockets only, per-process counters), ioredis
 * reconnects by itself, and the change is logged once each way rather than at every failed command.
 */
import { Redis } from 'ioredis';
import type { Logger } from './logger';

export type { Redis } from 'ioredis';

/** Connects (in the background: a Redis that is down delays nothing) and logs when the connection is lost and back. */
export function connectRedis(url: string, logger: Logger, role = 'commands'): Redis {
  const redis = new Redis(url, {
    // A command while disconnected fails at once: callers fall back to local behaviour rather than wait.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    // Reconnect forever, at most every 2 s.
    retryStrategy: (attempt) => Math.min(attempt * 100, 2_000),
    connectionName: `parley:${process.pid}:${role}`,
  });
  watchConnection(redis, logger, role);
  return redis;
}

/** Longest a starting process waits for Redis before it serves alone (and joins the others once Redis answers). */
const FIRST_CONNECTION_WAIT_MS = 5_000;

/** Connects and waits until Redis answers (or FIRST_CONNECTION_WAIT_MS passed: the process starts all the same). */
export async function openRedis(url: string, logger: Logger): Promise<Redis> {
  const redis = connectRedis(url, logger);
  let timer: NodeJS.Timeout | undefined;
  const answered = await Promise.race([
    new Promise<boolean>((resolve) => redis.once('ready', () => resolve(true))),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), FIRST_CONNECTION_WAIT_MS);
    }),
  ]);
  clearTimeout(timer);
  if (!answered)
    logger.warn({ redisHost: new URL(url).host }, 'redis: no answer yet; starting alone, joining the other processes once it answers');
  return redis;
}

/**
 * A second connection for SUBSCRIBE (a subscribed connection can do nothing else). It does not resubscribe by
 * itself: its owner subscribes to everything it needs on each 'ready' event.
 */
export function subscriberOf(redis: Redis, logger: Logger): Redis {
  const subscriber = redis.duplicate({ autoResubscribe: false, connectionName: `parley:${process.pid}:subscriber` });
  watchConnection(subscriber, logger, 'subscriber');
  return subscriber;
}

function watchConnection(redis: Redis, logger: Logger, role: string): void {
  let down = false;
  redis.on('error', (error: Error) => {
    if (down) return;
    down = true;
    logger.warn({ role, err: error }, "redis: connection lost; serving this process's sockets alone until it is back");
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    logger.info({ role }, 'redis: connected again');
  });
}

/** Closes a connection without waiting for a Redis that is not there. */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'ready') {
    await redis.quit().catch(() => redis.disconnect());
    return;
  }
  redis.disconnect();
}
