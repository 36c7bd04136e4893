/**
 * Parley as a deployment runs it: each part its own OS process, talking over real sockets. A database (the
 * embedded MongoDB-compatible server, `npm run db`), the Slack sandbox (`npm run sandbox:slack`), Redis when asked,
 * and one or more Parley processes sharing them. Every process can be killed with any signal (SIGKILL: a crash)
 * or stopped cleanly; `startStack` starts a whole set and `setUpWidgetAcross` makes an account whose widget is
 * installed in the sandbox's Acme workspace and linked to a new channel, through the real OAuth flow over HTTP.
 * Usable from mocha and from scripts (scripts/bench): nothing here needs a test runner.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Config } from '../../server/config';
import { FAST_RELAY, GENEROUS_LIMITS, TEST_PASSWORD_HASHING } from './testConfig';

/** The part of the configuration a test or bench may set beyond the environment (read by parley-process.ts). */
export type ParleyProcessConfig = Partial<Pick<Config, 'relay' | 'rateLimits' | 'passwordHashing' | 'apiKeyRequestsPerMinute' | 'tasks'>>;

export const TEST_CONFIG_VARIABLE = 'PARLEY_TEST_CONFIG';

const ROOT = path.resolve(__dirname, '..', '..');
/** Longest wait for a process to say it is ready; generous because the machine is shared and loaded. */
const READY_TIMEOUT_MS = 60_000;
const OUTPUT_KEPT_CHARS = 64_000;

export type Exit = { code: number | null; signal: NodeJS.Signals | null };

export type ProcessHandle = {
  readonly name: string;
  readonly pid: number;
  /** Sends `signal` (SIGKILL: the process dies at once, as in a crash; nothing of it runs any more). */
  kill(signal?: NodeJS.Signals): void;
  /** Asks the process to stop (SIGTERM) and waits until it has; SIGKILL after `graceMs`. Idempotent. */
  stop(graceMs?: number): Promise<Exit>;
  /** Settles when the process has exited, whoever ended it. */
  readonly exited: Promise<Exit>;
  /** Whether it is still running. */
  running(): boolean;
  /** The last ~64 KB it printed (stdout and stderr interleaved), for failure messages. */
  output(): string;
};

/** Every child still running, killed when this process exits so that no test run leaves processes behind. */
const running = new Set<ChildProcess>();
let exitHookInstalled = false;
function killChildrenOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const child of running) child.kill('SIGKILL');
  });
}

/** A TCP port nobody listens on right now (the system picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Spawns a process and waits for a line of its output matching `ready` (answers the match). Rejects, with what it
 * printed, if it exits or stays silent for READY_TIMEOUT_MS first.
 */
export async function spawnProcess(
  name: string,
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; ready: RegExp; echo?: boolean },
): Promise<{ handle: ProcessHandle; match: RegExpExecArray }> {
  killChildrenOnExit();
  // PROCESS_ECHO=1 shows every child's output as it comes, prefixed with its name (for debugging a test).
  const echo = options.echo ?? process.env.PROCESS_ECHO === '1';
  const child = spawn(command, args, { cwd: ROOT, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let output = '';
  let pending = '';
  let onLine: ((line: string) => void) | null = null;
  const take = (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    if (echo) process.stderr.write(text.replace(/^(?=.)/gm, `[${name}] `));
    output = (output + text).slice(-OUTPUT_KEPT_CHARS);
    pending += text;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) onLine?.(line);
  };
  child.stdout?.on('data', take);
  child.stderr?.on('data', take);
  const exited = new Promise<Exit>((resolve) => {
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    });
  });
  let stopping: Promise<Exit> | null = null;
  const handle: ProcessHandle = {
    name,
    pid: child.pid ?? -1,
    kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
    stop(graceMs = 15_000) {
      stopping ??= (async () => {
        if (!handle.running()) return exited;
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        const exit = await exited;
        clearTimeout(timer);
        return exit;
      })();
      return stopping;
    },
    exited,
    running: () => child.exitCode === null && child.signalCode === null,
    output: () => output,
  };
  try {
    const match = await new Promise<RegExpExecArray>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name} did not get ready within ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS);
      onLine = (line) => {
        const found = options.ready.exec(line);
        if (!found) return;
        clearTimeout(timer);
        resolve(found);
      };
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      void exited.then((exit) => {
        clearTimeout(timer);
        reject(new Error(`${name} exited (code ${exit.code}, signal ${exit.signal}) before it was ready`));
      });
    });
    onLine = null;
    return { handle, match };
  } catch (error) {
    await handle.stop(2_000);
    throw new Error(`${(error as Error).message}\n--- ${name} printed ---\n${output}`);
  }
}

/**
 * A TypeScript entry of this repository (`file` from the repository's root), run by node: one OS process, so a
 * signal reaches it. Under `npm test` (PARLEY_TEST_NODE_DIR set) its JavaScript built for this run
 * (scripts/build-test-processes.ts), which starts without transpiling; otherwise the source with tsx's loader.
 */
export function tsEntry(file: string, args: string[] = []): [string, string[]] {
  const built = process.env.PARLEY_TEST_NODE_DIR;
  if (built) return [process.execPath, [path.join(built, file.replace(/\.ts$/, '.js')), ...args]];
  return [process.execPath, ['--import', 'tsx', path.join(ROOT, file), ...args]];
}

// ---------------------------------------------------------------------------------------------- database

export type MongoProcess = ProcessHandle & {
  /** mongodb://127.0.0.1:port, without a database name. */
  uri: string;
};

/** The embedded MongoDB-compatible server (`npm run db`), journaling to `dbpath` (a new temporary folder by default). */
export async function startMongoProcess(options: { dbpath?: string; echo?: boolean } = {}): Promise<MongoProcess> {
  const dbpath = options.dbpath ?? mkdtempSync(path.join(tmpdir(), 'parley-proc-db-'));
  const [command, args] = tsEntry('server/embedded-mongo/cli.ts', ['--port', '0', '--dbpath', dbpath]);
  const { handle, match } = await spawnProcess('mongo', command, args, { ready: /listening on (mongodb:\/\/\S+)/, echo: options.echo });
  const stop = handle.stop;
  return {
    ...handle,
    uri: match[1].replace(/\/+$/, ''),
    async stop(graceMs) {
      const exit = await stop(graceMs);
      if (!options.dbpath) rmSync(dbpath, { recursive: true, force: true });
      return exit;
    },
  };
}

// ------------------------------------------------------------------------------------------------- Redis

export type RedisProcess = ProcessHandle & { url: string; port: number };

/** A throwaway redis-server (scripts/ensure-redis.sh installs it) on a free port: no persistence, loopback only. */
export async function startRedisProcess(options: { port?: number; echo?: boolean } = {}): Promise<RedisProcess> {
  const port = options.port ?? (await freePort());
  const bin = process.env.REDIS_SERVER_PATH ?? 'redis-server';
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'];
  try {
    const { handle } = await spawnProcess('redis', bin, args, { ready: /Ready to accept connections/, echo: options.echo });
    return { ...handle, url: `redis://127.0.0.1:${port}`, port };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).message.includes('ENOENT'))
      throw new Error(`${bin} is not installed: run scripts/ensure-redis.sh (npm test does)`);
    throw error;
  }
}

// ------------------------------------------------------------------------------------------- Slack sandbox

export type SlackCredentials = { clientId: string; clientSecret: string; signingSecret: string };

export function slackCredentials(): SlackCredentials {
  return {
    clientId: `${randomBytes(4).readUInt32BE(0)}.${randomBytes(4).readUInt32BE(0)}`,
    clientSecret: randomBytes(16).toString('hex'),
    signingSecret: randomBytes(16).toString('hex'),
  };
}

/** A message as the sandbox's operator page shows it. */
export type SandboxMessage = {
  ts: string;
  user: string;
  text: string;
  isBot: boolean;
  threadTs: string | null;
  replyCount: number;
  blocks?: { type: string; text?: { type: string; text: string } }[];
};

export type SlackSandboxProcess = ProcessHandle & {
  /** Base URL, e.g. http://127.0.0.1:41234 (no trailing slash). */
  url: string;
  /** What Parley's SLACK_API_URL and SLACK_OAUTH_URL are set to. */
  apiUrl: string;
  oauthUrl: string;
  credentials: SlackCredentials;
  /** Messages of a channel (top level, oldest first), as `user` of `team` sees them. */
  channelMessages(channel: string, who?: { team?: string; user?: string }): Promise<SandboxMessage[]>;
  /** The replies of a thread, oldest first (the parent not included). */
  threadReplies(channel: string, threadTs: string, who?: { team?: string; user?: string }): Promise<SandboxMessage[]>;
  /** Posts as a person (Alice of Acme by default), in a thread when `threadTs` is given; Slack sends the event to the app. */
  post(message: { channel: string; text: string; threadTs?: string; team?: string; user?: string }): Promise<string>;
  /** Sets one of the sandbox's faults (server/sandbox/slack/README.md): an outage window, lost answers, a rate limit, or none. */
  fault(fault: SandboxFault): Promise<void>;
};

export type SandboxFault =
  | { fault: 'clear' }
  | { fault: 'failFor'; method: string; seconds: number; status?: number }
  | { fault: 'rateLimit'; method: string; seconds: number }
  | { fault: 'dropResponses'; method: string; times?: number; seconds?: number; mode?: 'reset' | 'hang'; holdMs?: number };

export const SANDBOX_ACME = 'T0ACME0001';
export const SANDBOX_ALICE = 'U0ALICE001';

/**
 * The Slack sandbox as its own process (scripts/sandbox-slack.ts, default seed: the Acme workspace), sending
 * events, interactions and commands to `appUrl`/slack/events unless `eventsUrl` says otherwise. `entry`: another
 * script taking the same flags and printing the same ready line (scripts/bench/relay-slack.ts adds a stopwatch).
 */
export async function startSlackSandboxProcess(options: {
  appUrl: string;
  entry?: string;
  eventsUrl?: string;
  credentials?: SlackCredentials;
  port?: number;
  echo?: boolean;
  /** Slack's rate-limit tiers and channel pace enforced (answered 429 with Retry-After beyond them). */
  rateLimits?: boolean;
}): Promise<SlackSandboxProcess> {
  const credentials = options.credentials ?? slackCredentials();
  const args = ['--port', String(options.port ?? 0), '--app-url', options.appUrl, '--test-controls'];
  if (options.rateLimits) args.push('--rate-limits', 'slack');
  if (options.eventsUrl) args.push('--events-url', options.eventsUrl);
  args.push(
    '--client-id',
    credentials.clientId,
    '--client-secret',
    credentials.clientSecret,
    '--signing-secret',
    credentials.signingSecret,
  );
  const [command, fullArgs] = tsEntry(options.entry ?? 'scripts/sandbox-slack.ts', args);
  const { handle, match } = await spawnProcess('slack-sandbox', command, fullArgs, {
    ready: /Slack sandbox on (\S+?)\/?$/,
    echo: options.echo,
  });
  const url = match[1];
  const snapshot = async (query: Record<string, string>) => {
    const res = await fetch(`${url}/operator/api/snapshot?${new URLSearchParams(query)}`);
    if (!res.ok) throw new Error(`sandbox snapshot answered ${res.status}`);
    return (await res.json()) as { channel: { messages: SandboxMessage[] } | null; thread: { replies: SandboxMessage[] } | null };
  };
  return {
    ...handle,
    url,
    apiUrl: `${url}/api/`,
    oauthUrl: `${url}/oauth/v2/authorize`,
    credentials,
    async channelMessages(channel, who = {}) {
      const snap = await snapshot({ team: who.team ?? SANDBOX_ACME, user: who.user ?? SANDBOX_ALICE, channel });
      return (snap.channel?.messages ?? []).filter((m) => typeof m.ts === 'string' && 'text' in m);
    },
    async threadReplies(channel, threadTs, who = {}) {
      const snap = await snapshot({ team: who.team ?? SANDBOX_ACME, user: who.user ?? SANDBOX_ALICE, channel, thread: threadTs });
      return snap.thread?.replies ?? [];
    },
    async post(message) {
      const res = await fetch(`${url}/operator/api/post`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ team: SANDBOX_ACME, user: SANDBOX_ALICE, ...message }),
      });
      const body = (await res.json()) as { ok: boolean; ts?: string; error?: string };
      if (!body.ok || !body.ts) throw new Error(`sandbox refused the post: ${body.error ?? res.status}`);
      return body.ts;
    },
    async fault(fault) {
      const res = await fetch(`${url}/test-controls/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(fault),
      });
      if (!res.ok) throw new Error(`sandbox refused the fault: ${await res.text()}`);
    },
  };
}

// ---------------------------------------------------------------------------------------------- Parley

export type ParleyProcess = ProcessHandle & {
  /** http://127.0.0.1:port, no trailing slash. */
  url: string;
  port: number;
  dataDir: string;
};

export type ParleyProcessOptions = {
  /** Base URI of the database (no database name); `dbName` is appended. */
  mongodbUri: string;
  dbName: string;
  slack: Pick<SlackSandboxProcess, 'apiUrl' | 'oauthUrl' | 'credentials'>;
  /** Shared by every process of one deployment, so a session made by one is valid on all. */
  jwtSecret: string;
  redisUrl?: string;
  /** A free one by default. */
  port?: number;
  /** A new temporary folder by default (removed by stop()). */
  dataDir?: string;
  /** Timings, limits and hashing cost beyond the environment (see parley-process.ts). */
  config?: ParleyProcessConfig;
  /** More environment (NODE_ENV is 'test' unless given). */
  env?: NodeJS.ProcessEnv;
  name?: string;
  echo?: boolean;
};

/** One Parley process (the server as `npm start` runs it), ready once it listens. */
export async function startParleyProcess(options: ParleyProcessOptions): Promise<ParleyProcess> {
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'parley-proc-data-'));
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'test',
    PORT: String(port),
    PUBLIC_URL: url,
    DATA_DIR: dataDir,
    MONGODB_URI: `${options.mongodbUri}/${options.dbName}`,
    JWT_SECRET: options.jwtSecret,
    SLACK_CLIENT_ID: options.slack.credentials.clientId,
    SLACK_CLIENT_SECRET: options.slack.credentials.clientSecret,
    SLACK_SIGNING_SECRET: options.slack.credentials.signingSecret,
    SLACK_API_URL: options.slack.apiUrl,
    SLACK_OAUTH_URL: options.slack.oauthUrl,
    REDIS_URL: options.redisUrl,
    [TEST_CONFIG_VARIABLE]: JSON.stringify(options.config ?? {}),
    ...options.env,
  };
  const [command, args] = tsEntry('test/helpers/parley-process.ts');
  const name = options.name ?? `parley:${port}`;
  const { handle } = await spawnProcess(name, command, args, { env, ready: /^Parley is running: /, echo: options.echo });
  const stop = handle.stop;
  return {
    ...handle,
    url,
    port,
    dataDir,
    async stop(graceMs) {
      const exit = await stop(graceMs);
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
      return exit;
    },
  };
}

// ---------------------------------------------------------------------------------------------- a stack

/** The test settings of helpers/testConfig.ts (fast relay timings, cheap password hashing, generous limits). */
export const FAST_PROCESS_CONFIG = {
  // Processes of one deployment find each other's jobs by the outbox's safety poll (without Redis): they keep the
  // short poll and presence timings their specs were written against (in-process servers look less often).
  relay: { ...FAST_RELAY, outboxPollMs: 50, presenceRefreshMs: 100 },
  passwordHashing: TEST_PASSWORD_HASHING,
  rateLimits: GENEROUS_LIMITS,
} satisfies ParleyProcessConfig;

export type Stack = {
  mongo: MongoProcess;
  redis?: RedisProcess;
  slack: SlackSandboxProcess;
  parleys: ParleyProcess[];
  dbName: string;
  jwtSecret: string;
  /** Starts one more Parley process on the same database, Slack and Redis (say, to replace a killed one). */
  addParley(options?: Partial<Pick<ParleyProcessOptions, 'port' | 'config' | 'env' | 'name'>>): Promise<ParleyProcess>;
  /** Stops every process still running, Parley first; the database's folder is removed. */
  close(): Promise<void>;
};

/**
 * A deployment on this machine: the database, the Slack sandbox, Redis (`redis: true`) and `parleys` Parley
 * processes (2 by default) sharing them. The sandbox sends Slack's requests to process number `slackTo` (0 by
 * default). `config` reaches every Parley process (FAST_PROCESS_CONFIG by default).
 */
export async function startStack(
  options: {
    parleys?: number;
    redis?: boolean;
    slackTo?: number;
    config?: ParleyProcessConfig;
    echo?: boolean;
    /** The sandbox enforces Slack's rate limits. */
    slackRateLimits?: boolean;
    /** More environment for every Parley process. */
    env?: NodeJS.ProcessEnv;
  } = {},
): Promise<Stack> {
  const count = options.parleys ?? 2;
  const ports = await Promise.all(Array.from({ length: count }, () => freePort()));
  const started: ProcessHandle[] = [];
  const closeAll = async () => {
    for (const p of [...started].reverse()) await p.stop();
  };
  try {
    // The database, Redis and the sandbox need nothing of each other: started together.
    const track = <T extends ProcessHandle>(starting: Promise<T>) =>
      starting.then((handle) => {
        started.push(handle);
        return handle;
      });
    const [mongo, redis, slack] = await allStarted([
      track(startMongoProcess({ echo: options.echo })),
      options.redis ? track(startRedisProcess({ echo: options.echo })) : Promise.resolve(undefined),
      track(
        startSlackSandboxProcess({
          appUrl: `http://127.0.0.1:${ports[options.slackTo ?? 0]}`,
          echo: options.echo,
          rateLimits: options.slackRateLimits,
        }),
      ),
    ]);
    const dbName = `stack_${randomBytes(6).toString('hex')}`;
    const jwtSecret = randomBytes(48).toString('base64url');
    const config = options.config ?? FAST_PROCESS_CONFIG;
    const base = { mongodbUri: mongo.uri, dbName, slack, jwtSecret, redisUrl: redis?.url, config, echo: options.echo, env: options.env };
    const parleys: ParleyProcess[] = [];
    // One after the other: the first creates the indexes and seeds the plans the others then find.
    for (const [i, port] of ports.entries()) {
      const parley = await startParleyProcess({ ...base, port, name: `parley-${String.fromCharCode(65 + i)}` });
      started.push(parley);
      parleys.push(parley);
    }
    return {
      mongo,
      redis,
      slack,
      parleys,
      dbName,
      jwtSecret,
      async addParley(more = {}) {
        const parley = await startParleyProcess({ ...base, ...more, config: more.config ?? config });
        started.push(parley);
        parleys.push(parley);
        return parley;
      },
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}

/** Like Promise.all, but settles only once every start settled, so a failure leaves no process starting unseen. */
async function allStarted<T extends unknown[]>(starting: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const results = await Promise.allSettled(starting);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return results.map((r) => (r as PromiseFulfilledResult<unknown>).value) as T;
}

// ----------------------------------------------------------------------------------- account and widget

/** The test's browser: Parley binds each OAuth state to the browser that asked for it through this cookie. */
const BROWSER_COOKIE = 'parley_oauth_browser=processes-browser-0123456789abcdef';

export type WidgetAcross = { email: string; password: string; token: string; ceId: string; uuid: string; channel: string };

async function call(base: string, method: string, route: string, token: string | null, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}${route}`, {
    method,
    headers: {
      'content-type': 'application/json',
      cookie: BROWSER_COOKIE,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    redirect: 'manual',
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${method} ${route} answered ${res.status}: ${text.slice(0, 300)}`);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

/**
 * A new account (signed up on `parleys[0]`), its first widget installed in the sandbox's Acme workspace as Alice
 * (consent page, redirect into `parleys[1 % n]`'s OAuth callback) and linked to a new channel through the console
 * API of the last process: the steps hop between processes as a load balancer would send them.
 */
export async function setUpWidgetAcross(stack: Pick<Stack, 'parleys' | 'slack'>): Promise<WidgetAcross> {
  const urls = stack.parleys.filter((p) => p.running()).map((p) => p.url);
  if (urls.length === 0) throw new Error('no Parley process is running');
  const at = (i: number) => urls[i % urls.length];
  const email = `proc-${randomBytes(5).toString('hex')}@example.com`;
  const password = 'correct horse battery';
  const signedUp = await call(at(0), 'POST', '/v1/p/users', null, { email, password });
  const token = String(signedUp.token);
  const current = await call(at(1), 'GET', '/v1/users/current', token);
  const [widget] = current.ces as { Id: string; Uuid: string }[];
  const ceId = widget.Id;

  const authorize = await call(at(1), 'GET', `/v1/chat_endpoints/${ceId}/slack_authorize?purpose=install`, token);
  const consent = new URL(String(authorize.url));
  const form = new URLSearchParams({ team: SANDBOX_ACME, user: SANDBOX_ALICE, decision: 'allow' });
  for (const key of ['client_id', 'scope', 'user_scope', 'redirect_uri', 'state']) form.set(key, consent.searchParams.get(key) ?? '');
  const consented = await fetch(`${consent.origin}${consent.pathname}`, { method: 'POST', body: form, redirect: 'manual' });
  const back = consented.headers.get('location');
  if (consented.status !== 302 || !back) throw new Error(`the sandbox's consent answered ${consented.status}`);
  const landed = await fetch(back, { headers: { cookie: BROWSER_COOKIE }, redirect: 'manual' });
  const target = landed.headers.get('location') ?? '';
  if (landed.status !== 302 || !target.includes(`#/setup/${ceId}`)) throw new Error(`the install went to ${landed.status} ${target}`);

  const last = urls.length - 1;
  const created = await call(at(last), 'POST', `/v1/chat_endpoints/${ceId}/channels`, token, {
    channelName: `chat-${randomBytes(4).toString('hex')}`,
  });
  const channel = String(created.Id);
  await call(at(last), 'PUT', `/v1/chat_endpoints/${ceId}/connect_ce`, token, { Id: ceId, RoomId: channel, RoomName: 'whatever' });
  return { email, password, token, ceId, uuid: widget.Uuid, channel };
}
