/**
 * The durable outbox: Slack posts, webhook calls and mails are stored as jobs in MongoDB first and run by
 * this worker. Its kinds, their payloads and their rules are the catalogue's (catalogue.ts); the engine reads no
 * payload and decides nothing by a kind's name. Jobs with the same key (a conversation) run one at a time in order;
 * jobs of a kind paced by channel (Slack posts) take that channel's pace (token bucket, about one a second with a
 * small burst); a rate-limited call waits for Slack's Retry-After, other transient failures back off exponentially
 * until the kind's attempts run out. A job is removed only once the other side
 * accepted it, so a crash or restart re-runs it (at least once) instead of losing it.
 *
 * A backlog costs what its work costs, not what it holds: the keys that have jobs are kept in memory (with their
 * channel and the time they may run next), so nothing is read while nothing is due. One timer wakes the worker at
 * the earliest of the next Slack token of a channel with waiting keys, the earliest retry and the earliest lease
 * expiry. When it wakes, one query reads the next jobs of every key it may run, one update claims their heads:
 * the head's lease (`lockedUntil`, `lockedBy`) belongs to one process, which runs the head and the jobs behind it
 * it read with it; a process that dies leaves the lease to expire, and the next process to look takes the key over.
 * Consecutive jobs of a coalescing kind (visitor lines) are handed to their handler together, for one Slack post.
 * A leading kind (a thread's header) takes the jobs of its follower kind stored right behind it (the conversation's
 * first line) into its claim: one read, one claim and one removal for both.
 * Jobs stored by other processes are found by a slow safety poll (`outboxPollMs`) over the due-time indexes, or at
 * once when the process that stored them calls `wake(key)` (cross-process notification is wired by the caller).
 *
 * A job due now is stored already claimed by the process that stores it (its lease in the insert, held by this
 * process's own id): when the key's read finds it at the head, it runs without a claim's update. The read stays: a
 * job another process stored in the key before it runs first (a new conversation's key too: another process may
 * store a job in it once the conversation is stored, before its header). A process that dies leaves its stored claims
 * to expire like any lease; one that finds its claimed jobs behind another process's lease or backoff gives them up
 * (one update), so whoever runs the head runs them next, as before. A stored claim serves one run: a job whose run
 * failed is claimed again like any head (its attempt counted, so a Slack post's retry looks for itself first), and a
 * lease this process left behind (the store refused to record the failure) is its own to take again at once, not
 * after the lease. A job whose insert failed runs only once a claim's update on it is stored.
 *
 * The deployment's only process (`alone`: no REDIS_URL) knows every key that has jobs once its first poll has read them:
 * a job it stores claimed in a key with nothing stored, waiting or running here runs without the key's read, and so do
 * the jobs it stores claimed behind it before the key runs (a new conversation's header and its first line).
 */
import { randomBytes } from 'node:crypto';
import { Types } from 'mongoose';
import type { RelayTuning } from '../config';
import { AppError } from '../errors';
import type { Logger } from '../logger';
import type { OutboxJobDocument, OutboxJobModel } from '../models/OutboxJob';
import { JOURNALED } from '../models/writeConcerns';
import { ERROR_CODES } from '../shared/constants';
import type { EnqueueOptions, JobPayloads, JobRules } from './catalogue';
import type { SlackPace } from './slackPace';

/** A failure that retrying cannot fix (Slack said channel_not_found, Parley was uninstalled …). */
export class PermanentJobError extends AppError {
  // Never answered over HTTP: the outbox logs it and drops the job (500: no caller's request is at fault).
  constructor(message: string) {
    super(message, { status: 500, code: ERROR_CODES.jobFailed });
  }
}

/**
 * What a failure means for its job: dropped for good, or tried again after `retryInMs` (`blockChannelMs`: the
 * channel's posts wait too, as after Slack's Retry-After).
 */
export type JobVerdict = { permanent: true } | { permanent: false; retryInMs: number; blockChannelMs?: number };

/**
 * Reads a failure the handlers' side knows (server/slack/jobErrors.ts: Slack's rate limits and error codes);
 * undefined: not one of its own, the outbox backs off.
 */
export type JobErrorClassifier = (error: unknown) => JobVerdict | undefined;

/**
 * Payload types by kind: the catalogue's JobPayloads for the relay's outbox (an engine spec brings its own). A
 * payload is a plain object, stored as it is.
 */
export type Payloads<P> = { [K in keyof P]: Record<string, unknown> };

/** A stored job as its handler gets it: its kind's payload, typed. */
export type Job<K extends keyof P, P extends Payloads<P> = JobPayloads> = Omit<OutboxJobDocument, 'kind' | 'payload'> & {
  kind: K;
  payload: P[K];
};

/** Runs one job. */
export type JobHandler<C, K extends keyof P, P extends Payloads<P> = JobPayloads> = (ctx: C, job: Job<K, P>) => Promise<void>;
/**
 * Runs several consecutive jobs of one key and one kind at once (in order, oldest first, at most `max`), e.g.
 * visitor lines made into one Slack post. It may take fewer than offered by answering how many it did (from the
 * front; at least the first); the others stay queued. It succeeds or fails as a whole; a permanent failure re-runs
 * the jobs one by one, so one bad job fails alone.
 */
export type CoalescingHandler<C, K extends keyof P, P extends Payloads<P> = JobPayloads> = {
  coalesce: (ctx: C, jobs: Job<K, P>[]) => Promise<number | undefined>;
  max: number;
};
/**
 * Runs one job, then the jobs of kind `followedBy` stored right behind it, read and claimed with it (a thread's header
 * and the visitor line that opened the conversation): one read, one claim and one removal serve them all. The
 * followers run as their own kind's handler would run them, under the head's claim: they count as claimed as often
 * as the head (slack/postOnce.ts looks for a post that may be in Slack already). When the head succeeds and a
 * follower fails, the head is removed and the failure is the followers' own (their retry, or one by one).
 */
export type LeadingHandler<C, K extends keyof P, P extends Payloads<P> = JobPayloads> = {
  lead: JobHandler<C, K, P>;
  followedBy: keyof P & string;
};
/** What runs the jobs of kind K. */
export type KindHandler<C, K extends keyof P, P extends Payloads<P> = JobPayloads> =
  | JobHandler<C, K, P>
  | CoalescingHandler<C, K, P>
  | LeadingHandler<C, K, P>;
/** One handler per kind, each typed by its kind's payload. */
export type JobHandlers<C, P extends Payloads<P> = JobPayloads> = { [K in keyof P]: KindHandler<C, K, P> };

/**
 * A handler as the engine calls it, on a stored job. The engine itself never reads a payload; it hands a job to the
 * handler of the job's kind, and only `enqueue` (which takes exactly the kind's payload) writes jobs.
 */
type StoredHandler<C> =
  | ((ctx: C, job: OutboxJobDocument) => Promise<void>)
  | { coalesce: (ctx: C, jobs: OutboxJobDocument[]) => Promise<number | undefined>; max: number }
  | { lead: (ctx: C, job: OutboxJobDocument) => Promise<void>; followedBy: string };

/** What the outbox engine itself needs (the relay's context has it all). */
export type OutboxHost = { models: { OutboxJob: OutboxJobModel }; tuning: RelayTuning; logger: Logger };

export type OutboxOptions<P> = {
  /** How each kind is paced and retried (the catalogue's JOB_RULES). */
  rules: { readonly [K in keyof P]: JobRules };
  /**
   * Called on stop with the keys that still have jobs here, and with keys whose jobs stored claimed here were given
   * up to another process's lease, so other processes can take them at once instead of at their next safety poll
   * (they call `wake(key)`).
   */
  announce?: (keys: string[]) => void;
  /**
   * The deployment's shared pace per channel (relay/slackPace.ts, in Redis): asked right before a claimed Slack
   * post runs, and told of Slack's Retry-After. Without it, each process paces alone.
   */
  pace?: SlackPace;
  /**
   * No other process stores or runs jobs in this database (one process: no REDIS_URL, docs/self-hosting.md). Then
   * the keys this process knows are all the keys with jobs, and a job stored claimed in a key with nothing else
   * stored, waiting or running here runs without the key's read: nothing can be ahead of it.
   */
  alone?: boolean;
  /** What the handlers' failures mean (passed in by main.ts); without it every failure but PermanentJobError backs off. */
  classify?: JobErrorClassifier;
};

/** Longest one wait for the shared pace before asking it again (the job's lease is renewed meanwhile). */
const PACE_WAIT_MAX_MS = 2_000;

/** Keys running at once, and keys claimed in one round trip. */
const CONCURRENCY = 64;
/**
 * How long a job stored here with `start: false` is left to the `poke` that follows (its caller stores more first,
 * e.g. the first line behind a header) rather than to the safety poll, which would run it alone.
 */
const POKE_EXPECTED_MS = 5_000;
/** How long `stop` waits for the jobs being stored, so that it gives up their claims too. */
const STOP_INSERTS_WAIT_MS = 5_000;
/** Most jobs of one key known here without a read (a new conversation's header and first line are two). */
const KNOWN_MAX = 8;
/** Jobs stored by another process shortly before a poll may commit after it: each poll looks this far back. */
const POLL_OVERLAP_MS = 10_000;

/** A key believed to have jobs, not running here. */
type Waiting = {
  /** Pacing channel of its head as last known ('' = none or not known yet). */
  channel: string;
  /** When its oldest waiting job was stored, as far as known: the oldest key goes first. */
  since: number;
  /** Not before (backoff, Retry-After, another process's lease). */
  at: number;
};

/** The next jobs of one key as read for a claim. */
type KeyJobs = { _id: string; jobs: OutboxJobDocument[] };

/**
 * A claimed head and the jobs read to run with it; `extra`: a second token of the channel taken for its followers;
 * `own`: the head was stored claimed by this process (no claim to take).
 */
type Head = { key: string; batch: OutboxJobDocument[]; more: boolean; token: string; extra: string; own: boolean };

/**
 * Stores and runs jobs; its handlers get the context `C` that `options.context` answers (the relay's), and the jobs
 * of the kinds of `P` (the catalogue's, server/outbox/catalogue.ts).
 */
export class Outbox<C, P extends Payloads<P> = JobPayloads> {
  private stopped = true;
  private readonly waiting = new Map<string, Waiting>();
  private readonly running = new Map<string, Promise<void>>();
  /** Keys picked and being claimed (between leaving `waiting` and starting to run). */
  private readonly claiming = new Set<string>();
  /**
   * Keys told about (enqueue, poke, wake) while they were claimed or ran: looked at again when they finish, unless all
   * they were told of is jobs stored here that this run already ran (the ids; null: anything, look again).
   */
  private readonly again = new Map<string, Set<string> | null>();
  /** Keys whose jobs of a coalesced batch that failed for good run one by one (the batch's job ids). */
  private readonly solo = new Map<string, Set<string>>();
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly blockedUntil = new Map<string, number>();
  /** Keys whose jobs were stored here with `start: false`, and when: their poke is coming. */
  private readonly unpoked = new Map<string, number>();
  /**
   * `lockedBy` of the jobs this process stored claimed; the claims it takes later are `self` and a dot before their
   * own random part, so a lease this process left behind (its run failed and the store refused to record it) is
   * known as its own and taken again at once instead of after the lease.
   */
  private readonly self = randomBytes(8).toString('hex');
  /**
   * The jobs this process stored claimed and has not run yet, by key (the ids): only such a job runs under the claim
   * of its insert, once. A job that ran (and failed) is claimed again as any head, which counts its attempt, so a
   * Slack post's retry looks for the post first (slack/postOnce.ts). Given up or stopped: only these.
   */
  private readonly storedClaimed = new Map<string, Set<string>>();
  /**
   * The jobs being stored here, until the store answers: a read may see one before (a poll, or a refused write the
   * store shows until it has undone it); it runs only once its insert is acknowledged.
   */
  private readonly inserting = new Set<string>();
  /** How many inserts are in flight per key. */
  private readonly insertingIn = new Map<string, number>();
  /**
   * Alone only: the jobs a key has, in order, each stored claimed here, the first in a key that had none (a new
   * conversation's header and its first line), until the key's claim takes them without reading. Anything else told
   * of the key (a job stored otherwise, a failure) drops them, and the key is read.
   */
  private readonly known = new Map<string, OutboxJobDocument[]>();
  private timer: NodeJS.Timeout | null = null;
  private timerAt = Infinity;
  private pumpQueued = false;
  private pumping = false;
  private pollTimer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private lastPollAt = 0;

  constructor(
    private readonly host: OutboxHost,
    private readonly handlers: JobHandlers<C, P>,
    private readonly options: OutboxOptions<P> & {
      /** What the handlers get (asked when a job runs, so a context that holds this outbox can be built after it). */
      context: () => C;
    },
  ) {}

  /** Stores a job of `kind` with exactly that kind's payload; it runs after the jobs of `key` stored before it. */
  async enqueue<K extends keyof P & string>(kind: K, key: string, payload: P[K], opts: EnqueueOptions = {}): Promise<void> {
    const now = new Date();
    const runAt = opts.runAt ?? now;
    // Claimed here as it is stored (counted as the first attempt, as a claim is), unless it waits for later, for a
    // poke that did not ask for it, or this process runs nothing.
    const claimed = !this.stopped && runAt <= now && (opts.claim ?? opts.start !== false);
    // Through the driver, every field spelled out (the type makes a new field a compile error until it is here).
    const job: OutboxJobDocument = {
      _id: new Types.ObjectId(),
      kind,
      key,
      channel: opts.channel ?? '',
      payload,
      attempts: claimed ? 1 : 0,
      runAt,
      lockedUntil: claimed ? new Date(now.getTime() + this.host.tuning.outboxLeaseMs) : null,
      lockedBy: claimed ? this.self : '',
      lastError: '',
      failedAt: null,
      conversationId: opts.conversationId ?? null,
      createdAt: now,
      updatedAt: now,
    };
    // Alone: nothing of the key known here before it but the jobs it stored claimed and knows (checked again once it
    // is stored). Those stay known while it is stored (a claim meanwhile runs them: they come first); any other job
    // stored drops what was known.
    const knownBefore = this.known.get(key);
    const prior = knownBefore ?? [];
    const lone =
      claimed &&
      this.options.alone === true &&
      this.lastPollAt > 0 &&
      prior.length < KNOWN_MAX &&
      (prior.length === 0 ? this.idle(key) : this.onlyKnown(key, prior));
    if (!lone) this.known.delete(key);
    // Before it is stored: a poll in flight meanwhile must not run it alone.
    if (opts.start === false && !this.unpoked.has(key)) {
      this.unpoked.set(key, Date.now());
      if (this.unpoked.size > 10_000) for (const [k, at] of this.unpoked) if (Date.now() - at > POKE_EXPECTED_MS) this.unpoked.delete(k);
    }
    // Durable before the work it stands for is acknowledged to anyone, whatever the deployment's default.
    this.inserting.add(String(job._id));
    this.insertingIn.set(key, (this.insertingIn.get(key) ?? 0) + 1);
    const stored = () => {
      this.inserting.delete(String(job._id));
      const left = (this.insertingIn.get(key) ?? 1) - 1;
      if (left > 0) this.insertingIn.set(key, left);
      else this.insertingIn.delete(key);
    };
    try {
      await this.host.models.OutboxJob.collection.insertOne(job, { writeConcern: JOURNALED });
      stored();
    } catch (error) {
      stored();
      if (opts.start === false) this.unpoked.delete(key);
      // A refused insert leaves nothing; one whose answer was lost may have stored the job claimed here: the key is
      // read again in a second, and a claim of this process found there is taken at once (not left to its lease).
      if (claimed) this.note(key, '', Date.now() + 1000);
      throw error;
    }
    // Its own wait for a poke aside (every job stored with `start: false` is stored claimed, so another one would show),
    // and what was known neither taken by a claim nor dropped meanwhile (an enqueue of the key begun while this one was
    // in flight found it being stored, so it was not alone, and dropped it).
    const alone =
      lone &&
      this.known.get(key) === knownBefore &&
      (prior.length === 0 ? this.idle(key, opts.start === false) : this.onlyKnown(key, prior));
    if (claimed) {
      const ids = this.storedClaimed.get(key);
      if (ids) ids.add(String(job._id));
      else this.storedClaimed.set(key, new Set([String(job._id)]));
    }
    if (alone) this.known.set(key, [...prior, job]);
    else this.known.delete(key);
    // Stored claimed here as this process stopped, once it had given up its claims: given up too.
    if (claimed && this.stopped) {
      await this.giveUp([key]).catch((error: unknown) =>
        this.host.logger.warn({ err: error, key }, 'outbox: could not give up a job stored claimed as the outbox stopped'),
      );
    }
    if (opts.start !== false) this.note(key, this.paced(kind) ? (opts.channel ?? '') : '', runAt.getTime(), String(job._id));
  }

  /** Runs the due jobs of `key` now (after a job was stored with `start: false`). */
  poke(key: string): void {
    this.unpoked.delete(key);
    const jobs = this.known.get(key);
    this.note(key, '', 0, jobs ? String(jobs[0]._id) : undefined);
  }

  /**
   * Another process stored jobs of `key` (or, without a key, may have stored or left jobs anywhere): look now
   * instead of at the next safety poll.
   */
  wake(key?: string): void {
    if (key !== undefined) this.note(key, '', 0);
    else this.poll();
  }

  start(): void {
    this.stopped = false;
    this.lastPollAt = 0;
    this.poll();
    this.pollTimer = setInterval(() => this.poll(), this.host.tuning.outboxPollMs);
    this.pollTimer.unref();
  }

  /** Stops taking jobs and waits for the running ones; jobs not yet done stay stored for the next start. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = null;
    this.setTimer(Infinity);
    // And the jobs being stored (a visitor's frame in flight as the sockets closed): one stored claimed here after the
    // claims are given up below would hold its key, and the jobs behind it, until its lease ran out. (A store that
    // does not answer in time: the enqueue gives it up itself once stored, below.)
    const insertsBy = Date.now() + STOP_INSERTS_WAIT_MS;
    while (this.polling || this.pumping || this.running.size > 0 || (this.inserting.size > 0 && Date.now() < insertsBy)) {
      await Promise.allSettled([this.polling, ...this.running.values()]);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const left = [...this.waiting.keys()];
    this.waiting.clear();
    this.known.clear();
    // The jobs stored claimed here and not run: the other processes take them at once, not after their lease. (One
    // that ran and whose failure could not be recorded keeps its lease and attempt: its rerun looks before posting.)
    await this.giveUp([...this.storedClaimed.keys()]).catch((error: unknown) =>
      this.host.logger.warn({ err: error }, 'outbox: could not give up the jobs claimed here'),
    );
    if (left.length > 0) this.options.announce?.(left);
  }

  /** Remembers that `key` has jobs and looks at it soon (no read now). */
  private note(key: string, channel: string, at: number, jobId?: string): void {
    if (this.stopped) return;
    const jobs = this.known.get(key);
    if (jobs && !jobs.some((job) => String(job._id) === jobId)) this.known.delete(key);
    if (this.running.has(key) || this.claiming.has(key)) {
      const ids = this.again.get(key);
      if (jobId === undefined) this.again.set(key, null);
      else if (ids) ids.add(jobId);
      else if (ids === undefined) this.again.set(key, new Set([jobId]));
      return;
    }
    const known = this.waiting.get(key);
    if (known) {
      if (!known.channel) known.channel = channel;
      known.at = Math.min(known.at, at);
    } else {
      this.waiting.set(key, { channel, since: Date.now(), at });
    }
    this.kick();
  }

  /** Runs `pump` once after the current burst of calls (many enqueues in one tick cost one pump). */
  private kick(): void {
    if (this.pumpQueued || this.stopped) return;
    this.pumpQueued = true;
    setImmediate(() => {
      this.pumpQueued = false;
      this.pump();
    });
  }

  private setTimer(at: number): void {
    if (at === this.timerAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.timerAt = at;
    if (at === Infinity || this.stopped) return;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.timerAt = Infinity;
        this.pump();
      },
      Math.max(0, at - Date.now()),
    );
    this.timer.unref();
  }

  /**
   * Picks the keys that may run now (due, and for a paced channel holding a token, oldest first), claims them
   * in one round trip, and sets the one timer for the earliest moment another key may run.
   */
  private pump(): void {
    if (this.stopped || this.pumping) return;
    const now = Date.now();
    const picked: { key: string; token: string }[] = [];
    let next = Infinity;
    const byChannel = new Map<string, [string, Waiting][]>();
    for (const entry of this.waiting) {
      const [key, w] = entry;
      if (w.at > now) {
        next = Math.min(next, w.at);
        continue;
      }
      if (!w.channel) {
        if (this.running.size + picked.length < CONCURRENCY) picked.push({ key, token: '' });
        continue;
      }
      const list = byChannel.get(w.channel);
      if (list) list.push(entry);
      else byChannel.set(w.channel, [entry]);
    }
    for (const [channel, entries] of byChannel) {
      entries.sort((a, b) => a[1].since - b[1].since);
      for (const [key] of entries) {
        if (this.running.size + picked.length >= CONCURRENCY) break;
        if (!this.takeToken(channel, now)) {
          next = Math.min(next, this.nextTokenAt(channel, now));
          break;
        }
        picked.push({ key, token: channel });
      }
    }
    this.setTimer(next);
    if (picked.length === 0) return;
    for (const { key } of picked) {
      this.waiting.delete(key);
      this.claiming.add(key);
    }
    this.pumping = true;
    void this.claim(picked)
      .catch((error: unknown) => {
        if (!this.stopped) this.host.logger.error({ err: error }, 'outbox: could not claim jobs');
        // Read again in a second; the keys stay known.
        for (const { key, token } of picked) {
          // A key that runs (its head stored claimed here started before the failed claim) is looked at when it ends.
          if (this.running.has(key)) continue;
          this.refund(token);
          this.requeue(key, '', Date.now() + 1000);
        }
      })
      .finally(() => {
        this.pumping = false;
        for (const { key } of picked) {
          this.claiming.delete(key);
          // Told about while being claimed and not running now: look again (also when it waits for another
          // process's lease and has jobs stored claimed here since, to give up to that process).
          if (!this.running.has(key) && this.again.delete(key) && (!this.waiting.has(key) || this.storedClaimed.has(key)))
            this.requeue(key, '', 0);
        }
        this.kick();
      });
  }

  /** Reads the next jobs of the picked keys (one read) and takes the leases of their heads (one update). */
  private async claim(picked: { key: string; token: string }[]): Promise<void> {
    const { OutboxJob } = this.host.models;
    const { outboxLeaseMs } = this.host.tuning;
    // In the order they were stored. Not by _id alone: ObjectIds made by two processes within one second sort by
    // the processes' random bytes, so a job queued later by another process could run first. One more than a
    // batch holds: it tells whether the key has more after the batch.
    const order = { createdAt: 1, _id: 1 } as const;
    // Alone, a key whose jobs are known here is not read. They are taken now, before the read of the others: a job of
    // the key stored meanwhile then finds them taken (its key no longer alone), rather than dropping them from under
    // this claim, which would leave the key with no jobs found and its claims stored here forgotten.
    const knownJobs = new Map<string, OutboxJobDocument[]>();
    for (const { key } of picked) {
      const jobs = this.known.get(key);
      if (!jobs) continue;
      knownJobs.set(key, jobs);
      this.known.delete(key);
    }
    const toRead = picked.filter((p) => !knownJobs.has(p.key)).map((p) => p.key);
    // The claims stored here before the read: a key found empty forgets these only. A job of the key whose insert is
    // answered while the read is in flight may be missing from it; its claim is kept, and its key looked at again.
    const claimedBefore = new Map(toRead.map((key) => [key, [...(this.storedClaimed.get(key) ?? [])]]));
    const [only] = toRead;
    // One key (the usual case): a plain indexed read. Several: one aggregation gives each key its next jobs.
    const groups: KeyJobs[] =
      toRead.length === 0
        ? []
        : toRead.length === 1
          ? [
              {
                _id: only,
                jobs: await OutboxJob.collection
                  .find<OutboxJobDocument>({ key: only, failedAt: null })
                  .sort(order)
                  .limit(this.maxBatch() + 1)
                  .toArray(),
              },
            ]
          : await OutboxJob.collection
              .aggregate<KeyJobs>([
                { $match: { key: { $in: toRead }, failedAt: null } },
                { $sort: order },
                { $group: { _id: '$key', jobs: { $push: '$$ROOT' } } },
                { $project: { jobs: { $slice: ['$jobs', this.maxBatch() + 1] } } },
              ])
              .toArray();
    const found = new Map([...groups.map((g): [string, OutboxJobDocument[]] => [g._id, g.jobs]), ...knownJobs]);
    const now = Date.now();
    /** Keys whose jobs stored claimed here wait behind another process's lease: given up, that process runs them. */
    const giveUp: string[] = [];
    const heads: Head[] = [];
    for (const { key, token } of picked) {
      const jobs = found.get(key);
      if (!jobs || jobs.length === 0) {
        this.refund(token);
        this.solo.delete(key);
        this.forgetClaims(key, claimedBefore.get(key) ?? []);
        continue;
      }
      const head = jobs[0];
      const handler = this.handlerOf(head.kind);
      if (!handler) {
        // A kind this version does not know: a newer version's, stored by one of its processes during a rolling
        // upgrade. Left to it (set aside here, it would be lost to that version); looked at again later.
        this.refund(token);
        this.host.logger.warn({ jobKind: head.kind, jobId: String(head._id) }, 'outbox: a job of a kind this version does not run waits');
        this.requeue(key, '', now + this.host.tuning.outboxLeaseMs, head.createdAt);
        continue;
      }
      const channel = this.paced(head.kind) ? head.channel : '';
      if (this.inserting.has(String(head._id))) {
        // Read before its insert was acknowledged here: its enqueue looks at the key again once it is.
        this.refund(token);
        this.requeue(key, channel, now + 1000, head.createdAt);
        continue;
      }
      const lockedUntil = head.lockedUntil?.getTime() ?? 0;
      // Leased by this process, yet not running here: a claim it stored and has not run, or one it left behind (a
      // run that failed when the store refused to record it). The first, with half a lease left at least, runs
      // under that claim (its renewal starts with the run); any other is claimed again as any head (an attempt more).
      const mine = this.ownedHere(head.lockedBy) && lockedUntil > now;
      const own = mine && this.storedClaimed.get(key)?.has(String(head._id)) === true && lockedUntil > now + outboxLeaseMs / 2;
      if (head.runAt.getTime() > now || (lockedUntil > now && !mine)) {
        // Backing off, or another process holds the key: look again when that ends. Jobs stored claimed here behind
        // it are given up, so whoever runs the head runs them next.
        this.refund(token);
        this.requeue(key, channel, Math.max(head.runAt.getTime(), lockedUntil + 1), head.createdAt);
        if (this.storedClaimed.has(key)) giveUp.push(key);
        continue;
      }
      let paidBy = token;
      if (channel !== token) {
        this.refund(token);
        paidBy = '';
        if (channel) {
          if (!this.takeToken(channel, now)) {
            this.requeue(key, channel, 0, head.createdAt);
            continue;
          }
          paidBy = channel;
        }
      }
      const batch = [head];
      if (!this.solo.get(key)?.has(String(head._id))) this.solo.delete(key);
      let extra = '';
      if (typeof handler !== 'function' && !this.solo.has(key)) {
        const [kind, max] = 'coalesce' in handler ? [head.kind, handler.max] : [handler.followedBy, 1 + this.batchOf(handler.followedBy)];
        for (const job of jobs.slice(1)) {
          if (batch.length >= max || job.kind !== kind || job.runAt.getTime() > now) break;
          // Held by another process (stored claimed there, its head once this one is done): not run here too.
          if (job.lockedBy && !this.ownedHere(job.lockedBy) && (job.lockedUntil?.getTime() ?? 0) > now) break;
          // Its insert not acknowledged yet (it may yet be refused).
          if (this.inserting.has(String(job._id))) break;
          batch.push(job);
        }
        // Followers of another kind are one more post into the channel: one more token, or the head goes alone.
        const followerChannel = kind !== head.kind && this.paced(kind) ? head.channel : '';
        if (batch.length > 1 && followerChannel) {
          if (this.takeToken(followerChannel, now)) extra = followerChannel;
          else batch.splice(1);
        }
      }
      heads.push({ key, batch, more: jobs.length > batch.length, token: paidBy, extra, own });
    }
    await this.giveUp(giveUp.splice(0));
    // Stored claimed here: they run now, under the claim taken as they were stored.
    for (const h of heads) if (h.own) this.start1(h.key, h.batch, h.more, this.self);
    const taking = heads.filter((h) => !h.own);
    if (taking.length === 0) return;
    const lockedBy = `${this.self}.${randomBytes(4).toString('hex')}`;
    const until = new Date(now + outboxLeaseMs);
    // Journaled whatever the deployment's default: a claim counted in `attempts` is how a rerun after a crash
    // knows its post may already be in Slack (slack/postOnce.ts).
    const res = await OutboxJob.collection.updateMany(
      { $or: taking.map(({ batch: [head] }) => ({ _id: head._id, lockedUntil: head.lockedUntil ?? null, failedAt: null })) },
      { $set: { lockedUntil: until, lockedBy, updatedAt: new Date(now) }, $inc: { attempts: 1 } },
      { writeConcern: JOURNALED },
    );
    let won = taking;
    if (res.modifiedCount < taking.length) {
      const mine = await OutboxJob.find({ _id: { $in: taking.map((h) => h.batch[0]._id) }, lockedBy }, { _id: 1 }).lean<
        { _id: Types.ObjectId }[]
      >();
      const ids = new Set(mine.map((m) => String(m._id)));
      won = [];
      for (const h of taking) {
        if (ids.has(String(h.batch[0]._id))) won.push(h);
        else {
          // Another process took it between the read and the claim: it runs the key now, and the jobs stored
          // claimed here behind it.
          this.refund(h.token);
          this.refund(h.extra);
          this.requeue(h.key, h.batch[0].channel, now + outboxLeaseMs, h.batch[0].createdAt);
          if (this.storedClaimed.has(h.key)) giveUp.push(h.key);
        }
      }
      await this.giveUp(giveUp.splice(0));
    }
    for (const h of won) {
      const head = h.batch[0];
      head.lockedUntil = until;
      head.attempts += 1;
      this.start1(h.key, h.batch, h.more, lockedBy);
    }
  }

  /**
   * Gives up the jobs stored claimed here in `keys` (whose heads another process holds, or every key as this process
   * stops), so another process runs them next: as if stored unclaimed, their attempt not counted (a job still leased
   * here never ran as a head; one run behind a head that failed counts its head's attempts, as any follower), due now
   * again so a safety poll finds them, and the other processes told at once.
   */
  private async giveUp(keys: string[]): Promise<void> {
    const ids = keys.flatMap((key) => [...(this.storedClaimed.get(key) ?? [])].map((id) => new Types.ObjectId(id)));
    for (const key of keys) this.storedClaimed.delete(key);
    if (ids.length === 0) return;
    const now = new Date();
    await this.host.models.OutboxJob.collection.updateMany(
      { _id: { $in: ids }, lockedBy: this.self, lockedUntil: { $gt: now }, failedAt: null },
      { $set: { lockedUntil: null, lockedBy: '', runAt: now, updatedAt: now }, $inc: { attempts: -1 } },
      { writeConcern: JOURNALED },
    );
    this.options.announce?.(keys);
  }

  /** Forgets the claims of `ids` stored here in `key` (those stored before a read that found the key empty). */
  private forgetClaims(key: string, ids: string[]): void {
    const claimed = this.storedClaimed.get(key);
    if (!claimed) return;
    for (const id of ids) claimed.delete(id);
    if (claimed.size === 0) this.storedClaimed.delete(key);
  }

  /** Whether nothing of `key` is known here: no job waiting, being claimed, running, stored or being stored. */
  private idle(key: string, poked = false): boolean {
    return !this.waiting.has(key) && this.still(key) && (poked || !this.unpoked.has(key)) && !this.storedClaimed.has(key);
  }

  /** Whether `key` is neither being claimed nor running, nor told of anything meanwhile, nor has a job being stored. */
  private still(key: string): boolean {
    return !this.claiming.has(key) && !this.running.has(key) && !this.again.has(key) && !this.solo.has(key) && !this.insertingIn.has(key);
  }

  /**
   * Whether all `key` has are the `jobs` known here: stored claimed here and not run, none stored otherwise or being
   * stored, and the key not being claimed or running (it may wait to be: what it waits for is these jobs).
   */
  private onlyKnown(key: string, jobs: OutboxJobDocument[]): boolean {
    const claimed = this.storedClaimed.get(key);
    return this.still(key) && claimed?.size === jobs.length && jobs.every((job) => claimed.has(String(job._id)));
  }

  /** Whether `lockedBy` is a claim of this process: stored claimed here, or taken here. */
  private ownedHere(lockedBy: string): boolean {
    return lockedBy === this.self || lockedBy.startsWith(`${this.self}.`);
  }

  /** Runs one claimed batch of a key in the background; the key is looked at again when it ends. */
  private start1(key: string, batch: OutboxJobDocument[], more: boolean, lockedBy: string): void {
    const head = batch[0];
    // Whatever becomes of this run, its jobs' claims stored here are spent: a rerun claims them again.
    const unrun = this.storedClaimed.get(key);
    if (unrun) for (const job of batch) unrun.delete(String(job._id));
    if (unrun?.size === 0) this.storedClaimed.delete(key);
    const channel = this.paced(head.kind) ? head.channel : '';
    const renew = setInterval(
      () => {
        void this.host.models.OutboxJob.updateOne(
          { _id: head._id, lockedBy },
          { $set: { lockedUntil: new Date(Date.now() + this.host.tuning.outboxLeaseMs) } },
        ).catch(() => undefined);
      },
      Math.max(50, this.host.tuning.outboxLeaseMs / 3),
    );
    renew.unref();
    const run = this.run(key, batch)
      .catch((error: unknown): number => {
        if (!this.stopped) this.host.logger.error({ key, err: error }, 'outbox: jobs of a key could not run');
        return Date.now() + 1000;
      })
      .then((after) => {
        // In one step: a key told about while it ran is not lost between "finished" and "no longer running".
        clearInterval(renew);
        this.running.delete(key);
        const told = this.toldOf(key, batch);
        if (typeof after === 'number') this.requeue(key, channel, after);
        else if (after === 'more' || more || told) this.requeue(key, channel, 0);
        else this.storedClaimed.delete(key);
        this.kick();
      });
    this.running.set(key, run);
  }

  /** Whether `key` was told of anything but the jobs of `ran` while it was claimed or ran (and forgets it). */
  private toldOf(key: string, ran: OutboxJobDocument[]): boolean {
    const ids = this.again.get(key);
    if (ids === undefined) return false;
    this.again.delete(key);
    if (ids === null) return true;
    for (const job of ran) ids.delete(String(job._id));
    return ids.size > 0;
  }

  /** Puts a key back among the waiting (when it may run next, and since when its next job waits). */
  private requeue(key: string, channel: string, at: number, nextStoredAt?: Date | null): void {
    this.known.delete(key);
    if (this.stopped) return;
    // When it was stored, to the millisecond (an ObjectId's time is whole seconds: it would jump the queue).
    const since = nextStoredAt ? nextStoredAt.getTime() : Date.now();
    const known = this.waiting.get(key);
    if (known) {
      // The caller's knowledge is the newest (it just read or ran the key).
      known.at = at;
      known.channel = channel || known.channel;
      known.since = Math.min(known.since, since);
    } else {
      this.waiting.set(key, { channel, since, at });
    }
  }

  /**
   * Runs a claimed batch: 'done' when its jobs are settled (removed, or failed for good), 'more' when the handler
   * left some of them for later, else when to retry.
   */
  private async run(key: string, batch: OutboxJobDocument[]): Promise<'done' | 'more' | number> {
    const { OutboxJob } = this.host.models;
    const [head] = batch;
    const handler = this.handlerOf(head.kind);
    // A leading head runs alone first; its followers then run as their own kind's batch, under the head's claim (its
    // attempts and last error stand for theirs).
    const own = handler && typeof handler !== 'function' && 'lead' in handler ? [head] : batch;
    const followers = batch.slice(own.length);
    // What a failure concerns: the batch, or a leading head alone (its followers did not run).
    let failing = own;
    try {
      let done = await this.runOwn(own);
      if (followers.length > 0) {
        failing = followers;
        try {
          done += await this.runOwn([{ ...followers[0], attempts: head.attempts, lastError: head.lastError }, ...followers.slice(1)]);
        } catch (error) {
          // The head is done: removed; what failed is the followers' own.
          await OutboxJob.collection.deleteMany({ _id: head._id }, { writeConcern: JOURNALED });
          throw error;
        }
      }
      await OutboxJob.collection.deleteMany({ _id: { $in: batch.slice(0, done).map((j) => j._id) } }, { writeConcern: JOURNALED });
      // 'more': the rest were read but not claimed, the next claim reads them again.
      return done < batch.length ? 'more' : 'done';
    } catch (error) {
      return this.failed(key, failing, error);
    }
  }

  /**
   * Runs consecutive jobs of one kind with that kind's handler, after the channel's shared pace when they post; answers
   * how many of them it did (from the front: a coalescing handler may leave some, the others take the first only).
   */
  private async runOwn(jobs: OutboxJobDocument[]): Promise<number> {
    const [first] = jobs;
    const handler = this.handlerOf(first.kind);
    if (!handler) throw new PermanentJobError(`no handler for jobs of kind ${first.kind}`);
    if (this.options.pace && this.paced(first.kind) && first.channel) await this.sharedPace(first.channel);
    if (typeof handler === 'function') {
      await handler(this.options.context(), first);
      return 1;
    }
    if ('coalesce' in handler) {
      return Math.max(1, Math.min(jobs.length, (await handler.coalesce(this.options.context(), jobs)) ?? jobs.length));
    }
    await handler.lead(this.options.context(), first);
    return 1;
  }

  /** A batch failed (its jobs stay stored): when to retry it, or 'done' when its head failed for good. */
  private async failed(key: string, batch: OutboxJobDocument[], error: unknown): Promise<'done' | number> {
    const { OutboxJob } = this.host.models;
    const head = batch[0];
    const verdict = this.classify(head, error);
    const message = error instanceof Error ? error.message : String(error);
    if (verdict.permanent && batch.length > 1) {
      // One of them may be the bad one: run them one by one.
      this.solo.set(key, new Set(batch.map((job) => String(job._id))));
      await OutboxJob.updateOne({ _id: head._id }, { $set: { lockedUntil: null, lastError: message } });
      return Date.now();
    }
    if (verdict.permanent) {
      this.host.logger.warn(
        {
          jobKind: head.kind,
          jobId: String(head._id),
          conversationId: head.conversationId ? String(head.conversationId) : undefined,
          detail: message,
        },
        'outbox: a job failed for good',
      );
      await OutboxJob.updateOne({ _id: head._id }, { $set: { failedAt: new Date(), lockedUntil: null, lastError: message } });
      // Later jobs of the key go on without it.
      return 'done';
    }
    if (verdict.blockChannelMs && this.paced(head.kind) && head.channel) {
      this.blockedUntil.set(head.channel, Date.now() + verdict.blockChannelMs);
      this.options.pace?.block(head.channel, verdict.blockChannelMs);
    }
    const runAt = Date.now() + verdict.retryInMs;
    await OutboxJob.updateOne({ _id: head._id }, { $set: { runAt: new Date(runAt), lockedUntil: null, lastError: message } });
    return runAt;
  }

  /** Waits until the deployment's budget for `channel` lets one more post go (other processes post there too). */
  private async sharedPace(channel: string): Promise<void> {
    const pace = this.options.pace;
    if (!pace) return;
    const { slackPostsPerSecond, slackBurst } = this.host.tuning;
    for (;;) {
      const wait = await pace.take(channel, slackPostsPerSecond, slackBurst);
      if (wait <= 0 || this.stopped) return;
      await new Promise((resolve) => setTimeout(resolve, Math.min(wait, PACE_WAIT_MAX_MS)));
    }
  }

  private maxBatch(): number {
    let max = 1;
    for (const kind of Object.keys(this.handlers)) {
      const handler = this.handlerOf(kind);
      if (handler && typeof handler !== 'function')
        max = Math.max(max, 'coalesce' in handler ? handler.max : 1 + this.batchOf(handler.followedBy));
    }
    return max;
  }

  /** How many jobs of `kind` run in one batch. */
  private batchOf(kind: string): number {
    const handler = this.handlerOf(kind);
    return handler && typeof handler !== 'function' && 'coalesce' in handler ? handler.max : 1;
  }

  /** The handler of a stored job's kind; undefined for a kind this version does not know. */
  private handlerOf(kind: string): StoredHandler<C> | undefined {
    if (!Object.hasOwn(this.handlers, kind)) return undefined;
    // The one place a stored job meets its kind's type: enqueue, the only writer, took exactly that kind's payload.
    return this.handlers[kind as keyof P] as unknown as StoredHandler<C>;
  }

  private rulesOf(kind: string): JobRules | undefined {
    return Object.hasOwn(this.options.rules, kind) ? this.options.rules[kind as keyof P] : undefined;
  }

  /** Whether jobs of `kind` post into their channel, and so take its pace. */
  private paced(kind: string): boolean {
    return this.rulesOf(kind)?.pace === 'channel';
  }

  private takeToken(channel: string, now: number): boolean {
    if ((this.blockedUntil.get(channel) ?? 0) > now) return false;
    const { slackPostsPerSecond: rate, slackBurst: burst } = this.host.tuning;
    const bucket = this.buckets.get(channel) ?? { tokens: burst, at: now };
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * rate);
    bucket.at = now;
    this.buckets.set(channel, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  /** A token taken for a key that turned out to have nothing to post goes back. */
  private refund(channel: string): void {
    const bucket = channel ? this.buckets.get(channel) : undefined;
    if (bucket) bucket.tokens = Math.min(this.host.tuning.slackBurst, bucket.tokens + 1);
  }

  private nextTokenAt(channel: string, now: number): number {
    const bucket = this.buckets.get(channel);
    const refill = bucket ? bucket.at + Math.max(0, ((1 - bucket.tokens) / this.host.tuning.slackPostsPerSecond) * 1000) : now;
    return Math.max(refill, this.blockedUntil.get(channel) ?? 0, now + 1);
  }

  /**
   * The safety poll: keys with jobs that became due, or whose lease expired, since the last poll (jobs stored by
   * other processes, and keys a dead process held). The first poll after start reads every unfinished job's key.
   */
  private poll(): void {
    if (this.stopped || this.polling) return;
    const { OutboxJob } = this.host.models;
    const now = new Date();
    const first = this.lastPollAt === 0;
    const from = new Date(this.lastPollAt - POLL_OVERLAP_MS);
    const projection = { key: 1, channel: 1, kind: 1, createdAt: 1 };
    // createdAt: missing on jobs stored by some older releases (their ObjectId's second stands in).
    type Found = { key: string; channel: string; kind: string; createdAt?: Date; _id: Types.ObjectId };
    this.polling = (async () => {
      const found = first
        ? await OutboxJob.find({ failedAt: null }, projection).sort({ _id: 1 }).lean<Found[]>()
        : [
            ...(await OutboxJob.find({ failedAt: null, runAt: { $gt: from, $lte: now } }, projection).lean<Found[]>()),
            ...(await OutboxJob.find({ failedAt: null, lockedUntil: { $gt: from, $lte: now } }, projection).lean<Found[]>()),
          ];
      this.lastPollAt = now.getTime();
      for (const job of found) {
        if (this.running.has(job.key) || this.claiming.has(job.key) || this.waiting.has(job.key)) continue;
        // Its poke is coming (it would run alone now, ahead of what its caller stores behind it).
        const storedAt = this.unpoked.get(job.key);
        if (storedAt !== undefined) {
          if (Date.now() - storedAt < POKE_EXPECTED_MS) continue;
          this.unpoked.delete(job.key);
        }
        this.waiting.set(job.key, {
          channel: this.paced(job.kind) ? job.channel : '',
          since: (job.createdAt ?? job._id.getTimestamp()).getTime(),
          at: 0,
        });
      }
      this.kick();
    })()
      .catch((error: unknown) => {
        if (!this.stopped) this.host.logger.error({ err: error }, 'outbox: could not read jobs');
      })
      .finally(() => {
        this.polling = null;
      });
  }

  private classify(job: OutboxJobDocument, error: unknown): JobVerdict {
    if (error instanceof PermanentJobError) return { permanent: true };
    const known = this.options.classify?.(error);
    if (known) return known;
    if (job.attempts >= (this.rulesOf(job.kind)?.maxAttempts ?? 1)) return { permanent: true };
    const backoff = Math.min(this.host.tuning.outboxMaxBackoffMs, 500 * 2 ** Math.min(job.attempts - 1, 16));
    return { permanent: false, retryInMs: Math.round(backoff * (0.75 + Math.random() * 0.5)) };
  }
}
