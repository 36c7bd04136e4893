/**
 * Every route of the app, as the Express router lists it (so a route added later is covered without editing
 * this spec), gets malformed input: path parameters with a broken percent-encoding and ids that are not ids,
 * unparsable, oversized and deeply nested bodies, bodies of the wrong content type, a malformed query. None
 * may answer 5xx: bad input is the client's fault and answers 4xx (or is ignored).
 */
import { expect } from 'chai';
import type express from 'express';
import request from 'supertest';
import { asCodedError, requestError } from '../../server/errors';
import { createUserInDb } from '../factories';
import { useServer } from '../helpers/app';

type Layer = {
  rawPath?: unknown;
  route?: { path: unknown; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
};
type Route = { method: string; path: string };

/** The routes of an Express 5 app: its router's stack, and every router mounted in it, recursively. */
export function routesOf(app: express.Express): Route[] {
  const routes: Route[] = [];
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      const at = (path: unknown) => (typeof path === 'string' ? path : '');
      if (layer.route) {
        const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
        for (const path of paths) {
          for (const method of Object.keys(layer.route.methods)) {
            routes.push({ method: method === '_all' ? 'post' : method, path: `${prefix}${at(path)}` });
          }
        }
      } else if (Array.isArray(layer.handle?.stack)) {
        const mount = at(layer.rawPath);
        walk(layer.handle.stack, `${prefix}${mount === '/' ? '' : mount}`);
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack, '');
  return routes;
}

/** Express 5 path syntax (`:id`, `*rest`, `{/:optional}`) with every parameter replaced by `value`. */
function fill(path: string, value: string): string {
  return path
    .replace(/[{}]/g, '')
    .replace(/:[A-Za-z0-9_]+/g, value)
    .replace(/\*[A-Za-z0-9_]+/g, `${value}/${value}`);
}

const BAD_PARAMS = ['%E0%A4%A', '%', 'not-an-id', '000000000000000000000000', '..%2F..%2Fetc', 'x'.repeat(2000)];
const NESTED = `${'['.repeat(5000)}${']'.repeat(5000)}`;
const BODIES: { label: string; type: string; body: string }[] = [
  { label: 'malformed JSON', type: 'application/json', body: '{"a":' },
  { label: 'JSON of the wrong type', type: 'application/json', body: '[null, 1, "x"]' },
  { label: 'deeply nested JSON', type: 'application/json', body: NESTED },
  { label: 'an oversized JSON body', type: 'application/json', body: JSON.stringify({ a: 'x'.repeat(1_200_000) }) },
  { label: 'JSON in an unknown charset', type: 'application/json; charset=klingon', body: '{}' },
  { label: 'a form body', type: 'application/x-www-form-urlencoded', body: 'a[b][c]=1&__proto__[x]=1' },
  { label: 'text', type: 'text/plain', body: '\u0000\uFFFF' },
];

describe('malformed input to every route of the app (listed from the router)', function () {
  // Hundreds of requests on a loaded machine.
  this.timeout(600_000);
  const server = useServer();
  let token = '';
  let routes: Route[] = [];
  before(async () => {
    ({ token } = await createUserInDb(server));
    // The sandboxes are stand-ins for Slack and Stripe in development and tests, never mounted in a deployment.
    routes = routesOf(server.app).filter((r) => !r.path.startsWith('/sandbox/'));
  });

  it('finds the routes of every router, nested ones included', () => {
    const listed = new Set(routes.map((r) => `${r.method.toUpperCase()} ${r.path}`));
    expect(listed.size).to.be.greaterThan(100);
    for (const known of ['PUT /v1/chat_endpoints/:id/update_config', 'POST /slack/events', 'GET /v1/users/current']) {
      expect(listed, known).to.include(known);
    }
  });

  it('answers 4xx (never 5xx) to bad path parameters, bodies and queries, with and without a session', async () => {
    const failures: string[] = [];
    const check = async (label: string, send: () => request.Test) => {
      const res = await send();
      // The console and widget answer 503 until `npm run build` made them (npm test builds first): no request's fault.
      if (res.status === 503 && /not built yet/.test(res.text)) return;
      if (res.status >= 500) failures.push(`${label} → ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
    };
    for (const { method, path } of routes) {
      const verb = method as 'get' | 'post' | 'put' | 'delete' | 'patch';
      if (typeof request(server.url)[verb] !== 'function') continue;
      const call = (url: string, auth: boolean) => {
        const req = request(server.url)[verb](url);
        return auth ? req.set('Authorization', `Bearer ${token}`) : req;
      };
      const hasParams = /[:*]/.test(path);
      for (const bad of hasParams ? BAD_PARAMS : ['']) {
        const url = fill(path, bad);
        for (const auth of [true, false]) await check(`${method.toUpperCase()} ${url.slice(0, 120)} auth=${auth}`, () => call(url, auth));
      }
      const url = fill(path, 'not-an-id');
      await check(`${method.toUpperCase()} ${url} ?malformed query`, () =>
        call(`${url}?a[b]=1&a=2&%E0%A4%A=%&limit=-1&skip=NaN&__proto__[x]=1`, true),
      );
      if (method === 'get' || method === 'head') continue;
      for (const { label, type, body } of BODIES) {
        await check(`${method.toUpperCase()} ${url} with ${label}`, () => call(url, true).set('Content-Type', type).send(body));
      }
    }
    expect(failures, failures.join('\n')).to.deep.equal([]);
  });
});

describe('asCodedError: what Express and its parsers raise for an unreadable request', () => {
  const httpError = (status: number, type?: string) =>
    Object.assign(new Error('parser said'), { status, statusCode: status, expose: true, type });

  it('is a 400 for every body-parser failure, a malformed path parameter and an oversized body, never a reportable 500', () => {
    for (const error of [
      httpError(400, 'entity.parse.failed'),
      httpError(413, 'entity.too.large'),
      httpError(415, 'charset.unsupported'),
      httpError(415, 'encoding.unsupported'),
      httpError(400, 'request.aborted'),
      httpError(400, 'request.size.invalid'),
      Object.assign(new URIError("Failed to decode param '%E0%A4%A'"), { status: 400 }),
    ]) {
      const coded = asCodedError(error);
      expect(coded.status, String(error.message)).to.equal(400);
      expect(coded.code).to.equal('bad_request');
      expect(coded.isReportable).to.equal(false);
    }
    expect(asCodedError(httpError(400, 'entity.parse.failed')).message).to.equal('The request body is not valid JSON');
    expect(asCodedError(httpError(413, 'entity.too.large')).message).to.equal('The request body is too large');
  });

  it('keeps the status and message of another client error Express raises, and a 500 for a server-side one', () => {
    expect(requestError(httpError(405))).to.deep.equal({ status: 405, message: 'parser said' });
    // A stream error of the parser (http-errors 500) is Parley's fault, not the client's.
    const serverSide = asCodedError(Object.assign(new Error('stream.not.readable'), { status: 500, type: 'stream.not.readable' }));
    expect(serverSide.status).to.equal(500);
    expect(serverSide.isReportable).to.equal(true);
    expect(asCodedError(new TypeError('x is null')).status).to.equal(500);
  });
});
