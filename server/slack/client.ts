import { LogLevel, WebClient } from '@slack/web-api';

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
