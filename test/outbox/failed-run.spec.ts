/**
 * A run that fails while the store refuses writes (a full disk, injected through the embedded store's file system):
 * the handler's own write fails, and so does the engine's record of the failure, so the job keeps the lease of the
 * process that ran it. That process takes it again as soon as the disk takes writes, without waiting for its lease,
 * as a second attempt with no error recorded, which is what tells a Slack post to look for itself before posting
 * again (slack/postOnce.ts mayBePosted): a job stored already claimed and run at once the same as a job claimed by a
 * poll. A job stored claimed used to run again under the claim of its insert, as a first attempt: its header was
 * posted twice and the conversation's lines went to the second one. And a job whose insert was refused never runs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import mongoose, { type Connection } from 'mongoose';
import { type EmbeddedMongo, startEmbeddedMongo } from '../../server/embedded-mongo';
import { createLogger } from '../../server/logger';
import { type OutboxJobModel, outboxJobModel } from '../../server/models/OutboxJob';
import type { JobRules } from '../../server/outbox/catalogue';
import { type Job, Outbox, type OutboxHost } from '../../server/outbox/engine';
import { DEFAULT_RELAY_TUNING } from '../../server/relay/tuning';
import { faultyFileSystem } from '../helpers/faultyFs';
import { eventually } from '../relay/helpers';

type Payloads = { post: { text: string } };
const RULES: { post: JobRules } = { post: { pace: 'channel', maxAttempts: Number.POSITIVE_INFINITY } };
/** Long enough that a rerun after it would fail the test's wait: the rerun must not wait for the lease. */
const LEASE_MS = 30_000;

describe('an outbox job whose run fails while the disk is full', function () {
  this.timeout(30_000);
  const disk = faultyFileSystem();
  let dbpath: string;
  let store: EmbeddedMongo;
  let connection: Connection;
  let OutboxJob: OutboxJobModel;
  const outboxes: Outbox<OutboxHost, Payloads>[] = [];

  before(async () => {
    dbpath = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-outbox-disk-'));
    store = await startEmbeddedMongo({ port: 0, dbpath, fs: disk.fs, retryWritesMs: 100, log: () => undefined });
    connection = await mongoose.createConnection(store.uri, { dbName: 'outbox' }).asPromise();
    OutboxJob = outboxJobModel(connection);
    await OutboxJob.init();
  });
  afterEach(async () => {
    disk.fail(null);
    await eventually(async () => expect(store.writeProblem()).to.equal(null));
    await Promise.all(outboxes.splice(0).map((o) => o.stop()));
    await OutboxJob.deleteMany({});
    await connection.collection('threads').deleteMany({});
  });
  after(async () => {
    await connection.close();
    await store.stop();
    fs.rmSync(dbpath, { recursive: true, force: true });
  });

  /** An outbox whose post "reaches Slack" (recorded), then stores what it posted; with `fillDisk`, its first post fills the disk first. */
  function outbox(posts: { text: string; attempts: number; lastError: string }[], fillDisk = true) {
    const host: OutboxHost = {
      models: { OutboxJob },
      tuning: { ...DEFAULT_RELAY_TUNING, outboxLeaseMs: LEASE_MS, outboxPollMs: 100, slackPostsPerSecond: 100, slackBurst: 100 },
      logger: createLogger({ level: 'silent' }),
    };
    const post = async (_ctx: OutboxHost, job: Job<'post', Payloads>) => {
      posts.push({ text: job.payload.text, attempts: job.attempts, lastError: job.lastError });
      if (fillDisk && posts.length === 1) {
        disk.fail('ENOSPC');
        setTimeout(() => disk.fail(null), 300).unref();
      }
      // As the header job stores its thread's ts once posted.
      await connection.collection('threads').insertOne({ posted: job.payload.text });
    };
    const box = new Outbox<OutboxHost, Payloads>(host, { post }, { rules: RULES, context: () => host });
    outboxes.push(box);
    return box;
  }

  for (const stored of ['stored claimed by the process that runs it', 'stored by another process, found by the poll'] as const) {
    it(`${stored}: runs again once the disk takes writes, as a second attempt that may have posted, without waiting for its lease`, async () => {
      const posts: { text: string; attempts: number; lastError: string }[] = [];
      const box = outbox(posts);
      const started = Date.now();
      if (stored === 'stored claimed by the process that runs it') {
        box.start();
        await box.enqueue('post', 'conv', { text: 'header' }, { channel: 'C1' });
      } else {
        // A stopped outbox stores jobs unclaimed (another process's, as far as the running one knows).
        await outbox([]).enqueue('post', 'conv', { text: 'header' }, { channel: 'C1' });
        expect((await OutboxJob.findOne({ key: 'conv' }))?.lockedBy).to.equal('');
        box.start();
      }
      await eventually(async () => expect(await OutboxJob.countDocuments({})).to.equal(0));
      // The failed run's record never reached the disk: no error stored, so the second attempt may have posted
      // (slack/postOnce.ts looks for the post first instead of posting the header twice).
      expect(posts).to.deep.equal([
        { text: 'header', attempts: 1, lastError: '' },
        { text: 'header', attempts: 2, lastError: '' },
      ]);
      expect(Date.now() - started).to.be.below(LEASE_MS / 2);
      expect(await connection.collection('threads').countDocuments({ posted: 'header' })).to.equal(1);
      // Nothing runs it again.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(posts).to.have.length(2);
    });
  }

  // The store shows a refused write until it has undone it: a poll may find the job meanwhile, stored claimed by this
  // process. It used to run under that claim (a post of a line the visitor was told to send again); now it runs only
  // once a claim's update is stored, which the refusing store does not take.
  it('runs no job whose insert the full disk refused; the next job of the key runs at once, as a first attempt', async () => {
    const posts: { text: string; attempts: number; lastError: string }[] = [];
    const box = outbox(posts, false);
    box.start();
    disk.fail('ENOSPC');
    const refused = await box.enqueue('post', 'conv', { text: 'refused' }, { channel: 'C1' }).catch((error: unknown) => error);
    expect(refused).to.be.an.instanceOf(Error);
    disk.fail(null);
    await eventually(async () => expect(store.writeProblem()).to.equal(null));
    await box.enqueue('post', 'conv', { text: 'stored' }, { channel: 'C1' });
    await eventually(async () => expect(await OutboxJob.countDocuments({})).to.equal(0));
    expect(posts).to.deep.equal([{ text: 'stored', attempts: 1, lastError: '' }]);
  });
});
