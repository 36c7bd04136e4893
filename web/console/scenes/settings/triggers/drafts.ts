/**
 * The Triggers tab's editable state, kept apart from React: a draft per trigger (numbers as typed, pages as
 * one text), built from the stored set and back into the triggerJson sent to update_config.
 */
import {
  type MatchType,
  readTriggerJson,
  splitPages,
  type Trigger,
  type TriggerFieldErrors,
  type TriggerSet,
  triggerErrors,
} from '../../../../../server/shared/triggers';

export type TriggerDraft = {
  uid: string;
  message: string;
  /** As typed: digits only, may be blank while editing. */
  after: string;
  /** One page per line as typed. */
  pages: string;
  matchType: MatchType;
  enabled: boolean;
  displayStyle: string;
  /** Not saved yet (the spec's transient isNew). */
  isNew: boolean;
  /** Fields the owner changed or left: errors show only for these on a new trigger. */
  touched: Partial<Record<'message' | 'after' | 'pages', boolean>>;
};

const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

export function randomUid(length = 10): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (b) => ALPHABET[b % ALPHABET.length]).join('');
}

export function draftOf(t: Trigger): TriggerDraft {
  return {
    uid: t.uid,
    message: t.message,
    after: String(t.after),
    pages: t.on.join('\n'),
    matchType: t.matchType,
    enabled: t.enabled,
    displayStyle: t.displayStyle,
    isNew: false,
    touched: {},
  };
}

/** Section 4: a new trigger is enabled, after 0 seconds, on no pages, shown as a peek. */
export function newDraft(matchType: MatchType): TriggerDraft {
  return { uid: randomUid(), message: '', after: '0', pages: '', matchType, enabled: true, displayStyle: 'peek', isNew: true, touched: {} };
}

export function toTrigger(d: TriggerDraft): Trigger {
  return {
    uid: d.uid,
    message: d.message.trim(),
    after: Number(d.after),
    on: splitPages(d.pages),
    matchType: d.matchType,
    enabled: d.enabled,
    displayStyle: d.displayStyle,
  };
}

export function errorsOf(d: TriggerDraft): TriggerFieldErrors {
  return triggerErrors({ message: d.message, after: d.after, on: d.pages });
}

/** The errors to show: all of them for a saved trigger, only touched fields' for a new one. */
export function visibleErrors(d: TriggerDraft): TriggerFieldErrors {
  const all = errorsOf(d);
  if (!d.isNew) return all;
  return {
    ...(d.touched.message ? { message: all.message } : {}),
    ...(d.touched.after ? { after: all.after } : {}),
    ...(d.touched.pages ? { on: all.on } : {}),
  };
}

export function isChanged(d: TriggerDraft, saved: TriggerSet): boolean {
  if (d.isNew) return true;
  const stored = saved.triggers.find((t) => t.uid === d.uid);
  return !stored || JSON.stringify(toTrigger(d)) !== JSON.stringify(stored);
}

/** The stored set with one trigger replaced (or added, or removed when `draft` is null), and minDelay. */
export function nextSet(saved: TriggerSet, uid: string, draft: TriggerDraft | null, minDelay: number): TriggerSet {
  const triggers = saved.triggers
    .filter((t) => t.uid !== uid || draft !== null)
    .map((t) => (t.uid === uid && draft ? toTrigger(draft) : t));
  if (draft && !saved.triggers.some((t) => t.uid === uid)) triggers.push(toTrigger(draft));
  return { ...saved, minDelay, triggers };
}

export function savedSet(triggerJson: string): TriggerSet {
  return readTriggerJson(triggerJson);
}
