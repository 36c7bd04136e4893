/**
 * The outbox engine on its own, against the embedded store (over a real socket, commands counted by the MongoDB
 * driver's command monitoring): order per key, leases and takeover, coalescing, pacing per channel, permanent
 * failures, and no reads while nothing is due. Handlers here record what they were given; the relay's own
 * handlers are covered by the relay specs.
 */
import { expect } from 'chai';
import type { RelayTuning } from '../../server/config';
import { createLogger } from '../../server/logger';
import type { JobRules } from '../../server/outbox/catalogue';
import { type Job, type JobHandlers, Outbox, type OutboxHost, PermanentJobError } from '../../server/outbox/engine';
import { DEFAULT_RELAY_TUNING } from '../../server/relay/tuning';
import { eventually } from '../relay/helpers';
import { useOutboxStore } from './store';

type Host = OutboxHost;
type Run = { key: string; texts: string[]; at: number; channel: string };

/**
 * The engine knows no kinds of its own: this spec brings a catalogue of four. A header leads lines (or runs alone),
 * lines coalesce, posts are paced alone, calls are not paced and stop after a dozen attempts.
 */
type Line = { text: string };
type Payloads = { header: Line; line: Line; post: Line; call: Line };
type Kind = keyof Payloads;
const SLACKLIKE: JobRules = { pace: 'channel', maxAttempts: Number.POSITIVE_INFINITY };
const RULES: { [K in Kind]: JobRules } = { header: SLACKLIKE, line: SLACKLIKE, post: SLACKLIKE, call: { pace: 'none', maxAttempts: 4 } };
type TestJob = Job<Kind, Payloads>;

const QUIET = createLogger({ level: 'error' });

describe('the outbox engine', () => {
  const store = useOutboxStore<Payloads>('outbox');
  const { commands, outboxes } = store;

  const text = (job: TestJob) => job.payload.text;

  /** An outbox (a "process") whose handlers record every run; `fail(job)` may throw to make a run fail. */
  function outbox(
    tuning: Partial<RelayTuning> = {},
    fail: (job: TestJob, attempt: number) => void = () => undefined,
    hold?: (jobs: TestJob[]) => Promise<void>,
    take?: number,
    /** The header leads the lines stored behind it (as the relay's Slack handlers have it). */
    leading = false,
  ) {
    const runs: Run[] = [];
    const attempts = new Map<string, number>();
    const record = async (offered: TestJob[]) => {
      await hold?.(offered);
      const jobs = offered.slice(0, take ?? offered.length);
      for (const job of jobs) {
        const n = (attempts.get(text(job)) ?? 0) + 1;
        attempts.set(text(job), n);
        fail(job, n);
      }
      runs.push({ key: jobs[0].key, texts: jobs.map(text), at: Date.now(), channel: jobs[0].channel });
    };
    const single = (_ctx: Host, job: TestJob) => record([job]);
    const handlers: JobHandlers<Host, Payloads> = {
      header: leading ? { lead: single, followedBy: 'line' } : single,
      line: {
        coalesce: async (_ctx, jobs) => {
          await record(jobs);
          return take;
        },
        max: 20,
      },
      post: single,
      call: single,
    };
    const host: Host = {
      models: { OutboxJob: store.OutboxJob },
      tuning: { ...DEFAULT_RELAY_TUNING, slackPostsPerSecond: 1000, slackBurst: 1000, outboxMaxBackoffMs: 100, ...tuning },
      logger: QUIET,
    };
    const box = new Outbox<Host, Payloads>(host, handlers, { rules: RULES, context: () => host });
    outboxes.push(box);
    return { box, runs };
  }

  const ran = (runs: Run[], key?: string) => runs.filter((r) => !key || r.key === key).flatMap((r) => r.texts);

  it('runs the jobs of a key one at a time in order, the ones behind a failing job waiting for its retries', async () => {
    const { box, runs } = outbox({}, (job, attempt) => {
      if (text(job) === 'b' && attempt < 3) throw new Error('the other side is down');
    });
    box.start();
    for (const t of ['a', 'b', 'c', 'd']) await box.enqueue('call', 'k1', { text: t });
    await box.enqueue('call', 'k2', { text: 'other key' });
    await eventually(async () => expect(ran(runs, 'k1')).to.deep.equal(['a', 'b', 'c', 'd']));
    // The other key did not wait for k1's retries.
    expect(ran(runs, 'k2')).to.deep.equal(['other key']);
    expect(await store.OutboxJob.countDocuments({})).to.equal(0);
  });

  it('sets a job that fails for good aside and runs the rest of its key', async () => {
    const { box, runs } = outbox({}, (job) => {
      if (text(job) === 'bad') throw new PermanentJobError('channel_not_found');
    });
    box.start();
    for (const t of ['a', 'bad', 'c']) await box.enqueue('post', 'k', { text: t }, { channel: 'C1' });
    await eventually(async () => expect(ran(runs)).to.deep.equal(['a', 'c']));
    const failed = await store.OutboxJob.find({}).lean();
    expect(failed.map((j) => [j.payload.text, j.lastError, j.failedAt !== null])).to.deep.equal([['bad', 'channel_not_found', true]]);
  });

  it('sets a job aside after the attempts its kind allows, while a kind without a limit keeps trying', async () => {
    let down = true;
    const { box, runs } = outbox({}, () => {
      if (down) throw new Error('the other side is down');
    });
    box.start();
    await box.enqueue('call', 'hook', { text: 'call' });
    await box.enqueue('post', 'thread', { text: 'post' }, { channel: 'C1' });
    await eventually(async () => expect(await store.OutboxJob.countDocuments({ failedAt: { $ne: null } })).to.equal(1));
    const [failed] = await store.OutboxJob.find({ failedAt: { $ne: null } }).lean();
    expect([failed.kind, failed.attempts]).to.deep.equal(['call', 4]);
    down = false;
    await eventually(async () => expect(ran(runs)).to.include('post'));
    expect(ran(runs)).to.not.include('call');
    expect(await store.OutboxJob.countDocuments({})).to.equal(1);
  });

  it('leaves a job of a kind it does not run (a newer version’s) stored and unclaimed, and runs the other keys', async () => {
    await store.OutboxJob.create([
      { kind: 'from.a.newer.version', key: 'k1', payload: { text: 'unknown' } },
      { kind: 'call', key: 'k1', payload: { text: 'behind it' } },
      { kind: 'call', key: 'k2', payload: { text: 'other key' } },
    ]);
    const { box, runs } = outbox();
    box.start();
    await eventually(async () => expect(ran(runs)).to.deep.equal(['other key']));
    const left = await store.OutboxJob.find({ key: 'k1' }).sort({ _id: 1 }).lean();
    expect(left.map((j) => [j.kind, j.attempts, j.failedAt, j.lockedUntil])).to.deep.equal([
      ['from.a.newer.version', 0, null, null],
      ['call', 0, null, null],
    ]);
  });

  it('hands the lines waiting behind a running one to the handler as one batch, in order', async () => {
    let release: () => void = () => undefined;
    const first = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { box, runs } = outbox({}, undefined, async (jobs) => {
      if (text(jobs[0]) === 'line 1') await first;
    });
    box.start();
    await box.enqueue('line', 'conv', { text: 'line 1' }, { channel: 'C1' });
    await eventually(async () => expect(await store.OutboxJob.countDocuments({ lockedUntil: { $ne: null } })).to.equal(1));
    for (const t of ['line 2', 'line 3', 'line 4']) await box.enqueue('line', 'conv', { text: t }, { channel: 'C1' });
    await box.enqueue('post', 'conv', { text: 'a note' }, { channel: 'C1' });
    await box.enqueue('line', 'conv', { text: 'line 5' }, { channel: 'C1' });
    release();
    await eventually(async () => expect(ran(runs)).to.have.length(6));
    expect(runs.map((r) => r.texts)).to.deep.equal([['line 1'], ['line 2', 'line 3', 'line 4'], ['a note'], ['line 5']]);
  });

  it('leaves the lines a coalescing handler did not take queued, in order, for its next run', async () => {
    const { box, runs } = outbox({}, undefined, undefined, 2);
    for (const t of ['1', '2', '3', '4', '5']) await box.enqueue('line', 'conv', { text: t }, { channel: 'C1', start: false });
    box.start();
    box.poke('conv');
    await eventually(async () => expect(ran(runs)).to.have.length(5));
    expect(runs.map((r) => r.texts)).to.deep.equal([['1', '2'], ['3', '4'], ['5']]);
    expect(await store.OutboxJob.countDocuments({})).to.equal(0);
  });

  it('runs a coalesced batch that failed for good line by line, so only the bad line is set aside', async () => {
    const { box, runs } = outbox({}, (job) => {
      if (text(job) === 'too long') throw new PermanentJobError('msg_too_long');
    });
    for (const t of ['x', 'too long', 'y']) await box.enqueue('line', 'conv', { text: t }, { channel: 'C1', start: false });
    box.start();
    box.poke('conv');
    await eventually(async () => expect(ran(runs)).to.deep.equal(['x', 'y']));
    expect(runs.map((r) => r.texts)).to.deep.equal([['x'], ['y']]);
    expect((await store.OutboxJob.find({}).lean()).map((j) => j.payload.text)).to.deep.equal(['too long']);
  });

  it("runs a conversation's header and the lines stored behind it with one read, one claim and one removal", async () => {
    const { box, runs } = outbox({}, undefined, undefined, undefined, true);
    box.start();
    await eventually(async () => expect(commands.filter((c) => c.commandName === 'find')).to.not.have.length(0));
    const from = commands.length;
    await box.enqueue('header', 'conv', { text: 'header' }, { channel: 'C1', start: false });
    for (const t of ['line 1', 'line 2']) await box.enqueue('line', 'conv', { text: t }, { channel: 'C1', start: false });
    box.poke('conv');
    await eventually(async () => expect(await store.OutboxJob.countDocuments({})).to.equal(0));
    expect(runs.map((r) => r.texts)).to.deep.equal([['header'], ['line 1', 'line 2']]);
    // The key's own commands (the safety poll's and this test's reads aside).
    const names = commands
      .slice(from)
      .filter((c) => c.commandName !== 'find' || c.command.filter?.key === 'conv')
      .filter((c) => ['insert', 'find', 'update', 'delete'].includes(c.commandName))
      .map((c) => c.commandName);
    expect(names).to.deep.equal(['insert', 'insert', 'insert', 'find', 'update', 'delete']);
  });

  it('removes a header whose lines failed behind it and retries the lines alone, so the header runs once', async () => {
    const { box, runs } = outbox(
      {},
      (job, attempt) => {
        if (text(job) === 'line 1' && attempt < 2) throw new Error('Slack is down');
      },
      undefined,
      undefined,
      true,
    );
    await box.enqueue('header', 'conv', { text: 'header' }, { channel: 'C1', start: false });
    await box.enqueue('line', 'conv', { text: 'line 1' }, { channel: 'C1', start: false });
    box.start();
    box.poke('conv');
    await eventually(async () => expect(await store.OutboxJob.countDocuments({})).to.equal(0));
    expect(runs.map((r) => r.texts)).to.deep.equal([['header'], ['line 1']]);
  });

  it('takes over the jobs a dead process held once their lease expired, and not before', async () => {
    const leaseEnds = Date.now() + 1500;
    await store.OutboxJob.create([
      { kind: 'call', key: 'expired', payload: { text: 'left long ago' }, lockedUntil: new Date(Date.now() - 60_000), lockedBy: 'dead' },
      { kind: 'call', key: 'held', payload: { text: 'held by a dying process' }, lockedUntil: new Date(leaseEnds), lockedBy: 'dead' },
      { kind: 'call', key: 'held', payload: { text: 'behind it' } },
    ]);
    const { box, runs } = outbox({ outboxLeaseMs: 2000 });
    box.start();
    await eventually(async () => expect(ran(runs)).to.include('left long ago'));
    await eventually(async () => expect(ran(runs, 'held')).to.deep.equal(['held by a dying process', 'behind it']));
    expect(runs.find((r) => r.key === 'held')?.at).to.be.at.least(leaseEnds);
  });

  it('runs each job once, in order per key, with two processes sharing the store', async () => {
    const a = outbox({ outboxLeaseMs: 5000 });
    const b = outbox({ outboxLeaseMs: 5000 });
    const keys = Array.from({ length: 20 }, (_, i) => `k${i}`);
    await store.OutboxJob.insertMany(
      keys.flatMap((key) => [1, 2, 3, 4].map((n) => ({ kind: 'call', key, payload: { text: `${key}-${n}` } }))),
    );
    a.box.start();
    b.box.start();
    await eventually(async () => expect(a.runs.length + b.runs.length).to.equal(80));
    const all = [...a.runs, ...b.runs].sort((x, y) => x.at - y.at);
    for (const key of keys) expect(ran(all, key)).to.deep.equal([1, 2, 3, 4].map((n) => `${key}-${n}`));
    expect(await store.OutboxJob.countDocuments({})).to.equal(0);
  });

  it('paces Slack posts per channel, oldest waiting conversation first, without holding up other channels', async () => {
    const { box, runs } = outbox({ slackPostsPerSecond: 5, slackBurst: 1 });
    box.start();
    for (const n of [1, 2, 3])
      for (const key of ['conv A', 'conv B']) await box.enqueue('post', key, { text: `${key} ${n}` }, { channel: 'C1' });
    await box.enqueue('post', 'conv C', { text: 'other channel' }, { channel: 'C2' });
    await eventually(async () => expect(runs).to.have.length(7));
    const inC1 = runs.filter((r) => r.channel === 'C1');
    // Six posts at 5 a second with a burst of one: five waits of 200 ms (each run is timed after its claim's round
    // trips, whose time varies on a loaded machine, so the bound leaves room).
    expect(inC1[inC1.length - 1].at - inC1[0].at).to.be.at.least(600);
    // Taking turns: neither conversation waits for all of the other's posts.
    expect(inC1.map((r) => r.key).slice(0, 4)).to.have.members(['conv A', 'conv B', 'conv A', 'conv B']);
    expect(runs.findIndex((r) => r.channel === 'C2')).to.be.below(3);
  });

  /** A claim reads the next jobs of the keys it picked (a find by key, or an aggregation for several keys). */
  const kindOf = (c: { commandName: string; command: { filter?: { key?: unknown } } }) =>
    c.commandName === 'aggregate' || (c.commandName === 'find' && typeof c.command.filter?.key === 'string') ? 'claim read' : c.commandName;

  it('reads nothing while a backlog waits for Slack: each post costs its own claim and removal, no rescans', async () => {
    const { box, runs } = outbox({ slackPostsPerSecond: 10, slackBurst: 1, outboxPollMs: 600_000 });
    const started = commands.length;
    box.start();
    // The first poll after start: every unfinished job's key.
    await eventually(async () => expect(commands.slice(started).some((c) => c.commandName === 'find')).to.equal(true));
    for (let i = 0; i < 20; i++) await box.enqueue('post', `conv ${i % 5}`, { text: `post ${i}` }, { channel: 'C1' });
    const from = commands.length;
    await eventually(async () => expect(runs).to.have.length(20));
    const spent = commands.slice(from).map(kindOf);
    // A claim is one read and one update; a finished post one delete. Nothing else, however long the backlog waits.
    expect(spent.filter((c) => c === 'claim read')).to.have.length.at.most(20);
    expect(spent.filter((c) => c === 'find')).to.have.length(0);
    expect(spent.length).to.be.at.most(60);
  });

  it('wakes for a job stored for later exactly when it is due, reading nothing meanwhile', async () => {
    const { box, runs } = outbox({ outboxPollMs: 600_000 });
    const started = commands.length;
    box.start();
    // The first poll after start: every unfinished job's key.
    await eventually(async () => expect(commands.slice(started).some((c) => c.commandName === 'find')).to.equal(true));
    const due = Date.now() + 1200;
    const from = commands.length;
    await box.enqueue('call', 'later', { text: 'reminder' }, { runAt: new Date(due) });
    await eventually(async () => expect(ran(runs)).to.deep.equal(['reminder']));
    expect(runs[0].at).to.be.at.least(due);
    expect(commands.slice(from).map(kindOf)).to.deep.equal(['insert', 'claim read', 'update', 'delete']);
  });
});
