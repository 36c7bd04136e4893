/**
 * The one place that reads the environment. Every setting is validated with zod; problems are
 * collected and reported together. In development, missing secrets are generated once and kept in
 * DATA_DIR/secrets.json so sessions and signatures survive restarts; in production every required
 * setting must be given.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { LOG_LEVELS, type LogLevel } from './logger';

export type NodeEnv = 'development' | 'production' | 'test';

export type Config = {
  env: NodeEnv;
  port: number;
  /** Base URL users reach Parley at, without a trailing slash. */
  publicUrl: string;
  /** Unset: run the embedded MongoDB-compatible server in dataDir/db. */
  mongodbUri?: string;
  /** Absolute path. */
  dataDir: string;
  jwtSecret: string;
  slack: {
    /** True when SLACK_CLIENT_ID is not given: Parley runs the Slack sandbox on its own server and talks to it. */
    sandbox: boolean;
    clientId: string;
    clientSecret: string;
    signingSecret: string;
    /** Web API base, ending with a slash. */
    apiUrl: string;
    /** OAuth v2 authorisation page. */
    oauthUrl: string;
  };
  stripe: {
    /** True when STRIPE_SECRET_KEY is not given: Parley runs the Stripe sandbox in-process and talks to it. */
    sandbox: boolean;
    secretKey: string;
    webhookSecret: string;
    /** Unset: Stripe itself. */
    apiUrl?: string;
  };
  mail: {
    /** Unset: mails are written to outboxDir. */
    smtpUrl?: string;
    from: string;
    outboxDir: string;
    /** Visitors' answers to the mails of replies they did not see (server/inbound). */
    inbound: InboundMailConfig;
  };
  /**
   * Redis shared by several Parley processes (frames to sockets, signals, rate-limit counts; server/redis.ts).
   * Unset: one process, all of it in-process.
   */
  redisUrl?: string;
  /** Port of the demo site (a page of another origin embedding the first configured widget); unset: none. */
  demoPort?: number;
  /** Express "trust proxy": which X-Forwarded-For hops to believe, so per-IP limits see real clients. */
  trustProxy: boolean | number | string;
  /**
   * On shutdown, how long the process keeps serving while `/health` already answers 503, so a load balancer
   * stops sending it visitors before its sockets close (SHUTDOWN_DRAIN_SECONDS; 0 by default).
   */
  shutdownDrainMs: number;
  /**
   * Whether webhooks and REST hooks may reach private, loopback and link-local addresses (WEBHOOKS_ALLOW_PRIVATE;
   * by default only outside production, where an account owner could otherwise aim them at Parley's network).
   */
  webhooksAllowPrivate: boolean;
  /** The lowest level logged (LOG_LEVEL): info by default, warn when NODE_ENV=test. */
  logLevel: LogLevel;
  /**
   * The bearer token GET /metrics answers to (METRICS_TOKEN); unset: /metrics is off (404) and the process metrics
   * (event loop, heap, GC) are not collected.
   */
  metricsToken?: string;
  /**
   * Parley's own dumps of its database (BACKUP_DIR, BACKUP_EVERY_HOURS, BACKUP_KEEP; server/backup/schedule.ts);
   * unset: none.
   */
  backup?: { dir: string; everyHours: number; keep: number };
  /** Attempts allowed per window on the public sign-in calls; fixed, not read from the environment. */
  rateLimits: RateLimits;
  /** argon2id cost of new password hashes; fixed, not read from the environment (tests lower it). */
  passwordHashing: PasswordHashing;
  /** Timings and limits of the visitor relay; defaults in server/relay/tuning.ts, tests shorten them. */
  relay?: Partial<RelayTuning>;
  /**
   * How often the scheduler's tasks run, by name (server/tasks.ts: 'due-work', 'operating-hours', 'retention',
   * 'backup'), over their defaults; fixed, not read from the environment (tests shorten them).
   */
  tasks?: Partial<Record<string, { everyMs?: number; firstAfterMs?: number }>>;
  /** Requests per minute each API or Zapier key may make to /v1/api; 120 unless a test says otherwise. */
  apiKeyRequestsPerMinute?: number;
  /**
   * Segment, for widgets with a write key (server/analytics): `host` is its tracking API (SEGMENT_HOST; unset:
   * Segment's own), `flushIntervalMs` how long events wait to be batched (10 s; fixed, tests shorten it).
   */
  segment?: { host?: string; flushIntervalMs?: number };
  /** The console's Support page: Parley's own chat there, and the phone line of plans with phone support. */
  support?: SupportSettings;
};

export type SupportSettings = {
  /**
   * The widget (its public id) the Support page embeds, so customers chat with the team running this deployment
   * (SUPPORT_WIDGET_ID); unset: the docs and a mail link only.
   */
  widgetId?: string;
  /** Development without SUPPORT_WIDGET_ID: the first widget set up on this machine stands in for it. */
  firstLocalWidget: boolean;
  /** The support phone number shown to plans with phone support (SUPPORT_PHONE); unset: none shown. */
  phone?: string;
};

export type InboundMailConfig = {
  /** The domain of the Reply-To addresses `reply+<token>@<domain>` (INBOUND_MAIL_DOMAIN). */
  domain: string;
  /** Port of Parley's own SMTP receiver (INBOUND_SMTP_PORT; 0: any free port); null: no receiver. */
  smtpPort: number | null;
  /** True when INBOUND_SMTP_PORT named the port; the default port, when taken, gives way to any free one. */
  smtpPortGiven: boolean;
  /** Address the receiver listens on: loopback outside production, every interface in production. */
  smtpHost: string;
  /** The receiver's STARTTLS certificate (INBOUND_SMTP_TLS_KEY, INBOUND_SMTP_TLS_CERT: PEM files); unset: smtp-server's own. */
  tls?: { keyFile: string; certFile: string };
  /** Largest mail the receiver and the webhook take, in bytes. */
  maxBytes: number;
  /** Mailgun's HTTP webhook signing key (MAILGUN_SIGNING_KEY); unset: the inbound webhook answers 404. */
  mailgunSigningKey?: string;
};

/** The SMTP receiver's port outside production when INBOUND_SMTP_PORT is not given. */
export const DEFAULT_INBOUND_SMTP_PORT = 2525;

/** argon2id parameters: memory in KiB, passes, lanes. */
export type PasswordHashing = { memoryCost: number; timeCost: number; parallelism: number };

/** argon2's own defaults (64 MiB, 3 passes, 4 lanes): what every real deployment hashes with. */
export const DEFAULT_PASSWORD_HASHING: PasswordHashing = { memoryCost: 65_536, timeCost: 3, parallelism: 4 };

export type RelayTuning = {
  /** How long a channel's "someone is active" answer is reused. */
  presenceTtlMs: number;
  /** How often presence of widgets with open sockets is recomputed and pushed. */
  presenceRefreshMs: number;
  /** Sustained Slack posts per second per channel, and the burst allowed above it. */
  slackPostsPerSecond: number;
  slackBurst: number;
  /**
   * How often the outbox looks for jobs it was not told about (stored by another process, or left by a dead one);
   * its own jobs run on timers.
   */
  outboxPollMs: number;
  /** How long a claimed outbox job is held (renewed while it runs); a dead process's jobs are taken over after it. */
  outboxLeaseMs: number;
  /** Longest backoff between retries of a failing job. */
  outboxMaxBackoffMs: number;
  /** How often the due work looks for conversations whose inactivity end, no-answer webhook, reminder or unseen-replies mail has come (by due-time indexes). */
  inactivityCheckMs: number;
  /** A socket that sent nothing for this long is closed. */
  silentSocketMs: number;
  /** Visitor messages allowed per minute per visitor, and frames per 10 seconds per socket. */
  visitorMsgsPerMinute: number;
  framesPer10s: number;
  /** New sockets per minute per IP. */
  socketsPerIpPerMinute: number;
  /** Help-center searches per minute per IP (the widget searches as the visitor types, debounced). */
  articleSearchesPerIpPerMinute: number;
  /** A socket with more than this many bytes waiting to be sent is dropped (it resumes by seq). */
  maxBufferedBytes: number;
  /** How often widgets with an operating-hours schedule are checked for a scheduled ON or OFF time. */
  scheduleCheckMs: number;
};

export type RateLimits = {
  windowMs: number;
  /** Failed logins per IP and per e-mail (successful ones do not count). */
  loginPerIp: number;
  loginPerEmail: number;
  signUpPerIp: number;
  signUpPerEmail: number;
  /** Password reset e-mails, so nobody can flood an inbox. */
  resetEmailPerIp: number;
  resetEmailPerEmail: number;
};

export const DEFAULT_RATE_LIMITS: RateLimits = {
  windowMs: 15 * 60 * 1000,
  loginPerIp: 50,
  loginPerEmail: 10,
  signUpPerIp: 20,
  signUpPerEmail: 5,
  resetEmailPerIp: 20,
  resetEmailPerEmail: 5,
};

/**
 * Not an AppError: it is thrown before Parley exists (no transport answers it, no status fits it); main.ts prints its
 * problems and ends the process.
 */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Parley cannot start, the configuration has problems:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Secrets generated in development when the environment does not give them. */
const GENERATED_SECRETS = {
  JWT_SECRET: () => randomBytes(48).toString('base64url'),
  SLACK_CLIENT_ID: () => `${randomBytes(5).readUIntBE(0, 5)}.${randomBytes(5).readUIntBE(0, 5)}`,
  SLACK_CLIENT_SECRET: () => randomBytes(16).toString('hex'),
  SLACK_SIGNING_SECRET: () => randomBytes(16).toString('hex'),
  STRIPE_SECRET_KEY: () => `sk_test_${randomBytes(24).toString('base64url')}`,
  STRIPE_WEBHOOK_SECRET: () => `whsec_${randomBytes(24).toString('base64url')}`,
} as const;
type SecretName = keyof typeof GENERATED_SECRETS;

/** Settings production refuses to start without. */
const REQUIRED_IN_PRODUCTION = [
  'PUBLIC_URL',
  'MONGODB_URI',
  'SMTP_URL',
  'MAIL_FROM',
  ...(Object.keys(GENERATED_SECRETS) as SecretName[]),
] as const;

const blankToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());
const urlWithScheme = (schemes: string[]) =>
  z.url().refine((value) => schemes.some((s) => value.startsWith(`${s}://`)), {
    message: `must start with ${schemes.map((s) => `${s}://`).join(' or ')}`,
  });

const EnvSchema = z.object({
  NODE_ENV: optional(z.enum(['development', 'production', 'test'])),
  PORT: optional(z.coerce.number().int().min(0).max(65535)),
  PUBLIC_URL: optional(urlWithScheme(['http', 'https'])),
  MONGODB_URI: optional(z.string().regex(/^mongodb(\+srv)?:\/\/\S+$/, 'must be a mongodb:// or mongodb+srv:// URI')),
  DATA_DIR: optional(z.string()),
  JWT_SECRET: optional(z.string().min(32, 'must be at least 32 characters')),
  SLACK_CLIENT_ID: optional(z.string()),
  SLACK_CLIENT_SECRET: optional(z.string()),
  SLACK_SIGNING_SECRET: optional(z.string()),
  SLACK_API_URL: optional(urlWithScheme(['http', 'https'])),
  SLACK_OAUTH_URL: optional(urlWithScheme(['http', 'https'])),
  STRIPE_SECRET_KEY: optional(z.string()),
  STRIPE_WEBHOOK_SECRET: optional(z.string()),
  STRIPE_API_URL: optional(urlWithScheme(['http', 'https'])),
  SMTP_URL: optional(urlWithScheme(['smtp', 'smtps'])),
  MAIL_FROM: optional(z.string().min(3)),
  REDIS_URL: optional(urlWithScheme(['redis', 'rediss'])),
  SEGMENT_HOST: optional(urlWithScheme(['http', 'https'])),
  INBOUND_MAIL_DOMAIN: optional(z.string().regex(/^[A-Za-z0-9.-]+$/, 'must be a domain name, like reply.example.com')),
  INBOUND_SMTP_PORT: optional(z.union([z.literal('off'), z.coerce.number().int().min(0).max(65535)])),
  INBOUND_SMTP_TLS_KEY: optional(z.string()),
  INBOUND_SMTP_TLS_CERT: optional(z.string()),
  MAILGUN_SIGNING_KEY: optional(z.string().min(8)),
  DEMO_PORT: optional(z.coerce.number().int().min(0).max(65535)),
  SUPPORT_WIDGET_ID: optional(z.string().regex(/^[A-Za-z0-9-]{1,64}$/, "must be a widget's id (letters, digits and dashes)")),
  SUPPORT_PHONE: optional(
    z
      .string()
      .trim()
      .regex(/^\+?[0-9][0-9 ().-]{4,28}[0-9]$/, 'must be a phone number such as +1 415 555 0100'),
  ),
  SHUTDOWN_DRAIN_SECONDS: optional(z.coerce.number().min(0).max(300)),
  WEBHOOKS_ALLOW_PRIVATE: optional(z.enum(['true', 'false'])),
  LOG_LEVEL: optional(z.enum(LOG_LEVELS)),
  METRICS_TOKEN: optional(
    z
      .string()
      .min(16, 'must be at least 16 characters')
      .regex(/^[A-Za-z0-9._~+/=-]+$/, 'must be a bearer token: letters, digits and . _ ~ + / = -'),
  ),
  BACKUP_DIR: optional(z.string()),
  BACKUP_EVERY_HOURS: optional(
    z.coerce
      .number()
      .positive()
      .max(24 * 366),
  ),
  BACKUP_KEEP: optional(z.coerce.number().int().min(1).max(10_000)),
  TRUST_PROXY: optional(
    z
      .string()
      .regex(/^(true|false|\d{1,2}|[\w.:/, -]+)$/, 'must be true, false, a hop count, or addresses/subnets (loopback, 10.0.0.0/8 ...)'),
  ),
});
type Env = z.infer<typeof EnvSchema>;

/** Reads the kept development secrets, generating and saving the ones not yet there. */
function developmentSecrets(dataDir: string, missing: SecretName[]): Partial<Record<SecretName, string>> {
  if (missing.length === 0) return {};
  const file = path.join(dataDir, 'secrets.json');
  let kept: Partial<Record<SecretName, string>> = {};
  if (existsSync(file)) {
    const parsed = z.record(z.string(), z.string()).safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (!parsed.success) throw new ConfigError([`${file} is not a JSON object of strings; delete it to regenerate`]);
    kept = parsed.data;
  }
  let changed = false;
  for (const name of missing) {
    if (!kept[name]) {
      kept[name] = GENERATED_SECRETS[name]();
      changed = true;
    }
  }
  if (changed) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, `${JSON.stringify(kept, null, 2)}\n`, { mode: 0o600 });
  }
  return kept;
}

/**
 * Builds the configuration from an environment (process.env by default). Throws ConfigError
 * listing every problem at once.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const e: Env = parsed.data;
  const nodeEnv: NodeEnv = e.NODE_ENV ?? 'development';
  const port = e.PORT ?? 3000;
  const dataDir = path.resolve(e.DATA_DIR ?? './data');

  if (e.BACKUP_DIR === undefined) {
    const orphans = (['BACKUP_EVERY_HOURS', 'BACKUP_KEEP'] as const).filter((name) => e[name] !== undefined);
    if (orphans.length > 0) throw new ConfigError(orphans.map((name) => `${name} is set but BACKUP_DIR is not: set BACKUP_DIR too`));
  }
  if (nodeEnv === 'production') {
    const missing = REQUIRED_IN_PRODUCTION.filter((name) => e[name] === undefined);
    if (missing.length > 0) throw new ConfigError(missing.map((name) => `${name} is required in production`));
  }
  const missingSecrets = (Object.keys(GENERATED_SECRETS) as SecretName[]).filter((name) => e[name] === undefined);
  const secrets = { ...developmentSecrets(dataDir, missingSecrets), ...pickDefined(e, Object.keys(GENERATED_SECRETS) as SecretName[]) };
  const secret = (name: SecretName): string => {
    const value = secrets[name];
    // Unreachable: production demanded it above, otherwise it was generated.
    if (value === undefined) throw new ConfigError([`${name} is missing`]);
    return value;
  };

  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  return {
    env: nodeEnv,
    port,
    publicUrl,
    mongodbUri: e.MONGODB_URI,
    dataDir,
    jwtSecret: secret('JWT_SECRET'),
    slack: {
      sandbox: e.SLACK_CLIENT_ID === undefined,
      clientId: secret('SLACK_CLIENT_ID'),
      clientSecret: secret('SLACK_CLIENT_SECRET'),
      signingSecret: secret('SLACK_SIGNING_SECRET'),
      apiUrl: withTrailingSlash(e.SLACK_API_URL ?? 'https://slack.com/api/'),
      oauthUrl: e.SLACK_OAUTH_URL ?? 'https://slack.com/oauth/v2/authorize',
    },
    stripe: {
      sandbox: e.STRIPE_SECRET_KEY === undefined,
      secretKey: secret('STRIPE_SECRET_KEY'),
      webhookSecret: secret('STRIPE_WEBHOOK_SECRET'),
      apiUrl: e.STRIPE_API_URL,
    },
    mail: {
      smtpUrl: e.SMTP_URL,
      from: e.MAIL_FROM ?? `Parley <no-reply@${new URL(publicUrl).hostname}>`,
      outboxDir: path.join(dataDir, 'outbox'),
      inbound: {
        domain: e.INBOUND_MAIL_DOMAIN ?? new URL(publicUrl).hostname,
        // On by default outside production, so the e-mail loop works offline; in production only when given.
        smtpPort:
          e.INBOUND_SMTP_PORT === 'off'
            ? null
            : (e.INBOUND_SMTP_PORT ?? (nodeEnv === 'production' ? null : nodeEnv === 'test' ? 0 : DEFAULT_INBOUND_SMTP_PORT)),
        smtpPortGiven: e.INBOUND_SMTP_PORT !== undefined,
        smtpHost: nodeEnv === 'production' ? '0.0.0.0' : '127.0.0.1',
        tls:
          e.INBOUND_SMTP_TLS_KEY && e.INBOUND_SMTP_TLS_CERT
            ? { keyFile: e.INBOUND_SMTP_TLS_KEY, certFile: e.INBOUND_SMTP_TLS_CERT }
            : undefined,
        maxBytes: 25 * 1024 * 1024,
        mailgunSigningKey: e.MAILGUN_SIGNING_KEY,
      },
    },
    redisUrl: e.REDIS_URL,
    // In development the demo site listens next to Parley (PORT + 1) unless DEMO_PORT says otherwise.
    demoPort: e.DEMO_PORT ?? (nodeEnv === 'development' ? (port > 0 && port < 65535 ? port + 1 : 0) : undefined),
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    shutdownDrainMs: (e.SHUTDOWN_DRAIN_SECONDS ?? 0) * 1000,
    webhooksAllowPrivate: e.WEBHOOKS_ALLOW_PRIVATE ? e.WEBHOOKS_ALLOW_PRIVATE === 'true' : nodeEnv !== 'production',
    logLevel: e.LOG_LEVEL ?? (nodeEnv === 'test' ? 'warn' : 'info'),
    metricsToken: e.METRICS_TOKEN,
    backup:
      e.BACKUP_DIR === undefined
        ? undefined
        : { dir: path.resolve(e.BACKUP_DIR), everyHours: e.BACKUP_EVERY_HOURS ?? 24, keep: e.BACKUP_KEEP ?? 7 },
    rateLimits: DEFAULT_RATE_LIMITS,
    passwordHashing: DEFAULT_PASSWORD_HASHING,
    segment: { host: e.SEGMENT_HOST },
    support: {
      widgetId: e.SUPPORT_WIDGET_ID,
      firstLocalWidget: nodeEnv === 'development' && e.SUPPORT_WIDGET_ID === undefined,
      phone: e.SUPPORT_PHONE,
    },
  };
}

function pickDefined(e: Env, names: SecretName[]): Partial<Record<SecretName, string>> {
  const out: Partial<Record<SecretName, string>> = {};
  for (const name of names) {
    const value = e[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

function parseTrustProxy(value: string | undefined): boolean | number | string {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  return /^\d+$/.test(value) ? Number(value) : value;
}

function withTrailingSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}
