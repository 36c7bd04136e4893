/**
 * A `fetch` for @slack/web-api clients (its `fetch` option) that counts every Web API call in
 * `parley_slack_api_calls_total{method,outcome}`: the method from the URL (`…/api/chat.postMessage`), the outcome
 * `ok`, Slack's error code (`ratelimited`, `channel_not_found` …), `http_<status>` or `network`. The answer is read
 * once here and handed on as it came.
 */
import type { Counter } from 'prom-client';

type Fetch = typeof fetch;

/** Slack answers `{"ok":true,…}` with `ok` first; anything else is parsed for its `error`. */
const OK_FIRST = /^\s*\{\s*"ok"\s*:\s*true\b/;
const METHOD = /^[a-zA-Z.]{1,64}$/;

export function countingSlackFetch(base: Fetch, calls: Counter<'method' | 'outcome'>): Fetch {
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const last = new URL(url).pathname.split('/').pop() ?? '';
    // Bounded labels: a method name, never a path with ids.
    const method = METHOD.test(last) ? last : 'other';
    let res: Response;
    try {
      res = await base(input, init);
    } catch (error) {
      calls.inc({ method, outcome: 'network' });
      throw error;
    }
    if (res.status !== 200) {
      calls.inc({ method, outcome: `http_${res.status}` });
      return res;
    }
    const text = await res.text();
    calls.inc({ method, outcome: OK_FIRST.test(text) ? 'ok' : slackError(text) });
    return new Response(text, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

function slackError(text: string): string {
  try {
    const body = JSON.parse(text) as { ok?: unknown; error?: unknown };
    if (body.ok === true) return 'ok';
    return typeof body.error === 'string' && /^[a-z_]{1,64}$/.test(body.error) ? body.error : 'error';
  } catch {
    return 'error';
  }
}
