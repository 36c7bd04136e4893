/**
 * What a Slack Web API failure means for the outbox job that met it (the relay's outbox takes this classifier from
 * main.ts, `JobErrorClassifier`): a rate limit waits for Slack's Retry-After and holds the channel's posts meanwhile;
 * a Slack error code is final unless it says "try again later"; anything else is not Slack's to judge.
 */
import { ErrorCode } from '@slack/web-api';
import type { JobVerdict } from '../outbox/engine';

/** Slack errors that mean "try again later"; every other Slack error is permanent. */
const TRANSIENT_SLACK_ERRORS = new Set(['internal_error', 'fatal_error', 'service_unavailable', 'request_timeout', 'ratelimited']);

export function slackJobErrors(error: unknown): JobVerdict | undefined {
  const e = error as { code?: unknown; retryAfter?: unknown; data?: { error?: unknown } } | null;
  if (e?.code === ErrorCode.RateLimitedError) {
    const ms = Math.max(1, Number(e.retryAfter) || 1) * 1000;
    return { permanent: false, retryInMs: ms, blockChannelMs: ms };
  }
  if (e?.code === ErrorCode.PlatformError && typeof e.data?.error === 'string' && !TRANSIENT_SLACK_ERRORS.has(e.data.error)) {
    return { permanent: true };
  }
  return undefined;
}
