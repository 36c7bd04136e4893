import type { Config, RelayTuning } from '../config';
import { WIDGET_LIMITS } from '../shared/widget-protocol';

export const DEFAULT_RELAY_TUNING: RelayTuning = {
  presenceTtlMs: 30_000,
  presenceRefreshMs: 30_000,
  // Slack allows about one chat.postMessage per second per channel, with short bursts.
  slackPostsPerSecond: 1,
  slackBurst: 3,
  outboxPollMs: 30_000,
  outboxLeaseMs: 60_000,
  outboxMaxBackoffMs: 5 * 60_000,
  // A look reads only the conversations due (two indexed queries, ~1.5 ms when none is), so it can be frequent.
  inactivityCheckMs: 10_000,
  silentSocketMs: WIDGET_LIMITS.heartbeatMs * 2,
  visitorMsgsPerMinute: 30,
  framesPer10s: 60,
  socketsPerIpPerMinute: 120,
  articleSearchesPerIpPerMinute: 120,
  maxBufferedBytes: 1024 * 1024,
  // Hours come in 15-minute steps: a check every 20 seconds turns a widget on or off within 20 seconds of the time.
  scheduleCheckMs: 20_000,
};

export function relayTuning(config: Config): RelayTuning {
  return { ...DEFAULT_RELAY_TUNING, ...config.relay };
}
