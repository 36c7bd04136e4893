import { ErrorCode, LogLevel, WebClient } from '@slack/web-api';

/**
 * A Web API client for `token` at `apiUrl` (Slack, or the sandbox). Calls made while a person waits
 * fail fast on rate limits instead of sleeping through Retry-After.
 */
export function slackClient(apiUrl: string, token?: string): WebClient {
  return new WebClient(token, {
    slackApiUrl: apiUrl,
    logLevel: LogLevel.ERROR,
    rejectRateLimitedCalls: true,
    retryConfig: { retries: 1, factor: 1, minTimeout: 200, maxTimeout: 500 },
  });
}

/** Slack's error code (name_taken, not_in_channel …) of a failed Web API call, or undefined for other failures. */
export function slackErrorCode(error: unknown): string | undefined {
  const e = error as { code?: unknown; data?: { error?: unknown } } | null;
  if (e?.code === ErrorCode.PlatformError && typeof e.data?.error === 'string') return e.data.error;
  if (e?.code === ErrorCode.RateLimitedError) return 'ratelimited';
  return undefined;
}

/** True for failures of a Web API call (Slack answered an error, or could not be reached), not for bugs. */
export function isSlackCallError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('slack_webapi_');
}
