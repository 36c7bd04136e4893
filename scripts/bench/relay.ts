/**
 * `[METRICS_TOKEN=… LOG_LEVEL=…] npx tsx scripts/bench/relay.ts [--visitors 50] [--rate 200] [--replies 50] [--flood 1000] [--seconds 10] [--idle 10000]
 *   [--profile dir]` (--profile: Parley's process writes a V8 CPU profile into dir when it stops)
 *
 * Parley as a deployment runs it, each part its own process (test/helpers/processes.ts): the database, the Slack
 * sandbox (scripts/bench/relay-slack.ts: the sandbox with a stopwatch), Parley (as `npm start` runs it), and this
 * process as the load generator (visitors' WebSockets, operators' posts); the idle sockets' client ends live in one
 * more child (relay-idle-clients.ts). It prints:
 * - Parley's own CPU time per relayed message (from /proc/<pid>/stat of Parley's process; the database's is
 *   printed apart, it is another process);
 * - at `--rate` visitor messages/s offered: the visitor's ack (stored) p50/p99 and visitor frame → Slack's
 *   chat.postMessage received p50/p99 (timestamped by the sandbox);
 * - at `--replies` operator posts/s: Slack's event delivery → Parley's 200 (event ack) p50/p99 and operator post →
 *   visitor frame p50/p99;
 * - sustained msg/s each way, offered `--flood` msg/s;
 * - Parley's memory with `--idle` idle visitor sockets.
 * Slack's per-channel pace (about one post a second per channel) is lifted in Parley and in the sandbox: it is Slack's
 * limit, not Parley's cost. Goals on a 2-core machine (PRODUCT.md §7, issue #14): ≥ 400 msg/s each way; ack p99
 * ≤ 20 ms and visitor → Slack call p99 ≤ 50 ms at 200 msg/s; event ack p99 ≤ 100 ms; 10,000 idle sockets < 1 GB.
 */
import { execFileSync, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import WebSocket from 'ws';
import type { ParleyProcessConfig } from '../../test/helpers/processes';
import {
  FAST_PROCESS_CONFIG,
  freePort,
  type ProcessHandle,
  setUpWidgetAcross,
  startMongoProcess,
  startParleyProcess,
  startSlackSandboxProcess,
} from '../../test/helpers/processes';
import type { BenchLog } from './relay-slack';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : Number.NaN;
  return Number.isFinite(value) && value >= 0 ? value : fallback;
}

const VISITORS = Math.max(1, arg('visitors', 50));
const RATE = arg('rate', 200);
const REPLIES = arg('replies', 50);
const FLOOD = arg('flood', 1000);
const SECONDS = Math.max(1, arg('seconds', 10));
const IDLE = Math.min(arg('idle', 10_000), 20_000);
/** Visitor messages at the offered rate before the latency phase, not counted. */
const WARM_UP_SECONDS = 2;
/** How long the bench waits for the last message of a phase to arrive before it counts it lost. */
const DRAIN_MS = 60_000;
const PAGE = { url: 'https://bench.example.com/', title: 'Bench', referrer: '' };
const profileAt = process.argv.indexOf('--profile');
const PROFILE_DIR = profileAt >= 0 ? path.resolve(process.argv[profileAt + 1] ?? '.') : '';

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const ms = (n: number) => `${n.toFixed(1)} ms`;
const pct = (values: number[]) => `p50 ${ms(percentile(values, 50))}, p99 ${ms(percentile(values, 99))}`;
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
const sleep = (n: number) => new Promise((resolve) => setTimeout(resolve, n));
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU time (user + system) a process has used so far, in ms, from /proc/<pid>/stat. */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of proc(5): utime and stime, in clock ticks (field 3, the state, is fields[0]).
  return ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND) * 1000;
}

/** Resident memory of a process, in bytes, from /proc/<pid>/status. */
function rssBytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : Number.NaN;
}

/** CPU used by each watched process between `start()` and `stop()`. */
function cpuMeter(processes: Record<string, ProcessHandle>) {
  let at: Record<string, number> = {};
  return {
    start() {
      at = Object.fromEntries(Object.entries(processes).map(([name, p]) => [name, cpuMs(p.pid)]));
    },
    stop(): Record<string, number> {
      return Object.fromEntries(Object.entries(processes).map(([name, p]) => [name, cpuMs(p.pid) - (at[name] ?? 0)]));
    },
  };
}

type OpCounters = Record<'insert' | 'query' | 'update' | 'delete' | 'getmore' | 'command', number>;

/** Database operations between `start()` and `stop()`, from serverStatus's opcounters (mongod's, or the embedded store's). */
async function opsMeter(uri: string) {
  const client = await new MongoClient(uri).connect();
  const read = async () => (await client.db('admin').command({ serverStatus: 1 })).opcounters as OpCounters;
  let at: OpCounters | null = null;
  return {
    async start() {
      at = await read();
    },
    /** Operations per `per` (relayed messages): the total and by kind. */
    async stop(per: number): Promise<string> {
      const now = await read();
      const delta = Object.fromEntries(
        Object.entries(now).map(([k, v]) => [k, (v - (at?.[k as keyof OpCounters] ?? 0)) / Math.max(1, per)]),
      );
      const total = Object.values(delta).reduce((a, b) => a + b, 0);
      const parts = Object.entries(delta)
        .filter(([, v]) => v > 0.005)
        .map(([k, v]) => `${k} ${v.toFixed(2)}`)
        .join(', ');
      return `${total.toFixed(2)} (${parts})`;
    },
    close: () => client.close(),
  };
}

type Frame = { t: string; code?: string; visitorToken?: string; clientId?: string; message?: { text: string; from: string } };

function connect(wsUrl: string, onFrame: (f: Frame) => void): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl, { headers: { origin: 'http://bench.example.com' }, perMessageDeflate: false });
    ws.on('message', (data) => onFrame(JSON.parse(String(data)) as Frame));
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

/** Limits lifted so the bench measures Parley's cost: Slack's per-channel pace, visitors' and sockets' rates. */
const BENCH_CONFIG: ParleyProcessConfig = {
  passwordHashing: FAST_PROCESS_CONFIG.passwordHashing,
  rateLimits: FAST_PROCESS_CONFIG.rateLimits,
  relay: {
    slackPostsPerSecond: 1_000_000,
    slackBurst: 1_000_000,
    visitorMsgsPerMinute: 1_000_000,
    framesPer10s: 1_000_000,
    socketsPerIpPerMinute: 1_000_000,
    presenceRefreshMs: 3_600_000,
  },
};

async function main(): Promise<void> {
  console.log(`relay bench (load ${load()}): ${VISITORS} visitors; ${RATE} msgs/s and ${REPLIES} replies/s for ${SECONDS} s each,`);
  console.log(`  then ${FLOOD} msgs/s offered each way for ${SECONDS} s, then ${IDLE} idle sockets`);
  console.log("  Slack's per-channel pace (~1 post/s) is lifted in Parley and the sandbox: it is Slack's limit, not Parley's cost.");
  const stopping: ProcessHandle[] = [];
  let closeOps = async () => {};
  const closers: WebSocket[] = [];
  try {
    const mongo = await startMongoProcess();
    stopping.push(mongo);
    const port = await freePort();
    const slack = await startSlackSandboxProcess({ appUrl: `http://127.0.0.1:${port}`, entry: 'scripts/bench/relay-slack.ts' });
    stopping.push(slack);
    const parley = await startParleyProcess({
      mongodbUri: mongo.uri,
      dbName: `bench_${randomBytes(4).toString('hex')}`,
      slack,
      jwtSecret: randomBytes(32).toString('hex'),
      port,
      config: BENCH_CONFIG,
      name: 'parley',
      env: {
        ...(PROFILE_DIR ? { NODE_OPTIONS: `--import ${path.join(__dirname, 'cpu-profile.mjs')}`, CPU_PROFILE_DIR: PROFILE_DIR } : {}),
        // METRICS_TOKEN (metrics on, process metrics included) and LOG_LEVEL reach Parley's process when given.
        ...Object.fromEntries(['METRICS_TOKEN', 'LOG_LEVEL'].flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : []))),
      },
    });
    stopping.push(parley);
    const widget = await setUpWidgetAcross({ parleys: [parley], slack });
    const wsUrl = `${parley.url.replace(/^http/, 'ws')}/ws`;
    const cpu = cpuMeter({ parley, database: mongo, sandbox: slack });
    const ops = await opsMeter(mongo.uri);
    closeOps = ops.close;

    // What the sandbox saw: chat.postMessage texts with their arrival time, and event acknowledgement times.
    const postedAt = new Map<string, number>();
    const eventAcks: { ms: number; ok: boolean }[] = [];
    let reading = true;
    /** Visitor messages sent and not yet seen at Slack, and operator posts sent and not yet seen by a visitor. */
    const toSlackPending = new Set<string>();
    const toVisitorPending = new Set<string>();
    const reader = (async () => {
      while (reading) {
        try {
          const taken = (await (await fetch(`${slack.url}/bench/log`)).json()) as BenchLog;
          for (const p of taken.posts) {
            postedAt.set(p.text, p.at);
            toSlackPending.delete(p.text);
          }
          eventAcks.push(...taken.events);
        } catch {
          // The sandbox is busy (a flood): the log waits there for the next read.
        }
        await sleep(100);
      }
    })();

    const acked = new Map<string, number>();
    const ackSentAt = new Map<string, number>();
    const replyAt = new Map<string, number>();
    const replySentAt = new Map<string, number>();
    /** Error frames Parley sent, by code (a refused message is never acked; the bench says why). */
    const refusals = new Map<string, number>();
    const onFrame = (f: Frame) => {
      if (f.t === 'error') refusals.set(String(f.code), (refusals.get(String(f.code)) ?? 0) + 1);
      if (f.t === 'ack' && f.clientId) {
        const t0 = ackSentAt.get(f.clientId);
        if (t0 !== undefined) acked.set(f.clientId, performance.now() - t0);
      } else if (f.t === 'msg' && f.message?.from === 'operator' && replySentAt.has(f.message.text)) {
        replyAt.set(f.message.text, Date.now());
        toVisitorPending.delete(f.message.text);
      }
    };

    const visitors: WebSocket[] = [];
    for (let i = 0; i < VISITORS; i++) {
      const ws = await connect(wsUrl, onFrame);
      closers.push(ws);
      ws.send(JSON.stringify({ t: 'hello', widgetId: widget.uuid, lastSeq: 0, page: PAGE }));
      ws.send(JSON.stringify({ t: 'msg', clientId: `warmup-${i}-xxxx`, text: `warm-up ${i}` }));
      visitors.push(ws);
    }
    // A widget pings every 25 s; the bench's sockets do too, so none is closed as silent.
    const pinger = setInterval(() => {
      for (const ws of visitors) if (ws.readyState === ws.OPEN) ws.send('{"t":"ping"}');
    }, 10_000);
    const until = (done: () => boolean, timeoutMs: number) =>
      (async () => {
        const deadline = performance.now() + timeoutMs;
        while (!done() && performance.now() < deadline) await sleep(50);
      })();
    await until(() => [...Array(VISITORS).keys()].every((i) => postedAt.has(`warm-up ${i}`)), DRAIN_MS);
    const threads = (await slack.channelMessages(widget.channel)).filter((m) => m.isBot).map((m) => m.ts);
    if (threads.length < VISITORS) throw new Error(`only ${threads.length} of ${VISITORS} conversations got a Slack thread`);
    await sleep(1000);

    /**
     * Calls `send(i)` at `rate`/s for SECONDS, holding back while `pending()` has reached `cap` (a flood keeps the
     * queue bounded: the rate measured is what gets through, not how long a backlog takes to drain).
     */
    const offer = async (rate: number, cap: number, pending: () => number, send: (i: number) => void, seconds = SECONDS) => {
      const total = rate * seconds;
      const started = performance.now();
      let sent = 0;
      while (sent < total && performance.now() - started < seconds * 1000) {
        const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate));
        for (; sent < due && pending() < cap; sent++) send(sent);
        await sleep(2);
      }
      return sent;
    };

    /** Sends visitor messages; resolves with the texts sent and their wall-clock send times. */
    const sendVisitorMessages = async (prefix: string, rate: number, cap = Number.POSITIVE_INFINITY, seconds = SECONDS) => {
      const sentAt = new Map<string, number>();
      await offer(
        rate,
        cap,
        () => toSlackPending.size,
        (i) => {
          const text = `${prefix}-${i}`;
          const clientId = `${prefix}-${i}-xxxx`;
          ackSentAt.set(clientId, performance.now());
          sentAt.set(text, Date.now());
          toSlackPending.add(text);
          visitors[i % visitors.length].send(JSON.stringify({ t: 'msg', clientId, text }));
        },
        seconds,
      );
      return sentAt;
    };
    const ackTimes = (prefix: string) => [...acked].filter(([id]) => id.startsWith(`${prefix}-`)).map(([, t]) => t);

    /** Posts operator replies round the threads, one request per reply; resolves with the texts sent. */
    const sendReplies = async (prefix: string, rate: number, cap = Number.POSITIVE_INFINITY) => {
      const requests: Promise<unknown>[] = [];
      const texts: string[] = [];
      await offer(
        rate,
        cap,
        () => toVisitorPending.size,
        (i) => {
          const text = `${prefix}-${i}`;
          replySentAt.set(text, Date.now());
          toVisitorPending.add(text);
          texts.push(text);
          requests.push(
            fetch(`${slack.url}/bench/post`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ channel: widget.channel, threadTs: threads[i % threads.length], texts: [text] }),
            }).then(
              (r) => r.arrayBuffer(),
              () => undefined,
            ),
          );
        },
      );
      await Promise.all(requests);
      return texts;
    };

    // --------------------------------------------------------------- latency at RATE visitor messages/s
    // Warm-up at the same rate, not counted: the figures are the steady state's, not the JIT compiler's first second.
    const warmUp = await sendVisitorMessages('w', RATE, Number.POSITIVE_INFINITY, WARM_UP_SECONDS);
    await until(() => [...warmUp.keys()].every((t) => postedAt.has(t)), DRAIN_MS);
    await sleep(500);
    cpu.start();
    await ops.start();
    const phaseA = performance.now();
    const sentA = await sendVisitorMessages('a', RATE);
    await until(() => [...sentA.keys()].every((t) => postedAt.has(t)), DRAIN_MS);
    const cpuA = cpu.stop();
    const reachedA = [...sentA].filter(([t]) => postedAt.has(t));
    const opsA = await ops.stop(reachedA.length);
    const toSlack = reachedA.map(([t, at]) => (postedAt.get(t) ?? at) - at);
    console.log(
      `\nvisitor → Slack at ${RATE} msgs/s offered for ${SECONDS} s, after ${WARM_UP_SECONDS} s at that rate not counted (load ${load()}):`,
    );
    console.log(`  ${reachedA.length}/${sentA.size} reached Slack in ${((performance.now() - phaseA) / 1000).toFixed(1)} s`);
    if (refusals.size > 0) console.log(`  Parley refused frames: ${[...refusals].map(([code, n]) => `${code} ×${n}`).join(', ')}`);
    console.log(`  visitor frame → ack (stored): ${ackTimes('a').length} acked, ${pct(ackTimes('a'))}   goal p99 ≤ 20 ms`);
    console.log(`  visitor frame → Slack's chat.postMessage received: ${pct(toSlack)}   goal p99 ≤ 50 ms`);
    console.log(
      `  CPU per relayed message: Parley ${(cpuA.parley / Math.max(1, reachedA.length)).toFixed(2)} ms, database ${(cpuA.database / Math.max(1, reachedA.length)).toFixed(2)} ms, sandbox ${(cpuA.sandbox / Math.max(1, reachedA.length)).toFixed(2)} ms`,
    );
    console.log(`  database operations per relayed message: ${opsA}`);

    // ---------------------------------------------------------------- Slack → visitor at REPLIES/s
    await sleep(1000);
    eventAcks.length = 0;
    cpu.start();
    await ops.start();
    const textsB = await sendReplies('b', REPLIES);
    await until(() => textsB.every((t) => replyAt.has(t)), DRAIN_MS);
    await sleep(500);
    const cpuB = cpu.stop();
    const toVisitor = textsB.filter((t) => replyAt.has(t)).map((t) => (replyAt.get(t) ?? 0) - (replySentAt.get(t) ?? 0));
    const opsB = await ops.stop(toVisitor.length);
    console.log(`\nSlack → visitor at ${REPLIES} operator posts/s for ${SECONDS} s (load ${load()}):`);
    console.log(
      `  Slack's event delivery → Parley's 200 (event ack): ${pct(eventAcks.map((e) => e.ms))} over ${eventAcks.length} events (${eventAcks.filter((e) => !e.ok).length} not 2xx)   goal p99 ≤ 100 ms`,
    );
    console.log(
      `  operator post → visitor frame (the sandbox's delivery included): ${toVisitor.length}/${textsB.length}, ${pct(toVisitor)}`,
    );
    console.log(`  Parley's CPU per relayed reply: ${(cpuB.parley / Math.max(1, toVisitor.length)).toFixed(2)} ms`);
    console.log(`  database operations per relayed reply: ${opsB}`);

    // ------------------------------------------------------------------------- sustained, each way
    // Offered FLOOD/s with at most FLOOD on their way; what arrives within the SECONDS window counts.
    const windowMs = SECONDS * 1000;
    await sleep(1000);
    cpu.start();
    const phaseC = Date.now();
    const sentC = await sendVisitorMessages('c', FLOOD, FLOOD);
    await until(() => Date.now() >= phaseC + windowMs, windowMs);
    const cpuC = cpu.stop();
    const inWindowC = [...sentC.keys()].filter((t) => (postedAt.get(t) ?? Number.POSITIVE_INFINITY) <= phaseC + windowMs).length;
    console.log(`\nsustained, ${FLOOD} msgs/s offered for ${SECONDS} s, at most ${FLOOD} on their way (load ${load()}):`);
    console.log(
      `  visitor → Slack: ${inWindowC} reached Slack → ${((inWindowC * 1000) / windowMs).toFixed(0)} msgs/s (acks ${pct(ackTimes('c'))}); Parley ${(cpuC.parley / Math.max(1, inWindowC)).toFixed(2)} ms CPU/msg, database ${(cpuC.database / Math.max(1, inWindowC)).toFixed(2)} ms   goal ≥ 400 msgs/s`,
    );
    await until(() => toSlackPending.size === 0, DRAIN_MS);
    await sleep(1000);
    eventAcks.length = 0;
    cpu.start();
    const phaseD = Date.now();
    const textsD = await sendReplies('d', FLOOD, FLOOD);
    await until(() => Date.now() >= phaseD + windowMs, windowMs);
    const cpuD = cpu.stop();
    const inWindowD = textsD.filter((t) => (replyAt.get(t) ?? Number.POSITIVE_INFINITY) <= phaseD + windowMs).length;
    console.log(
      `  Slack → visitor: ${inWindowD} reached a visitor → ${((inWindowD * 1000) / windowMs).toFixed(0)} msgs/s (event acks ${pct(eventAcks.map((e) => e.ms))}); Parley ${(cpuD.parley / Math.max(1, inWindowD)).toFixed(2)} ms CPU/msg, sandbox ${(cpuD.sandbox / Math.max(1, inWindowD)).toFixed(2)} ms   goal ≥ 400 msgs/s`,
    );
    await until(() => toVisitorPending.size === 0, DRAIN_MS);
    clearInterval(pinger);
    reading = false;
    await reader;

    // ------------------------------------------------------------------------------- idle sockets
    for (const ws of visitors) ws.close();
    if (IDLE > 0) {
      // Idle visitors reuse a few visitor tokens so the figure is the sockets' cost, not 10,000 new visitor records.
      const tokens: string[] = [];
      for (let i = 0; i < 20; i++) {
        const token = await new Promise<string>((resolve, reject) => {
          void connect(wsUrl, (f) => {
            if (f.t === 'welcome' && f.visitorToken) resolve(f.visitorToken);
          }).then((ws) => {
            closers.push(ws);
            ws.send(JSON.stringify({ t: 'hello', widgetId: widget.uuid, lastSeq: 0, page: PAGE }));
          }, reject);
        });
        tokens.push(token);
      }
      await sleep(2000);
      const before = rssBytes(parley.pid);
      const clients = fork(path.join(__dirname, 'relay-idle-clients.ts'), [wsUrl, widget.uuid, String(IDLE), JSON.stringify(tokens)], {
        execArgv: ['--import', 'tsx'],
      });
      const welcomed = await new Promise<number>((resolve) => {
        clients.once('message', (m: { welcomed?: number }) => resolve(m.welcomed ?? 0));
        clients.once('exit', () => resolve(0));
      });
      await sleep(3000);
      const after = rssBytes(parley.pid);
      clients.kill();
      console.log(`\n${welcomed}/${IDLE} idle sockets welcomed by Parley (load ${load()}):`);
      console.log(
        `  Parley's process: rss ${mb(after)} (+${mb(after - before)} for the sockets), about ${((after - before) / Math.max(1, welcomed) / 1024).toFixed(1)} KB per socket   goal < 1 GB at 10,000`,
      );
    }
  } finally {
    for (const ws of closers) ws.terminate();
    await closeOps();
    for (const p of stopping.reverse()) await p.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
