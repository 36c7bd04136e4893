/**
 * Rules of a widget's tags and response targets that the console and the server both apply. Pure, no imports: the
 * console bundles them without zod.
 *
 * A tag is one word (letters, digits, `-` and `_`, in any script), kept in lower case, so `/parley tag 12 Billing`
 * and the header's picker name the same tag.
 */

export const TAG_MAX_CHARS = 30;
export const TAGS_MAX = 50;
/** Letters and digits of any script, then also `-` and `_`. */
const TAG_PATTERN = /^[\p{L}\p{N}][\p{L}\p{N}_-]*$/u;

/** How a tag is stored and compared: without spaces around it or a leading `#`, in lower case. */
export function normalizeTag(text: string): string {
  return text.trim().replace(/^#/, '').toLowerCase();
}

/** What is wrong with one (normalized) tag, or null. */
export function tagProblem(tag: string): string | null {
  if (tag === '') return 'A tag cannot be empty.';
  if (tag.length > TAG_MAX_CHARS) return `A tag has at most ${TAG_MAX_CHARS} characters.`;
  if (!TAG_PATTERN.test(tag)) return `“${tag}” is not one word: use letters, digits, - and _ (no spaces).`;
  return null;
}

/** What is wrong with a widget's list of (normalized) tags, or null. */
export function tagListProblem(tags: readonly string[]): string | null {
  if (tags.length > TAGS_MAX) return `A widget has at most ${TAGS_MAX} tags.`;
  for (const tag of tags) {
    const problem = tagProblem(tag);
    if (problem) return problem;
  }
  const seen = new Set<string>();
  for (const tag of tags) {
    if (seen.has(tag)) return `“${tag}” is in the list twice.`;
    seen.add(tag);
  }
  return null;
}

/** The longest response target a widget may set, in minutes of business time (a week); 0: no target. */
export const RESPONSE_TARGET_MAX_MINS = 10_080;

/** What is wrong with a response target in minutes (a whole number from 0, no target, to a week), or null. */
export function responseTargetProblem(mins: number): string | null {
  if (!Number.isInteger(mins) || mins < 0 || mins > RESPONSE_TARGET_MAX_MINS) {
    return `Enter whole minutes from 1 to ${RESPONSE_TARGET_MAX_MINS}, or leave it empty for no target.`;
  }
  return null;
}
