/**
 * Server-side Segment tracking for widgets with a `segmentWriteKey`: the only importer of @segment/analytics-node.
 * One client per write key, made on its first event and kept; each batches events (15, or every flush interval),
 * retries a failed batch with backoff, and is flushed by `close()` when Parley stops. `SEGMENT_HOST` points every
 * client at another tracking API (a proxy, a local collector in tests).
 */
import { Analytics } from '@segment/analytics-node';
import type { ConversationAnalytics, TrackMessage } from '../conversations/context';

/** What the console shows of a write key's deliveries (the Integrations tab). */
export type SegmentStatus = {
  /** When Segment last accepted a batch from this process (ISO 8601), or null. */
  lastDeliveredAt: string | null;
  /** The last refusal or network error, cleared by the next accepted batch. */
  lastError: string | null;
};

export type SegmentTracker = ConversationAnalytics & {
  status(writeKey: string): SegmentStatus;
  /** Sends what is queued and stops every client (on shutdown), waiting at most `timeoutMs`. */
  close(timeoutMs?: number): Promise<void>;
};

export function createSegmentTracker(deps: { host?: string; flushIntervalMs?: number; logger: Pick<Console, 'warn'> }): SegmentTracker {
  const clients = new Map<string, { analytics: Analytics; status: SegmentStatus }>();
  const clientOf = (writeKey: string) => {
    const known = clients.get(writeKey);
    if (known) return known;
    const analytics = new Analytics({
      writeKey,
      ...(deps.host ? { host: deps.host } : {}),
      ...(deps.flushIntervalMs !== undefined ? { flushInterval: deps.flushIntervalMs } : {}),
      maxRetries: 5,
    });
    const entry = { analytics, status: { lastDeliveredAt: null, lastError: null } as SegmentStatus };
    analytics.on('http_response', (res) => {
      if (res.status >= 200 && res.status < 300) {
        entry.status = { lastDeliveredAt: new Date().toISOString(), lastError: null };
      } else {
        entry.status = { ...entry.status, lastError: `Segment answered ${res.status} ${res.statusText}`.trim() };
      }
    });
    analytics.on('error', (error) => {
      const reason = (error as { reason?: unknown }).reason;
      const message = reason instanceof Error ? reason.message : String(reason ?? (error as { code?: unknown }).code ?? error);
      entry.status = { ...entry.status, lastError: message };
      deps.logger.warn(`segment: a batch for write key ${writeKey.slice(0, 4)}… was not delivered: ${message}`);
    });
    clients.set(writeKey, entry);
    return entry;
  };

  return {
    track(writeKey, message: TrackMessage) {
      const { analytics } = clientOf(writeKey);
      const common = { event: message.event, properties: message.properties, timestamp: message.timestamp };
      if (message.userId) analytics.track({ ...common, userId: message.userId });
      else analytics.track({ ...common, anonymousId: message.anonymousId });
    },
    status(writeKey) {
      return clients.get(writeKey)?.status ?? { lastDeliveredAt: null, lastError: null };
    },
    async close(timeoutMs = 10_000) {
      const all = [...clients.values()];
      clients.clear();
      await Promise.all(all.map(({ analytics }) => analytics.closeAndFlush({ timeout: timeoutMs })));
    },
  };
}
