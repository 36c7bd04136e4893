/**
 * Starts Parley from its configuration: the database (embedded unless MONGODB_URI is set), the
 * models and plan catalog, mail, billing, the relay with its outbox, the Slack side, and the HTTP server.
 * Parts are built here once and passed to what uses them; nothing looks a collaborator up by itself.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type express from 'express';
import mongoose, { type Connection } from 'mongoose';
import { type Billing, createBilling, createStripeClient } from './billing';
import { type StripeSandboxTuning, startStripeSandbox } from './billing/sandbox';
import { forgetPlaintextApiKeys } from './commands/apiKeys';
import { AutoSendReplies } from './commands/autoSendReplies';
import { sweepExports } from './commands/gdprExport';
import { startRetention } from './commands/retention';
import { type Config, ConfigError, loadConfig } from './config';
import { type EmbeddedMongo, startEmbeddedMongo } from './embedded-mongo';
import type { FileSystem } from './embedded-mongo/storage';
import { createApp } from './http/app';
import { startDemoServer } from './http/demo';
import type { Logger } from './http/errorHandler';
import { createHealth } from './http/health';
import { createRateLimiters } from './http/rateLimits';
import { receiveContext, type SmtpReceiver, startSmtpReceiver } from './inbound';
import { createMailer, type Mailer } from './mail';
import { createModels, ensureIndexes, type Models } from './models';
import { seedPlans } from './models/Plan';
import { closeRedis, openRedis } from './redis';
import { createRelay, type Relay } from './relay';
import { type Assistant, moveQueuedThreadPosts, startAssistant } from './relay/assist';
import type { Clock } from './relay/context';
import { RELAY_JOB_HANDLERS } from './relay/jobs';
import { createPubSub } from './relay/pubsub';
import { SlackClients } from './relay/slackClients';
import { createReportRecorder } from './reports/recorder';
import type { SlackSandbox } from './sandbox/slack';
import type { StripeSandbox } from './sandbox/stripe';
import { HomeTabs, slackJobHandlers, startSlackSandbox } from './slack';

export type Parley = {
  /** Where users reach it (config.publicUrl, or the real address when the port was chosen by the system). */
  url: string;
  config: Config;
  app: express.Express;
  server: Server;
  connection: Connection;
  models: Models;
  mailer: Mailer;
  /** The Slack sandbox at /sandbox/slack, when running without Slack credentials. */
  slackSandbox?: SlackSandbox;
  /** The Stripe sandbox (API on its own port, pages at /sandbox/stripe), when running without STRIPE_SECRET_KEY. */
  stripeSandbox?: StripeSandbox;
  /** The demo site on another origin embedding the first configured widget (when config.demoPort is set). */
  demoUrl?: string;
  /** Parley's SMTP receiver for visitors' answers by mail, when running (its port: INBOUND_SMTP_PORT, or chosen by the system). */
  smtpReceiver?: SmtpReceiver;
  /** The visitor relay: WebSocket gateway at /ws, outbox worker, presence. */
  relay: Relay;
  /** Response reminders in threads (tests run its pass with a clock moved forward). */
  assistant: Assistant;
  /** Keeps the App Home tabs people opened up to date. */
  homeTabs: HomeTabs;
  /** Stripe billing (Stripe itself, or the Stripe sandbox through STRIPE_API_URL). */
  billing: Billing;
  close(): Promise<void>;
};

export type StartOptions = {
  /** Host to listen on; all interfaces by default. */
  host?: string;
  /** Database name; by default the one in MONGODB_URI, else 'parley'. */
  dbName?: string;
  logger?: Logger;
  consoleDir?: string;
  /** Timings of the in-process Stripe sandbox (tests shorten webhook retries). */
  stripeSandbox?: StripeSandboxTuning;
  /** What time it is for operating hours; tests pass a clock they control. */
  clock?: Clock;
  /** The embedded store's file system (tests pass one that fails like a full disk) and how often it retries writes. */
  embeddedStore?: { fs?: FileSystem; retryWritesMs?: number };
};

const dbNameInUri = (uri: string) => /^mongodb(?:\+srv)?:\/\/[^/]+\/([^?]+)/.exec(uri)?.[1];

export async function startParley(config: Config, options: StartOptions = {}): Promise<Parley> {
  const cleanups: (() => Promise<void> | void)[] = [];
  const close = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    cleanups.length = 0;
  };
  try {
    const embedded = config.mongodbUri ? undefined : await startEmbedded(config.dataDir, cleanups, options.embeddedStore);
    const uri: string = config.mongodbUri ?? (embedded as EmbeddedMongo).uri;
    const connection = await mongoose.createConnection(uri, { dbName: options.dbName ?? dbNameInUri(uri) ?? 'parley' }).asPromise();
    cleanups.push(() => connection.close());
    const models = createModels(connection);
    await ensureIndexes(models);
    await seedPlans(models.Plan);
    await forgetPlaintextApiKeys(models);
    await sweepExports({ models, dataDir: config.dataDir });
    await moveQueuedThreadPosts(connection, models);

    const server = createServer();
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    );
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, options.host, () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    // With a system-chosen port the configured public URL cannot be right; links must carry the real one.
    let effective: Config = config.port === 0 ? { ...config, port, publicUrl: `http://${options.host ?? '127.0.0.1'}:${port}` } : config;
    let slackSandbox: SlackSandbox | undefined;
    if (config.slack.sandbox) {
      ({ sandbox: slackSandbox, config: effective } = startSlackSandbox(effective));
      const started = slackSandbox;
      cleanups.push(() => started.close());
    }
    let stripeSandbox: StripeSandbox | undefined;
    if (config.stripe.sandbox) {
      ({ sandbox: stripeSandbox, config: effective } = await startStripeSandbox(effective, options.stripeSandbox));
      const started = stripeSandbox;
      cleanups.push(() => started.close());
    }

    const mailer = createMailer(effective.mail);
    cleanups.push(() => mailer.close());
    const logger = options.logger ?? console;
    const clock = options.clock;
    const reports = createReportRecorder({ models, logger, now: clock ? () => clock.now() : undefined });
    const billing = createBilling({ config: effective, models, stripe: createStripeClient(effective.stripe), logger });
    cleanups.push(() => billing.idle());
    // With REDIS_URL several processes share sockets' frames, signals and rate-limit counts through Redis.
    const redis = effective.redisUrl ? await openRedis(effective.redisUrl, logger) : undefined;
    if (redis) cleanups.push(() => closeRedis(redis));
    const limiters = createRateLimiters({ redis, logger });
    const pubsub = createPubSub({ redis, logger });
    const relay = createRelay({
      config: effective,
      models,
      mailer,
      logger,
      clock,
      reports,
      jobHandlers: { ...RELAY_JOB_HANDLERS, ...slackJobHandlers() },
      slack: new SlackClients(models, effective.slack.apiUrl),
      pubsub,
      limiters,
      // The widgets' automatic saved replies in memory; writes here tell the other processes over pubsub.
      autoReplies: new AutoSendReplies({ models, peers: pubsub }),
    });
    cleanups.push(() => relay.close());
    // Visitors' answers by mail: Parley's own SMTP receiver (on by default outside production, INBOUND_SMTP_PORT).
    const inboundPort = effective.mail.inbound.smtpPort;
    const smtpReceiver =
      inboundPort === null
        ? undefined
        : await startSmtpReceiver({
            config: { ...effective.mail.inbound, smtpPort: inboundPort },
            ctx: receiveContext(relay, effective),
            logger,
          });
    if (smtpReceiver) {
      const started = smtpReceiver;
      cleanups.push(() => started.close());
    }
    const homeTabs = new HomeTabs({ models, config: effective, relay });
    cleanups.push(() => homeTabs.stop());
    const health = createHealth({ connection, redis, databaseWriteProblem: embedded ? () => embedded.writeProblem() : undefined });
    const app = createApp({
      config: effective,
      models,
      mailer,
      logger: options.logger,
      consoleDir: options.consoleDir,
      slackSandbox,
      stripeSandbox,
      relay,
      homeTabs,
      billing,
      limiters,
      health,
      inboundSmtpPort: smtpReceiver?.port ?? null,
    });
    server.on('request', app);
    let demoUrl: string | undefined;
    if (effective.demoPort !== undefined) {
      const demo = await startDemoServer({ models, parleyUrl: effective.publicUrl, port: effective.demoPort, host: options.host });
      cleanups.push(() => demo.close());
      demoUrl = demo.url;
    }
    relay.start(server);
    const assistant = startAssistant(relay);
    cleanups.push(() => assistant.stop());
    // Data retention's daily pass (accounts that set retentionDays); every process runs it, each conversation counted once.
    const retention = startRetention({ models, logger });
    cleanups.push(() => retention.stop());
    // Run first on close: the load balancer stops sending visitors here (given the drain time to notice) while
    // this process still serves, then the rest closes.
    cleanups.push(async () => {
      health.stopping();
      if (effective.shutdownDrainMs > 0) await new Promise((resolve) => setTimeout(resolve, effective.shutdownDrainMs));
    });

    return {
      url: effective.publicUrl,
      config: effective,
      app,
      server,
      connection,
      models,
      mailer,
      slackSandbox,
      stripeSandbox,
      demoUrl,
      smtpReceiver,
      relay,
      assistant,
      homeTabs,
      billing,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

async function startEmbedded(
  dataDir: string,
  cleanups: (() => Promise<void> | void)[],
  store: StartOptions['embeddedStore'] = {},
): Promise<EmbeddedMongo> {
  const embedded = await startEmbeddedMongo({ port: 0, dbpath: path.join(dataDir, 'db'), ...store });
  cleanups.push(() => embedded.stop());
  return embedded;
}

/** Closes Parley cleanly on SIGINT or SIGTERM (once), then ends the process: 0 after a clean close, 1 otherwise. */
export function stopOnSignals(parley: Parley): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: shutting down…`);
    parley.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('Shutdown failed:', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const parley = await startParley(config);
  console.log(`Parley is running: ${parley.url}/app/`);
  if (!config.mongodbUri) console.log(`Database: embedded, in ${path.join(config.dataDir, 'db')}`);
  if (parley.slackSandbox) console.log(`Slack: sandbox (no SLACK_CLIENT_ID), operator page: ${parley.url}/sandbox/slack`);
  if (parley.stripeSandbox) console.log(`Stripe: sandbox (no STRIPE_SECRET_KEY), operator page: ${parley.url}/sandbox/stripe`);
  if (parley.demoUrl) console.log(`Demo site (another origin, embeds your first configured widget): ${parley.demoUrl}/`);
  if (parley.mailer.outbox) console.log(`Outbox (mails are not sent, read them here): ${parley.url}/dev/outbox`);
  if (parley.smtpReceiver) console.log(`SMTP receiver for visitors' answers by mail: port ${parley.smtpReceiver.port}`);

  stopOnSignals(parley);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error('Parley failed to start:', error);
    process.exit(1);
  });
}
