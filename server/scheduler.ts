/**
 * The one scheduler of Parley's timed work (outline's `static cron` tasks): each task is named in one list
 * (server/tasks.ts) with how often it runs and whether every process runs it or one per deployment. A task never
 * overlaps itself; its next run is due a whole interval after the previous one started (a run longer than that
 * skips the starts it missed, as setInterval with a busy flag did), or when the task says (`dueAt`: backups read
 * theirs from the newest backup on disk).
 *
 * A task once per deployment is claimed before each run through `lease` (the shared TaskLease record): the
 * process whose conditional update moves its next due time on runs it; the others learn the new time and wait
 * for it.
 *
 * Each run is counted in the Prometheus metrics (duration by outcome, failures, the end of the last run); a task
 * whose run is late by more than its interval, and by a minute at least (a run that hangs, a loop that stopped), is
 * overdue: GET /health names
 * it and the `parley_task_overdue` gauge says 1.
 */
import type { Registry } from 'prom-client';
import { Gauge } from 'prom-client';
import type { Logger } from './logger';
import type { Metrics } from './metrics';

/** 'process': every process runs it (its work is the process's own, or each item is claimed by one update); 'deployment': one process a time. */
export type TaskScope = 'process' | 'deployment';

export type Task = {
  /** Its name in logs, metrics (`task` label) and /health. */
  name: string;
  everyMs: number;
  /** The first run this long after start; `everyMs` by default. */
  firstAfterMs?: number;
  scope: TaskScope;
  run(): Promise<unknown>;
  /** When the task is due next (Unix ms), when it keeps its own time; asked at start and after each run. */
  dueAt?(): number;
  /** How late a run may start before the task is overdue: its interval, and at least OVERDUE_AFTER_MS, by default. */
  overdueAfterMs?: number;
};

/** The deployment's record of when a once-per-deployment task is due (models/TaskLease.ts claimTaskRun). */
export type TaskLeases = (task: string, now: Date, nextAt: Date) => Promise<{ claimed: boolean; nextAt: Date }>;

export type OverdueTask = { name: string; dueAt: Date; lateSeconds: number };

export type Scheduler = {
  start(): void;
  /** Stops every timer and waits for the runs in progress. */
  stop(): Promise<void>;
  /** The tasks late by more than their interval, now. */
  overdue(): OverdueTask[];
};

/** setTimeout's longest delay; longer waits are taken in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** A task is overdue once late by more than its interval, and never sooner than this (a busy moment is no alarm). */
const OVERDUE_AFTER_MS = 60_000;
/** The shortest wait before a once-per-deployment task another process just took is looked at again. */
const LEASE_RECHECK_MS = 100;

type TaskState = { task: Task; dueAt: number; timer?: NodeJS.Timeout; running?: Promise<void> };

export function createScheduler(deps: {
  tasks: Task[];
  metrics: Pick<Metrics, 'registry' | 'taskRuns' | 'taskFailures' | 'taskLastRun'>;
  logger: Pick<Logger, 'error'>;
  /** Needed when a task runs once per deployment. */
  leases?: TaskLeases;
  now?: () => number;
}): Scheduler {
  const now = deps.now ?? Date.now;
  const names = new Set<string>();
  for (const task of deps.tasks) {
    if (names.has(task.name)) throw new Error(`scheduler: two tasks are named ${task.name}`);
    names.add(task.name);
    if (task.scope === 'deployment' && !deps.leases)
      throw new Error(`scheduler: ${task.name} runs once per deployment, which needs leases`);
  }
  const states: TaskState[] = deps.tasks.map((task) => ({ task, dueAt: Number.POSITIVE_INFINITY }));
  let started = false;
  let stopped = false;

  const arm = (state: TaskState, at: number) => {
    clearTimeout(state.timer);
    state.dueAt = at;
    if (stopped) return;
    const wait = Math.max(0, at - now());
    state.timer = setTimeout(() => (wait > MAX_TIMER_MS ? arm(state, at) : void fire(state)), Math.min(wait, MAX_TIMER_MS));
    state.timer.unref();
  };

  /** The start after `startedAt` that is not already past (the ones a long run covered are skipped). */
  const nextAfter = (task: Task, startedAt: number) => {
    const missed = Math.max(0, Math.floor((now() - startedAt) / task.everyMs));
    return task.dueAt?.() ?? startedAt + (missed + 1) * task.everyMs;
  };

  const fire = async (state: TaskState) => {
    const { task } = state;
    const startedAt = now();
    if (task.scope === 'deployment' && deps.leases) {
      let lease: { claimed: boolean; nextAt: Date };
      try {
        lease = await deps.leases(task.name, new Date(startedAt), new Date(startedAt + task.everyMs));
      } catch (error) {
        deps.logger.error({ err: error, task: task.name }, `scheduler: could not claim ${task.name}; tried again in ${task.everyMs} ms`);
        deps.metrics.taskFailures.inc({ task: task.name });
        arm(state, startedAt + task.everyMs);
        return;
      }
      if (!lease.claimed) {
        // Another process took this run; a time already past (clocks of processes apart) is looked at again shortly.
        arm(state, Math.max(lease.nextAt.getTime(), now() + LEASE_RECHECK_MS));
        return;
      }
    }
    state.running = runOnce(task, startedAt).finally(() => {
      state.running = undefined;
      arm(state, nextAfter(task, startedAt));
    });
  };

  const runOnce = async (task: Task, startedAt: number) => {
    let outcome: 'ok' | 'failed' = 'ok';
    try {
      await task.run();
    } catch (error) {
      outcome = 'failed';
      deps.metrics.taskFailures.inc({ task: task.name });
      deps.logger.error({ err: error, task: task.name }, `scheduler: ${task.name} failed; it runs again when next due`);
    }
    const endedAt = now();
    deps.metrics.taskRuns.observe({ task: task.name, outcome }, (endedAt - startedAt) / 1000);
    deps.metrics.taskLastRun.set({ task: task.name }, endedAt / 1000);
  };

  const overdue = (): OverdueTask[] => {
    const at = now();
    return states
      .filter((s) => Number.isFinite(s.dueAt) && at - s.dueAt > (s.task.overdueAfterMs ?? Math.max(s.task.everyMs, OVERDUE_AFTER_MS)))
      .map((s) => ({ name: s.task.name, dueAt: new Date(s.dueAt), lateSeconds: Math.round((at - s.dueAt) / 1000) }));
  };

  registerOverdueGauge(deps.metrics.registry, states, () => new Set(overdue().map((t) => t.name)));

  return {
    start() {
      if (started) return;
      started = true;
      const at = now();
      for (const state of states) arm(state, state.task.dueAt?.() ?? at + (state.task.firstAfterMs ?? state.task.everyMs));
    },
    async stop() {
      stopped = true;
      for (const state of states) clearTimeout(state.timer);
      await Promise.all(states.map((s) => s.running));
    },
    overdue,
  };
}

function registerOverdueGauge(registry: Registry, states: TaskState[], overdue: () => Set<string>): void {
  new Gauge({
    name: 'parley_task_overdue',
    help: '1 while a scheduler task is overdue in this process (late by more than its interval, a minute at least; GET /health names it), else 0.',
    labelNames: ['task'],
    registers: [registry],
    collect() {
      const late = overdue();
      for (const { task } of states) this.set({ task: task.name }, late.has(task.name) ? 1 : 0);
    },
  });
}
