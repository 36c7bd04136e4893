/**
 * A whole Parley server for a test: real HTTP on 127.0.0.1 (port chosen by the system), its own
 * database on the test MongoDB, its own data folder (secrets, outbox) in a temporary directory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type express from 'express';
import type { Connection } from 'mongoose';
import { loadConfig, type Config } from '../../server/config';
import { startParley, type Parley } from '../../server/main';
import type { Models } from '../../server/models';
import type { SentMail } from '../../server/mail';
import type { SlackSandbox } from '../../server/sandbox/slack';
import { testMongoUri, uniqueDbName } from './mongo';

export type { SentMail } from '../../server/mail';

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
  /** Everything startParley started, for tests of parts added later. */
  parley: Parley;
  close(): Promise<void>;
};

/** Limits high enough that suites sending many requests from one address are not throttled. */
const GENEROUS_LIMITS: Config['rateLimits'] = {
  windowMs: 60_000,
  loginPerIp: 10_000,
  loginPerEmail: 10_000,
  signUpPerIp: 10_000,
  signUpPerEmail: 10_000,
  resetEmailPerIp: 10_000,
  resetEmailPerEmail: 10_000,
};

export async function startTestServer(overrides: Partial<Config> = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'parley-test-data-'));
  const base = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir });
  const config: Config = {
    ...base,
    rateLimits: GENEROUS_LIMITS,
    ...overrides,
    port: 0,
    mongodbUri: await testMongoUri(),
    // Outbox rather than SMTP unless a test asks otherwise.
    mail: { ...base.mail, ...overrides.mail },
  };
  const parley = await startParley(config, { host: '127.0.0.1', dbName: uniqueDbName('api'), logger: console });
  const outbox = parley.mailer.outbox;
  const slack = parley.slackSandbox;
  if (!slack) throw new Error('test servers run without Slack credentials, so with the Slack sandbox');
  return {
    url: parley.url,
    app: parley.app,
    config: parley.config,
    models: parley.models,
    connection: parley.connection,
    parley,
    outbox: {
      list: async () => (outbox ? outbox.list() : []),
      latestTo: async (email) => (outbox ? outbox.latestTo(email) : undefined),
    },
    slack,
    async close() {
      await parley.connection.dropDatabase();
      await parley.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
