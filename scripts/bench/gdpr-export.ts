/**
 * `npx tsx scripts/bench/gdpr-export.ts [--messages 100000] [--per-conversation 50]`
 *
 * Seeds one account with that many messages (in conversations of `per-conversation` messages, one visitor each),
 * runs the GDPR export and prints how long it took, the archive's size, and the growth of Parley's resident
 * memory over the export (sampled every 20 ms, peak minus the figure just before it started). The database runs
 * as its own process (as `npm run db` runs it), so the memory figure is Parley's alone.
 * Goals: under 30 s, peak RSS growth under 100 MB.
 */
import { cpus, loadavg } from 'node:os';
import { Types } from 'mongoose';
import { startGdprExport } from '../../server/commands/gdprExport';
import { createUserInDb } from '../../test/factories';
import { startTestServer } from '../../test/helpers/app';
import { startDatabase } from './database';
import { numberArg, positive } from './figures';

const arg = (name: string, fallback: number) => numberArg(name, fallback, positive);
const MESSAGES = arg('messages', 100_000);
const PER_CONVERSATION = arg('per-conversation', 50);
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

async function main(): Promise<void> {
  const db = await startDatabase('gdpr');
  process.env.MONGODB_URI = db.uri;
  const server = await startTestServer();
  try {
    const { models } = server;
    const owner = await createUserInDb(server);
    const ce = await models.ChatEndpoint.findOne({ accountId: owner.account._id });
    if (!ce) throw new Error('no widget');
    const seedStart = Date.now();
    const conversations = Math.ceil(MESSAGES / PER_CONVERSATION);
    for (let c = 0; c < conversations; c += 100) {
      const visitors = [];
      const convos = [];
      const messages = [];
      for (let i = c; i < Math.min(conversations, c + 100); i++) {
        const visitorId = new Types.ObjectId();
        const conversationId = new Types.ObjectId();
        const now = new Date();
        visitors.push({
          _id: visitorId,
          accountId: owner.account._id,
          ceId: ce._id,
          tokenHash: `bench-${i}`,
          name: `Visitor ${i}`,
          email: `v${i}@example.org`,
          location: { country: 'FR', city: 'Lyon' },
          lastSeenAt: now,
          createdAt: now,
          updatedAt: now,
        });
        convos.push({
          _id: conversationId,
          accountId: owner.account._id,
          ceId: ce._id,
          number: i + 1,
          visitorId,
          status: 'ended',
          startedAt: now,
          createdAt: now,
          updatedAt: now,
        });
        for (let m = 0; m < PER_CONVERSATION && i * PER_CONVERSATION + m < MESSAGES; m++) {
          messages.push({
            conversationId,
            seq: m + 1,
            kind: 'msg',
            from: m % 2 ? 'operator' : 'visitor',
            text: `Message ${m} of conversation ${i}: do you ship to Lyon, and how long does it take?`,
            html: '',
            files: [],
            createdAt: now,
            updatedAt: now,
          });
        }
      }
      await models.Visitor.collection.insertMany(visitors);
      await models.Conversation.collection.insertMany(convos);
      await models.Message.collection.insertMany(messages);
    }
    console.log(`seeded ${MESSAGES} messages in ${conversations} conversations in ${((Date.now() - seedStart) / 1000).toFixed(1)} s`);

    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    let peakHeap = 0;
    let peakBuffers = 0;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peak = Math.max(peak, now.rss);
      peakHeap = Math.max(peakHeap, now.heapUsed);
      peakBuffers = Math.max(peakBuffers, now.arrayBuffers);
    }, 20);
    const started = Date.now();
    const { job, built } = await startGdprExport(
      {
        models,
        mailer: server.parley.mailer,
        publicUrl: server.url,
        secret: server.config.jwtSecret,
        dataDir: server.dataDir,
        logger: console,
      },
      owner.user,
    );
    await built;
    const seconds = (Date.now() - started) / 1000;
    clearInterval(sampler);
    const done = await models.GdprExport.findById(job._id);
    if (done?.status !== 'ready') throw new Error(`export ended ${done?.status ?? 'missing'}`);
    console.log(`records:           ${done.total}`);
    console.log(`export time:       ${seconds.toFixed(1)} s (goal < 30 s)`);
    console.log(`archive size:      ${mb(done.size)}`);
    console.log(`peak RSS growth:   ${mb(peak - before)} (goal < 100 MB; RSS before ${mb(before)})`);
    console.log(`peak heap used:    ${mb(peakHeap)}, buffers ${mb(peakBuffers)}`);
    console.log(
      `machine:           ${cpus().length} cores, load average ${loadavg()
        .map((n) => n.toFixed(2))
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
