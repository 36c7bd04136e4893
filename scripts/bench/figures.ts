/** What the benches share to take and print their figures: the machine's load, percentiles, a pause. */
import os from 'node:os';

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
