/**
 * `npx tsx scripts/bench/widget-config.ts [--views 3000] [--concurrency 8] [--profile dir]`
 * (--profile: Parley's process writes a V8 CPU profile into dir when it stops)
 *
 * A page view's widget settings (`GET /widget/api/:uuid/config`: every page view of every site that embeds the widget
 * asks them): Parley as a deployment runs it (stack.ts: the database, the Slack sandbox and Parley each their own
 * process), one widget set up, then `--views` page views, `--concurrency` at a time, each with its
 * browser's languages. Prints Parley's CPU per page view (from /proc/<pid>/stat), the database operations per page
 * view (serverStatus's opcounters) beside their goals and the figures before the lean read, then the answer's p50/p99
 * and the page views a second (this process shares the machine), with the machine's load. The CPU figure moves by
 * ±20% between runs on the 2-core VM: compare runs taken in turn.
 */
import os from 'node:os';
import { MongoClient } from 'mongodb';
import { FAST_PROCESS_CONFIG } from '../../test/helpers/processes';
import { load, numberArg, percentile, positive, processCpuMs } from './figures';
import { startBenchStack } from './stack';

const arg = (name: string, fallback: number) => numberArg(name, fallback, positive);

const VIEWS = arg('views', 3000);
const CONCURRENCY = arg('concurrency', 8);
/**
 * Goals: one database read a page view (the widget's; its account and plan are kept a second), and Parley's CPU low
 * enough that one core answers 500 page views a second. `before`: the same bench on 4a36865 (29 November 2026, 2-core
 * machine, load 1.4–2.5), which built a mongoose document of the whole widget for each page view.
 */
const GOALS = { cpuMs: 2, ops: 1 };
const BEFORE = { cpuMs: '2.10–2.85', ops: '1.00' };

const LANGUAGES = ['en-US,en', 'de-DE,de,en', 'fr', 'es-ES', 'nl,en'];

async function views(url: string, count: number): Promise<number[]> {
  const times: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const started = performance.now();
      const res = await fetch(`${url}?lang=${encodeURIComponent(LANGUAGES[i % LANGUAGES.length])}`);
      if (res.status !== 200) throw new Error(`the settings answered ${res.status}`);
      await res.arrayBuffer();
      times.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return times;
}

async function main(): Promise<void> {
  console.log(`widget settings bench (load ${load()}, ${os.availableParallelism()} cores): ${VIEWS} page views, ${CONCURRENCY} at a time`);
  const { mongo, parley, widget, stop } = await startBenchStack({
    config: { passwordHashing: FAST_PROCESS_CONFIG.passwordHashing, rateLimits: FAST_PROCESS_CONFIG.rateLimits },
  });
  try {
    const url = `${parley.url}/widget/api/${widget.uuid}/config`;
    // Warm: the JIT, the kept billing state and plan, the connections.
    await views(url, 500);
    const client = await new MongoClient(mongo.uri).connect();
    try {
      const opsNow = async () =>
        Object.values((await client.db('admin').command({ serverStatus: 1 })).opcounters as Record<string, number>).reduce(
          (a, b) => a + b,
          0,
        );
      const ops = await opsNow();
      const cpu = processCpuMs(parley.pid);
      const started = performance.now();
      const times = await views(url, VIEWS);
      const seconds = (performance.now() - started) / 1000;
      const cpuPerView = (processCpuMs(parley.pid) - cpu) / VIEWS;
      // The serverStatus read itself is one operation.
      const opsPerView = (await opsNow()) - ops - 1;
      const row = (name: string, value: string, goal: string, before = '') =>
        console.log(`  ${name.padEnd(34)} ${value.padStart(10)}   ${goal.padEnd(10)} ${before ? `before ${before}` : ''}`);
      row("Parley's CPU a page view", `${cpuPerView.toFixed(3)} ms`, `≤ ${GOALS.cpuMs} ms`, `${BEFORE.cpuMs} ms`);
      row('database operations a page view', (opsPerView / VIEWS).toFixed(2), `≤ ${GOALS.ops}`, BEFORE.ops);
      // Latency and throughput share the machine with this process's requests: printed, judged at load ≤ 1 only.
      row('answer p50', `${percentile(times, 50).toFixed(1)} ms`, '');
      row('answer p99', `${percentile(times, 99).toFixed(1)} ms`, '');
      row('page views a second', (VIEWS / seconds).toFixed(0), '');
      console.log(`  load after: ${load()}`);
    } finally {
      await client.close();
    }
  } finally {
    await stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
