import { z } from 'zod';
import { HISTORY_PAGE_SIZE, HISTORY_STATE_LABELS, type HistoryState, MAX_PER_PAGE } from '../../shared/reports';
import { SEARCH_QUERY_MAX } from '../../shared/searchTerms';
import { normalizeTag, TAG_MAX_CHARS, tagProblem } from '../../shared/tags';

const text = (name: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `${name} is required` : `${name} must be given once`) })
    .max(64, `${name} is too long`);

/** GET /reports/{ceId}/overview and /availability: the range, as local times in tz (checked by reportRange). */
export const RangeQuerySchema = z.object({ tz: text('tz'), startDate: text('startDate'), endDate: text('endDate') });
export type RangeQuery = z.infer<typeof RangeQuerySchema>;

const whole = (name: string, min: number, max: number) =>
  z
    .string({ error: `${name} must be given once` })
    .regex(/^\d{1,9}$/, `${name} must be a whole number`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `${name} must be between ${min} and ${max}`);

const HISTORY_STATES = Object.keys(HISTORY_STATE_LABELS) as [HistoryState, ...HistoryState[]];

/**
 * The History's filters (shared/reports.ts HistoryFilters): `tag` one tag as the widget's list keeps it (any case, an
 * optional #), `state` a shared-inbox state, `assignee` a Slack user id or none. A tag the widget does not list matches
 * nothing (a tag deleted from the list still names the chats that carry it).
 */
const historyFilters = {
  tag: z
    .string({ error: 'tag must be given once' })
    .max(TAG_MAX_CHARS + 10, `tag is longer than ${TAG_MAX_CHARS} characters`)
    .transform(normalizeTag)
    .refine((t) => tagProblem(t) === null, { error: (issue) => `tag: ${tagProblem(String(issue.input))}` })
    .optional(),
  state: z.enum(HISTORY_STATES, { error: `state must be one of ${HISTORY_STATES.join(', ')}` }).optional(),
  assignee: z
    .string({ error: 'assignee must be given once' })
    .regex(/^(none|[UW][A-Z0-9]{2,30})$/, 'assignee must be a Slack user id (U…) or none')
    .optional(),
};

/**
 * GET /reports/{ceId}/chats: zero-based page; `q`: only the chats found by those words (server/shared/searchTerms.ts);
 * the History's filters.
 */
export const ChatsQuerySchema = z.object({
  ...historyFilters,
  perPage: whole('perPage', 1, MAX_PER_PAGE).default(HISTORY_PAGE_SIZE),
  page: whole('page', 0, 100_000_000).default(0),
  q: z.string({ error: 'q must be given once' }).max(SEARCH_QUERY_MAX, `q is longer than ${SEARCH_QUERY_MAX} characters`).default(''),
});

const format = z.enum(['csv', 'json'], { error: 'format must be csv or json' });

/** GET /reports/{ceId}/overview/download, /answers/download and /team/download: a report of the range, as CSV or JSON. */
export const RangeDownloadSchema = RangeQuerySchema.extend({ format });

/** GET /reports/{ceId}/chats/download: every chat (newest first), or the first `limit`, optionally in a range and filtered. */
export const ChatsDownloadSchema = z
  .object({
    ...historyFilters,
    format,
    limit: whole('limit', 1, 100_000_000).optional(),
    tz: text('tz').optional(),
    startDate: text('startDate').optional(),
    endDate: text('endDate').optional(),
  })
  .refine(
    (q) => [q.tz, q.startDate, q.endDate].every((v) => v === undefined) || [q.tz, q.startDate, q.endDate].every((v) => v !== undefined),
    {
      message: 'tz, startDate and endDate go together',
    },
  );
