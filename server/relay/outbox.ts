/**
 * The durable outbox: Slack posts, webhook calls and mails are stored as jobs in MongoDB first and run by
 * this worker. Jobs with the same key (a conversation) run one at a time in order; Slack posts are paced per
 * channel (token bucket, about one a second with a small burst); a rate-limited call waits for Slack's
 * Retry-After, other transient failures back off exponentially. A job is removed only once the other side
 * accepted it, so a crash or restart re-runs it (at least once) instead of losing it.
 */
import { ErrorCode } from '@slack/web-api';
import type { Types } from 'mongoose';
import type { OutboxJob, OutboxJobDocument, OutboxKind } from '../models/OutboxJob';
import type { RelayContext } from './context';

/** A failure that retrying cannot fix (Slack said channel_not_found, Parley was uninstalled …). */
export class PermanentJobError extends Error {}

export type JobHandler = (ctx: RelayContext, job: OutboxJobDocument) => Promise<void>;

/** Slack errors that mean "try again later"; every other Slack error is permanent. */
const TRANSIENT_SLACK_ERRORS = new Set(['internal_error', 'fatal_error', 'service_unavailable', 'request_timeout', 'ratelimited']);
/** Webhooks and mails of a customer may be down for good: they stop after this many attempts. */
const MAX_ATTEMPTS_OUTSIDE_SLACK = 12;
const LOCK_MS = 60_000;
const CONCURRENCY = 64;

export class Outbox {
  private timer: NodeJS.Timeout | null = null;
  private ticking = false;
  private stopped = true;
  private readonly running = new Map<string, Promise<void>>();
  private readonly pokes = new Set<string>();
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly blockedUntil = new Map<string, number>();

  constructor(
    private readonly ctx: RelayContext,
    private readonly handlers: Record<OutboxKind, JobHandler>,
  ) {}

  async enqueue(
    kind: OutboxKind,
    key: string,
    payload: Record<string, unknown>,
    opts: { channel?: string; conversationId?: Types.ObjectId | null; runAt?: Date; start?: boolean } = {},
  ): Promise<void> {
    await this.ctx.models.OutboxJob.create({
      kind,
      key,
      payload,
      channel: opts.channel ?? '',
      conversationId: opts.conversationId ?? null,
      runAt: opts.runAt ?? new Date(),
    });
    if (opts.start !== false) this.tryKey(key);
  }

  /** Runs the due jobs of `key` now (after a job was stored with `start: false`). */
  poke(key: string): void {
    this.tryKey(key);
  }

  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => this.wake(), this.ctx.tuning.outboxPollMs);
    this.timer.unref();
    this.wake();
  }

  /** Stops taking jobs and waits for the running ones; jobs not yet done stay stored for the next start. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    while (this.ticking || this.running.size > 0) {
      await Promise.allSettled([...this.running.values()]);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Looks for due jobs of every key (retries, pacing, jobs left by a stopped or crashed process). */
  wake(): void {
    if (this.stopped || this.ticking) return;
    this.ticking = true;
    void this.scan()
      .catch((error: unknown) => {
        if (!this.stopped) this.ctx.logger.error('outbox: could not read jobs', error);
      })
      .finally(() => {
        this.ticking = false;
      });
  }

  private async scan(): Promise<void> {
    const jobs = await this.ctx.models.OutboxJob.find({ failedAt: null }, { key: 1, runAt: 1, lockedUntil: 1 })
      .sort({ _id: 1 })
      .limit(2000)
      .lean<Pick<OutboxJob, 'key' | 'runAt' | 'lockedUntil'>[]>();
    const now = Date.now();
    const seen = new Set<string>();
    for (const job of jobs) {
      if (seen.has(job.key)) continue;
      // Only the oldest unfinished job of a key may run: later ones wait even when it is delayed.
      seen.add(job.key);
      if (job.runAt.getTime() > now || (job.lockedUntil && job.lockedUntil.getTime() > now)) continue;
      this.tryKey(job.key);
    }
  }

  /**
   * Runs the jobs of one key in order, one at a time, until none is due. A key already running is poked so it
   * looks again before it stops (a job stored while it was finishing is not left for the next scan).
   */
  private tryKey(key: string): void {
    if (this.stopped) return;
    if (this.running.has(key)) {
      this.pokes.add(key);
      return;
    }
    if (this.running.size >= CONCURRENCY) return;
    const { OutboxJob } = this.ctx.models;
    const chain = (async () => {
      for (;;) {
        this.pokes.delete(key);
        if (this.stopped) return;
        const head = await OutboxJob.findOne({ key, failedAt: null }).sort({ _id: 1 });
        if (!head) {
          if (this.pokes.has(key)) continue;
          return;
        }
        const now = Date.now();
        if (head.runAt.getTime() > now || (head.lockedUntil && head.lockedUntil.getTime() > now)) return;
        if (head.kind.startsWith('slack.') && head.channel && !this.takeToken(head.channel, now)) {
          setTimeout(() => this.tryKey(key), Math.ceil(1000 / this.ctx.tuning.slackPostsPerSecond)).unref();
          return;
        }
        const claimed = await OutboxJob.findOneAndUpdate(
          { _id: head._id, lockedUntil: head.lockedUntil },
          { $set: { lockedUntil: new Date(now + LOCK_MS) }, $inc: { attempts: 1 } },
          { returnDocument: 'after' },
        );
        if (!claimed || !(await this.run(claimed))) return;
      }
    })()
      .catch((error: unknown) => {
        if (!this.stopped) this.ctx.logger.error(`outbox: jobs of ${key} could not run`, error);
      })
      .finally(() => {
        this.running.delete(key);
        if (this.pokes.delete(key)) this.tryKey(key);
      });
    this.running.set(key, chain);
  }

  private takeToken(channel: string, now: number): boolean {
    if ((this.blockedUntil.get(channel) ?? 0) > now) return false;
    const { slackPostsPerSecond: rate, slackBurst: burst } = this.ctx.tuning;
    const bucket = this.buckets.get(channel) ?? { tokens: burst, at: now };
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * rate);
    bucket.at = now;
    this.buckets.set(channel, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  /** Runs one claimed job; true when it is done and removed. */
  private async run(job: OutboxJobDocument): Promise<boolean> {
    const { OutboxJob } = this.ctx.models;
    try {
      await this.handlers[job.kind](this.ctx, job);
      await OutboxJob.deleteOne({ _id: job._id });
      return true;
    } catch (error) {
      const verdict = this.classify(job, error);
      const message = error instanceof Error ? error.message : String(error);
      if (verdict.permanent) {
        this.ctx.logger.warn(`outbox: ${job.kind} job ${String(job._id)} failed for good: ${message}`);
        await OutboxJob.updateOne({ _id: job._id }, { $set: { failedAt: new Date(), lockedUntil: null, lastError: message } });
        // Later jobs of the key go on without it.
        return true;
      }
      if (verdict.blockChannelMs && job.channel) this.blockedUntil.set(job.channel, Date.now() + verdict.blockChannelMs);
      await OutboxJob.updateOne(
        { _id: job._id },
        { $set: { runAt: new Date(Date.now() + verdict.retryInMs), lockedUntil: null, lastError: message } },
      );
      setTimeout(() => this.tryKey(job.key), verdict.retryInMs).unref();
      return false;
    }
  }

  private classify(
    job: OutboxJobDocument,
    error: unknown,
  ): { permanent: true } | { permanent: false; retryInMs: number; blockChannelMs?: number } {
    if (error instanceof PermanentJobError) return { permanent: true };
    const e = error as { code?: unknown; retryAfter?: unknown; data?: { error?: unknown } } | null;
    if (e?.code === ErrorCode.RateLimitedError) {
      const ms = Math.max(1, Number(e.retryAfter) || 1) * 1000;
      return { permanent: false, retryInMs: ms, blockChannelMs: ms };
    }
    if (e?.code === ErrorCode.PlatformError && typeof e.data?.error === 'string' && !TRANSIENT_SLACK_ERRORS.has(e.data.error)) {
      return { permanent: true };
    }
    if (!job.kind.startsWith('slack.') && job.attempts >= MAX_ATTEMPTS_OUTSIDE_SLACK) return { permanent: true };
    const backoff = Math.min(this.ctx.tuning.outboxMaxBackoffMs, 500 * 2 ** Math.min(job.attempts - 1, 16));
    return { permanent: false, retryInMs: Math.round(backoff * (0.75 + Math.random() * 0.5)) };
  }
}
