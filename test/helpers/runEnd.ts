/**
 * What a test process keeps across spec files and closes once, at the end of a run in one process (the root hooks of
 * helpers/hooks.ts call `closeAtRunEnd`): a helper registers its closer when it first opens the thing, so a run that
 * never needs it never loads it (the unit specs do not load playwright).
 */
const closers = new Set<() => Promise<void>>();

export function atRunEnd(close: () => Promise<void>): void {
  closers.add(close);
}

export async function closeAtRunEnd(): Promise<void> {
  const all = [...closers];
  closers.clear();
  await Promise.all(all.map((close) => close()));
}
