/**
 * Downloads: the overview figures and the chat history as CSV (csv-stringify: quoting, and a guard against
 * spreadsheet formulas) or JSON, written to the response as they are read, so any number of chats fits in
 * flat memory.
 */
import { once } from 'node:events';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import { stringify as stringifyRows } from 'csv-stringify/sync';
import { inboxStateOf } from '../conversations/inbox';
import {
  type AgentStats,
  type AnswersReport,
  type ChatRecord,
  type OverviewFigures,
  type OverviewReport,
  SUGGESTION_KIND_LABELS,
  type TeamFigures,
  type TeamReport,
} from '../shared/reports';
import { type ChatBatch, type ConversationRow, locationOf, type Room, threadUrl, traitsOf, type VisitorRow } from './history';

/**
 * A cell starting with = + - @ (or a tab or carriage return) would run as a formula in a spreadsheet:
 * prefix it with an apostrophe (OWASP's CSV injection advice).
 */
export function guardCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

const csvOptions = { cast: { string: guardCell, boolean: (b: boolean) => (b ? 'true' : 'false') } } as const;

export const OVERVIEW_COLUMNS = [
  'Agent',
  'Total Chats',
  'Avg Chats/Day',
  'Trigger Chats',
  'Up Rating %',
  'Up Ratings',
  'Late Replies',
  'Avg Time to First Reply (s)',
  'Avg Chat Duration (s)',
  'Avg Msgs/Chat',
  'Offline Messages',
];

function overviewRow(label: string, f: OverviewFigures): (string | number)[] {
  return [
    label,
    f.totalChats,
    f.avgChatsPerDay,
    f.chatsFromTrigger,
    f.upRatingPercent,
    f.upRatingCount,
    f.lateReply,
    f.avgTimeToFirstReply,
    f.avgChatDuration,
    f.avgMsgsPerChat,
    f.totalOfflineMsgs,
  ];
}

const agentLabel = (s: AgentStats) => s.agentName || 'Missed chats';

export async function writeOverviewCsv(report: OverviewReport, out: Writable): Promise<void> {
  const rows = [OVERVIEW_COLUMNS, ...report.stats.map((s) => overviewRow(agentLabel(s), s)), overviewRow('All chats', report.totalStats)];
  await pipeline(Readable.from(rows), stringify(csvOptions), out);
}

/**
 * The Answers report as CSV: the figures (a Figure, Value table), then after an empty line the questions that found
 * nothing (every one, most asked first), then the articles; each table with its own header row. Times in UTC.
 */
export async function writeAnswersCsv(report: AnswersReport, out: Writable): Promise<void> {
  const t = report.totals;
  const rows: (string | number)[][] = [
    ['Figure', 'Value'],
    ['Searches', t.searches],
    ['Searches that found nothing', t.searchesWithoutAnswer],
    ['Article views', t.articleViews],
    ['Did this answer: Yes', t.helpfulYes],
    ['Did this answer: No', t.helpfulNo],
    ['Conversations resolved by an article', t.resolved],
    ['Suggestions sent from Slack', t.suggestionsSent],
    ...report.suggestions.map((s) => [`Suggestions sent from Slack: ${SUGGESTION_KIND_LABELS[s.kind] ?? s.kind}`, s.sent]),
    [],
    ['Question that found nothing', 'Language', 'Times asked', 'Last asked'],
    ...report.unanswered.map((q) => [q.query, q.language, q.count, q.lastAskedAt]),
    [],
    ['Article', 'Language', 'Views', 'Yes', 'No', 'Resolved', 'Sent from Slack'],
    ...report.articles.map((a) => [a.title || '(deleted article)', a.language, a.views, a.helpfulYes, a.helpfulNo, a.resolved, a.sent]),
  ];
  await pipeline(Readable.from([stringifyRows(rows, csvOptions)]), out);
}

export const TEAM_COLUMNS = [
  'Operator',
  'Slack user ID',
  'Assigned',
  'Answered',
  'Ended',
  'First responses',
  'Median first response (s)',
  'Next responses',
  'Median next response (s)',
  'Answers with a target',
  'Within target',
  'Within target %',
  'Rated up',
  'Rated down',
];

function teamRow(name: string, id: string, f: TeamFigures): (string | number)[] {
  const blank = (n: number | null) => (n === null ? '' : n);
  return [
    name,
    id,
    f.assigned,
    f.answered,
    f.ended,
    f.firstResponses,
    blank(f.medianFirstResponseSecs),
    f.nextResponses,
    blank(f.medianNextResponseSecs),
    f.targeted,
    f.withinTarget,
    blank(f.withinTargetPercent),
    f.ratedUp,
    f.ratedDown,
  ];
}

/**
 * The Team report as CSV: a row per operator and one for the whole team, then after an empty line a row per tag
 * with its conversations and one column per step of its trend (headed by the step's first day, yyyy-mm-dd in the
 * report's zone). Medians and shares that have nothing to measure are empty cells, not 0.
 */
export async function writeTeamCsv(report: TeamReport, out: Writable): Promise<void> {
  const rows: (string | number)[][] = [
    TEAM_COLUMNS,
    ...report.operators.map((o) => teamRow(o.name, o.id, o)),
    teamRow('Whole team', '', report.team),
    [],
    ['Tag', 'Conversations', ...report.buckets.map((b) => b.start)],
    ...report.tags.map((t) => [t.tag, t.conversations, ...t.trend]),
  ];
  await pipeline(Readable.from([stringifyRows(rows, csvOptions)]), out);
}

export const CHAT_COLUMNS = [
  'ID',
  'Started',
  'Ended',
  'Visitor',
  'Email',
  'Agent',
  'Rating',
  'Feedback',
  'First Response',
  'Page',
  'Location',
  'User ID',
  'Traits',
  'Channel',
  'Link',
  'State',
  'Assignee',
  'Tags',
];

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : '');

/** One chat's CSV row, straight from the stored documents (the columns of CHAT_COLUMNS). */
function chatRow(ce: Room, c: ConversationRow, v: VisitorRow | undefined): string[] {
  return [
    String(c._id),
    iso(c.startedAt),
    iso(c.endedAt),
    v?.name ?? '',
    v?.email ?? '',
    c.firstResponseAt ? (c.agentName ?? '') : '',
    c.rating ?? '',
    c.feedback ?? '',
    iso(c.firstResponseAt),
    c.pageUrl || v?.currentPage || '',
    locationOf(v),
    v?.identUserId ?? '',
    traitsOf(v),
    ce.RoomName,
    threadUrl(ce, c),
    inboxStateOf(c),
    c.assigneeId ?? '',
    // Tags are single words: one cell, separated by a comma and a space.
    (c.tags ?? []).join(', '),
  ];
}

/**
 * The chat history as CSV, a batch of lines at a time; pipeline waits whenever the client is slower (the
 * response's write returns false) before the next batch is read.
 */
export async function writeChatsCsv(ce: Room, batches: AsyncIterable<ChatBatch>, out: Writable): Promise<void> {
  async function* text() {
    yield stringifyRows([CHAT_COLUMNS], csvOptions);
    // A batch is quoted and guarded by csv-stringify in one call: rows of plain strings, no record objects.
    for await (const { rows, visitors } of batches) {
      yield stringifyRows(
        rows.map((c) => chatRow(ce, c, visitors.get(String(c.visitorId)))),
        csvOptions,
      );
    }
  }
  await pipeline(Readable.from(text()), out);
}

/** Writes `{"chats":[…],"totalChats":n}` a batch of chats at a time, waiting whenever the client is slower. */
export async function writeChatsJson(chats: AsyncIterable<ChatRecord[]>, out: Writable): Promise<void> {
  const write = async (chunk: string) => {
    if (!out.write(chunk)) await once(out, 'drain');
  };
  let n = 0;
  await write('{"chats":[');
  for await (const batch of chats) {
    let text = '';
    for (const c of batch) {
      text += (n ? ',' : '') + JSON.stringify(c);
      n += 1;
    }
    await write(text);
  }
  await write(`],"totalChats":${n}}`);
  out.end();
}
