/**
 * Jobs stored already claimed by the process that stores them (server/outbox/engine.ts), against the embedded store
 * over a real socket, the driver's commands counted: such a job runs in that process without a second claim; a
 * process killed (SIGKILL, a real child process) right after storing one leaves it to its lease, after which another
 * process runs it exactly once; one that stops gives up the claims it has not run (also one whose insert was in flight
 * as it stopped), which the next process runs at once; and jobs two processes store in one key, in a burst, run in the order they were
 * stored, each once, the claims of one process handed over to the other instead of waiting for a lease.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';
import type { RelayTuning } from '../../server/config';
import { createLogger } from '../../server/logger';
import type { JobRules } from '../../server/outbox/catalogue';
import { type Job, Outbox, type OutboxHost } from '../../server/outbox/engine';
import { DEFAULT_RELAY_TUNING } from '../../server/relay/tuning';
import { eventually } from '../relay/helpers';
import { useOutboxStore } from './store';

type Payloads = { post: { text: string } };
const RULES: { post: JobRules } = { post: { pace: 'channel', maxAttempts: Number.POSITIVE_INFINITY } };
type Run = { text: string; by: string; attempts: number; at: number };

const ROOT = path.resolve(__dirname, '../..');
const QUIET = createLogger({ level: 'error' });

describe('jobs stored already claimed by the process that stores them', () => {
  const store = useOutboxStore<Payloads>('claimed');
  const { commands, outboxes } = store;

  /** An outbox (a "process") named `by`, recording its runs in `runs`; `peers` are told of keys it hands over. */
  function outbox(by: string, runs: Run[], tuning: Partial<RelayTuning> = {}, peers: () => Outbox<OutboxHost, Payloads>[] = () => []) {
    const host: OutboxHost = {
      models: { OutboxJob: store.OutboxJob },
      tuning: { ...DEFAULT_RELAY_TUNING, slackPostsPerSecond: 1000, slackBurst: 1000, ...tuning },
      logger: QUIET,
    };
    const post = async (_ctx: OutboxHost, job: Job<'post', Payloads>) => {
      runs.push({ text: job.payload.text, by, attempts: job.attempts, at: Date.now() });
      // A post takes a moment, as Slack's answer does: the other process stores its jobs meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 5));
    };
    const box = new Outbox<OutboxHost, Payloads>(
      host,
      { post },
      {
        rules: RULES,
        context: () => host,
        // As the relay's pub/sub signal does between processes.
        announce: (keys) => {
          for (const peer of peers()) for (const key of keys) peer.wake(key);
        },
      },
    );
    outboxes.push(box);
    return box;
  }

  it('runs a job in the process that stored it, under the claim taken in the insert: no claim update', async () => {
    const runs: Run[] = [];
    const box = outbox('A', runs, { outboxPollMs: 600_000 });
    box.start();
    await eventually(async () => expect(commands.some((c) => c.commandName === 'find')).to.equal(true));
    const from = commands.length;
    await box.enqueue('post', 'conv', { text: 'hello' }, { channel: 'C1' });
    const stored = commands.slice(from).find((c) => c.commandName === 'insert')?.command.documents?.[0] as
      | { lockedBy: string; lockedUntil: Date | null; attempts: number }
      | undefined;
    // Claimed in the insert itself: leased, and counted as the first attempt.
    expect(stored?.lockedBy).to.be.a('string').and.not.equal('');
    expect(stored?.lockedUntil?.getTime()).to.be.above(Date.now());
    expect(stored?.attempts).to.equal(1);
    await eventually(async () => expect(await store.OutboxJob.countDocuments({})).to.equal(0));
    expect(runs.map((r) => [r.text, r.by, r.attempts])).to.deep.equal([['hello', 'A', 1]]);
    // The key's read (a job another process stored first would run first), and no update: nothing claimed twice.
    const spent = commands
      .slice(from)
      .map((c) => c.commandName)
      .filter((name) => ['insert', 'find', 'update', 'delete'].includes(name));
    expect(spent).to.deep.equal(['insert', 'find', 'delete']);
  });

  it('leaves a job stored by a process killed right after the insert to its lease; then another process runs it once', async () => {
    const leaseMs = 1500;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(__dirname, 'dyingOutbox.ts'), store.uri, store.dbName, 'conv', String(leaseMs)],
      { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, s) => resolve(s)));
    expect(signal, stderr).to.equal('SIGKILL');
    const [left] = await store.OutboxJob.find({ key: 'conv' }).lean();
    expect(left.payload).to.deep.equal({ text: 'stored by the process that died' });
    expect(left.attempts).to.equal(1);
    const leaseEnds = left.lockedUntil?.getTime() ?? 0;
    expect(leaseEnds).to.be.above(Date.now());
    const runs: Run[] = [];
    outbox('B', runs, { outboxLeaseMs: leaseMs, outboxPollMs: 100 }).start();
    await eventually(async () => expect(await store.OutboxJob.countDocuments({})).to.equal(0));
    expect(runs.map((r) => [r.text, r.by])).to.deep.equal([['stored by the process that died', 'B']]);
    expect(runs[0].at).to.be.at.least(leaseEnds);
    // Its second claim: a Slack post would look for itself in the thread first (slack/postOnce.ts).
    expect(runs[0].attempts).to.equal(2);
    // Nothing runs it again.
    await new Promise((resolve) => setTimeout(resolve, leaseMs));
    expect(runs).to.have.length(1);
  });

  it('gives up, when it stops, the jobs it stored claimed and had not run: the next process runs them at once, once, as first attempts', async () => {
    // A 60-second lease, as in production: waiting for it would fail the eventually below.
    const tuning = { outboxLeaseMs: 60_000, outboxPollMs: 100 };
    const before: Run[] = [];
    const a = outbox('A', before, tuning);
    a.start();
    await eventually(async () => expect(commands.some((c) => c.commandName === 'find')).to.equal(true));
    // Stored claimed and left to a poke that never comes (a header whose first line is still being stored): then A stops,
    // as a server does on SIGTERM.
    await a.enqueue('post', 'conv', { text: 'first' }, { channel: 'C1', start: false, claim: true });
    await a.enqueue('post', 'conv', { text: 'second' }, { channel: 'C1', start: false, claim: true });
    const held = await store.OutboxJob.find({ key: 'conv' }).lean();
    expect(held.map((j) => j.lockedUntil?.getTime() ?? 0).every((t) => t > Date.now())).to.equal(true);
    await a.stop();
    expect(before).to.deep.equal([]);
    const released = await store.OutboxJob.find({ key: 'conv' }).sort({ createdAt: 1 }).lean();
    expect(released.map((j) => [j.payload.text, j.lockedBy, j.lockedUntil, j.attempts])).to.deep.equal([
      ['first', '', null, 0],
      ['second', '', null, 0],
    ]);
    const runs: Run[] = [];
    const started = Date.now();
    outbox('B', runs, tuning).start();
    await eventually(async () => expect(await store.OutboxJob.countDocuments({})).to.equal(0));
    expect(runs.map((r) => [r.text, r.by, r.attempts])).to.deep.equal([
      ['first', 'B', 1],
      ['second', 'B', 1],
    ]);
    expect(Date.now() - started).to.be.below(tuning.outboxLeaseMs / 2);
  });

  it('gives up the job whose insert was in flight as it stopped (a visitor’s frame still being handled): the next process runs it at once', async () => {
    const tuning = { outboxLeaseMs: 60_000, outboxPollMs: 100 };
    const a = outbox('A', [], tuning);
    a.start();
    await eventually(async () => expect(commands.some((c) => c.commandName === 'find')).to.equal(true));
    // Stored claimed (it is due now and A runs), and A told to stop before the store answered.
    const storing = a.enqueue('post', 'conv', { text: 'sent as the server stopped' }, { channel: 'C1', start: false, claim: true });
    await Promise.all([storing, a.stop()]);
    const [left] = await store.OutboxJob.find({ key: 'conv' }).lean();
    expect([left?.lockedBy, left?.lockedUntil, left?.attempts]).to.deep.equal(['', null, 0]);
    const runs: Run[] = [];
    const started = Date.now();
    outbox('B', runs, tuning).start();
    await eventually(async () => expect(await store.OutboxJob.countDocuments({})).to.equal(0));
    expect(runs.map((r) => [r.text, r.by, r.attempts])).to.deep.equal([['sent as the server stopped', 'B', 1]]);
    expect(Date.now() - started).to.be.below(tuning.outboxLeaseMs / 2);
  });

  it('runs a burst two processes store in one key in the order stored, each once, without waiting for a lease', async () => {
    const runs: Run[] = [];
    const boxes: Outbox<OutboxHost, Payloads>[] = [];
    const tuning = { outboxLeaseMs: 30_000, outboxPollMs: 600_000 };
    const a = outbox('A', runs, tuning, () => boxes);
    const b = outbox('B', runs, tuning, () => boxes);
    boxes.push(a, b);
    a.start();
    b.start();
    const texts = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`);
    const started = Date.now();
    // Each stored once the one before it is (a visitor's lines, an operator's posts): A, B, B, A, A, B, …
    for (const [i, text] of texts.entries()) await ([a, b, b, a][i % 4] ?? a).enqueue('post', 'conv', { text }, { channel: 'C1' });
    await eventually(async () => expect(runs).to.have.length(texts.length), 20_000);
    expect(runs.map((r) => r.text)).to.deep.equal(texts);
    // Both processes ran some of them, and no job waited for a lease to run out.
    expect(new Set(runs.map((r) => r.by))).to.have.keys('A', 'B');
    expect(Date.now() - started).to.be.below(tuning.outboxLeaseMs / 2);
    await eventually(async () => expect(await store.OutboxJob.countDocuments({})).to.equal(0));
  });
});
