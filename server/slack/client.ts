import { LogLevel, WebClient } from '@slack/web-api';

/**
 * A Web API client for `token` at `apiUrl` (Slack, or the sandbox). Calls made while a person waits
 * fail fast on rate limits instead of sleeping through Retry-After. `fetch`: SlackClients.fetch
 * (slackClients.ts), so the call is counted in the metrics.
 */
export function slackClient(apiUrl: string, token?: string, fetch?: typeof globalThis.fetch): WebClient {
  return new WebClient(token, {
    slackApiUrl: apiUrl,
    ...(fetch ? { fetch } : {}),
    logLevel: LogLevel.ERROR,
    rejectRateLimitedCalls: true,
    retryConfig: { retries: 1, factor: 1, minTimeout: 200, maxTimeout: 500 },
  });
}
