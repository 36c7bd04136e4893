/**
 * Slack may still send a command or a button press from a workspace Parley has no active installation for
 * (its record was revoked or removed while the app stayed in Slack). Bolt then acknowledges without running
 * any listener; this tells the person why, on the response_url the request carries.
 */
import type { Authorize } from '@slack/bolt';

export const NOT_INSTALLED_TEXT =
  'Parley is not installed in this Slack workspace any more, so it cannot do this. Ask the person who manages Parley to add it to Slack again from the Parley console.';

function responseUrlOf(body: unknown): string | undefined {
  const b = body as { response_url?: unknown; payload?: unknown } | null;
  if (typeof b?.response_url === 'string') return b.response_url;
  return undefined;
}

export function refusingWhenNotInstalled(authorize: Authorize<boolean>): Authorize<boolean> {
  return async (source, body) => {
    try {
      return await authorize(source, body);
    } catch (error) {
      const url = responseUrlOf(body);
      // Not awaited: Bolt acknowledges only after this returns, and Slack waits 3 s at most.
      if (url) {
        void fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ response_type: 'ephemeral', replace_original: false, text: NOT_INSTALLED_TEXT }),
          signal: AbortSignal.timeout(5000),
        }).catch(() => undefined);
      }
      throw error;
    }
  };
}
