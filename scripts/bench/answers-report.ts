/**
 * `npx tsx scripts/bench/answers-report.ts [--events 100000]`
 *
 * Seeds one widget's help center in the embedded store (run as its own process, as `npm run db` runs it): 200
 * articles and 100,000 AnswerEvents over a year (searches, a third of them finding nothing among 3,000 different
 * questions written in varying case; views, "Did this answer" answers, resolutions and Slack suggestions), and as
 * many events of another widget of the same account, which the report must not read. Then times the Answers report
 * as the API builds it, for the last 30 days and for the whole year (the first run, then the median of 5, with the
 * CPU each run cost Parley and the store), and the year's CSV download through the API.
 * Goals on a 2-core machine: a year's report ≤ 500 ms, 30 days ≤ 100 ms, the year's CSV ≤ 1 s.
 */
import { loadavg } from 'node:os';
import { Types } from 'mongoose';
import { answersReport } from '../../server/reports/answers';
import { reportRange } from '../../server/reports/range';
import { presetDates, rangeQuery, todayIn } from '../../server/shared/reports';
import { createUserInDb } from '../../test/factories';
import { startTestServer } from '../../test/helpers/app';
import { PRO } from '../../test/reports/seed';
import { startDatabase } from './database';
import { numberArg, positive, processCpuMs } from './figures';

const arg = (name: string, fallback: number) => numberArg(name, fallback, positive);
const EVENTS = arg('events', 100_000);
const ARTICLES = 200;
const QUESTIONS = 3_000;
const ZONE = 'America/New_York';
const DAY = 86_400_000;

const ownCpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

async function timed(label: string, goalMs: number, dbPid: number, run: () => Promise<unknown>): Promise<void> {
  const first = performance.now();
  await run();
  const firstMs = performance.now() - first;
  const runs: number[] = [];
  const cpu0 = ownCpuMs();
  const db0 = processCpuMs(dbPid);
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    await run();
    runs.push(performance.now() - t);
  }
  const cpu = (ownCpuMs() - cpu0) / 5;
  const db = (processCpuMs(dbPid) - db0) / 5;
  runs.sort((a, b) => a - b);
  const median = runs[2];
  console.log(
    `${label.padEnd(28)} ${median.toFixed(0).padStart(6)} ms median (first ${firstMs.toFixed(0)} ms, goal ≤ ${goalMs} ms) ${median <= goalMs ? 'ok' : 'OVER'}` +
      `; CPU per run: Parley ${cpu.toFixed(0)} ms, store ${db.toFixed(0)} ms`,
  );
}

/** A question as visitors type it: one of QUESTIONS, its case varied. */
function question(i: number): string {
  const text = `how do i get question number ${Math.floor(i / 10) % QUESTIONS} answered`;
  return i % 3 === 0 ? text.toUpperCase() : i % 3 === 1 ? text : `${text[0].toUpperCase()}${text.slice(1)}`;
}

async function main(): Promise<void> {
  const db = await startDatabase('answers-report', { storeArgs: ['--compact-bytes', String(2 ** 40)] });
  process.env.MONGODB_URI = db.uri;
  const server = await startTestServer();
  try {
    const { models } = server;
    const owner = await createUserInDb(server, { admin: true });
    await models.Account.updateOne({ _id: owner.account._id }, { $set: { subscriptionStatus: 'active', planStripeId: PRO } });
    const ce = await models.ChatEndpoint.findOne({ accountId: owner.account._id });
    if (!ce) throw new Error('no widget');
    const accountId = owner.account._id;
    const seedStart = performance.now();
    const articles = await models.Article.insertMany(
      Array.from({ length: ARTICLES }, (_, i) => ({
        accountId,
        ceId: ce._id,
        title: `Article ${i}`,
        slug: `article-${i}`,
        published: true,
      })),
    );
    const now = Date.now();
    const kinds = ['search', 'search', 'search', 'search', 'view', 'view', 'view', 'helpful', 'resolved', 'suggestionSent'] as const;
    for (const ceId of [ce._id, new Types.ObjectId()]) {
      for (let start = 0; start < EVENTS; start += 10_000) {
        const batch = [];
        for (let i = start; i < Math.min(EVENTS, start + 10_000); i++) {
          const kind = kinds[i % kinds.length];
          const at = new Date(now - ((i * 7919) % EVENTS) * ((365 * DAY) / EVENTS));
          const articleId = articles[(i * 31) % ARTICLES]._id;
          if (kind === 'search') {
            const hits = i % 12 < 4 ? 0 : 1 + (i % 5);
            batch.push({ accountId, ceId, kind, at, query: question(i), language: i % 10 === 0 ? 'fr' : 'en', hits });
          } else if (kind === 'helpful') batch.push({ accountId, ceId, kind, at, articleId, helpful: i % 4 !== 0 });
          else if (kind === 'resolved') batch.push({ accountId, ceId, kind, at, articleId, conversationId: new Types.ObjectId() });
          else if (kind === 'suggestionSent')
            batch.push(
              i % 20 === 9
                ? { accountId, ceId, kind, at, suggestion: 'savedReply' }
                : { accountId, ceId, kind, at, articleId, suggestion: 'article' },
            );
          else batch.push({ accountId, ceId, kind, at, articleId });
        }
        await models.AnswerEvent.collection.insertMany(batch, { ordered: false });
      }
    }
    console.log(`seeded ${EVENTS} events (and ${EVENTS} of another widget) in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

    const today = todayIn(ZONE, new Date());
    const month = reportRange(rangeQuery(presetDates('last30', today), ZONE));
    const year = reportRange(
      rangeQuery({ start: presetDates('last30', today).start.replace(/^\d{4}/, (y) => String(Number(y) - 1)), end: today }, ZONE),
    );
    const report = await answersReport(models, ce, year);
    console.log(
      `a year: ${report.totals.searches} searches, ${report.totals.searchesWithoutAnswer} found nothing (${report.unansweredTotal} different questions), ${report.articles.length} articles`,
    );
    await timed('Answers report, 30 days', 100, db.pid, () => answersReport(models, ce, month));
    await timed('Answers report, a year', 500, db.pid, () => answersReport(models, ce, year));
    const query = new URLSearchParams({ ...rangeQuery({ start: year.days[0].date, end: today }, ZONE), format: 'csv' });
    await timed('CSV of a year (API)', 1000, db.pid, async () => {
      const res = await fetch(`${server.url}/v1/reports/${ce._id}/answers/download?${query}`, {
        headers: { Authorization: `Bearer ${owner.token}` },
      });
      if (!res.ok) throw new Error(`download answered ${res.status}`);
      await res.text();
    });
    console.log(
      `load average after: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await server.close();
    await db.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
