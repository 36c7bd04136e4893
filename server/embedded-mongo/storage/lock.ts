/**
 * The dbpath lock: `mongod.lock` holds the owner's pid, host and boot id. A lock left by a process that no longer
 * runs (killed, machine rebooted) is taken over; a live owner makes opening fail with a clear message.
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
  host: string;
  bootId: string;
}

function bootId(): string {
  try {
    return fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
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
function liveOwner(file: string, me: LockOwner): string | undefined {
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
  if (owner.pid === me.pid) return 'this process';
  return isAlive(owner.pid) ? `process ${owner.pid}` : undefined;
}

export interface DbLock {
  release(): void;
}

export function acquireLock(dir: string): DbLock {
  const file = path.join(dir, LOCK_FILE);
  const me: LockOwner = { pid: process.pid, host: os.hostname(), bootId: bootId() };
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
      const owner = liveOwner(file, me);
      if (owner !== undefined || attempt > 0) throw new DbPathLockedError(dir, owner ?? 'another process');
      fs.rmSync(file, { force: true });
    }
  }
  return {
    release: () => fs.rmSync(file, { force: true }),
  };
}
