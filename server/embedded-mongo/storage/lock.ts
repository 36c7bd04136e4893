/**
 * The dbpath lock: `mongod.lock` holds the owner's pid, its start time, the host and the boot id. A lock left by
 * a process that no longer runs (killed, machine or container restarted, pid reused since) is taken over; a live
 * owner makes opening fail with a clear message.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const LOCK_FILE = 'mongod.lock';

export class DbPathLockedError extends Error {
  constructor(dir: string, owner: string) {
    super(`dbpath ${dir} is already in use by ${owner} (lock file ${path.join(dir, LOCK_FILE)}); stop it or use another dbpath`);
    this.name = 'DbPathLockedError';
  }
}

interface LockOwner {
  pid: number;
  /** Clock ticks since boot at which the process started (Linux), to tell a reused pid apart. */
  started: string;
  host: string;
  bootId: string;
}

/** Dbpaths this process holds, so a lock naming our own pid can be told from one left by an earlier us. */
const heldHere = new Set<string>();

function bootId(): string {
  try {
    return fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return '';
  }
}

function startTime(pid: number | 'self'): string {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start with the state, field 3; start time is 22.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
  } catch {
    return '';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Describes the live owner of an existing lock, or undefined when the lock is stale. */
function liveOwner(dir: string, file: string, me: LockOwner): string | undefined {
  let owner: Partial<LockOwner>;
  try {
    owner = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<LockOwner>;
  } catch {
    // Unreadable or half-written: its writer died between creating and filling it.
    return undefined;
  }
  if (typeof owner.pid !== 'number') return undefined;
  if (owner.host !== me.host) return `process ${owner.pid} on host ${owner.host}`;
  if (owner.bootId && me.bootId && owner.bootId !== me.bootId) return undefined;
  if (owner.pid === me.pid) return heldHere.has(dir) ? 'this process' : undefined;
  if (!isAlive(owner.pid)) return undefined;
  const started = startTime(owner.pid);
  if (owner.started && started && owner.started !== started) return undefined;
  return `process ${owner.pid}`;
}

export interface DbLock {
  release(): void;
}

export function acquireLock(dir: string): DbLock {
  const file = path.join(dir, LOCK_FILE);
  const me: LockOwner = { pid: process.pid, started: startTime('self'), host: os.hostname(), bootId: bootId() };
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx', 0o644);
      try {
        fs.writeSync(fd, JSON.stringify(me));
      } finally {
        fs.closeSync(fd);
      }
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = liveOwner(dir, file, me);
      if (owner !== undefined || attempt > 0) throw new DbPathLockedError(dir, owner ?? 'another process');
      fs.rmSync(file, { force: true });
    }
  }
  heldHere.add(dir);
  return {
    release: () => {
      heldHere.delete(dir);
      fs.rmSync(file, { force: true });
    },
  };
}
