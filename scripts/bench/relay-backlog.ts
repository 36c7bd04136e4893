/**
 * `npx tsx scripts/bench/relay-backlog.ts [--only idle|five|burst] [--drain-seconds 60] [--burst-visitors 200] [--burst-wait 300]`
 *
 * What a Slack backlog costs Parley, at Slack's real pace (1 post/s per channel, burst 3, as in production):
 *  (a) idle backlog: 2,000 Slack posts queued for one channel (200 keys × 10, stored straight into the outbox),
 *      nobody connected; Parley's CPU (% of one core) and memory (RSS, heap) sampled each second while it drains;
 *  (b) five visitors in one channel, each writing every 2 s for 40 s: visitor → Slack delay (worst, p50);
 *  (c) a burst: 200 visitors with open threads in one channel send 10 lines each at once: worst visitor → Slack delay.
 * A line counts as arrived when a chat.postMessage into its thread carries its text (one post may carry several).
 * The Slack sandbox enforces Slack's own limits (429 with Retry-After) except while the burst's threads are opened.
 * Caveat: Parley runs in this process with the Slack sandbox it talks to (as the tests run it); at 1 post/s the
 * sandbox's share is one small HTTP call a second, and the sandbox's state file writes are switched off.
 */
import os from 'node:os';
import WebSocket from 'ws';
import { DEFAULT_RELAY_TUNING } from '../../server/relay/tuning';
import type { ApiCall } from '../../server/sandbox/slack/types';
import { ACME, PAGE, setUpRelayWidget, startRelayServer } from '../../test/relay/helpers';
import { load, numberArg, percentile, sleep } from './figures';

const arg = (name: string, fallback: number) => numberArg(name, fallback);
const only = (() => {
  const i = process.argv.indexOf('--only');
  return i >= 0 ? process.argv[i + 1] : '';
})();
const DRAIN_SECONDS = arg('drain-seconds', 60);
const BURST_VISITORS = arg('burst-visitors', 200);
const BURST_WAIT_S = arg('burst-wait', 300);

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
const s = (n: number) => `${(n / 1000).toFixed(1)} s`;

type Frame = { t: string };

function connect(wsUrl: string, widgetId: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl, { headers: { origin: 'http://bench.example.com' }, perMessageDeflate: false });
    ws.on('message', (data) => {
      const f = JSON.parse(String(data)) as Frame;
      if (f.t === 'welcome') resolve(ws);
    });
    ws.once('open', () => ws.send(JSON.stringify({ t: 'hello', widgetId, lastSeq: 0, page: PAGE })));
    ws.once('error', reject);
  });
}

async function main(): Promise<void> {
  console.log(`relay backlog bench, load average ${load()} (${os.cpus().length} cores)`);
  const server = await startRelayServer({
    relay: {
      ...DEFAULT_RELAY_TUNING,
      visitorMsgsPerMinute: 100_000,
      framesPer10s: 100_000,
      socketsPerIpPerMinute: 1_000_000,
      presenceRefreshMs: 3_600_000,
    },
  });
  const relay = server.parley.relay;
  const tuning = relay.tuning;
  const state = server.slack.state;
  state.saveNow = () => undefined;
  // Lines waiting for Slack, by text → time sent; a post into a thread settles every line its text holds.
  const waiting = new Map<string, number>();
  const delays: number[] = [];
  let posts = 0;
  const logCall = state.logCall.bind(state);
  state.logCall = (call: ApiCall) => {
    // Slack refused it (429, an outage): its lines have not arrived.
    if (call.method === 'chat.postMessage' && call.status === 200) {
      posts += 1;
      const text = typeof call.args.text === 'string' ? call.args.text : '';
      if (call.args.thread_ts) {
        for (const line of text.split('\n')) {
          const t0 = waiting.get(line.trim());
          if (t0 === undefined) continue;
          delays.push(call.at - t0);
          waiting.delete(line.trim());
        }
      }
    }
    logCall(call);
  };
  const sockets: WebSocket[] = [];
  try {
    const widget = await setUpRelayWidget(server);
    const wsUrl = `${server.url.replace(/^http/, 'ws')}/ws`;
    const { OutboxJob } = server.models;
    const emptyOutbox = async (limitMs: number) => {
      const deadline = Date.now() + limitMs;
      while (Date.now() < deadline && (await OutboxJob.countDocuments({ failedAt: null })) > 0) await sleep(200);
    };

    if (!only || only === 'idle') {
      const jobs = Array.from({ length: 2000 }, (_, i) => ({
        kind: 'slack.channelPost' as const,
        key: `bench:${i % 200}`,
        channel: widget.channel,
        payload: { teamId: ACME, channel: widget.channel, text: `note ${i}` },
      }));
      await OutboxJob.insertMany(jobs);
      relay.outbox.wake();
      await sleep(3000);
      global.gc?.();
      const samples: { cpu: number; rss: number; heap: number }[] = [];
      const postsBefore = posts;
      let last = process.cpuUsage();
      let lastAt = performance.now();
      for (let i = 0; i < DRAIN_SECONDS; i++) {
        await sleep(1000);
        const cpu = process.cpuUsage(last);
        const now = performance.now();
        const mem = process.memoryUsage();
        samples.push({ cpu: (cpu.user + cpu.system) / 1000 / (now - lastAt), rss: mem.rss, heap: mem.heapUsed });
        last = process.cpuUsage();
        lastAt = now;
      }
      const cpu = samples.reduce((sum, x) => sum + x.cpu, 0) / samples.length;
      const rss = samples.map((x) => x.rss);
      const heap = samples.map((x) => x.heap);
      console.log(
        `(a) 2,000 posts queued for one channel, nobody connected, ${DRAIN_SECONDS} s of draining: CPU ${(cpu * 100).toFixed(1)} % of a core (max second ${(Math.max(...samples.map((x) => x.cpu)) * 100).toFixed(0)} %), RSS ${mb(rss[0])} → ${mb(rss[rss.length - 1])} (max ${mb(Math.max(...rss))}), heap ${mb(heap[0])} → ${mb(heap[heap.length - 1])} (max ${mb(Math.max(...heap))}), ${posts - postsBefore} posts sent, load ${load()}`,
      );
      await OutboxJob.deleteMany({ key: /^bench:/ });
      await sleep(1000);
    }

    if (!only || only === 'five') {
      const five = await Promise.all(Array.from({ length: 5 }, () => connect(wsUrl, widget.uuid)));
      sockets.push(...five);
      delays.length = 0;
      const started = Date.now();
      for (let round = 0; round < 20; round++) {
        for (let v = 0; v < 5; v++) {
          const text = `five-${v}-${round}`;
          waiting.set(text, Date.now());
          five[v].send(JSON.stringify({ t: 'msg', clientId: `five-${v}-${round}-xxxx`, text }));
          await sleep(400);
        }
      }
      const deadline = Date.now() + BURST_WAIT_S * 1000;
      while ([...waiting.keys()].some((k) => k.startsWith('five-')) && Date.now() < deadline) await sleep(200);
      const left = [...waiting.keys()].filter((k) => k.startsWith('five-')).length;
      console.log(
        `(b) 5 visitors in one channel, each writing every 2 s for 40 s: ${delays.length}/100 lines reached Slack, worst delay ${s(Math.max(...delays))}, p50 ${s(percentile(delays, 50))}${left ? `, ${left} still waiting after ${s(Date.now() - started)}` : ''}, load ${load()}`,
      );
      for (const k of [...waiting.keys()]) if (k.startsWith('five-')) waiting.delete(k);
      for (const ws of five) ws.close();
      await emptyOutbox(600_000);
    }

    if (!only || only === 'burst') {
      // The threads are opened first at an unpaced Slack (their headers are not what this row measures).
      tuning.slackPostsPerSecond = 100_000;
      tuning.slackBurst = 100_000;
      server.slack.setRateLimits('off');
      const visitors: WebSocket[] = [];
      for (let i = 0; i < BURST_VISITORS; i++) {
        const ws = await connect(wsUrl, widget.uuid);
        waiting.set(`warm-up ${i}`, Date.now());
        ws.send(JSON.stringify({ t: 'msg', clientId: `warm-${i}-xxxx`, text: `warm-up ${i}` }));
        visitors.push(ws);
      }
      sockets.push(...visitors);
      const warmDeadline = Date.now() + 600_000;
      while (waiting.size > 0 && Date.now() < warmDeadline) await sleep(200);
      await emptyOutbox(600_000);
      tuning.slackPostsPerSecond = DEFAULT_RELAY_TUNING.slackPostsPerSecond;
      tuning.slackBurst = DEFAULT_RELAY_TUNING.slackBurst;
      server.slack.setRateLimits('slack');
      await sleep(4000);
      delays.length = 0;
      const postsBefore = posts;
      const started = Date.now();
      for (let m = 0; m < 10; m++) {
        for (let v = 0; v < visitors.length; v++) {
          const text = `burst-${v}-${m}`;
          waiting.set(text, Date.now());
          visitors[v].send(JSON.stringify({ t: 'msg', clientId: `burst-${v}-${m}-xxxx`, text }));
        }
        await sleep(20);
      }
      const total = visitors.length * 10;
      const deadline = Date.now() + BURST_WAIT_S * 1000;
      while (waiting.size > 0 && Date.now() < deadline) await sleep(200);
      const postsUsed = posts - postsBefore;
      console.log(
        `(c) burst: ${visitors.length} visitors with open threads in one channel × 10 lines: ${delays.length}/${total} lines reached Slack, worst delay ${s(Math.max(...delays))}, p50 ${s(percentile(delays, 50))}${waiting.size ? `, ${waiting.size} still waiting after ${s(Date.now() - started)} (at 1 post/s the last would arrive after about ${s(total * 1000)})` : ''}, ${postsUsed} posts, load ${load()}`,
      );
    }
  } finally {
    for (const ws of sockets) ws.terminate();
    await server.slack.close();
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
