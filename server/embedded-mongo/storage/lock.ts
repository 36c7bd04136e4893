/**
 * The dbpath lock: `mongod.lock` holds the owner's pid, its start time, the host and the boot id. A lock left by
 * a process that no longer runs (killed, machine or container restarted, pid reused since) is taken over; a live
 * owner makes opening fail with a clear message.
 *
 * Like mongod's lock, ours dies with its process: an owner whose every thread has exited counts as gone even
 * while it is a zombie its parent has not reaped yet (`kill(pid, 0)` still succeeds then), and an owner that is
 * being killed (SIGKILL pending, or exiting) is waited for, briefly, instead of refused. So a supervisor that
 * kills the process group and restarts at once gets a running store, not a crash loop.
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

/** Linux `PF_EXITING` in a task's flags (field 9 of `/proc/<pid>/task/<tid>/stat`): the task is in `exit()`. */
const PF_EXITING = 0x4;
/** SIGKILL's bit in the pending-signal masks of `/proc/<pid>/task/<tid>/status`. */
const SIGKILL_BIT = 1n << 8n;
/** How long an owner that is being killed may take to finish dying before the lock counts as held. */
const DYING_WAIT_MS = 5_000;

type Liveness = 'running' | 'dying' | 'gone';

/** A fatal signal is queued for the task: it will not return to user space again. */
function killPending(status: string): boolean {
  for (const field of ['SigPnd', 'ShdPnd']) {
    const hex = new RegExp(`^${field}:\\s*([0-9a-f]+)$`, 'm').exec(status)?.[1];
    if (hex !== undefined && (BigInt(`0x${hex}`) & SIGKILL_BIT) !== 0n) return true;
  }
  return false;
}

/**
 * Whether a process can still touch the dbpath. Reads every thread, not only the main one: a killed process's
 * main thread may be a zombie while another thread finishes a write, and its files close only after the last
 * thread has exited. Without /proc (not Linux), `kill(pid, 0)` is all there is.
 */
function liveness(pid: number): Liveness {
  let tasks: string[];
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    if (fs.existsSync('/proc/self/task')) return 'gone';
    return isAlive(pid) ? 'running' : 'gone';
  }
  let dying = false;
  for (const tid of tasks) {
    let stat: string;
    let status: string;
    try {
      stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      status = fs.readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8');
    } catch {
      continue; // the thread was reaped meanwhile
    }
    // Fields after the command name (which may hold spaces): state is field 3, flags field 9.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const state = fields[0];
    if (state === 'Z' || state === 'X' || state === 'x') continue;
    if ((Number(fields[6]) & PF_EXITING) !== 0 || killPending(status)) {
      dying = true;
      continue;
    }
    return 'running';
  }
  return dying ? 'dying' : 'gone';
}

type OwnerCheck = { held: false } | { held: true; owner: string; pid?: number; dying?: boolean };

/** Who holds an existing lock, or `held: false` when the lock is stale. */
function checkOwner(dir: string, file: string, me: LockOwner): OwnerCheck {
  let owner: Partial<LockOwner>;
  try {
    owner = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<LockOwner>;
  } catch {
    // Unreadable or half-written: its writer died between creating and filling it.
    return { held: false };
  }
  if (typeof owner.pid !== 'number') return { held: false };
  if (owner.host !== me.host) return { held: true, owner: `process ${owner.pid} on host ${owner.host}` };
  if (owner.bootId && me.bootId && owner.bootId !== me.bootId) return { held: false };
  if (owner.pid === me.pid) return heldHere.has(dir) ? { held: true, owner: 'this process' } : { held: false };
  const started = startTime(owner.pid);
  if (owner.started && started && owner.started !== started) return { held: false };
  const state = liveness(owner.pid);
  if (state === 'gone') return { held: false };
  return { held: true, owner: `process ${owner.pid}`, pid: owner.pid, dying: state === 'dying' };
}

export interface DbLock {
  release(): void;
}

/** Waits while the owner is being killed; resolves to what holds the lock afterwards. */
async function settledOwner(dir: string, file: string, me: LockOwner): Promise<OwnerCheck> {
  const deadline = Date.now() + DYING_WAIT_MS;
  for (;;) {
    const check = checkOwner(dir, file, me);
    if (!check.held || !check.dying || Date.now() > deadline) return check;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export async function acquireLock(dir: string): Promise<DbLock> {
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
      const check = await settledOwner(dir, file, me);
      if (check.held) throw new DbPathLockedError(dir, check.owner);
      if (attempt > 0) throw new DbPathLockedError(dir, 'another process');
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
