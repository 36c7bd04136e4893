/**
 * Test fixtures for the Slack sandbox: the sandbox mounted on a real loopback server (as Parley mounts it), and
 * a stand-in for the Slack app's endpoints that records what the sandbox sends and answers as told.
 */

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Logger, LogLevel, WebClient } from '@slack/web-api';
import express from 'express';
import { createSlackSandbox, type SlackSandbox, type SlackSandboxOptions } from '../../../server/sandbox/slack';

export const SIGNING_SECRET = 'test-signing-secret-0123456789';
export const CLIENT_ID = '1111.2222';
export const CLIENT_SECRET = 'test-client-secret';
export const ACME = 'T0ACME0001';
export const ALICE = 'U0ALICE001';
export const BOB = 'U0BOB00001';
export const CAROL = 'U0CAROL001';
export const GENERAL = 'C0GENERAL1';
export const RANDOM = 'C0RANDOM01';
export const SUPPORT = 'C0SUPPORT1';

export const ALL_BOT_SCOPES = [
  'channels:history',
  'channels:join',
  'channels:manage',
  'channels:read',
  'chat:write',
  'chat:write.customize',
  'commands',
  'files:read',
  'files:write',
  'reactions:write',
  'team:read',
  'users:read',
  'users:read.email',
];

export interface ReceivedRequest {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

type Responder = (
  req: ReceivedRequest,
) =>
  | Promise<{ status?: number; body?: unknown; headers?: Record<string, string>; delayMs?: number }>
  | { status?: number; body?: unknown; headers?: Record<string, string>; delayMs?: number };

export interface AppStandIn {
  url: string;
  received: ReceivedRequest[];
  /** How to answer the next requests (default: 200 with an empty body). */
  respond(fn: Responder): void;
  /** Resolves when `n` requests have arrived. */
  waitFor(n: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

async function listen(app: express.Express): Promise<{ server: Server; url: string }> {
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, url: `http://127.0.0.1:${port}` });
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

/** A recording stand-in for the app's Events/interactivity/commands URLs. */
export async function startAppStandIn(): Promise<AppStandIn> {
  const received: ReceivedRequest[] = [];
  let responder: Responder = () => ({ status: 200 });
  const waiters: Array<{ n: number; resolve: (r: ReceivedRequest[]) => void }> = [];
  const app = express();
  app.use(express.text({ type: () => true, limit: '5mb' }));
  app.post(/.*/, async (req, res) => {
    const r: ReceivedRequest = { path: req.path, headers: req.headers, body: typeof req.body === 'string' ? req.body : '' };
    received.push(r);
    for (const w of [...waiters]) {
      if (received.length >= w.n) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(received.slice());
      }
    }
    const answer = await responder(r);
    if (answer.delayMs) await new Promise((ok) => setTimeout(ok, answer.delayMs));
    for (const [k, v] of Object.entries(answer.headers ?? {})) res.setHeader(k, v);
    res.status(answer.status ?? 200);
    if (answer.body === undefined) res.end();
    else if (typeof answer.body === 'string') res.type('text/plain').send(answer.body);
    else res.json(answer.body);
  });
  const { server, url } = await listen(app);
  return {
    url,
    received,
    respond(fn) {
      responder = fn;
    },
    waitFor(n) {
      if (received.length >= n) return Promise.resolve(received.slice());
      return new Promise((resolve) => waiters.push({ n, resolve }));
    },
    close: () => closeServer(server),
  };
}

export interface SandboxFixture {
  sandbox: SlackSandbox;
  /** Origin of the loopback server the sandbox is mounted on. */
  origin: string;
  baseUrl: string;
  app: AppStandIn;
  close(): Promise<void>;
}

/** Starts the sandbox under /sandbox/slack on a loopback server, pointed at a fresh app stand-in. */
export async function startSandbox(
  overrides: Omit<Partial<SlackSandboxOptions>, 'app'> & { app?: Partial<SlackSandboxOptions['app']> } = {},
): Promise<SandboxFixture> {
  const appStandIn = await startAppStandIn();
  const host = express();
  let router: express.Router | null = null;
  host.use('/sandbox/slack', (req, res, next) => (router ? router(req, res, next) : next()));
  const { server, url } = await listen(host);
  const baseUrl = `${url}/sandbox/slack`;
  const sandbox = createSlackSandbox({
    baseUrl,
    retryDelaysMs: [20, 20, 20],
    ackTimeoutMs: 1500,
    ...overrides,
    app: {
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      signingSecret: SIGNING_SECRET,
      eventsUrl: `${appStandIn.url}/slack/events`,
      interactivityUrl: `${appStandIn.url}/slack/events`,
      commandsUrl: `${appStandIn.url}/slack/events`,
      ...overrides.app,
    },
  });
  router = sandbox.router;
  return {
    sandbox,
    origin: url,
    baseUrl,
    app: appStandIn,
    async close() {
      await sandbox.close();
      await closeServer(server);
      await appStandIn.close();
    },
  };
}

/** For the tests' own WebClients: a test asserts the errors it expects, so the client's log stays quiet. */
export const quietLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  setLevel: () => undefined,
  getLevel: () => LogLevel.ERROR,
  setName: () => undefined,
};

/** Installs the app in Acme as Alice and returns a WebClient on the bot token (no retries: errors surface at once). */
export function installBot(f: SandboxFixture, botScopes: string[] = ALL_BOT_SCOPES, userScopes: string[] = []) {
  const inst = f.sandbox.install({ teamId: ACME, userId: ALICE, botScopes, userScopes });
  const client = new WebClient(inst.botToken, { slackApiUrl: f.sandbox.apiUrl, retryConfig: { retries: 0 }, logger: quietLogger });
  return { inst, client };
}

/** A WebClient for `token` pointed at the sandbox, without retries. */
export function clientFor(f: SandboxFixture, token?: string): WebClient {
  return new WebClient(token, { slackApiUrl: f.sandbox.apiUrl, retryConfig: { retries: 0 }, logger: quietLogger });
}

/** Parses a form-encoded interactivity body into its payload object. */
export function interactivityPayload(body: string): Record<string, unknown> {
  return JSON.parse(new URLSearchParams(body).get('payload') ?? '{}') as Record<string, unknown>;
}

/** Waits until `check` returns a value (the test's own timeout bounds the wait). */
export async function until<T>(check: () => T | undefined | null | false): Promise<T> {
  for (;;) {
    const v = check();
    if (v) return v;
    await new Promise((ok) => setTimeout(ok, 20));
  }
}
