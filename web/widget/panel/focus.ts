/** Keeping keyboard focus inside the open panel (a modal dialog): which control Tab moves to at either end. */

/** What can take focus with Tab inside the panel (the hidden file input has tabindex -1 and is left out). */
export const FOCUSABLE =
  'a[href],button:not(:disabled),input:not(:disabled),textarea:not(:disabled),select:not(:disabled),[tabindex]:not([tabindex="-1"])';

/**
 * The control Tab (or Shift+Tab when `backwards`) must move to so that focus stays within `items`, the dialog's
 * focusable controls in document order: from the last to the first, from the first to the last, and into the
 * dialog when focus is outside it; undefined where the browser's own move stays inside.
 */
export function wrapFocus<T>(items: readonly T[], current: T | null | undefined, backwards: boolean): T | undefined {
  const first = items[0];
  const last = items[items.length - 1];
  if (first === undefined || last === undefined) return undefined;
  const at = current == null ? -1 : items.indexOf(current);
  if (at === -1) return backwards ? last : first;
  if (backwards && at === 0) return last;
  if (!backwards && at === items.length - 1) return first;
  return undefined;
}
