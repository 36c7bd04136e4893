/**
 * Proactive triggers (settings-and-reports.md sections 3, 4, 5 and 9), shared by the API and the console: the
 * trigger set stored as JSON text in a widget's triggerJson, its field rules, the page list splitting and the
 * panel header summary.
 */
import { z } from 'zod';

export const MATCH_TYPES = ['contains', 'startsWith', 'exact'] as const;
export type MatchType = (typeof MATCH_TYPES)[number];
export const MATCH_TYPE_LABELS: Record<MatchType, string> = { contains: 'Contains', startsWith: 'Starts with', exact: 'Exact' };

export const TRIGGER_LIMITS = {
  /** minDelay input: at most this many characters (so at most 9999 minutes). */
  minDelayChars: 4,
  summaryChars: 100,
  messageChars: 1000,
  afterMaxSeconds: 86_400,
  triggers: 100,
  pages: 100,
  pageChars: 2000,
} as const;

export const TRIGGER_DEFAULTS = { minDelay: 60, matchType: 'contains', after: 0, displayStyle: 'peek' } as const;

export const TRIGGER_MESSAGES = {
  message: 'Enter the message to show.',
  after: 'Enter a number of seconds (0 or more).',
  on: 'Add at least one page.',
  minDelay: 'Enter a number of minutes (at most 4 digits).',
} as const;

export type Trigger = {
  uid: string;
  message: string;
  /** Seconds on the page before the message shows. */
  after: number;
  /** Page addresses or paths; matched against the full address and the path. */
  on: string[];
  matchType: MatchType;
  enabled: boolean;
  displayStyle: string;
};

export type TriggerSet = {
  /** Minutes between two triggers shown to the same visitor. */
  minDelay: number;
  matchType: MatchType;
  triggers: Trigger[];
};

/** A page list as typed (one per line, or separated by spaces or commas): split, de-duplicated, empties dropped. */
export function splitPages(text: string | readonly string[]): string[] {
  const parts = (typeof text === 'string' ? [text] : text).flatMap((t) => t.split(/[\s,]+/));
  return [...new Set(parts.map((p) => p.trim()).filter((p) => p !== ''))];
}

/** True for a whole number of seconds or minutes as typed: digits only, blank refused. */
export function isWholeNumber(value: string | number): boolean {
  return typeof value === 'number' ? Number.isInteger(value) && value >= 0 : /^\d+$/.test(value.trim());
}

export type TriggerDraft = { message: string; after: string | number; on: string | readonly string[] };
export type TriggerFieldErrors = Partial<Record<'message' | 'after' | 'on', string>>;

/** Section 5: message not empty, after a number (0 allowed, blank not), at least one page. */
export function triggerErrors(t: TriggerDraft): TriggerFieldErrors {
  const errors: TriggerFieldErrors = {};
  if (t.message.trim() === '') errors.message = TRIGGER_MESSAGES.message;
  else if (t.message.length > TRIGGER_LIMITS.messageChars) errors.message = `At most ${TRIGGER_LIMITS.messageChars} characters.`;
  if (!isWholeNumber(t.after) || Number(t.after) > TRIGGER_LIMITS.afterMaxSeconds) errors.after = TRIGGER_MESSAGES.after;
  if (splitPages(t.on).length === 0) errors.on = TRIGGER_MESSAGES.on;
  return errors;
}

/** The accordion header: message, 'after N sec' and the pages, cut at 100 characters with an ellipsis. */
export function triggerSummary(t: { message: string; after: string | number; on: string | readonly string[] }, isNew = false): string {
  const pages = splitPages(t.on);
  if (isNew && t.message.trim() === '' && pages.length === 0) return 'New trigger';
  const text = [t.message.trim(), `after ${String(t.after).trim() || '0'} sec`, pages.join(', ')].filter((p) => p !== '').join(' ');
  return text.length > TRIGGER_LIMITS.summaryChars ? `${text.slice(0, TRIGGER_LIMITS.summaryChars)}…` : text;
}

const matchType = z.enum(MATCH_TYPES, { error: 'matchType: Choose Contains, Starts with or Exact.' });

const TriggerSchema = z.preprocess(
  // A legacy flag 'exact: true' reads as matchType exact; no match type at all reads as contains.
  (raw) => {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
    const { exact, ...rest } = raw as Record<string, unknown>;
    if (exact === true) return { ...rest, matchType: 'exact' };
    return { matchType: 'contains', ...rest };
  },
  z
    .object({
      uid: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'uid: Letters and digits only.'),
      message: z
        .string({ error: TRIGGER_MESSAGES.message })
        .trim()
        .min(1, TRIGGER_MESSAGES.message)
        .max(TRIGGER_LIMITS.messageChars, `message: At most ${TRIGGER_LIMITS.messageChars} characters.`),
      after: z
        .number({ error: TRIGGER_MESSAGES.after })
        .int(TRIGGER_MESSAGES.after)
        .min(0, TRIGGER_MESSAGES.after)
        .max(TRIGGER_LIMITS.afterMaxSeconds, TRIGGER_MESSAGES.after),
      on: z
        .array(z.string().max(TRIGGER_LIMITS.pageChars, `on: Each page at most ${TRIGGER_LIMITS.pageChars} characters.`), {
          error: TRIGGER_MESSAGES.on,
        })
        .max(TRIGGER_LIMITS.pages, `on: At most ${TRIGGER_LIMITS.pages} pages.`)
        .transform(splitPages)
        .refine((pages) => pages.length > 0, TRIGGER_MESSAGES.on),
      matchType,
      enabled: z.boolean({ error: 'enabled: Must be true or false.' }).default(true),
      displayStyle: z
        .string()
        .max(20)
        .regex(/^[a-z]*$/, 'displayStyle: Letters only.')
        .default(TRIGGER_DEFAULTS.displayStyle),
    })
    .strip(),
);

/** A trigger set as stored; unknown fields (the console's transient isNew) are dropped. */
export const TriggerSetSchema = z
  .object({
    minDelay: z
      .number({ error: TRIGGER_MESSAGES.minDelay })
      .int(TRIGGER_MESSAGES.minDelay)
      .min(0, TRIGGER_MESSAGES.minDelay)
      .max(9999, TRIGGER_MESSAGES.minDelay)
      .default(TRIGGER_DEFAULTS.minDelay),
    matchType: matchType.default(TRIGGER_DEFAULTS.matchType),
    triggers: z.array(TriggerSchema).max(TRIGGER_LIMITS.triggers, `At most ${TRIGGER_LIMITS.triggers} triggers.`).default([]),
  })
  .strip()
  .superRefine((set, ctx) => {
    const seen = new Set<string>();
    set.triggers.forEach((t, i) => {
      if (seen.has(t.uid)) ctx.addIssue({ code: 'custom', path: ['triggers', i, 'uid'], message: 'Two triggers have the same uid.' });
      seen.add(t.uid);
    });
  });

/** The first problem of a trigger set, worded for the owner: "Trigger 2: Enter the message to show." */
function describe(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid triggers.';
  const [first, index] = issue.path;
  const prefix = first === 'triggers' && typeof index === 'number' ? `Trigger ${index + 1}: ` : '';
  const field =
    issue.path.length > 0 && /^(Invalid|Too (big|small))/.test(issue.message) ? `${issue.path.slice(prefix ? 2 : 0).join('.')}: ` : '';
  return `triggerJson: ${prefix}${field}${issue.message}`;
}

/** Parses triggerJson text; answers the normalised set, or the message of the first problem. */
export function parseTriggerJson(text: string): { set: TriggerSet } | { error: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { error: 'triggerJson: Not valid JSON.' };
  }
  const parsed = TriggerSetSchema.safeParse(raw);
  return parsed.success ? { set: parsed.data as TriggerSet } : { error: describe(parsed.error) };
}

/** triggerJson as a settings field: validated, then stored normalised. */
export const TriggerJsonSchema = z
  .string()
  .max(100_000, 'triggerJson: Too many triggers.')
  .transform((text, ctx) => {
    const result = parseTriggerJson(text);
    if ('error' in result) {
      ctx.addIssue({ code: 'custom', message: result.error });
      return z.NEVER;
    }
    return JSON.stringify(result.set);
  });

/**
 * Lenient read of stored text, for showing and for the widget: older rows may hold anything, so each field
 * falls back to its default instead of the whole set being refused. Legacy `exact: true` reads as exact.
 */
export function readTriggerJson(text: string): TriggerSet {
  let raw: unknown;
  try {
    raw = JSON.parse(text || '{}');
  } catch {
    raw = {};
  }
  const o = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const isMatch = (m: unknown): m is MatchType => typeof m === 'string' && (MATCH_TYPES as readonly string[]).includes(m);
  const list = Array.isArray(o.triggers) ? (o.triggers as unknown[]) : [];
  return {
    minDelay: typeof o.minDelay === 'number' && o.minDelay >= 0 ? Math.floor(o.minDelay) : TRIGGER_DEFAULTS.minDelay,
    matchType: isMatch(o.matchType) ? o.matchType : TRIGGER_DEFAULTS.matchType,
    triggers: list
      .filter((t): t is Record<string, unknown> => !!t && typeof t === 'object')
      .map((t, i) => ({
        uid: typeof t.uid === 'string' && t.uid !== '' ? t.uid : `legacy${i}`,
        message: typeof t.message === 'string' ? t.message : '',
        after: typeof t.after === 'number' ? t.after : Number(t.after) || 0,
        on: Array.isArray(t.on) ? splitPages(t.on.filter((p): p is string => typeof p === 'string')) : [],
        matchType: t.exact === true ? 'exact' : isMatch(t.matchType) ? t.matchType : 'contains',
        enabled: t.enabled !== false,
        displayStyle: typeof t.displayStyle === 'string' ? t.displayStyle : TRIGGER_DEFAULTS.displayStyle,
      })),
  };
}
