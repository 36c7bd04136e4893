/** What a failed Slack Web API call says, for commands that call Slack with a client passed in. */
import { ErrorCode } from '@slack/web-api';

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
