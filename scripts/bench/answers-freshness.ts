/**
 * `npx tsx scripts/bench/answers-freshness.ts [--rounds 10]`
 *
 * How soon the help center's search of every process sees an article saved or unpublished elsewhere (README: "on
 * other processes' writes within a second"). A deployment as the suite's multi-process specs start it (the store, the
 * Slack sandbox, Redis and two Parley processes, each its own process); each round saves an article straight into the
 * shared store (as another process, or a restore, would), then asks the widget's search through both Parleys in turn
 * until both find it, then unpublishes it and asks until neither does. Prints the milliseconds from the write to
 * each process's first answer that shows it (p50 and worst) beside the goal, with the machine's load.
 * test/answers/multi-process.spec.ts checks the behaviour (seen within 5 s, not at the index's ten-minute rebuild).
 */
import os from 'node:os';
import mongoose, { Types } from 'mongoose';
import { createModels } from '../../server/models';
import { FAST_PROCESS_CONFIG, setUpWidgetAcross, startStack } from '../../test/helpers/processes';
import { load, numberArg, percentile, sleep } from './figures';

const arg = (name: string, fallback: number) => numberArg(name, fallback, (value) => value >= 1);
const ROUNDS = arg('rounds', 10);
/** How long a round waits for a process to see a write before it counts it as missed. */
const GIVE_UP_MS = 15_000;
const GOAL_MS = 1000;

async function main(): Promise<void> {
  const loadAtStart = load();
  // The bench asks every 10 ms from one address: the widget's per-address search limit is lifted.
  const config = { ...FAST_PROCESS_CONFIG, relay: { ...FAST_PROCESS_CONFIG.relay, articleSearchesPerIpPerMinute: 1_000_000 } };
  const stack = await startStack({ parleys: 2, redis: true, config });
  const connection = await mongoose.createConnection(stack.mongo.uri, { dbName: stack.dbName }).asPromise();
  try {
    const models = createModels(connection);
    const [a, b] = stack.parleys;
    // A new account whose widget is installed in the Slack sandbox, the steps hopping between the two processes.
    const { ceId } = await setUpWidgetAcross(stack);
    const widget = await models.ChatEndpoint.findById(ceId).orFail();
    const titlesThrough = async (url: string, q: string) => {
      const res = await fetch(`${url}/widget/api/${widget.Uuid}/articles/search?q=${encodeURIComponent(q)}&lang=en`);
      if (!res.ok) throw new Error(`the search answered ${res.status}: ${await res.text()}`);
      return ((await res.json()) as { articles: { title: string }[] }).articles.map((article) => article.title);
    };
    /** Milliseconds from `since` until `check` holds through `url` (Infinity past GIVE_UP_MS). */
    const msUntil = async (since: number, url: string, check: (titles: string[]) => boolean, q: string) => {
      while (Date.now() - since < GIVE_UP_MS) {
        if (check(await titlesThrough(url, q))) return Date.now() - since;
        await sleep(10);
      }
      return Number.POSITIVE_INFINITY;
    };
    const saved: number[] = [];
    const unpublished: number[] = [];
    const words = ['harbour', 'lantern', 'meadow', 'orchard', 'quarry', 'saddle', 'thimble', 'violin', 'walnut', 'zephyr'];
    for (let round = 0; round < ROUNDS; round++) {
      const word = `${words[round % words.length]}${round}`;
      const title = `Borrow a ${word}`;
      // Both processes have their index of the widget built before the write they must notice.
      await Promise.all([titlesThrough(a.url, word), titlesThrough(b.url, word)]);
      const article = await models.Article.create({
        accountId: widget.accountId,
        ceId: new Types.ObjectId(String(widget._id)),
        title,
        body: `How to borrow a ${word} from the front desk.`,
        language: 'en',
        slug: `borrow-${word}`,
        published: true,
      });
      const savedAt = Date.now();
      saved.push(...(await Promise.all([a, b].map((p) => msUntil(savedAt, p.url, (titles) => titles.includes(title), word)))));
      await models.Article.updateOne({ _id: article._id }, { $set: { published: false } });
      const unpublishedAt = Date.now();
      unpublished.push(...(await Promise.all([a, b].map((p) => msUntil(unpublishedAt, p.url, (titles) => !titles.includes(title), word)))));
      // The next write lands in another freshness window than this one's.
      await sleep(300);
    }
    const figure = (values: number[]) =>
      `p50 ${percentile(values, 50).toFixed(0)} ms, worst ${Math.max(...values).toFixed(0)} ms (${values.length} answers)`;
    console.log(`help center search freshness across 2 processes, ${ROUNDS} rounds (load ${loadAtStart} at start):`);
    console.log(`  an article saved elsewhere, found through each process: ${figure(saved)}   goal worst ≤ ${GOAL_MS} ms`);
    console.log(`  an article unpublished elsewhere, gone through each process: ${figure(unpublished)}   goal worst ≤ ${GOAL_MS} ms`);
    console.log(`machine: ${os.availableParallelism()} cores, load ${load()} at the end`);
  } finally {
    await connection.close();
    await stack.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
