/**
 * A whole Parley server for a test: real HTTP on 127.0.0.1 (port chosen by the system), its own
 * database on the test MongoDB, its own data folder (secrets, outbox) in a temporary directory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type express from 'express';
import type { Connection } from 'mongoose';
import type { DestinationStream } from 'pino';
import { type Config, loadConfig } from '../../server/config';
import type { SentMail } from '../../server/mail';
import { type Parley, type StartOptions, startParley } from '../../server/main';
import type { Models } from '../../server/models';
import type { Clock } from '../../server/relay/context';
import type { SlackSandbox } from '../../server/sandbox/slack';
import type { StripeSandbox } from '../../server/sandbox/stripe';
import { testMongoUri, uniqueDbName } from './mongo';
import { FAST_RELAY, GENEROUS_LIMITS, TEST_PASSWORD_HASHING } from './testConfig';

export type { SentMail } from '../../server/mail';
export { FAST_RELAY, TEST_PASSWORD_HASHING } from './testConfig';

/** Settings a test changes; the mail settings (and their inbound part) field by field. */
export type ConfigOverrides = Partial<Omit<Config, 'mail'>> & {
  mail?: Partial<Omit<Config['mail'], 'inbound'>> & { inbound?: Partial<Config['mail']['inbound']> };
};

export type TestServer = {
  /** e.g. http://127.0.0.1:41234, no trailing slash */
  url: string;
  app: express.Express;
  config: Config;
  models: Models;
  connection: Connection;
  outbox: { list(): Promise<SentMail[]>; latestTo(email: string): Promise<SentMail | undefined> };
  /** The Slack sandbox Parley talks to (mounted at /sandbox/slack), to drive Slack from tests. */
  slack: SlackSandbox;
  /** The Stripe sandbox Parley's stripe client talks to (pages at /sandbox/stripe): drive its clock, inspect events and deliveries. */
  stripe: StripeSandbox;
  /** Everything startParley started, for tests of parts added later. */
  parley: Parley;
  /** The demo site, another origin, embedding a widget: `${demoUrl}/?widget=<uuid>`. */
  demoUrl: string;
  /** Where this server keeps its data, so a restart (`startTestServer({}, { restartOf })`) finds it again. */
  dataDir: string;
  dbName: string;
  /** `keepData`: stop the server but keep its database and data folder for a restart. */
  close(options?: { keepData?: boolean }): Promise<void>;
};

/** A stopped server to start again on the same ports, database and data folder (a restart). */
export type RestartOf = Pick<TestServer, 'url' | 'demoUrl' | 'dataDir' | 'dbName'>;

/**
 * `clock`: what time it is for operating hours, so a test can move it. `slackRateLimits`: the Slack sandbox
 * enforces Slack's rate-limit tiers by default, as `npm start` does, so Parley is always exercised against them;
 * `false` lifts them for a test that is about something else and would need minutes of real Slack pacing (say why).
 * `monitorCommands`: the server's database client reports each command it sends (`connection.getClient()`'s
 * 'commandStarted' events), for tests that count database round trips.
 */
export async function startTestServer(
  overrides: ConfigOverrides = {},
  options: {
    restartOf?: RestartOf;
    clock?: Clock;
    slackRateLimits?: boolean;
    monitorCommands?: boolean;
    /** Run on an embedded store of its own in the data folder (as `npm start` does), with these storage options. */
    embeddedStore?: StartOptions['embeddedStore'];
    /** Where Parley's logger writes (it is built as in production, from config.logLevel); standard output by default. */
    logDestination?: DestinationStream;
  } = {},
): Promise<TestServer> {
  const previous = options.restartOf;
  const dataDir = previous?.dataDir ?? mkdtempSync(path.join(tmpdir(), 'parley-test-data-'));
  const dbName = previous?.dbName ?? uniqueDbName('api');
  const portOf = (url: string | undefined) => (url ? Number(new URL(url).port) : 0);
  const base = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir });
  const config: Config = {
    ...base,
    rateLimits: GENEROUS_LIMITS,
    passwordHashing: TEST_PASSWORD_HASHING,
    demoPort: 0,
    ...overrides,
    ...(previous ? { publicUrl: previous.url, demoPort: portOf(previous.demoUrl) } : {}),
    port: portOf(previous?.url),
    mongodbUri: options.embeddedStore
      ? undefined
      : options.monitorCommands
        ? withOption(await testMongoUri(), 'monitorCommands=true')
        : await testMongoUri(),
    // Outbox rather than SMTP unless a test asks otherwise.
    mail: { ...base.mail, ...overrides.mail, inbound: { ...base.mail.inbound, ...overrides.mail?.inbound } },
  };
  // Webhook retries within seconds, not Stripe's hours, so settled() does not wait on an endpoint that refuses.
  const parley = await startParley(config, {
    host: '127.0.0.1',
    dbName,
    logDestination: options.logDestination,
    stripeSandbox: { retryDelaysMs: [100, 500, 2000] },
    clock: options.clock,
    embeddedStore: options.embeddedStore,
  });
  const outbox = parley.mailer.outbox;
  const slack = parley.slackSandbox;
  if (!slack) throw new Error('test servers run without Slack credentials, so with the Slack sandbox');
  if (options.slackRateLimits === false) slack.setRateLimits('off');
  const stripe = parley.stripeSandbox;
  if (!stripe) throw new Error('test servers run without STRIPE_SECRET_KEY, so with the Stripe sandbox');
  return {
    url: parley.url,
    app: parley.app,
    config: parley.config,
    models: parley.models,
    connection: parley.connection,
    parley,
    demoUrl: parley.demoUrl ?? '',
    dataDir,
    dbName,
    outbox: {
      list: async () => (outbox ? outbox.list() : []),
      latestTo: async (email) => (outbox ? outbox.latestTo(email) : undefined),
    },
    slack,
    stripe,
    async close(closeOptions = {}) {
      // Stripe calls and webhooks still on their way would land in a database being dropped.
      await parley.billing.idle();
      await stripe.settled();
      if (closeOptions.keepData) {
        await parley.close();
        return;
      }
      await parley.connection.dropDatabase();
      await parley.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function withOption(uri: string, option: string): string {
  return `${uri}${uri.includes('?') ? '&' : '?'}${option}`;
}

/** A test server with the relay's short timings (FAST_RELAY) under `overrides`. */
export function startRelayServer(overrides: ConfigOverrides = {}): Promise<TestServer> {
  return startTestServer({ ...overrides, relay: { ...FAST_RELAY, ...overrides.relay } });
}

/**
 * One server for the enclosing `describe`: started before its first test; after its last, the Slack sandbox's
 * pending retries are dropped, every delivery in flight is awaited, and the server is closed. The handle reads
 * through to the running server, so tests use it as the server itself (`server.url`, `server.models`).
 * `scope: 'test'` gives every test a server of its own instead, for suites whose tests each need a fresh Slack
 * workspace (the sandbox has one).
 */
export function useServer(
  overrides: ConfigOverrides = {},
  start: (overrides: ConfigOverrides) => Promise<TestServer> = startTestServer,
  scope: 'suite' | 'test' = 'suite',
): TestServer {
  let current: TestServer | undefined;
  (scope === 'suite' ? before : beforeEach)(async () => {
    current = await start(overrides);
  });
  (scope === 'suite' ? after : afterEach)(async () => {
    const server = current;
    current = undefined;
    if (!server) return;
    await server.slack.close();
    await server.slack.settled();
    await server.close();
  });
  return new Proxy({} as TestServer, {
    get(_target, key) {
      if (!current) throw new Error(`the test server is used (${String(key)}) outside the tests of its describe block`);
      return Reflect.get(current, key) as unknown;
    },
  });
}

/** useServer with the relay's short timings (FAST_RELAY). */
export function useRelayServer(overrides: ConfigOverrides = {}): TestServer {
  return useServer(overrides, startRelayServer);
}
