import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { LogLevel, WebClient } from '@slack/web-api';
import { expect } from 'chai';
import { keepAliveFetch } from '../../server/keepAliveFetch';
import { outcomeUnknown } from '../../server/slack/postOnce';

/** The relay's Slack clients post through keepAliveFetch: it must answer and fail as fetch does. */
describe('keepAliveFetch', () => {
  let server: http.Server;
  let base = '';
  const seen: { method: string; headers: http.IncomingHttpHeaders; body: string; socket: number }[] = [];
  const sockets = new WeakMap<object, number>();
  let nextSocket = 0;

  before(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (!sockets.has(req.socket)) sockets.set(req.socket, nextSocket++);
        seen.push({
          method: req.method ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString(),
          socket: sockets.get(req.socket) ?? -1,
        });
        if (req.url === '/hang-up') {
          req.socket.destroy();
          return;
        }
        if (req.url === '/slow') {
          setTimeout(() => res.end('late'), 2000);
          return;
        }
        if (req.url === '/redirect') {
          res.writeHead(302, { location: '/elsewhere' }).end();
          return;
        }
        res.writeHead(req.url?.startsWith('/limited') ? 429 : 200, { 'content-type': 'application/json', 'retry-after': '3' });
        res.end(JSON.stringify({ ok: true, echo: Buffer.concat(chunks).toString() }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('posts a form body and answers status, headers and body as a Response, reusing one connection', async () => {
    seen.length = 0;
    for (let i = 0; i < 3; i++) {
      const res = await keepAliveFetch(`${base}/api/chat.postMessage`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `channel=C1&text=line+${i}`,
      });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('application/json');
      expect(await res.json()).to.deep.equal({ ok: true, echo: `channel=C1&text=line+${i}` });
    }
    expect(seen.map((s) => s.headers['content-type'])).to.deep.equal(Array(3).fill('application/x-www-form-urlencoded'));
    expect(new Set(seen.map((s) => s.socket)).size).to.equal(1);
  });

  it('carries a 429 with its Retry-After to the Web API client, which refuses the call as rate limited', async () => {
    const client = new WebClient('xoxb-test', {
      slackApiUrl: `${base}/limited/`,
      logLevel: LogLevel.ERROR,
      rejectRateLimitedCalls: true,
      retryConfig: { retries: 0 },
      fetch: keepAliveFetch,
    });
    const failure = await client.chat.postMessage({ channel: 'C1', text: 'hi' }).catch((e: unknown) => e);
    expect((failure as { code?: string }).code).to.equal('slack_webapi_rate_limited_error');
    expect((failure as { retryAfter?: number }).retryAfter).to.equal(3);
    const res = await keepAliveFetch(`${base}/limited`, { method: 'POST', body: 'a=1' });
    expect(res.status).to.equal(429);
    expect(res.headers.get('retry-after')).to.equal('3');
  });

  it('fails as fetch does: refused connections never sent, hang-ups may have been sent, timeouts reject with the reason', async () => {
    const refused = await keepAliveFetch('http://127.0.0.1:1/x', { method: 'POST', body: 'a=1' }).catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(TypeError);
    expect((refused as { cause?: { code?: string } }).cause?.code).to.equal('ECONNREFUSED');
    expect(outcomeUnknown({ code: 'slack_webapi_request_error', original: refused })).to.equal(false);

    const hungUp = await keepAliveFetch(`${base}/hang-up`, { method: 'POST', body: 'a=1' }).catch((e: unknown) => e);
    expect(hungUp).to.be.instanceOf(TypeError);
    expect(outcomeUnknown({ code: 'slack_webapi_request_error', original: hungUp })).to.equal(true);

    const timedOut = await keepAliveFetch(`${base}/slow`, { method: 'POST', body: 'a=1', signal: AbortSignal.timeout(100) }).catch(
      (e: unknown) => e,
    );
    expect((timedOut as Error).name).to.equal('TimeoutError');

    const redirected = await keepAliveFetch(`${base}/redirect`, { method: 'POST', body: 'a=1', redirect: 'error' }).catch(
      (e: unknown) => e,
    );
    expect(redirected).to.be.instanceOf(TypeError);
  });

  it('leaves anything but a string POST (a file upload) to the global fetch', async () => {
    seen.length = 0;
    const form = new FormData();
    form.set('file', new Blob(['hello']), 'a.txt');
    const res = await keepAliveFetch(`${base}/upload`, { method: 'POST', body: form });
    expect(res.status).to.equal(200);
    expect(String(seen[0].headers['content-type'])).to.match(/^multipart\/form-data; boundary=/);
  });
});
