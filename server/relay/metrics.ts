/**
 * The relay's gauges, read when /metrics is scraped (nothing on the hot path): the open visitor sockets of this
 * process, and the outbox (shared by every process: each reports the same figures) by kind and state, with the age
 * of its oldest job still to run.
 */
import { Gauge, type Registry } from 'prom-client';
import type { Models } from '../models';

/** Outbox job states: `failed` (gave up, kept for inspection), `running` (leased), `retrying` (tried before), `queued`. */
export const OUTBOX_STATES = ['queued', 'running', 'retrying', 'failed'] as const;

type OutboxRow = { _id: { kind: string; state: string }; jobs: number; oldest: Date | null };

export function registerRelayGauges(registry: Registry, deps: { gateway: { readonly socketCount: number }; models: Models }): void {
  new Gauge({
    name: 'parley_ws_connections',
    help: "Visitors' WebSocket connections open on this process.",
    registers: [registry],
    collect() {
      this.set(deps.gateway.socketCount);
    },
  });
  // One read of the outbox serves both outbox gauges of a scrape (the registry collects them concurrently).
  let scan: { at: number; done: Promise<{ rows: OutboxRow[]; oldestSeconds: number }> } | null = null;
  const scanOutbox = () => {
    if (scan && Date.now() - scan.at < SCAN_REUSE_MS) return scan.done;
    const now = new Date();
    const done = readOutbox(deps.models, now);
    scan = { at: now.getTime(), done };
    return done;
  };
  new Gauge({
    name: 'parley_outbox_jobs',
    help: "Outbox jobs by kind and state ('queued', 'running', 'retrying', 'failed').",
    labelNames: ['kind', 'state'],
    registers: [registry],
    async collect() {
      const { rows } = await scanOutbox();
      this.reset();
      for (const row of rows) this.set({ kind: row._id.kind, state: row._id.state }, row.jobs);
    },
  });
  new Gauge({
    name: 'parley_outbox_oldest_job_age_seconds',
    help: 'Age of the oldest outbox job still to run (failed ones not counted); 0 when there is none.',
    registers: [registry],
    async collect() {
      this.set((await scanOutbox()).oldestSeconds);
    },
  });
}

/** A scrape's two outbox gauges share one read; a later scrape reads again. */
const SCAN_REUSE_MS = 1_000;

async function readOutbox(models: Models, now: Date): Promise<{ rows: OutboxRow[]; oldestSeconds: number }> {
  const rows = await models.OutboxJob.aggregate<OutboxRow>([
    {
      $group: {
        _id: {
          kind: '$kind',
          state: {
            $cond: [
              { $ne: [{ $ifNull: ['$failedAt', null] }, null] },
              'failed',
              { $cond: [{ $gt: ['$lockedUntil', now] }, 'running', { $cond: [{ $gt: ['$attempts', 0] }, 'retrying', 'queued'] }] },
            ],
          },
        },
        jobs: { $sum: 1 },
        oldest: { $min: '$createdAt' },
      },
    },
  ]);
  let first = Number.POSITIVE_INFINITY;
  for (const row of rows) if (row._id.state !== 'failed' && row.oldest) first = Math.min(first, new Date(row.oldest).getTime());
  return { rows, oldestSeconds: Number.isFinite(first) ? Math.max(0, (now.getTime() - first) / 1000) : 0 };
}
