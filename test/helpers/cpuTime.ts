/**
 * CPU time spent by this process and its descendants (Linux /proc): this process's own, its children's that it
 * reaped, and the running descendants' (a worker's Chromium and the renderers it reaped, a spec's child Parleys).
 * The root hooks (helpers/hooks.ts) take it around each spec file of `npm test`'s parallel run, so the run says
 * which files cost the CPU (test-results/cpu-parallel.tsv). Elsewhere than Linux it answers this process's own time.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Linux's USER_HZ: /proc counts CPU time in hundredths of a second on every architecture Node runs on. */
const TICK_MS = 10;

type Stat = { ppid: number; ownTicks: number; reapedTicks: number };

function stat(pid: string): Stat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name, in parentheses, may hold spaces: the fields that follow are counted after its end.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return {
      ppid: Number(fields[1]),
      ownTicks: Number(fields[11]) + Number(fields[12]),
      reapedTicks: Number(fields[13]) + Number(fields[14]),
    };
  } catch {
    return undefined;
  }
}

/** CPU milliseconds by process: this one (with the children it reaped) and each running descendant (with theirs). */
export type CpuSnapshot = Map<number, number>;

export function cpuSnapshot(): CpuSnapshot {
  const snapshot: CpuSnapshot = new Map();
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    const own = process.cpuUsage();
    snapshot.set(process.pid, (own.user + own.system) / 1000);
    return snapshot;
  }
  const children = new Map<number, number[]>();
  const stats = new Map<number, Stat>();
  for (const pid of pids) {
    const s = stat(pid);
    if (!s) continue;
    stats.set(Number(pid), s);
    const siblings = children.get(s.ppid) ?? [];
    siblings.push(Number(pid));
    children.set(s.ppid, siblings);
  }
  const pending = [process.pid];
  while (pending.length > 0) {
    const pid = pending.pop() as number;
    const s = stats.get(pid);
    if (s) snapshot.set(pid, (s.ownTicks + s.reapedTicks) * TICK_MS);
    pending.push(...(children.get(pid) ?? []));
  }
  return snapshot;
}

/** CPU milliseconds spent between two snapshots (a descendant that started in between counts from zero). */
export function cpuSpent(before: CpuSnapshot, after: CpuSnapshot): number {
  let total = 0;
  for (const [pid, ms] of after) total += Math.max(0, ms - (before.get(pid) ?? 0));
  return total;
}
