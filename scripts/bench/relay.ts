/**
 * `npx tsx scripts/bench/relay.ts [--visitors 50] [--rate 200] [--seconds 10] [--replies 20] [--idle 10000]`
 *
 * Runs Parley (embedded MongoDB, Slack sandbox, loopback only) with simulated visitors and prints:
 * messages per second, Parley's added latency visitor frame → Slack chat.postMessage call and Slack event →
 * visitor frame (p50/p99), then the memory held per idle visitor socket and the sockets held.
 * The per-channel Slack pace (about 1 post/s at real Slack) is lifted here: it is Slack's limit, not Parley's cost.
 * The sandbox does not write its state file during the run (its cost, not Parley's).
 * The idle sockets' client ends live in a child process (scripts/bench/relay-idle-clients.ts), so the memory
 * figure is Parley's own (its process also holds the embedded database, which idle sockets barely touch).
 */
import { fork } from 'node:child_process';
import path from 'node:path';
import WebSocket from 'ws';
import type { ApiCall } from '../../server/sandbox/slack/types';
import { ACME, ALICE, PAGE, setUpRelayWidget, startRelayServer } from '../../test/relay/helpers';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(value) && value >= 0 ? value : fallback;
}

const VISITORS = arg('visitors', 50);
const RATE = arg('rate', 200);
const SECONDS = arg('seconds', 10);
const REPLIES = arg('replies', 20);
const IDLE = Math.min(arg('idle', 10_000), 20_000);

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const ms = (n: number) => `${n.toFixed(1)} ms`;
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
const sleep = (n: number) => new Promise((resolve) => setTimeout(resolve, n));

type Frame = { t: string; visitorToken?: string; clientId?: string; message?: { text: string; from: string } };

function connect(wsUrl: string, onFrame: (f: Frame) => void): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl, { headers: { origin: 'http://bench.example.com' }, perMessageDeflate: false });
    ws.on('message', (data) => onFrame(JSON.parse(String(data)) as Frame));
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

async function main(): Promise<void> {
  const server = await startRelayServer({
    relay: {
      slackPostsPerSecond: 100_000,
      slackBurst: 100_000,
      visitorMsgsPerMinute: 100_000,
      framesPer10s: 100_000,
      socketsPerIpPerMinute: 1_000_000,
      presenceRefreshMs: 3_600_000,
      outboxPollMs: 200,
    },
  });
  const closers: WebSocket[] = [];
  try {
    const widget = await setUpRelayWidget(server);
    const wsUrl = `${server.url.replace(/^http/, 'ws')}/ws`;

    const sentAt = new Map<string, number>();
    const toSlack: number[] = [];
    const state = server.slack.state;
    // The stand-in rewrites its whole state file after every change; that is the sandbox's cost, not Parley's.
    state.saveNow = () => undefined;
    const logCall = state.logCall.bind(state);
    state.logCall = (call: ApiCall) => {
      const text = typeof call.args.text === 'string' ? call.args.text : '';
      const t0 = call.method === 'chat.postMessage' ? sentAt.get(text) : undefined;
      if (t0 !== undefined) {
        toSlack.push(call.at - t0);
        sentAt.delete(text);
      }
      logCall(call);
    };

    const replyAt = new Map<string, number>();
    const toVisitor: number[] = [];
    const ackAt = new Map<string, number>();
    const acks: number[] = [];
    const onFrame = (f: Frame) => {
      if (f.t === 'ack' && f.clientId) {
        const t0 = ackAt.get(f.clientId);
        if (t0 !== undefined) acks.push(performance.now() - t0);
        ackAt.delete(f.clientId);
        return;
      }
      if (f.t !== 'msg' || f.message?.from !== 'operator') return;
      const t0 = replyAt.get(f.message.text);
      if (t0 !== undefined) {
        toVisitor.push(performance.now() - t0);
        replyAt.delete(f.message.text);
      }
    };

    console.log(
      `relay bench: ${VISITORS} visitors, ${RATE} msgs/s for ${SECONDS} s, ${REPLIES} operator replies/s, then ${IDLE} idle sockets`,
    );
    const visitors: { ws: WebSocket; threadTs: string }[] = [];
    for (let i = 0; i < VISITORS; i++) {
      const ws = await connect(wsUrl, onFrame);
      closers.push(ws);
      ws.send(JSON.stringify({ t: 'hello', widgetId: widget.uuid, lastSeq: 0, page: PAGE }));
      ws.send(JSON.stringify({ t: 'msg', clientId: `warmup-${i}-xxxx`, text: `warm-up ${i}` }));
      visitors.push({ ws, threadTs: '' });
    }
    for (let tries = 0; tries < 600; tries++) {
      const open = await server.models.Conversation.find({ ceId: widget.ceId, threadTs: { $ne: '' } }).sort({ number: 1 });
      if (open.length >= VISITORS) {
        open.forEach((c, i) => {
          if (visitors[i]) visitors[i].threadTs = c.threadTs;
        });
        break;
      }
      await sleep(100);
    }
    // Which thread belongs to which socket does not matter: each reply is timed when any visitor receives it.
    await sleep(500);

    const total = RATE * SECONDS;
    const started = performance.now();
    const base = Date.now() - performance.now();
    let sent = 0;
    let replies = 0;
    const replyEvery = REPLIES > 0 ? RATE / REPLIES : Infinity;
    while (sent < total) {
      const due = Math.floor(((performance.now() - started) / 1000) * RATE);
      while (sent < Math.min(due, total)) {
        const v = visitors[sent % visitors.length];
        const text = `b-${sent}`;
        sentAt.set(text, base + performance.now());
        ackAt.set(`bench-${sent}-xxxx`, performance.now());
        v.ws.send(JSON.stringify({ t: 'msg', clientId: `bench-${sent}-xxxx`, text }));
        if (sent % replyEvery < 1 && v.threadTs) {
          const reply = `o-${replies++}`;
          replyAt.set(reply, performance.now());
          void server.slack.postAsUser({ teamId: ACME, userId: ALICE, channelId: widget.channel, threadTs: v.threadTs, text: reply });
        }
        sent += 1;
      }
      await sleep(2);
    }
    const deadline = performance.now() + 30_000;
    while ((sentAt.size > 0 || replyAt.size > 0) && performance.now() < deadline) await sleep(50);
    const elapsed = (performance.now() - started) / 1000;
    console.log(
      `messages: ${toSlack.length}/${total} reached Slack in ${elapsed.toFixed(1)} s → ${(toSlack.length / elapsed).toFixed(0)} msgs/s`,
    );
    console.log(`visitor frame → ack (stored): p50 ${ms(percentile(acks, 50))}, p99 ${ms(percentile(acks, 99))}`);
    console.log(`visitor → Slack call: p50 ${ms(percentile(toSlack, 50))}, p99 ${ms(percentile(toSlack, 99))}`);
    console.log(
      `Slack event → visitor frame (from the operator's post, sandbox delivery included): ${toVisitor.length}/${replies} p50 ${ms(percentile(toVisitor, 50))}, p99 ${ms(percentile(toVisitor, 99))}`,
    );

    for (const v of visitors) v.ws.close();
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
      global.gc?.();
      await sleep(500);
      const before = process.memoryUsage();
      const clients = fork(path.join(__dirname, 'relay-idle-clients.ts'), [wsUrl, widget.uuid, String(IDLE), JSON.stringify(tokens)], {
        execArgv: ['--import', 'tsx'],
      });
      const welcomed = await new Promise<number>((resolve) => {
        clients.once('message', (m: { welcomed?: number }) => resolve(m.welcomed ?? 0));
        clients.once('exit', () => resolve(0));
      });
      global.gc?.();
      await sleep(1000);
      const after = process.memoryUsage();
      const held = server.parley.relay.gateway.socketCount;
      clients.kill();
      console.log(`idle sockets held by Parley: ${held} (${welcomed} welcomed)`);
      console.log(
        `Parley's memory with ${held} idle sockets: rss +${mb(after.rss - before.rss)} (process total ${mb(after.rss)}, embedded database included), heap +${mb(after.heapUsed - before.heapUsed)}; about ${((after.rss - before.rss) / Math.max(1, held) / 1024).toFixed(1)} KB per socket`,
      );
    }
  } finally {
    for (const ws of closers) ws.terminate();
    await server.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
