/**
 * `[METRICS_TOKEN=… LOG_LEVEL=…] npx tsx scripts/bench/relay.ts [--visitors 50] [--rate 200] [--replies 50] [--flood 1000] [--seconds 10] [--idle 10000]
 *   [--new-rate 200] [--new-seconds 3] [--only new] [--in-process] [--profile dir]`
 *   (--only new: the new conversations row alone; --in-process: the `npm start` rows instead; --profile: Parley's
 *   process writes a V8 CPU profile into dir when it stops)
 *
 * Parley as a deployment runs it, each part its own process (test/helpers/processes.ts): the database, the Slack
 * sandbox (scripts/bench/relay-slack.ts: the sandbox with a stopwatch), Parley (as `npm start` runs it), and this
 * process as the load generator (visitors' WebSockets, operators' posts); the idle sockets' client ends live in one
 * more child (relay-idle-clients.ts). It measures:
 * - Parley's own CPU time per relayed message (from /proc/<pid>/stat of Parley's process; the database's is
 *   printed apart, it is another process) and the database operations per message (serverStatus opcounters);
 * - at `--rate` visitor messages/s offered: the visitor's ack (stored) p50/p99 and visitor frame → Slack's
 *   chat.postMessage received p50/p99 (timestamped by the sandbox);
 * - at `--replies` operator posts/s: Slack's event delivery → Parley's 200 (event ack) p50/p99 and operator post →
 *   visitor frame p50/p99;
 * - new conversations: `--new-rate` new visitors/s for `--new-seconds`, each sending its first line (a new
 *   conversation: visitor, presence, limits, counter, quota, header job, webhooks): the first line's ack p50/p99,
 *   Parley's CPU and the database operations per new conversation (until every first line reached Slack);
 * - sustained msg/s each way, offered `--flood` msg/s;
 * - Parley's memory with `--idle` idle visitor sockets.
 * `--in-process` runs Parley as `npm start` does instead (the embedded store and the Slack sandbox, with Slack's real
 * limits, in Parley's one process, so their CPU counts too): 100 new conversations/s for 3 s, then 500 visitors whose
 * first lines come at 100/s, each followed by two later lines (1 s and 2 s after its first): ack p99 over all lines.
 * The report prints CPU and operation counts first (they must hold in every run), then latencies and throughput
 * (judged at load ≤ 1), each beside its goal (issue #21; #14 for those it kept), with the machine's load.
 * Slack's per-channel pace (about one post a second per channel) is lifted in Parley and in the sandbox: it is Slack's
 * limit, not Parley's cost.
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import WebSocket from 'ws';
import type { ParleyProcessConfig } from '../../test/helpers/processes';
import { FAST_PROCESS_CONFIG, type ProcessHandle, setUpWidgetAcross, startParleyProcess } from '../../test/helpers/processes';
import { load, numberArg, percentile, processCpuMs, sleep } from './figures';
import type { BenchLog } from './relay-slack';
import { PROFILE_DIR, startBenchStack } from './stack';

const arg = (name: string, fallback: number) => numberArg(name, fallback);

const VISITORS = Math.max(1, arg('visitors', 50));
const RATE = arg('rate', 200);
const REPLIES = arg('replies', 50);
const FLOOD = arg('flood', 1000);
const SECONDS = Math.max(1, arg('seconds', 10));
const IDLE = Math.min(arg('idle', 10_000), 20_000);
const NEW_RATE = Math.max(1, arg('new-rate', 200));
const NEW_SECONDS = Math.max(1, arg('new-seconds', 3));
const ONLY_NEW = process.argv.includes('--only') && process.argv[process.argv.indexOf('--only') + 1] === 'new';
const IN_PROCESS = process.argv.includes('--in-process');
/** Visitor messages at the offered rate before the latency phase, not counted. */
const WARM_UP_SECONDS = 2;
/** How long the bench waits for the last message of a phase to arrive before it counts it lost. */
const DRAIN_MS = 60_000;
const PAGE = { url: 'https://bench.example.com/', title: 'Bench', referrer: '' };
/** Where Parley's process reports its memory after a forced collection (gc-on-signal.mjs). */
const GC_FILE = path.join(os.tmpdir(), `relay-bench-gc-${process.pid}.json`);

/** Counts by name, each divided by `n`, the largest first: `chat.postMessage 1.00, …`. */
const perEach = (counts: Record<string, number>, n: number) =>
  Object.entries(counts)
    .sort((a, b) => b[1] - a[1])
    .map(([name, count]) => `${name} ${(count / Math.max(1, n)).toFixed(2)}`)
    .join(', ') || 'none';
const ms = (n: number) => `${n.toFixed(1)} ms`;
const pct = (values: number[]) => `p50 ${ms(percentile(values, 50))}, p99 ${ms(percentile(values, 99))}`;
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

/**
 * What the bench found, printed at the end: CPU and operation counts first (they hold whatever the load), then
 * latencies and throughput (judged at load ≤ 1), each beside its goal.
 */
const report = { costs: [] as string[], latencies: [] as string[] };
const goal = (text: string) => `   goal ${text}`;
/**
 * Issue #32's goals, each beside its figure before the typed outbox's jobs were stored claimed (main at e05acd3, as
 * the issue and docs/relay-performance.md give them): operation counts from test/relay/message-cost.spec.ts and
 * new-conversation-cost.spec.ts (one message alone, no load); CPU per line and reply from the bench's full run on
 * 26 November 2026 at load 1.4–1.5; the `npm start` figures from `--in-process` at load 1.9 (issue #32).
 */
const TODAY = {
  lineOps: '7 (a line alone, 26 Nov 2026)',
  replyOps: '6 (a reply alone, 26 Nov 2026)',
  newConversationOps: '15 (one alone, 26 Nov 2026; 16.3 in the bench at load 1.1–1.6)',
  lineCpu: '2.76 ms (26 Nov 2026, load 1.5)',
  replyCpu: '4.25 ms (26 Nov 2026, load 1.4)',
  inProcessNewCpu: '10 ms (issue #32, load 1.9)',
  inProcessNewP99: 'p99 156 ms at 100/s (issue #32, load 1.9)',
};
const goal32 = (text: string, today: string) => `   goal ${text}; today ${today}`;
function printReport(): void {
  console.log(`\nCPU and database operations (hold in every run):`);
  for (const line of report.costs) console.log(`  ${line}`);
  console.log(`\nlatencies and throughput (judged at load ≤ 1):`);
  for (const line of report.latencies) console.log(`  ${line}`);
  console.log(`\nmachine: ${os.cpus().length} cores, load ${load()} at the end`);
}

/** Resident memory of a process, in bytes, from /proc/<pid>/status. */
function rssBytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : Number.NaN;
}

type Memory = { rss: number; heapUsed: number; external: number };

/** Parley's memory right after a full collection it ran on SIGUSR2 (scripts/bench/gc-on-signal.mjs). */
async function collected(pid: number): Promise<Memory> {
  const asked = Date.now();
  process.kill(pid, 'SIGUSR2');
  for (let i = 0; i < 200; i++) {
    await sleep(50);
    try {
      const report = JSON.parse(readFileSync(GC_FILE, 'utf8')) as Memory & { at: number };
      if (report.at >= asked) return { rss: rssBytes(pid), heapUsed: report.heapUsed, external: report.external };
    } catch {
      // Not written yet.
    }
  }
  throw new Error("Parley's process did not report its memory after a collection");
}

/** CPU used by each watched process between `start()` and `stop()`. */
function cpuMeter(processes: Record<string, ProcessHandle>) {
  let at: Record<string, number> = {};
  return {
    start() {
      at = Object.fromEntries(Object.entries(processes).map(([name, p]) => [name, processCpuMs(p.pid)]));
    },
    stop(): Record<string, number> {
      return Object.fromEntries(Object.entries(processes).map(([name, p]) => [name, processCpuMs(p.pid) - (at[name] ?? 0)]));
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

/** A new visitor's socket (hello without a visitor token), once Parley welcomed it. */
function welcomedVisitor(wsUrl: string, widgetId: string, onFrame: (f: Frame) => void): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    let ws: WebSocket | null = null;
    connect(wsUrl, (f) => {
      if (f.t === 'welcome' && ws) resolve(ws);
      onFrame(f);
    }).then((opened) => {
      ws = opened;
      ws.send(JSON.stringify({ t: 'hello', widgetId, lastSeq: 0, page: PAGE }));
    }, reject);
  });
}

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
  let closeOps = async () => {};
  const closers: WebSocket[] = [];
  const { mongo, slack, parley, widget, stop } = await startBenchStack({
    config: BENCH_CONFIG,
    slackEntry: 'scripts/bench/relay-slack.ts',
    imports: [path.join(__dirname, 'gc-on-signal.mjs')],
    env: {
      GC_REPORT_FILE: GC_FILE,
      // METRICS_TOKEN (metrics on, process metrics included) and LOG_LEVEL reach Parley's process when given.
      ...Object.fromEntries(['METRICS_TOKEN', 'LOG_LEVEL'].flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : []))),
    },
  });
  try {
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
    /** The Web API calls the sandbox answered since the last call of this, by method. */
    const slackCalls = async () => (await (await fetch(`${slack.url}/bench/calls`)).json()) as Record<string, number>;
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

    // ------------------------------------------------------------------------------ new conversations
    /**
     * `rate` new visitors/s for `seconds`, each (welcomed beforehand, so the hello is not counted) sending its first
     * line: a new conversation each. Resolves when every first line reached Slack.
     */
    const newConversations = async (prefix: string, rate: number, seconds: number) => {
      const count = rate * seconds;
      const fresh: WebSocket[] = [];
      for (let i = 0; i < count; i += 50) {
        const batch = await Promise.all(
          Array.from({ length: Math.min(50, count - i) }, () => welcomedVisitor(wsUrl, widget.uuid, onFrame)),
        );
        fresh.push(...batch);
      }
      closers.push(...fresh);
      const texts: string[] = [];
      const first = (i: number) => {
        const text = `${prefix}-${i}`;
        texts.push(text);
        ackSentAt.set(`${text}-xxxx`, performance.now());
        fresh[i].send(JSON.stringify({ t: 'msg', clientId: `${text}-xxxx`, text }));
      };
      // The last one or two the clock's rounding left are sent at once: every visitor sends its first line.
      for (let i = await offer(rate, Number.POSITIVE_INFINITY, () => 0, first, seconds); i < count; i++) first(i);
      await until(() => texts.every((t) => postedAt.has(t)), DRAIN_MS);
      return { texts, reached: texts.filter((t) => postedAt.has(t)).length, sockets: fresh };
    };
    // Not counted: the first new conversations at that rate (the JIT compiler's first second, as for messages).
    const warmNew = await newConversations('nw', NEW_RATE, 1);
    for (const ws of warmNew.sockets) ws.close();
    await sleep(1000);
    cpu.start();
    await ops.start();
    await slackCalls();
    const burst = await newConversations('n', NEW_RATE, NEW_SECONDS);
    const cpuN = cpu.stop();
    const opsN = await ops.stop(burst.reached);
    const callsN = await slackCalls();
    for (const ws of burst.sockets) ws.close();
    const loadN = load();
    console.log(`new conversations at ${NEW_RATE}/s: ${burst.reached}/${burst.texts.length} first lines reached Slack (load ${loadN})`);
    if (refusals.size > 0) console.log(`  Parley refused frames: ${[...refusals].map(([code, n]) => `${code} ×${n}`).join(', ')}`);
    report.costs.unshift(
      `new conversation (${NEW_RATE}/s for ${NEW_SECONDS} s, until its first line is in Slack): Parley ${(cpuN.parley / Math.max(1, burst.reached)).toFixed(2)} ms CPU${goal('≤ 3 ms')}; database process ${(cpuN.database / Math.max(1, burst.reached)).toFixed(2)} ms, sandbox ${(cpuN.sandbox / Math.max(1, burst.reached)).toFixed(2)} ms`,
      `new conversation: database operations ${opsN}${goal32('≤ 11', TODAY.newConversationOps)}`,
      `new conversation: Slack calls ${perEach(callsN, burst.reached)}`,
    );
    report.latencies.unshift(
      `first line of a new conversation → ack at ${NEW_RATE}/s for ${NEW_SECONDS} s: ${ackTimes('n').length}/${burst.texts.length} acked, ${pct(ackTimes('n'))}${goal('p99 ≤ 50 ms')} (load ${loadN})`,
    );

    if (!ONLY_NEW) {
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
      const loadA = load();
      console.log(`visitor → Slack at ${RATE} msgs/s: ${reachedA.length}/${sentA.size} reached Slack (load ${loadA})`);
      if (refusals.size > 0) console.log(`  Parley refused frames: ${[...refusals].map(([code, n]) => `${code} ×${n}`).join(', ')}`);
      report.costs.push(
        `visitor line (${RATE} msgs/s): Parley ${(cpuA.parley / Math.max(1, reachedA.length)).toFixed(2)} ms CPU${goal32('≤ 2 ms', TODAY.lineCpu)}; database process ${(cpuA.database / Math.max(1, reachedA.length)).toFixed(2)} ms, sandbox ${(cpuA.sandbox / Math.max(1, reachedA.length)).toFixed(2)} ms`,
        `visitor line: database operations ${opsA}${goal32('≤ 5', TODAY.lineOps)}`,
      );
      report.latencies.push(
        `visitor frame → ack (stored) at ${RATE} msgs/s for ${SECONDS} s: ${ackTimes('a').length}/${sentA.size} acked, ${pct(ackTimes('a'))}${goal('p99 ≤ 20 ms')} (load ${loadA})`,
        `visitor frame → Slack's chat.postMessage received: ${reachedA.length}/${sentA.size} in ${((performance.now() - phaseA) / 1000).toFixed(1)} s, ${pct(toSlack)}${goal('p99 ≤ 50 ms')}`,
      );

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
      const loadB = load();
      console.log(`Slack → visitor at ${REPLIES} operator posts/s: ${toVisitor.length}/${textsB.length} reached a visitor (load ${loadB})`);
      report.costs.push(
        `operator reply (${REPLIES} posts/s): Parley ${(cpuB.parley / Math.max(1, toVisitor.length)).toFixed(2)} ms CPU${goal32('≤ 3 ms', TODAY.replyCpu)}`,
        `operator reply: database operations ${opsB}${goal32('≤ 5', TODAY.replyOps)}`,
      );
      report.latencies.push(
        `Slack's event delivery → Parley's 200 (event ack) at ${REPLIES} posts/s: ${pct(eventAcks.map((e) => e.ms))} over ${eventAcks.length} events (${eventAcks.filter((e) => !e.ok).length} not 2xx)${goal('p99 ≤ 100 ms')} (load ${loadB})`,
        `operator post → visitor frame (the sandbox's delivery included): ${toVisitor.length}/${textsB.length}, ${pct(toVisitor)}`,
      );

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
      const loadC = load();
      console.log(`sustained visitor → Slack, ${FLOOD} msgs/s offered: ${inWindowC} in ${SECONDS} s (load ${loadC})`);
      report.latencies.push(
        `sustained visitor → Slack (${FLOOD} msgs/s offered for ${SECONDS} s, at most ${FLOOD} on their way): ${((inWindowC * 1000) / windowMs).toFixed(0)} msgs/s (acks ${pct(ackTimes('c'))}; Parley ${(cpuC.parley / Math.max(1, inWindowC)).toFixed(2)} ms CPU/msg, database ${(cpuC.database / Math.max(1, inWindowC)).toFixed(2)} ms)${goal('≥ 400 msgs/s')} (load ${loadC})`,
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
      const loadD = load();
      console.log(`sustained Slack → visitor, ${FLOOD} msgs/s offered: ${inWindowD} in ${SECONDS} s (load ${loadD})`);
      report.latencies.push(
        `sustained Slack → visitor: ${((inWindowD * 1000) / windowMs).toFixed(0)} msgs/s (event acks ${pct(eventAcks.map((e) => e.ms))}; Parley ${(cpuD.parley / Math.max(1, inWindowD)).toFixed(2)} ms CPU/msg, sandbox ${(cpuD.sandbox / Math.max(1, inWindowD)).toFixed(2)} ms)${goal('≥ 600 msgs/s')} (load ${loadD})`,
      );
      await until(() => toVisitorPending.size === 0, DRAIN_MS);
    }
    clearInterval(pinger);
    reading = false;
    await reader;

    // ------------------------------------------------------------------------------- idle sockets
    for (const ws of visitors) ws.close();
    if (IDLE > 0 && !ONLY_NEW) {
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
      const before = await collected(parley.pid);
      const clients = fork(path.join(__dirname, 'relay-idle-clients.ts'), [wsUrl, widget.uuid, String(IDLE), JSON.stringify(tokens)], {
        execArgv: ['--import', 'tsx'],
      });
      const welcomed = await new Promise<number>((resolve) => {
        clients.once('message', (m: { welcomed?: number }) => resolve(m.welcomed ?? 0));
        clients.once('exit', () => resolve(0));
      });
      await sleep(3000);
      const unforced = rssBytes(parley.pid) - before.rss;
      const after = await collected(parley.pid);
      clients.kill();
      const each = (bytes: number) => `${(bytes / Math.max(1, welcomed) / 1024).toFixed(1)} KB`;
      report.latencies.push(
        `${welcomed}/${IDLE} idle sockets, after a forced collection: Parley's rss ${mb(after.rss)} (+${mb(after.rss - before.rss)} for the sockets), ${each(after.rss - before.rss)} per socket${goal('≤ 10 KB each')}; heap and external +${each(after.heapUsed + after.external - before.heapUsed - before.external)} per socket; before collecting, +${each(unforced)} per socket (load ${load()})`,
      );
    }
    printReport();
  } finally {
    rmSync(GC_FILE, { force: true });
    for (const ws of closers) ws.terminate();
    await closeOps();
    await stop();
  }
}

/**
 * `--in-process`: Parley as `npm start` runs it, the embedded store and the Slack sandbox (Slack's real limits on) in
 * its one process, so their CPU counts too. Visitors' own limits are lifted (the bench is one IP).
 */
async function inProcess(): Promise<void> {
  const newRate = Math.max(1, arg('new-rate', 100));
  const firstRate = 100;
  const crowd = 500;
  console.log(`relay bench, npm start-like (load ${load()}): ${newRate} new conversations/s for ${NEW_SECONDS} s,`);
  console.log(`  then ${crowd} visitors whose first lines come at ${firstRate}/s, each followed by 2 later lines (1 s and 2 s after it)`);
  const closers: WebSocket[] = [];
  const slackOff = { apiUrl: undefined, oauthUrl: undefined, credentials: { clientId: '', clientSecret: '', signingSecret: '' } };
  const parley = await startParleyProcess({
    mongodbUri: '',
    dbName: '',
    slack: slackOff as unknown as Parameters<typeof startParleyProcess>[0]['slack'], // unset: the in-process sandbox
    jwtSecret: randomBytes(32).toString('hex'),
    config: {
      passwordHashing: FAST_PROCESS_CONFIG.passwordHashing,
      rateLimits: FAST_PROCESS_CONFIG.rateLimits,
      relay: { ...BENCH_CONFIG.relay, slackPostsPerSecond: undefined, slackBurst: undefined } as ParleyProcessConfig['relay'],
    },
    name: 'parley',
    env: {
      // Undefined variables are left out of the child's environment: no database URI and no Slack app, as `npm start`.
      NODE_ENV: undefined,
      MONGODB_URI: undefined,
      SLACK_CLIENT_ID: undefined,
      SLACK_CLIENT_SECRET: undefined,
      SLACK_SIGNING_SECRET: undefined,
      SLACK_API_URL: undefined,
      SLACK_OAUTH_URL: undefined,
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      ...(PROFILE_DIR ? { NODE_OPTIONS: `--import ${path.join(__dirname, 'cpu-profile.mjs')}`, CPU_PROFILE_DIR: PROFILE_DIR } : {}),
    },
  });
  try {
    const widget = await setUpWidgetAcross({ parleys: [parley], slack: undefined as never });
    const wsUrl = `${parley.url.replace(/^http/, 'ws')}/ws`;
    const acked = new Map<string, number>();
    const sentAt = new Map<string, number>();
    const refusals = new Map<string, number>();
    const onFrame = (f: Frame) => {
      if (f.t === 'error') refusals.set(String(f.code), (refusals.get(String(f.code)) ?? 0) + 1);
      if (f.t === 'ack' && f.clientId && sentAt.has(f.clientId)) acked.set(f.clientId, performance.now() - (sentAt.get(f.clientId) ?? 0));
    };
    /** Lines are named by their text; the clientId adds what the widget protocol's minimum length asks. */
    const id = (text: string) => `${text}-xxxx`;
    const send = (ws: WebSocket, text: string) => {
      sentAt.set(id(text), performance.now());
      ws.send(JSON.stringify({ t: 'msg', clientId: id(text), text }));
    };
    const visitorsOf = async (count: number) => {
      const sockets: WebSocket[] = [];
      for (let i = 0; i < count; i += 50) {
        sockets.push(
          ...(await Promise.all(Array.from({ length: Math.min(50, count - i) }, () => welcomedVisitor(wsUrl, widget.uuid, onFrame)))),
        );
      }
      closers.push(...sockets);
      return sockets;
    };
    const times = (prefix: string) => [...acked].filter(([id]) => id.startsWith(prefix)).map(([, t]) => t);
    const waitAcks = async (texts: string[]) => {
      const deadline = performance.now() + DRAIN_MS;
      while (!texts.every((t) => acked.has(id(t))) && performance.now() < deadline) await sleep(50);
    };
    /** Sends `texts.length` lines at `rate`/s, line i by `send(i)`. */
    const paced = async (count: number, rate: number, sendOne: (i: number) => void) => {
      const started = performance.now();
      for (let sent = 0; sent < count; ) {
        const due = Math.min(count, Math.floor(((performance.now() - started) / 1000) * rate) + 1);
        for (; sent < due; sent++) sendOne(sent);
        await sleep(2);
      }
    };

    // Warm-up, not counted: a second of new conversations at the rate.
    const warm = await visitorsOf(newRate);
    await paced(warm.length, newRate, (i) => send(warm[i], `warm-${i}`));
    await waitAcks(warm.map((_, i) => `warm-${i}`));
    await sleep(2000);

    const fresh = await visitorsOf(newRate * NEW_SECONDS);
    const cpuAt = processCpuMs(parley.pid);
    await paced(fresh.length, newRate, (i) => send(fresh[i], `new-${i}`));
    await waitAcks(fresh.map((_, i) => `new-${i}`));
    const cpuNew = processCpuMs(parley.pid) - cpuAt;
    const loadNew = load();
    await sleep(2000);

    const people = await visitorsOf(crowd);
    const later: Promise<void>[] = [];
    const cpuCrowdAt = processCpuMs(parley.pid);
    await paced(people.length, firstRate, (i) => {
      send(people[i], `first-${i}`);
      later.push(
        (async () => {
          for (const k of [1, 2]) {
            await sleep(1000);
            send(people[i], `later-${k}-${i}`);
          }
        })(),
      );
    });
    await Promise.all(later);
    const all = people.flatMap((_, i) => [`first-${i}`, `later-1-${i}`, `later-2-${i}`]);
    await waitAcks(all);
    const cpuCrowd = processCpuMs(parley.pid) - cpuCrowdAt;
    const loadCrowd = load();
    if (refusals.size > 0) console.log(`  Parley refused frames: ${[...refusals].map(([code, n]) => `${code} ×${n}`).join(', ')}`);
    report.costs.push(
      `new conversation (${newRate}/s for ${NEW_SECONDS} s, until acked; the store's and the sandbox's work in the same process): Parley ${(cpuNew / Math.max(1, times('new-').length)).toFixed(2)} ms CPU${goal32('≤ 5 ms', TODAY.inProcessNewCpu)}`,
      `${crowd} visitors, 3 lines each: Parley ${(cpuCrowd / Math.max(1, all.length)).toFixed(2)} ms CPU per line (until acked)`,
    );
    report.latencies.push(
      `first line of a new conversation → ack at ${newRate}/s for ${NEW_SECONDS} s: ${times('new-').length}/${fresh.length} acked, ${pct(times('new-'))}${goal32('p99 ≤ 50 ms', TODAY.inProcessNewP99)} (load ${loadNew})`,
      `${crowd} visitors, first lines at ${firstRate}/s then their later lines: ${all.filter((t) => acked.has(id(t))).length}/${all.length} acked, all lines ${pct(all.flatMap((t) => acked.get(id(t)) ?? []))}${goal('every line acked, p99 ≤ 100 ms')} (load ${loadCrowd})`,
      `  first lines ${pct(times('first-'))}, later lines ${pct(times('later-'))}`,
    );
    printReport();
  } finally {
    for (const ws of closers) ws.terminate();
    await parley.stop();
  }
}

(IN_PROCESS ? inProcess() : main()).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
