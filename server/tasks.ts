/**
 * Parley's timed work, in one list: each task the scheduler (server/scheduler.ts) runs, how often, and whether
 * every process runs it or one process per deployment. The intervals come from the configuration (the relay's
 * tuning, BACKUP_EVERY_HOURS), which tests shorten; `config.tasks` sets any of them by name.
 */
import type { ScheduledBackups } from './backup/schedule';
import { purgeExpired } from './commands/retention';
import type { Config } from './config';
import type { Models } from './models';
import type { Relay } from './relay';
import { relayTuning } from './relay/tuning';
import type { Task } from './scheduler';

const DAY_MS = 24 * 60 * 60 * 1000;

export function parleyTasks(deps: {
  config: Config;
  models: Models;
  relay: Pick<Relay, 'dueWork' | 'schedule'>;
  backups?: ScheduledBackups;
}): Task[] {
  const tuning = relayTuning(deps.config);
  const { backups } = deps;
  const tasks: Task[] = [
    // Per process: each conversation due is claimed by one conditional update, so processes share the work, and
    // one stopping leaves the others to do it.
    { name: 'due-work', scope: 'process', everyMs: tuning.inactivityCheckMs, run: () => deps.relay.dueWork.run() },
    // Per process: the conditional update of a widget's scheduleOpen lets one process announce an ON or OFF time.
    { name: 'operating-hours', scope: 'process', everyMs: tuning.scheduleCheckMs, run: () => deps.relay.schedule.check() },
    // Once per deployment: one pass a day deletes what is past each account's retention (commands/retention.ts).
    { name: 'retention', scope: 'deployment', everyMs: DAY_MS, firstAfterMs: 60_000, run: () => purgeExpired(deps.models) },
  ];
  if (backups && deps.config.backup) {
    // Per process: BACKUP_DIR is the process's own folder, and when the next backup is due is read from it.
    tasks.push({
      name: 'backup',
      scope: 'process',
      everyMs: deps.config.backup.everyHours * 3_600_000,
      run: () => backups.runNow(),
      dueAt: () => backups.dueAt(),
    });
  }
  return tasks.map((task) => ({ ...task, ...deps.config.tasks?.[task.name] }));
}
