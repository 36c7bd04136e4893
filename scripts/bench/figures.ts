/**
 * What the benches share to take and print their figures: their numeric options, the machine's load, a process's CPU
 * time, percentiles, a pause.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';

/** The number after `--name` on the command line when `accept` takes it (by default any number ≥ 0), else `fallback`. */
export function numberArg(name: string, fallback: number, accept: (value: number) => boolean = (value) => value >= 0): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : Number.NaN;
  return Number.isFinite(value) && accept(value) ? value : fallback;
}

/** For numberArg: a number above 0. */
export const positive = (value: number) => value > 0;

const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU time (user + system) process `pid` has used so far, in ms, from /proc/<pid>/stat; NaN once it is gone. */
export function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of proc(5): utime and stime, in clock ticks (field 3, the state, is fields[0]).
    return ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND) * 1000;
  } catch {
    return Number.NaN;
  }
}

/** The load averages over 1, 5 and 15 minutes, as `1.02 0.87 0.91`. */
export const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** The `p`th percentile of `values` (the nearest rank); NaN for none. */
export const percentile = (values: number[], p: number) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

export const sleep = (n: number) => new Promise((resolve) => setTimeout(resolve, n));
