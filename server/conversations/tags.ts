/**
 * Tags on a conversation, pure: what a change makes of a conversation's tags, which asked-for tags the widget does
 * not have, and the thread's line about a change. Tags are stored normalized (shared/tags.ts), in the order they
 * were added.
 */
import { escapeMrkdwn } from '../shared/mrkdwn';
import { normalizeTag } from '../shared/tags';

/** A change of a conversation's tags: tags to add and to remove, or the whole new set (the header's multi-select). */
export type TagChange = { add?: readonly string[]; remove?: readonly string[]; set?: readonly string[] };

/** The conversation's tags after `change`: `set` replaces them, else `add` are appended (once) and `remove` dropped. */
export function nextTags(current: readonly string[], change: TagChange): string[] {
  const unique = (tags: readonly string[]) => [...new Set(tags.map(normalizeTag))];
  if (change.set) {
    const wanted = unique(change.set);
    // Tags kept stay where they were; new ones follow in the order given.
    return [...current.filter((t) => wanted.includes(t)), ...wanted.filter((t) => !current.includes(t))];
  }
  const removed = new Set(unique(change.remove ?? []));
  const kept = current.filter((t) => !removed.has(t));
  return [...kept, ...unique(change.add ?? []).filter((t) => !kept.includes(t) && !removed.has(t))];
}

/** The tags of `words` (normalized) that are not in the widget's list. */
export function unknownTags(words: readonly string[], widgetTags: readonly string[]): string[] {
  return [...new Set(words.map(normalizeTag))].filter((t) => !widgetTags.includes(t));
}

/** "`billing`, `refund`" */
export function tagList(tags: readonly string[]): string {
  return tags.map((t) => `\`${escapeMrkdwn(t)}\``).join(', ');
}

/** The thread's note of a change: who added and removed which tags ('' for Parley's own, from a visitor's pick). */
export function tagNote(byId: string, added: readonly string[], removed: readonly string[], why = ''): string {
  const who = byId ? `<@${byId}>` : 'Parley';
  const parts = [
    added.length > 0 ? `tagged this conversation ${tagList(added)}` : '',
    removed.length > 0 ? `removed the tag${removed.length === 1 ? '' : 's'} ${tagList(removed)}` : '',
  ].filter(Boolean);
  return `:label: ${who} ${parts.join(' and ')}${why ? ` ${why}` : ''}.`;
}
