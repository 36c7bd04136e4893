/**
 * GET /health, for a load balancer or an orchestrator: 200 while this process can serve (its database answers a
 * ping within 2 s), 503 once it is stopping (so the balancer sends it no new visitors while it closes) or while the
 * database does not answer. Redis is reported but does not fail the check: without it a process still serves the
 * sockets it holds. Neither does a scheduler task that is overdue (server/scheduler.ts): it is named under
 * `overdueTasks`, for whoever reads the check, while the process goes on serving visitors.
 */
import { Router } from 'express';
import type { Connection } from 'mongoose';
import type { Redis } from '../redis';
import type { OverdueTask } from '../scheduler';

const PING_TIMEOUT_MS = 2_000;

export type Health = {
  router: Router;
  /** From now on the check answers 503: the process is shutting down. */
  stopping(): void;
};

export type HealthReport = {
  status: 'ok' | 'stopping' | 'database unreachable' | 'database refuses writes';
  /** 'read-only': the embedded store answers but its disk takes no writes (full or failing) until it can again. */
  database: 'up' | 'down' | 'read-only';
  /** Why the database refuses writes, when it does. */
  problem?: string;
  /** 'none': this deployment runs without Redis (one process). */
  redis: 'up' | 'down' | 'none';
  /** With BACKUP_DIR: when the newest backup was taken and how old it is (null: none yet), and why the last attempt failed. */
  backup?: { lastAt: string | null; ageSeconds: number | null; lastError?: string };
  /** The scheduler's tasks overdue in this process (late by more than their interval, a minute at least): when each was due, how late it is. */
  overdueTasks?: { task: string; dueAt: string; lateSeconds: number }[];
};

/** What the check reads of Parley's scheduled backups. */
export type BackupHealth = { status(): { lastAt?: Date; lastError?: string } };

export function createHealth(deps: {
  connection: Connection;
  redis?: Redis;
  backups?: BackupHealth;
  /** The embedded store's own word on its disk (absent with MONGODB_URI, whose server reports its own health). */
  databaseWriteProblem?: () => { message: string } | null;
  /** The scheduler's overdue tasks. */
  overdueTasks?: () => OverdueTask[];
}): Health {
  let stopping = false;
  const router = Router();
  router.get('/health', async (_req, res) => {
    const answers = await databaseAnswers(deps.connection);
    const problem = answers ? deps.databaseWriteProblem?.() : null;
    const database: HealthReport['database'] = !answers ? 'down' : problem ? 'read-only' : 'up';
    const redis = deps.redis ? (deps.redis.status === 'ready' ? 'up' : 'down') : 'none';
    const status: HealthReport['status'] = stopping
      ? 'stopping'
      : database === 'up'
        ? 'ok'
        : database === 'read-only'
          ? 'database refuses writes'
          : 'database unreachable';
    const report: HealthReport = { status, database, redis, ...(problem ? { problem: problem.message } : {}) };
    if (deps.backups) report.backup = backupReport(deps.backups);
    const overdue = deps.overdueTasks?.() ?? [];
    if (overdue.length > 0)
      report.overdueTasks = overdue.map((t) => ({ task: t.name, dueAt: t.dueAt.toISOString(), lateSeconds: t.lateSeconds }));
    res
      .status(status === 'ok' ? 200 : 503)
      .set('Cache-Control', 'no-store')
      .json(report);
  });
  return {
    router,
    stopping: () => {
      stopping = true;
    },
  };
}

async function databaseAnswers(connection: Connection): Promise<boolean> {
  const db = connection.db;
  if (!db || connection.readyState !== 1) return false;
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      db
        .command({ ping: 1 })
        .then(() => true)
        .catch(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), PING_TIMEOUT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function backupReport(backups: BackupHealth): NonNullable<HealthReport['backup']> {
  const { lastAt, lastError } = backups.status();
  return {
    lastAt: lastAt?.toISOString() ?? null,
    ageSeconds: lastAt ? Math.max(0, Math.round((Date.now() - lastAt.getTime()) / 1000)) : null,
    ...(lastError ? { lastError } : {}),
  };
}
