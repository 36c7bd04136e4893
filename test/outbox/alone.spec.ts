/**
 * An outbox that is the deployment's only one (`alone`: no REDIS_URL, one process), against the embedded store over a
 * real socket, the driver's commands counted: a job stored claimed in a key with nothing else runs without the key's
 * read (its insert and its removal only, also when it waits for its poke as a visitor's line does: a line costs one
 * database operation less), and a job stored in a key that has a job left from before the start, or one running,
 * still runs after it, in the order stored.
 */
import { expect } from 'chai';
import mongoose from 'mongoose';
import { createLogger } from '../../server/logger';
import { type OutboxJobModel, outboxJobModel } from '../../server/models/OutboxJob';
import type { JobRules } from '../../server/outbox/catalogue';
import { type Job, Outbox, type OutboxHost } from '../../server/outbox/engine';
import { DEFAULT_RELAY_TUNING } from '../../server/relay/tuning';
import { eventually } from '../relay/helpers';
import { heldAnswers } from './heldAnswers';
import { useOutboxStore } from './store';

type Payloads = { post: { text: string }; header: { text: string } };
const RULES: { [K in keyof Payloads]: JobRules } = {
  post: { pace: 'channel', maxAttempts: Number.POSITIVE_INFINITY },
  header: { pace: 'channel', maxAttempts: Number.POSITIVE_INFINITY },
};

describe('the outbox of the only process', () => {
  const store = useOutboxStore<Payloads>('alone');
  const { commands, outboxes } = store;
  /** The outbox collection's reads answered (the start's read of every unfinished job is one). */
  let readsAnswered = 0;
  /** The outbox collection's removals answered (a run is over once its removal is answered). */
  let removalsAnswered = 0;

  /** Counts the reads and removals answered to `connection` (opened with `monitorCommands`). */
  const countAnswers = (connection: mongoose.Connection) =>
    connection.getClient().on('commandSucceeded', (e) => {
      if (e.commandName === 'find') readsAnswered += 1;
      if (e.commandName === 'delete') removalsAnswered += 1;
    });

  before(() => {
    countAnswers(store.connection);
  });

  /** The only process's outbox, recording the texts it posts in `posted`; a post takes a moment, as Slack's answer does. */
  function outbox(posted: string[], attempts: number[] = [], OutboxJob: OutboxJobModel = store.OutboxJob) {
    const host: OutboxHost = {
      models: { OutboxJob },
      tuning: { ...DEFAULT_RELAY_TUNING, outboxPollMs: 600_000, slackPostsPerSecond: 1000, slackBurst: 1000 },
      logger: createLogger({ level: 'error' }),
    };
    const post = async (_ctx: OutboxHost, job: Job<'post', Payloads>) => {
      posted.push(job.payload.text);
      attempts.push(job.attempts);
      await new Promise((resolve) => setTimeout(resolve, 5));
    };
    // A thread's header, and the lines stored right behind it run with it (as slack.header and slack.reply do).
    const header = async (_ctx: OutboxHost, job: Job<'header', Payloads>) => {
      posted.push(`header: ${job.payload.text}`);
      attempts.push(job.attempts);
      await new Promise((resolve) => setTimeout(resolve, 5));
    };
    const box = new Outbox<OutboxHost, Payloads>(
      host,
      { post, header: { lead: header, followedBy: 'post' } },
      { rules: RULES, context: () => host, alone: true },
    );
    outboxes.push(box);
    return box;
  }

  /** Starts `box` and waits until its start's read of every unfinished job was answered. */
  async function started(box: Outbox<OutboxHost, Payloads>) {
    const before = readsAnswered;
    box.start();
    await eventually(async () => expect(readsAnswered).to.be.above(before));
  }

  /** The outbox collection's commands since `from`, by name. */
  const spentSince = (from: number) =>
    commands
      .slice(from)
      .map((c) => c.commandName)
      .filter((name) => ['insert', 'find', 'aggregate', 'update', 'delete'].includes(name));

  it('runs a job stored in a key with nothing else without reading the key: its insert and its removal', async () => {
    const posted: string[] = [];
    const box = outbox(posted);
    await started(box);
    for (const text of ['a line', 'a later line']) {
      const from = commands.length;
      const removed = removalsAnswered;
      await box.enqueue('post', 'conv', { text }, { channel: 'C1' });
      // Until the removal is answered, not just applied (a journaled write is answered after the journal's flush, and a
      // count on another connection can see the job gone first): until then the key still runs, and a line stored
      // meanwhile goes behind it, read with the key.
      await eventually(async () => expect(removalsAnswered).to.be.above(removed));
      expect(await store.OutboxJob.estimatedDocumentCount()).to.equal(0);
      expect(spentSince(from), text).to.deep.equal(['insert', 'delete']);
    }
    expect(posted).to.deep.equal(['a line', 'a later line']);
  });

  it('runs a job stored to wait for its poke, as a visitor line is, without reading the key either', async () => {
    const posted: string[] = [];
    const box = outbox(posted);
    await started(box);
    const from = commands.length;
    await box.enqueue('post', 'conv', { text: 'a line' }, { channel: 'C1', start: false, claim: true });
    box.poke('conv');
    await eventually(async () => expect(await store.OutboxJob.estimatedDocumentCount()).to.equal(0));
    await eventually(async () => expect(spentSince(from)).to.include('delete'));
    expect(spentSince(from)).to.deep.equal(['insert', 'delete']);
    expect(posted).to.deep.equal(['a line']);
  });

  it('runs a header and the line stored behind it, both waiting for their poke as a new conversation’s do, without reading the key', async () => {
    const posted: string[] = [];
    const box = outbox(posted);
    await started(box);
    const from = commands.length;
    await box.enqueue('header', 'conv', { text: 'Conversation #1' }, { channel: 'C1', start: false, claim: true });
    await box.enqueue('post', 'conv', { text: 'the first line' }, { channel: 'C1', start: false, claim: true });
    box.poke('conv');
    await eventually(async () => expect(spentSince(from)).to.include('delete'));
    expect(await store.OutboxJob.estimatedDocumentCount()).to.equal(0);
    // Two inserts and one removal for both: no read of the key, no claim's update.
    expect(spentSince(from)).to.deep.equal(['insert', 'insert', 'delete']);
    expect(posted).to.deep.equal(['header: Conversation #1', 'the first line']);
  });

  it('reads the key when two jobs of it are stored at once, and runs them in the order stored, each once', async () => {
    const posted: string[] = [];
    const box = outbox(posted);
    await started(box);
    const from = commands.length;
    // Neither insert knows whether the other's was stored first: the key is read to find out.
    await Promise.all([
      box.enqueue('header', 'conv', { text: 'Conversation #2' }, { channel: 'C1', start: false, claim: true }),
      box.enqueue('post', 'conv', { text: 'a line beside it' }, { channel: 'C1', start: false, claim: true }),
    ]);
    box.poke('conv');
    await eventually(async () => expect(await store.OutboxJob.estimatedDocumentCount()).to.equal(0));
    await eventually(async () => expect(posted).to.have.length(2));
    expect(spentSince(from)).to.include('find');
    expect(posted).to.deep.equal(['header: Conversation #2', 'a line beside it']);
  });

  it('runs the known jobs of a key under the claims stored with them when a third job of the key is stored as they are claimed', async () => {
    const posted: string[] = [];
    const attempts: number[] = [];
    const box = outbox(posted, attempts);
    await started(box);
    // Another key whose jobs are read (two stored at once): the claim that takes the new conversation's header and
    // line reads it first, as when many conversations start at once.
    await Promise.all(
      ['another line', 'another line beside it'].map((text) =>
        box.enqueue('post', 'other', { text }, { channel: 'C2', start: false, claim: true }),
      ),
    );
    await box.enqueue('header', 'conv', { text: 'Conversation #3' }, { channel: 'C1', start: false, claim: true });
    await box.enqueue('post', 'conv', { text: 'the first line' }, { channel: 'C1', start: false, claim: true });
    // Stored as that claim's read is sent (the new conversation's Suggested post, stored claimed too).
    let suggested: Promise<void> | undefined;
    const client = store.connection.getClient();
    const onRead = (e: { commandName: string }) => {
      if (e.commandName !== 'find' || suggested) return;
      suggested = box.enqueue('post', 'conv', { text: 'Suggested' }, { channel: 'C1' });
    };
    client.on('commandStarted', onRead);
    try {
      box.poke('conv');
      box.poke('other');
      await eventually(async () => expect(suggested).to.not.equal(undefined));
      await suggested;
    } finally {
      client.off('commandStarted', onRead);
    }
    await eventually(async () => expect(posted).to.have.length(5));
    await eventually(async () => expect(await store.OutboxJob.estimatedDocumentCount()).to.equal(0));
    expect(posted.filter((text) => !text.startsWith('another'))).to.deep.equal(['header: Conversation #3', 'the first line', 'Suggested']);
    // Each ran under the claim stored with it: none was claimed a second time, which a post takes for a run that may
    // have died mid-call (slack/postOnce.ts then looks for it in Slack before posting).
    expect(attempts).to.deep.equal([1, 1, 1, 1, 1]);
  });

  it('runs a job stored while its key is read and found empty under the claim stored with it, once', async () => {
    // The outbox talks to the store through a relay that can hold back the answer to its read of the key.
    const relay = await heldAnswers(store.uri);
    const connection = await mongoose.createConnection(relay.uri, { dbName: store.dbName, monitorCommands: true }).asPromise();
    countAnswers(connection);
    try {
      const posted: string[] = [];
      const attempts: number[] = [];
      const box = outbox(posted, attempts, outboxJobModel(connection));
      await started(box);
      // The key is read with nothing in it (told of it by another process that has run its jobs since). As that read
      // is sent, a line of the key is stored claimed here; its insert is answered before the read is.
      let stored: Promise<void> | undefined;
      const held = relay.holdNext(['\u0002find\u0000', 'outboxjobs'], () => {
        stored = box.enqueue('post', 'conv', { text: 'a line' }, { channel: 'C1' });
      });
      box.wake('conv');
      const release = await held;
      await stored;
      release();
      await eventually(async () => expect(posted).to.have.length(1));
      await eventually(async () => expect(await store.OutboxJob.estimatedDocumentCount()).to.equal(0));
      expect(posted).to.deep.equal(['a line']);
      // Run under the claim it was stored with, not claimed a second time (which a post takes for a run that may have
      // died mid-call, and looks for in Slack first).
      expect(attempts).to.deep.equal([1]);
    } finally {
      // Stopped here, before its connection closes (the block's afterEach would stop it after).
      await Promise.all(outboxes.splice(0).map((o) => o.stop()));
      await connection.close();
      await relay.close();
    }
  });

  it('runs a job stored behind one left from before the start (backing off) after it, and each once', async () => {
    const retryAt = new Date(Date.now() + 400);
    // Left by the process before this one: its first attempt failed, it is retried shortly.
    await store.OutboxJob.collection.insertOne({
      _id: new mongoose.Types.ObjectId(),
      kind: 'post',
      key: 'conv',
      channel: 'C1',
      payload: { text: 'left from before' },
      attempts: 1,
      runAt: retryAt,
      lockedUntil: null,
      lockedBy: '',
      lastError: 'Slack answered 503',
      failedAt: null,
      conversationId: null,
      createdAt: new Date(Date.now() - 1000),
      updatedAt: new Date(),
    });
    const posted: string[] = [];
    const box = outbox(posted);
    // The start's read of every unfinished job finds it.
    await started(box);
    await box.enqueue('post', 'conv', { text: 'stored now' }, { channel: 'C1' });
    await eventually(async () => expect(posted).to.have.length(2));
    expect(posted).to.deep.equal(['left from before', 'stored now']);
    await eventually(async () => expect(await store.OutboxJob.countDocuments({})).to.equal(0));
  });

  it('runs lines stored while the key runs after it, in the order stored, each once', async () => {
    const posted: string[] = [];
    const box = outbox(posted);
    await started(box);
    const texts = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
    for (const text of texts) await box.enqueue('post', 'conv', { text }, { channel: 'C1' });
    await eventually(async () => expect(posted).to.have.length(texts.length));
    expect(posted).to.deep.equal(texts);
    await eventually(async () => expect(await store.OutboxJob.countDocuments({})).to.equal(0));
  });
});
