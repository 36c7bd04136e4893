/**
 * Parley's own backups (BACKUP_DIR, BACKUP_EVERY_HOURS, BACKUP_KEEP): every so many hours a gzipped dump of
 * Parley's database (dump.ts, one point in time) into `BACKUP_DIR/parley-<UTC time>/`, written first under a
 * `.partial` name and renamed once every file is on disk, so a folder without it is always a whole backup. Then
 * the oldest whole backups beyond BACKUP_KEEP are deleted. The time of the newest one is read back from the folder
 * at start, so a restart neither repeats a backup nor forgets one is due; with none there, the first runs at once.
 * When each is due is this module's (`dueAt`); the timer is Parley's one scheduler's (server/tasks.ts).
 */
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { dump } from './dump';
import { describeDump } from './summary';

const PREFIX = 'parley-';
const PARTIAL = '.partial';
/** parley-2026-11-26T07-30-00-123Z: the dump's start time in UTC, sortable as text. */
const NAME = /^parley-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z$/;
/** A failed backup is tried again after this long (or the interval, if shorter). */
const RETRY_MS = 10 * 60 * 1000;

export type BackupSettings = { dir: string; everyHours: number; keep: number };

export type BackupStatus = {
  /** Start time of the newest whole backup in the folder. */
  lastAt?: Date;
  /** Why the last attempt failed, until one succeeds. */
  lastError?: string;
};

export type ScheduledBackups = {
  status(): BackupStatus;
  /** When the next backup is due (Unix ms): an interval after the newest, or sooner after a failure. */
  dueAt(): number;
  /** Resolves once the backup started now (or the one running) has finished; rejects when it failed. */
  runNow(): Promise<void>;
  /** Abandons a backup in progress (its partial folder is removed) and takes no other. */
  stop(): Promise<void>;
};

type Logger = Pick<Console, 'info' | 'error'>;

export function backupName(at: Date): string {
  return `${PREFIX}${at.toISOString().replace(/:/g, '-').replace('.', '-')}`;
}

function timeOf(name: string): Date | undefined {
  const m = NAME.exec(name);
  return m ? new Date(`${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z`) : undefined;
}

/** Whole backups in `dir`, newest first. */
export async function listBackups(dir: string): Promise<{ name: string; at: Date }[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [];
    throw err;
  });
  const out: { name: string; at: Date }[] = [];
  for (const entry of entries) {
    const at = entry.isDirectory() ? timeOf(entry.name) : undefined;
    if (at) out.push({ name: entry.name, at });
  }
  return out.sort((a, b) => b.at.getTime() - a.at.getTime());
}

async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export async function openScheduledBackups(deps: {
  uri: string;
  dbName: string;
  settings: BackupSettings;
  logger: Logger;
  now?: () => number;
}): Promise<ScheduledBackups> {
  const { settings, logger } = deps;
  const now = deps.now ?? Date.now;
  const everyMs = settings.everyHours * 3_600_000;
  await mkdir(settings.dir, { recursive: true });
  // A partial folder is a backup a stopped process did not finish.
  for (const entry of await readdir(settings.dir)) {
    if (entry.startsWith(PREFIX) && entry.endsWith(PARTIAL)) await rm(path.join(settings.dir, entry), { recursive: true, force: true });
  }
  const status: BackupStatus = { lastAt: (await listBackups(settings.dir))[0]?.at };
  let client: MongoClient | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  let nextAt = status.lastAt ? status.lastAt.getTime() + everyMs : now();

  const backUp = async () => {
    const startedAt = new Date(now());
    const name = backupName(startedAt);
    const partial = path.join(settings.dir, `${name}${PARTIAL}`);
    try {
      client ??= new MongoClient(deps.uri);
      const summary = await dump({
        client,
        db: deps.dbName,
        out: partial,
        gzip: true,
        warn: (message) => logger.info(`backup: ${message}`),
      });
      await rename(partial, path.join(settings.dir, name));
      await syncDir(settings.dir);
      status.lastAt = startedAt;
      status.lastError = undefined;
      nextAt = startedAt.getTime() + everyMs;
      logger.info(`backup: ${describeDump(summary)} into ${path.join(settings.dir, name)}`);
      await prune();
    } catch (err) {
      await rm(partial, { recursive: true, force: true }).catch(() => {});
      if (stopped) return;
      status.lastError = (err as Error).message;
      nextAt = now() + Math.min(everyMs, RETRY_MS);
      logger.error(`backup: failed, tried again in ${Math.round((nextAt - now()) / 60_000)} min: ${(err as Error).message}`);
      throw err;
    }
  };

  const prune = async () => {
    for (const old of (await listBackups(settings.dir)).slice(settings.keep)) {
      await rm(path.join(settings.dir, old.name), { recursive: true, force: true });
      logger.info(`backup: removed ${old.name} (BACKUP_KEEP=${settings.keep})`);
    }
  };

  const runNow = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    running ??= backUp().finally(() => {
      running = undefined;
    });
    return running;
  };

  return {
    status: () => ({ ...status }),
    dueAt: () => nextAt,
    runNow,
    async stop() {
      stopped = true;
      // Closing the client ends a dump in progress; its partial folder is removed.
      await client?.close();
      await running?.catch(() => {});
    },
  };
}
