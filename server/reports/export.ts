/**
 * Downloads: the overview figures and the chat history as CSV (csv-stringify: quoting, and a guard against
 * spreadsheet formulas) or JSON, written to the response as they are read, so any number of chats fits in
 * flat memory.
 */
import { once } from 'node:events';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import { stringify as stringifySync } from 'csv-stringify/sync';
import type { AgentStats, ChatRecord, OverviewFigures, OverviewReport } from '../shared/reports';

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
];

function chatRow(c: ChatRecord): string[] {
  const v = c.visitor;
  return [
    c.id,
    c.startedAt,
    c.endedAt,
    v.name,
    v.email,
    c.agentName,
    c.chatRating,
    c.chatFeedback,
    c.firstResponseAt,
    v.currentPage,
    v.location,
    v.identUserId,
    v.identTraits,
    c.channelName,
    c.channelUrl,
  ];
}

/** Rows turned into CSV text at a time: one write per 500 chats rather than one per chat, so little garbage outlives it. */
const CSV_ROWS_PER_CHUNK = 500;

export async function writeChatsCsv(chats: AsyncIterable<ChatRecord>, out: Writable): Promise<void> {
  async function* chunks() {
    let rows: string[][] = [CHAT_COLUMNS];
    for await (const c of chats) {
      rows.push(chatRow(c));
      if (rows.length === CSV_ROWS_PER_CHUNK) {
        yield stringifySync(rows, csvOptions);
        rows = [];
      }
    }
    if (rows.length) yield stringifySync(rows, csvOptions);
  }
  // pipeline waits whenever the client is slower (the response's write returns false) before the next chunk is read.
  await pipeline(Readable.from(chunks()), out);
}

/** Writes `{"chats":[…],"totalChats":n}` one chat at a time, waiting whenever the client is slower. */
export async function writeChatsJson(chats: AsyncIterable<ChatRecord>, out: Writable): Promise<void> {
  const write = async (chunk: string) => {
    if (!out.write(chunk)) await once(out, 'drain');
  };
  let n = 0;
  await write('{"chats":[');
  for await (const c of chats) {
    await write((n ? ',' : '') + JSON.stringify(c));
    n += 1;
  }
  await write(`],"totalChats":${n}}`);
  out.end();
}
