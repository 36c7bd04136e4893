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
import type { DestinationStream } from 'pino';
import { createSegmentTracker, type SegmentTracker } from './analytics/segment';
import { PastAnswers } from './answers/pastAnswers';
import { type ArticleSearch, createArticleSearch } from './answers/search';
import { createApp } from './app';
import { openScheduledBackups } from './backup/schedule';
import { type Billing, createBilling, createStripeClient } from './billing';
import { type StripeSandboxTuning, startStripeSandbox } from './billing/sandbox';
import { forgetPlaintextApiKeys } from './commands/apiKeys';
import { AutoSendReplies } from './commands/autoSendReplies';
import { sweepExports } from './commands/gdprExport';
import { type Config, ConfigError, loadConfig } from './config';
import { type EmbeddedMongo, startEmbeddedMongo } from './embedded-mongo';
import type { FileSystem } from './embedded-mongo/storage';
import { startDemoServer } from './http/demo';
import { createHealth } from './http/health';
import { receiveContext, type SmtpReceiver, startSmtpReceiver } from './inbound';
import { keepAliveFetch } from './keepAliveFetch';
import { createLogger, type Logger } from './logger';
import { createMailer, type Mailer } from './mail';
import { warmMailLayouts } from './mail/layout';
import { createMetrics, type Metrics } from './metrics';
import { createModels, ensureIndexes, type Models } from './models';
import { runMigrations } from './models/migrations';
import { seedPlans } from './models/Plan';
import { claimTaskRun } from './models/TaskLease';
import { redisSlackPace } from './outbox/slackPace';
import { createRateLimiters } from './rateLimits';
import { closeRedis, openRedis } from './redis';
import { createRelay, type Relay } from './relay';
import type { Clock } from './relay/context';
import { RELAY_JOB_HANDLERS } from './relay/jobs';
import { createPubSub } from './relay/pubsub';
import { relayTuning } from './relay/tuning';
import { createReportRecorder } from './reports/recorder';
import type { SlackSandbox } from './sandbox/slack';
import type { StripeSandbox } from './sandbox/stripe';
import { createScheduler } from './scheduler';
import { HomeTabs, slackJobHandlers, startSlackSandbox } from './slack';
import { SlackAuthors } from './slack/authors';
import { SlackChannelActivity } from './slack/channelActivity';
import { slackJobErrors } from './slack/jobErrors';
import { SlackClients } from './slack/slackClients';
import { countingSlackFetch } from './slackApiFetch';
import { parleyTasks } from './tasks';

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
  /** Bot clients of the installed workspaces, for Parley's background Slack calls. */
  slack: SlackClients;
  /** Keeps the App Home tabs people opened up to date. */
  homeTabs: HomeTabs;
  /** The help center's search. */
  articleSearch: ArticleSearch;
  pastAnswers: PastAnswers;
  /** Stripe billing (Stripe itself, or the Stripe sandbox through STRIPE_API_URL). */
  billing: Billing;
  /** Where everything logs (JSON lines on standard output unless a test passed its own). */
  logger: Logger;
  /** This Parley's Prometheus registry and metrics (GET /metrics with METRICS_TOKEN). */
  metrics: Metrics;
  /** Segment clients, one per widget write key. */
  analytics: SegmentTracker;
  close(): Promise<void>;
};

export type StartOptions = {
  /** Host to listen on; all interfaces by default. */
  host?: string;
  /** Database name; by default the one in MONGODB_URI, else 'parley'. */
  dbName?: string;
  /** Where Parley logs; by default JSON lines at config.logLevel, secrets blanked, to `logDestination`. */
  logger?: Logger;
  /** Where the default logger writes; standard output by default (tests read a run's whole log). */
  logDestination?: DestinationStream;
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
  const logger =
    options.logger ?? createLogger({ level: config.logLevel, secrets: configuredSecrets(config), destination: options.logDestination });
  // A registry of this Parley's own, not prom-client's global one: several Parleys in one process keep theirs apart.
  const metrics = createMetrics({ processMetrics: config.metricsToken !== undefined });
  try {
    const embedded = config.mongodbUri ? undefined : await startEmbedded(config.dataDir, cleanups, logger, options.embeddedStore);
    const uri: string = config.mongodbUri ?? (embedded as EmbeddedMongo).uri;
    const connection = await mongoose.createConnection(uri, { dbName: options.dbName ?? dbNameInUri(uri) ?? 'parley' }).asPromise();
    const link = logDatabaseLink(connection, logger);
    cleanups.push(() => {
      link.closing();
      return connection.close();
    });
    const models = createModels(connection);
    await ensureIndexes(models);
    await seedPlans(models.Plan);
    await forgetPlaintextApiKeys(models);
    await sweepExports({ models, dataDir: config.dataDir });
    await runMigrations(connection, models);

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

    const mailer = createMailer(effective.mail, metrics.emailsSent);
    cleanups.push(() => mailer.close());
    // The mail layout is compiled once, at start (in the background), not when the first visitor's mail waits for it;
    // tests compile it on their first mail instead of at every server they start.
    if (config.env !== 'test')
      void warmMailLayouts().catch((error: unknown) => logger.error({ err: error }, 'mail layout did not compile'));
    const clock = options.clock;
    const reports = createReportRecorder({ models, logger, now: clock ? () => clock.now() : undefined });
    const billing = createBilling({ config: effective, models, stripe: createStripeClient(effective.stripe), logger, mailer });
    cleanups.push(() => billing.idle());
    // With REDIS_URL several processes share sockets' frames, signals and rate-limit counts through Redis.
    const redis = effective.redisUrl ? await openRedis(effective.redisUrl, logger) : undefined;
    if (redis) cleanups.push(() => closeRedis(redis));
    const limiters = createRateLimiters({ redis, logger });
    const pubsub = createPubSub({ redis, logger });
    // One Segment client per widget write key; flushed after the relay stopped (cleanups run last first).
    const analytics = createSegmentTracker({ host: effective.segment?.host, flushIntervalMs: effective.segment?.flushIntervalMs, logger });
    cleanups.push(() => analytics.close());
    // Every Slack Web API call goes over keep-alive connections and is counted.
    const slack = new SlackClients(models, effective.slack.apiUrl, countingSlackFetch(keepAliveFetch, metrics.slackApiCalls));
    // The help center's search, one per process (its index is kept in memory).
    const articleSearch = createArticleSearch({ models, baseUrl: effective.publicUrl });
    // Operators' past answers, suggested in new conversations' threads (per-widget indexes kept in memory).
    const pastAnswers = new PastAnswers({ models });
    // App Home's tabs are made from the relay below; the header updates the relay runs tell them (late bound).
    let homeTabs: HomeTabs | undefined;
    const relay = createRelay({
      config: effective,
      models,
      mailer,
      logger,
      metrics,
      clock,
      reports,
      jobHandlers: {
        ...RELAY_JOB_HANDLERS,
        ...slackJobHandlers(slack, { articleSearch, pastAnswers }, (teamId) => homeTabs?.teamChanged(teamId)),
      },
      classifyJobError: slackJobErrors,
      channelActivity: new SlackChannelActivity(slack, relayTuning(effective).presenceTtlMs),
      teamChanged: (teamId) => slack.forget(teamId),
      pubsub,
      limiters,
      // With several processes, one Slack budget per channel for all of them.
      slackPace: redis ? redisSlackPace(redis, logger) : undefined,
      // Without Redis, Parley is one process (docs/self-hosting.md): its outbox knows every job it has to order.
      singleProcess: !redis,
      // The widgets' automatic saved replies in memory; writes here tell the other processes over pubsub.
      autoReplies: new AutoSendReplies({ models, peers: pubsub }),
      analytics,
      articleSearch,
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
    const tabs = new HomeTabs({ models, config: effective, relay, slack });
    homeTabs = tabs;
    cleanups.push(() => tabs.stop());
    const backups = effective.backup
      ? await openScheduledBackups({ uri, dbName: connection.name, settings: effective.backup, logger })
      : undefined;
    // Timed work, one list (server/tasks.ts): started with the relay; on close it starts no more runs and waits for
    // those in progress (after the backups stopped, which abandons a dump in progress) before the relay closes.
    const scheduler = createScheduler({
      tasks: parleyTasks({ config: effective, models, relay, backups }),
      metrics,
      logger,
      leases: (task, at, nextAt) => claimTaskRun(models.TaskLease, task, at, nextAt),
    });
    cleanups.push(() => scheduler.stop());
    if (backups) cleanups.push(() => backups.stop());
    const health = createHealth({
      connection,
      redis,
      backups,
      databaseWriteProblem: embedded ? () => embedded.writeProblem() : undefined,
      overdueTasks: () => scheduler.overdue(),
    });
    const app = createApp({
      config: effective,
      models,
      mailer,
      logger,
      metrics,
      consoleDir: options.consoleDir,
      slackSandbox,
      stripeSandbox,
      relay,
      slack,
      slackAuthors: new SlackAuthors(slack, logger),
      homeTabs: tabs,
      billing,
      articleSearch,
      pastAnswers,
      limiters,
      health,
      segment: analytics,
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
    scheduler.start();
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
      slack,
      homeTabs: tabs,
      articleSearch,
      pastAnswers,
      billing,
      logger,
      metrics,
      analytics,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * The database link's losses and returns in the log. The driver marks the server unknown when a heartbeat or an
 * operation fails; until it answers again, each operation waits for it up to the driver's server selection timeout
 * (30 s, or the URI's `serverSelectionTimeoutMS`) and then fails, which the API answers 503 `storage_unavailable`.
 * Without these lines an outage shows only as those failures. Not logged as Parley closes.
 */
function logDatabaseLink(connection: Connection, logger: Logger): { closing(): void } {
  let closing = false;
  const waitSeconds = Math.round((connection.getClient().options.serverSelectionTimeoutMS ?? 30_000) / 100) / 10;
  connection.on('disconnected', () => {
    if (!closing) logger.error(`database connection lost: each operation waits up to ${waitSeconds} s for it, then fails`);
  });
  connection.on('reconnected', () => {
    if (!closing) logger.info('database connection back');
  });
  return {
    closing() {
      closing = true;
    },
  };
}

async function startEmbedded(
  dataDir: string,
  cleanups: (() => Promise<void> | void)[],
  logger: Logger,
  store: StartOptions['embeddedStore'] = {},
): Promise<EmbeddedMongo> {
  const log = logger.child({ module: 'embedded-mongo' });
  const embedded = await startEmbeddedMongo({ port: 0, dbpath: path.join(dataDir, 'db'), log: (msg) => log.warn(msg), ...store });
  cleanups.push(() => embedded.stop());
  return embedded;
}

/** The deployment's own secrets, blanked in every log line whatever they look like. */
export function configuredSecrets(config: Config): string[] {
  return [
    config.jwtSecret,
    config.slack.clientSecret,
    config.slack.signingSecret,
    config.stripe.secretKey,
    config.stripe.webhookSecret,
    config.metricsToken ?? '',
  ].filter((secret) => secret !== '');
}

/** Closes Parley cleanly on SIGINT or SIGTERM (once), then ends the process: 0 after a clean close, 1 otherwise. */
export function stopOnSignals(parley: Parley): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    parley.logger.info({ signal }, 'shutting down');
    parley.close().then(
      () => process.exit(0),
      (error: unknown) => {
        parley.logger.fatal({ err: error }, 'shutdown failed');
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
      // No configuration, so no LOG_LEVEL: said at the level a start failure deserves.
      createLogger({ level: 'info' }).fatal({ problems: error.problems }, error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger({ level: config.logLevel, secrets: configuredSecrets(config) });
  let parley: Parley;
  try {
    parley = await startParley(config, { logger });
  } catch (error) {
    logger.fatal({ err: error }, 'Parley failed to start');
    process.exit(1);
  }
  logger.info({ url: `${parley.url}/app/` }, `Parley is running: ${parley.url}/app/`);
  if (!config.mongodbUri)
    logger.info({ dbpath: path.join(config.dataDir, 'db') }, `Database: embedded, in ${path.join(config.dataDir, 'db')}`);
  if (config.backup) {
    logger.info(`Backups: every ${config.backup.everyHours} h into ${config.backup.dir}, the newest ${config.backup.keep} kept`);
  }
  if (parley.slackSandbox) logger.info(`Slack: sandbox (no SLACK_CLIENT_ID), operator page: ${parley.url}/sandbox/slack`);
  if (parley.stripeSandbox) logger.info(`Stripe: sandbox (no STRIPE_SECRET_KEY), operator page: ${parley.url}/sandbox/stripe`);
  if (parley.demoUrl) logger.info(`Demo site (another origin, embeds your first configured widget): ${parley.demoUrl}/`);
  if (parley.mailer.outbox) logger.info(`Outbox (mails are not sent, read them here): ${parley.url}/dev/outbox`);
  if (config.metricsToken) logger.info(`Metrics: ${parley.url}/metrics (Authorization: Bearer <METRICS_TOKEN>)`);
  if (parley.smtpReceiver) logger.info(`SMTP receiver for visitors' answers by mail: port ${parley.smtpReceiver.port}`);

  stopOnSignals(parley);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    createLogger({ level: 'info' }).fatal({ err: error }, 'Parley failed to start');
    process.exit(1);
  });
}
