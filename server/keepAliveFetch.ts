/**
 * A `fetch` for string-bodied POSTs on the hot path: over node:http(s) with keep-alive connections, which costs a
 * fraction of the CPU of WHATWG fetch's request and stream machinery. Parley's Slack clients (slack/slackClients.ts) use it
 * (@slack/web-api's `fetch` option, "to configure transport-level behavior"), and so does the Slack sandbox's
 * event delivery. Anything else (a file upload's FormData, a GET) is left to the global fetch. Failures look as fetch's do: a TypeError whose `cause` carries
 * the socket error's code (slack/postOnce.ts tells "never sent" from "may have been sent" by it), and an aborted
 * request rejects with its signal's reason.
 */
import http from 'node:http';
import https from 'node:https';

const AGENTS = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };

type FetchArgs = Parameters<typeof fetch>;

export function keepAliveFetch(input: FetchArgs[0], init: FetchArgs[1] = {}): Promise<Response> {
  const url = typeof input === 'string' ? new URL(input) : input instanceof URL ? input : undefined;
  const body = init.body;
  if (!url || (init.method ?? 'GET').toUpperCase() !== 'POST' || typeof body !== 'string' || !(url.protocol in AGENTS)) {
    return fetch(input, init);
  }
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(signal.reason);
  const headers: Record<string, string> = { ...Object.fromEntries(new Headers(init.headers).entries()) };
  headers['content-length'] = String(Buffer.byteLength(body));
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise<Response>((resolve, reject) => {
    const req = transport.request(url, { method: 'POST', headers, agent: AGENTS[url.protocol as keyof typeof AGENTS] }, (res) => {
      const status = res.statusCode ?? 0;
      if (init.redirect === 'error' && status >= 300 && status < 400) {
        res.resume();
        reject(new TypeError('fetch failed', { cause: new Error('unexpected redirect') }));
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', (error) => reject(new TypeError('fetch failed', { cause: error })));
      res.on('end', () => {
        signal?.removeEventListener('abort', onAbort);
        const answer = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (typeof value === 'string') answer.set(name, value);
          else if (Array.isArray(value)) for (const v of value) answer.append(name, v);
        }
        // A status without a body (204, 304) takes no body in a Response.
        const payload = status === 204 || status === 304 ? null : Buffer.concat(chunks);
        resolve(new Response(payload, { status, statusText: res.statusMessage ?? '', headers: answer }));
      });
    });
    const onAbort = () => {
      req.destroy();
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (error) => {
      signal?.removeEventListener('abort', onAbort);
      reject(signal?.aborted ? signal.reason : new TypeError('fetch failed', { cause: error }));
    });
    req.end(body);
  });
}
