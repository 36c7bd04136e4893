/**
 * `npx tsx scripts/bench/reports.ts [--conversations 100000] [--messages-per 10] [--only team]`
 * (`--only team` seeds the same and times the Team report, its CSV and the tallying only; `STORE_PROF=<dir>` has the
 * store write its CPU profile there)
 * (`node --expose-gc --import tsx scripts/bench/reports.ts` starts the export's memory figure from a collected heap)
 *
 * Seeds one widget with years of history in the embedded store (run as its own process, as `npm run db` runs it):
 * 100,000 conversations over three years with 10 messages each (1,000,000 messages), 50,000 visitors, offline
 * messages and presence changes. Then times the reports as the API runs them: overview for 30 days and for a year,
 * one history page, three history searches (a word in one chat, a name's beginning, a word in every chat read at
 * page 100), availability for 30 days (each: the first run, which builds the store's ordered index view,
 * then the median of 5), and the CSV download of every conversation through the API, its body read chunk by chunk
 * (time, and Parley's peak RSS growth sampled every 20 ms), each with the CPU it cost Parley and the store.
 * The shared inbox of the same conversations: ten operators, two of three answered conversations assigned, tags on
 * most, and about 330,000 InboxEvents (assignments, first and next answers with business-time waits and target
 * outcomes, ends, tags), stored as before the Team report's day tallies and tallied as an upgrade's start does (timed);
 * the Team report for 30 days and for a year, and its year's CSV through the API.
 * Goals on a 2-core machine: overview ≤ 300 ms, history page and a search of a few chats ≤ 50 ms, a search of every
 * chat ≤ 300 ms, availability ≤ 200 ms, Team report ≤ 300 ms, its CSV ≤ 1 s, full CSV ≤ 10 s with
 * RSS growth ≤ 100 MB.
 */
import { cpus, loadavg } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import { Types } from 'mongoose';
import { tallyStoredInboxEvents } from '../../server/models/inboxTallies';
import { availabilityReport } from '../../server/reports/availability';
import { chatsPage } from '../../server/reports/history';
import { overviewReport } from '../../server/reports/overview';
import { reportRange } from '../../server/reports/range';
import { teamReport } from '../../server/reports/team';
import { HISTORY_PAGE_SIZE, presetDates, rangeQuery, todayIn } from '../../server/shared/reports';
import { messageSearchTerms, visitorSearchTerms } from '../../server/shared/searchTerms';
import { createUserInDb } from '../../test/factories';
import { startTestServer } from '../../test/helpers/app';
import { PRO } from '../../test/reports/seed';
import { startDatabase } from './database';
import { numberArg, positive, processCpuMs } from './figures';

const arg = (name: string, fallback: number) => numberArg(name, fallback, positive);
const CONVERSATIONS = arg('conversations', 100_000);
const MESSAGES_PER = arg('messages-per', 10);
const ONLY_TEAM = process.argv.includes('--only') && process.argv[process.argv.indexOf('--only') + 1] === 'team';
const YEARS = 3;
const ZONE = 'America/New_York';
const DAY = 86_400_000;
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

/** CPU milliseconds (user + system) a process has used so far, from /proc (Linux; 10 ms steps), or NaN elsewhere. */
const ownCpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

/**
 * The first run, then the median of 5, with the CPU each run cost Parley and the store: wall times follow the
 * machine's load (other processes take the cores), CPU times hardly do.
 */
async function timed<T>(label: string, goalMs: number, dbPid: number, run: () => Promise<T>): Promise<void> {
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
    `${label.padEnd(34)} ${median.toFixed(0).padStart(6)} ms median (first ${firstMs.toFixed(0)} ms, goal ≤ ${goalMs} ms) ${median <= goalMs ? 'ok' : 'OVER'}` +
      `; CPU per run: Parley ${cpu.toFixed(0)} ms, store ${db.toFixed(0)} ms`,
  );
}

async function main(): Promise<void> {
  // No background snapshots: seeding writes ~600 MB of journal, and snapshotting a million messages (5-9 s of the
  // store's CPU) would land in the middle of whichever report runs then, as it did in about half the runs.
  const db = await startDatabase('reports', {
    storeArgs: ['--compact-bytes', String(2 ** 40)],
    nodeArgs: process.env.STORE_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.STORE_PROF] : [],
  });
  process.env.MONGODB_URI = db.uri;
  const server = await startTestServer();
  try {
    const { models } = server;
    const owner = await createUserInDb(server);
    const ce = await models.ChatEndpoint.findOne({ accountId: owner.account._id });
    if (!ce) throw new Error('no widget');
    const accountId = owner.account._id;
    const now = Date.now();
    const from = now - YEARS * 365 * DAY;

    const seedStart = performance.now();
    const visitorIds = Array.from({ length: Math.ceil(CONVERSATIONS / 2) }, () => new Types.ObjectId());
    for (let i = 0; i < visitorIds.length; i += 10_000) {
      await models.Visitor.collection.insertMany(
        visitorIds.slice(i, i + 10_000).map((_id, j) => ({
          _id,
          accountId,
          ceId: ce._id,
          tokenHash: `bench-${i + j}`,
          name: `Visitor ${i + j}`,
          email: `v${i + j}@example.com`,
          location: { country: 'US', city: 'Boston' },
          currentPage: 'https://shop.example.com/pricing',
          pageTitle: '',
          userAgent: '',
          identUserId: `u${i + j}`,
          identTraits: { plan: 'gold' },
          acceptedPrivacyAt: null,
          lastSeenAt: new Date(now),
          createdAt: new Date(from),
          updatedAt: new Date(now),
        })),
        { ordered: false },
      );
    }
    const agents = ['Ana', 'Ben', 'Chloe', 'Dev', 'Eli', 'Fay', 'Gus', 'Hana', 'Ivo', 'Jun'];
    const operatorIds = agents.map((_, k) => `U0BENCH00${k}`);
    const tagNames = ['billing', 'refund', 'bug', 'shipping', 'account', 'feature-request', 'sales', 'urgent'];
    let inboxEvents = 0;
    // Seeded in batches of a bounded size: the store answers a command only when all of it is done, and the driver
    // takes a store silent for longer than its monitoring waits (connectTimeoutMS, 30 s) for down, which fails every
    // command after it. 5,000 conversations a batch (150,000 words of their search index, 50,000 messages in one
    // insert) took the store that long at load 19-25.
    const SEED_BATCH = 1_000;
    let slowestInsertMs = 0;
    const insert = async (collection: { insertMany(docs: object[], options: { ordered: false }): Promise<unknown> }, docs: object[]) => {
      for (let k = 0; k < docs.length; k += 10 * SEED_BATCH) {
        const started = performance.now();
        await collection.insertMany(docs.slice(k, k + 10 * SEED_BATCH), { ordered: false });
        slowestInsertMs = Math.max(slowestInsertMs, performance.now() - started);
      }
    };
    for (let i = 0; i < CONVERSATIONS; i += SEED_BATCH) {
      const conversations = [];
      const messages = [];
      const events: Record<string, unknown>[] = [];
      for (let n = i; n < Math.min(CONVERSATIONS, i + SEED_BATCH); n++) {
        const started = from + Math.floor(((n + Math.random()) / CONVERSATIONS) * (now - from));
        const answered = n % 7 !== 0;
        const _id = new Types.ObjectId();
        // The shared inbox: who had it, its tags (none on one in four), and what the team did, as InboxEvents.
        const operator = operatorIds[n % operatorIds.length];
        const assignee = answered && n % 3 !== 0 ? operator : '';
        const tags = n % 4 === 0 ? [] : [tagNames[n % tagNames.length], ...(n % 3 === 0 ? [tagNames[(n * 7) % tagNames.length]] : [])];
        const event = (kind: string, afterSecs: number, extra: Record<string, unknown> = {}) =>
          events.push({
            accountId,
            ceId: ce._id,
            conversationId: _id,
            kind,
            at: new Date(started + afterSecs * 1000),
            teamId: 'T0',
            operatorId: '',
            ...extra,
          });
        if (assignee) event('assigned', 10, { operatorId: assignee, byId: '' });
        if (answered) {
          const wait = 20 + (n % 300);
          event('response', wait, {
            operatorId: operator,
            responseKind: 'first',
            waitSecs: wait,
            withinTarget: n % 5 === 0 ? null : wait <= 240,
          });
          if (n % 2 === 0)
            event('response', 400, { operatorId: operator, responseKind: 'next', waitSecs: 30 + (n % 200), withinTarget: n % 9 !== 0 });
        }
        event('ended', 600, { operatorId: assignee });
        if (tags.length) event('tagged', 300, { byId: operator, tag: tags[0] });
        conversations.push({
          _id,
          accountId,
          ceId: ce._id,
          number: n + 1,
          visitorId: visitorIds[n % visitorIds.length],
          status: 'ended',
          startedAt: new Date(started),
          endedAt: new Date(started + 600_000),
          endedBy: 'visitor',
          firstResponseAt: answered ? new Date(started + 20_000 + (n % 300) * 1000) : null,
          agentName: answered ? agents[n % agents.length] : '',
          agentAvatarUrl: '',
          agentSlackUserId: answered ? operator : '',
          assigneeId: assignee,
          assignedAt: assignee ? new Date(started + 10_000) : null,
          inboxState: 'ended',
          tags,
          rating: n % 5 === 0 ? 'up' : n % 11 === 0 ? 'down' : null,
          feedback: n % 5 === 0 ? 'Thanks, very helpful' : '',
          triggerUid: n % 4 === 0 ? 'pricing' : '',
          pageUrl: 'https://shop.example.com/pricing?plan=gold',
          slackTeamId: 'T0',
          slackChannel: 'C0',
          threadTs: `${started / 1000}`,
          lastSeq: MESSAGES_PER,
          lastVisitorMsgAt: null,
          lastOperatorMsgAt: null,
          noAnswerNotifiedAt: null,
          transcriptSentTo: '',
          discarded: false,
          // What the relay keeps for the history search (server/conversations/history.ts, sendVisitorMessage.ts).
          firstLine: 'Message 1 of conversation',
          searchTerms: [
            ...new Set([
              ...visitorSearchTerms({ name: `Visitor ${n % visitorIds.length}`, email: `v${n % visitorIds.length}@example.com` }),
              ...Array.from({ length: MESSAGES_PER }, (_, k) => messageSearchTerms(`Message ${k + 1} of conversation ${n + 1}`)).flat(),
            ]),
          ],
          visitorMsgs: Math.ceil(MESSAGES_PER / 2),
          operatorMsgs: Math.floor(MESSAGES_PER / 2),
          createdAt: new Date(started),
          updatedAt: new Date(started),
        });
        for (let seq = 1; seq <= MESSAGES_PER; seq++) {
          messages.push({
            conversationId: _id,
            seq,
            kind: 'msg',
            from: seq % 2 ? 'visitor' : 'operator',
            text: `Message ${seq} of conversation ${n + 1}`,
            html: '',
            author: null,
            targetId: null,
            slackTs: '',
            slackUserId: '',
            files: [],
            edited: false,
            deleted: false,
            endedBy: '',
            createdAt: new Date(started + seq * 30_000),
            updatedAt: new Date(started),
          });
        }
      }
      await insert(models.Conversation.collection, conversations);
      await insert(models.Message.collection, messages);
      await insert(models.InboxEvent.collection, events);
      inboxEvents += events.length;
    }
    const offline = Array.from({ length: 5_000 }, (_, k) => ({
      accountId,
      ceId: ce._id,
      visitorId: null,
      name: '',
      email: 'o@example.com',
      message: 'Hi',
      pageUrl: '',
      country: '',
      createdAt: new Date(from + (k / 5_000) * (now - from)),
      updatedAt: new Date(now),
    }));
    await models.OfflineMessage.collection.insertMany(offline, { ordered: false });
    const presence = [];
    for (let t = from, online = false; t < now; t += 3 * 3_600_000, online = !online) {
      presence.push({ accountId, ceId: ce._id, at: new Date(t), online, cause: online ? 'operating-hours' : 'slack-activity' });
    }
    await models.PresenceChange.collection.insertMany(presence, { ordered: false });
    // The InboxEvents were stored as an earlier version stored them, without the Team report's day tallies: they are
    // tallied as the upgrade's start does (models/migrations.ts).
    const tallyStart = performance.now();
    const tallied = await tallyStoredInboxEvents(models);
    console.log(
      `tallied ${tallied.toLocaleString('en-US')} InboxEvents (as an upgrade's start does) in ${((performance.now() - tallyStart) / 1000).toFixed(1)} s`,
    );
    console.log(
      `seeded ${CONVERSATIONS.toLocaleString('en-US')} conversations, ${(CONVERSATIONS * MESSAGES_PER).toLocaleString('en-US')} messages, ` +
        `${visitorIds.length.toLocaleString('en-US')} visitors, ${presence.length.toLocaleString('en-US')} presence changes, ` +
        `${inboxEvents.toLocaleString('en-US')} InboxEvents in ${((performance.now() - seedStart) / 1000).toFixed(1)} s ` +
        `(the slowest insert ${(slowestInsertMs / 1000).toFixed(1)} s)`,
    );
    // Time the reports once the store has finished with the writes of the seeding.
    const quietStart = performance.now();
    for (let before = processCpuMs(db.pid); performance.now() - quietStart < 120_000; ) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const used = processCpuMs(db.pid) - before;
      before += used;
      if (!(used > 50)) break;
    }
    console.log(`store idle after ${((performance.now() - quietStart) / 1000).toFixed(1)} s`);
    console.log(
      `machine: ${cpus().length} cores, load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );

    const today = todayIn(ZONE, new Date(now));
    const last30 = reportRange(rangeQuery(presetDates('last30', today), ZONE));
    const yearStart = new Date(Date.parse(`${today}T12:00:00Z`) - 364 * DAY).toISOString().slice(0, 10);
    const year = reportRange(rangeQuery({ start: yearStart, end: today }, ZONE));
    if (!ONLY_TEAM) {
      await timed(`overview, 30 days`, 300, db.pid, () => overviewReport(models, ce, last30));
      await timed(`overview, 1 year (${year.days.length} days)`, 300, db.pid, () => overviewReport(models, ce, year));
      await timed('history page (page 100 of 15)', 50, db.pid, () => chatsPage(models, ce, 100, HISTORY_PAGE_SIZE));
      await timed('history search, one chat', 50, db.pid, () =>
        chatsPage(models, ce, 0, HISTORY_PAGE_SIZE, `conversation ${CONVERSATIONS - 7}`),
      );
      await timed('history search, name beginning', 50, db.pid, () => chatsPage(models, ce, 0, HISTORY_PAGE_SIZE, 'v4321'));
      await timed('history search, every chat, page 100', 300, db.pid, () => chatsPage(models, ce, 100, HISTORY_PAGE_SIZE, 'message'));
      // Reports → History's tag filter: about one chat in six carries `billing`, read through {ceId, discarded, tags, startedAt}.
      await timed('history by tag, page 100', 300, db.pid, () => chatsPage(models, ce, 100, HISTORY_PAGE_SIZE, '', { tag: 'billing' }));
      await timed('history by tag and state, page 0', 300, db.pid, () =>
        chatsPage(models, ce, 0, HISTORY_PAGE_SIZE, '', { tag: 'billing', state: 'ended' }),
      );
      await timed('availability, 30 days', 200, db.pid, () => availabilityReport(models, ce, last30, new Date(now)));
    }
    // Operators' names as Slack's cached answers give them (server/slack/authors.ts keeps each for ten minutes).
    const directory = {
      lookup: async (_team: string, id: string) => ({ slackName: agents[Number(id.slice(-1))] ?? id, image: '', known: true }),
    };
    const teamYear = await teamReport(models, ce, year, directory);
    console.log(
      `Team, a year: ${teamYear.operators.length} operators, ${teamYear.team.answered.toLocaleString('en-US')} conversations answered, ` +
        `median first response ${teamYear.team.medianFirstResponseSecs} s, ${teamYear.team.withinTargetPercent}% within target, ` +
        `${teamYear.tags.length} tags in ${teamYear.buckets.length} ${teamYear.step}s`,
    );
    await timed('team, 30 days', 300, db.pid, () => teamReport(models, ce, last30, directory));
    await timed(`team, 1 year (${year.days.length} days)`, 300, db.pid, () => teamReport(models, ce, year, directory));
    await models.Account.updateOne({ _id: accountId }, { $set: { subscriptionStatus: 'active', planStripeId: PRO } });
    const teamQuery = new URLSearchParams({ ...rangeQuery({ start: yearStart, end: today }, ZONE), format: 'csv' });
    await timed('team CSV, 1 year (API)', 1000, db.pid, async () => {
      const answer = await fetch(`${server.url}/v1/reports/${String(ce._id)}/team/download?${teamQuery}`, {
        headers: { Authorization: `Bearer ${owner.token}` },
      });
      if (!answer.ok) throw new Error(`team download answered ${answer.status}`);
      await answer.text();
    });

    if (!ONLY_TEAM) {
      // Through the API, as the console's download button asks for it: the body is read chunk by chunk and only counted,
      // so the figures are the server's streaming (the response's backpressure included), not a client buffering it.
      await models.Account.updateOne({ _id: accountId }, { $set: { planStripeId: PRO } });
      let bytes = 0;
      global.gc?.();
      const baseline = process.memoryUsage.rss();
      const heapBefore = getHeapStatistics().used_heap_size;
      let peak = baseline;
      let peakHeap = heapBefore;
      // rss() alone is cheap; memoryUsage() walks the heap's spaces, which 50 times a second would weigh on the export.
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage.rss());
        peakHeap = Math.max(peakHeap, getHeapStatistics().used_heap_size);
      }, 20);
      const cpu0 = ownCpuMs();
      const db0 = processCpuMs(db.pid);
      const started = performance.now();
      const res = await fetch(`${server.url}/v1/reports/${String(ce._id)}/chats/download?format=csv`, {
        headers: { Authorization: `Bearer ${owner.token}` },
      });
      if (res.status !== 200 || !res.body) throw new Error(`download answered ${res.status}`);
      for await (const chunk of res.body) bytes += chunk.byteLength;
      const seconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      const cpu = ownCpuMs() - cpu0;
      const dbCpu = processCpuMs(db.pid) - db0;
      peak = Math.max(peak, process.memoryUsage.rss());
      console.log(
        `CSV of all ${CONVERSATIONS.toLocaleString('en-US')} chats${' '.repeat(8)} ${seconds.toFixed(1)} s, ${mb(bytes)}, peak RSS growth ${mb(peak - baseline)} (goal ≤ 10 s, ≤ 100 MB) ${seconds <= 10 && peak - baseline <= 100 * 1024 * 1024 ? 'ok' : 'OVER'}`,
      );
      console.log(`  peak heap used ${mb(peakHeap)} (before ${mb(heapBefore)}): what the export holds at once, garbage included`);
      console.log(
        `  CPU: Parley ${(cpu / 1000).toFixed(1)} s (the download client included), store ${(dbCpu / 1000).toFixed(1)} s: the wall time at no other load is about their sum, less what runs side by side`,
      );
    }
    console.log(
      `load average after: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    // A failure above is what the run reports: one while closing after it (a store already gone) is only logged.
    await server.close().catch((error: unknown) => console.error('closing the test server failed too:', error));
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
