/**
 * The chat history of a widget, newest first: pages for the table, one chat's transcript, and a cursor over
 * any number of chats for the downloads. Kept conversations only (a discarded chat is left out everywhere).
 */
import type { Types } from 'mongoose';
import { identityProof } from '../conversations/identity';
import { inboxStateFilter, inboxStateOf } from '../conversations/inbox';
import { NotFoundError } from '../errors';
import type { Models } from '../models';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';
import type { Conversation } from '../models/Conversation';
import type { Visitor } from '../models/Visitor';
import { sanitizeMessageHtml } from '../ownerText';
import type { ChatRecord, ChatsPage, HistoryFilters, Transcript } from '../shared/reports';
import { searchQueryTerms } from '../shared/searchTerms';
import { visitorLabel } from '../shared/visitors';
import { reportedChats } from './overview';
import type { ReportRange } from './range';

export type ConversationRow = Conversation & { _id: Types.ObjectId };
export type VisitorRow = Visitor & { _id: Types.ObjectId };
export type Room = Pick<ChatEndpointDocument, '_id' | 'RoomName' | 'RoomId' | 'slackBaseUrl' | 'identitySecret'>;

/** What the CSV download reads of a conversation and of its visitor: the fewer fields, the less to parse per chat. */
const CSV_CHAT_FIELDS = {
  _id: 1,
  visitorId: 1,
  startedAt: 1,
  endedAt: 1,
  firstResponseAt: 1,
  agentName: 1,
  rating: 1,
  feedback: 1,
  pageUrl: 1,
  slackChannel: 1,
  threadTs: 1,
  status: 1,
  inboxState: 1,
  assigneeId: 1,
  tags: 1,
} as const;
const CSV_VISITOR_FIELDS = {
  name: 1,
  email: 1,
  'location.city': 1,
  'location.country': 1,
  currentPage: 1,
  identUserId: 1,
  identTraits: 1,
  verifiedUserId: 1,
} as const;
/** What `presentChat` reads: the CSV's fields and a few more. */
const CHAT_FIELDS = { ...CSV_CHAT_FIELDS, number: 1, agentAvatarUrl: 1, firstLine: 1 } as const;
const VISITOR_FIELDS = { ...CSV_VISITOR_FIELDS, createdAt: 1 } as const;
/** The fields a download reads: every field of a chat record, or only the CSV's columns. */
export type DownloadFields = 'records' | 'csv';

/** Link to the chat's Slack thread (or its channel before the first post). */
export function threadUrl(ce: Room, c: Pick<ConversationRow, 'slackChannel' | 'threadTs'>): string {
  const base = ce.slackBaseUrl ? ce.slackBaseUrl.replace(/\/?$/, '/') : 'https://slack.com/';
  const channel = c.slackChannel || ce.RoomId;
  return c.threadTs ? `${base}archives/${channel}/p${c.threadTs.replace('.', '')}` : `${base}archives/${channel}`;
}

/** "City, Country" of a visitor, as much as is known. */
export function locationOf(v: Pick<VisitorRow, 'location'> | undefined): string {
  const city = v?.location?.city;
  const country = v?.location?.country;
  return city && country ? `${city}, ${country}` : city || country || '';
}

/** The traits a visitor was identified with (`Parley.identify`), as JSON text; '' without any. */
export function traitsOf(v: Pick<VisitorRow, 'identTraits'> | undefined): string {
  const traits = v?.identTraits;
  return traits && Object.keys(traits).length ? JSON.stringify(traits) : '';
}

/** The chat record of the spec (section 3): exactly the fields that leave the server. */
export function presentChat(ce: Room, c: ConversationRow, v: VisitorRow | undefined): ChatRecord {
  return {
    id: String(c._id),
    startedAt: c.startedAt.toISOString(),
    endedAt: c.endedAt ? c.endedAt.toISOString() : '',
    number: c.number,
    title: `Conversation #${c.number}`,
    firstLine: c.firstLine ?? '',
    channelUrl: threadUrl(ce, c),
    channelName: ce.RoomName,
    chatRating: c.rating ?? '',
    chatFeedback: c.feedback,
    agentName: c.firstResponseAt ? c.agentName : '',
    agentAvatarUrl: c.firstResponseAt ? c.agentAvatarUrl : '',
    firstResponseAt: c.firstResponseAt ? c.firstResponseAt.toISOString() : '',
    state: inboxStateOf(c),
    assigneeId: c.assigneeId ?? '',
    tags: c.tags ?? [],
    visitor: {
      label: v ? visitorLabel(v, c.number) : `Visitor ${c.number}`,
      name: v?.name ?? '',
      email: v?.email ?? '',
      avatarUrl: '',
      location: locationOf(v),
      createdAt: v ? v.createdAt.toISOString() : '',
      currentPage: c.pageUrl || v?.currentPage || '',
      identUserId: v?.identUserId ?? '',
      identTraits: traitsOf(v),
      identity: v ? identityProof(v, ce) : '',
    },
  };
}

async function visitorsOf(
  models: Models,
  rows: Pick<ConversationRow, 'visitorId'>[],
  projection: Record<string, 1> = VISITOR_FIELDS,
): Promise<Map<string, VisitorRow>> {
  const ids = [...new Map(rows.map((c) => [String(c.visitorId), c.visitorId])).values()];
  const visitors = ids.length
    ? await models.Visitor.collection.find<VisitorRow>({ _id: { $in: ids } }, { projection, batchSize: ids.length }).toArray()
    : [];
  return new Map(visitors.map((v) => [String(v._id), v]));
}

async function withVisitors(models: Models, ce: Room, rows: ConversationRow[]): Promise<ChatRecord[]> {
  const byId = await visitorsOf(models, rows);
  return rows.map((c) => presentChat(ce, c, byId.get(String(c.visitorId))));
}

function kept(ce: Room, range?: Pick<ReportRange, 'start' | 'end'>) {
  return range ? reportedChats(ce, range) : { ceId: ce._id, discarded: false };
}

/**
 * The History's filters (shared/reports.ts HistoryFilters) as conditions beside `kept`'s: a tag is an equality on the
 * multikey `tags` (the index {ceId, discarded, tags, startedAt} reads it); the state as the shared inbox reads it,
 * conversations from before the inbox included (conversations/inbox.ts).
 */
export function filterConditions(filters: HistoryFilters = {}): Record<string, unknown> {
  return {
    ...(filters.tag ? { tags: filters.tag } : {}),
    ...(filters.state ? inboxStateFilter(filters.state) : {}),
    ...(filters.assignee ? { assigneeId: filters.assignee === 'none' ? { $in: ['', null] } : filters.assignee } : {}),
  };
}

/** How far the history search counts a word's chats when it picks the rarest word to read the index by. */
const WORD_COUNT_LIMIT = 1000;

/**
 * The filter of the kept chats holding every word of `search` among their search terms (server/shared/searchTerms.ts),
 * answered by the index {ceId, discarded, searchTerms, startedAt}: each word an equality on the multikey field, the
 * rarest first (counted on the index, at most WORD_COUNT_LIMIT each), which the index reads; the others are checked
 * on those chats. null when some word is in no chat at all. No words: every kept chat.
 */
export async function searchFilter(models: Models, ce: Room, search: string, filters: HistoryFilters = {}) {
  const words = searchQueryTerms(search);
  const only = filterConditions(filters);
  if (words.length === 0) return { ...kept(ce), ...only };
  const counts = new Map(
    await Promise.all(
      words.map(
        // The `count` command, not countDocuments (an aggregation that reads every document it counts): with its
        // equality on the index it is answered from the index, and only the words' order depends on it.
        async (w) => [w, await models.Conversation.collection.count({ ...kept(ce), searchTerms: w }, { limit: WORD_COUNT_LIMIT })] as const,
      ),
    ),
  );
  if ([...counts.values()].some((n) => n === 0)) return null;
  const rarestFirst = [...words].sort((a, b) => (counts.get(a) ?? 0) - (counts.get(b) ?? 0));
  return { ...kept(ce), ...only, $and: rarestFirst.map((w) => ({ searchTerms: w })) };
}

/**
 * One page (zero-based) of the widget's chats, newest first, and how many there are; `search`: only those found by it;
 * `filters`: only those carrying the tag, in the state, of the assignee.
 */
export async function chatsPage(
  models: Models,
  ce: Room,
  page: number,
  perPage: number,
  search = '',
  filters: HistoryFilters = {},
): Promise<ChatsPage> {
  const filter = await searchFilter(models, ce, search, filters);
  if (!filter) return { chats: [], totalChats: 0 };
  const [rows, totalChats] = await Promise.all([
    models.Conversation.find(filter, CHAT_FIELDS)
      .sort({ startedAt: -1 })
      .skip(page * perPage)
      .limit(perPage)
      .lean<ConversationRow[]>(),
    models.Conversation.countDocuments(filter),
  ]);
  return { chats: await withVisitors(models, ce, rows), totalChats };
}

/** One chat with every message of it, for the transcript view. */
export async function transcript(models: Models, ce: Room, chatId: string): Promise<Transcript> {
  const notFound = new NotFoundError('Chat not found');
  if (!/^[0-9a-f]{24}$/i.test(chatId)) throw notFound;
  const c = await models.Conversation.findOne({ _id: chatId, ceId: ce._id, discarded: false }).lean<ConversationRow>();
  if (!c) throw notFound;
  const [chat] = await withVisitors(models, ce, [c]);
  const entries = await models.Message.find({ conversationId: c._id, kind: 'msg' }).sort({ seq: 1 }).lean();
  const fileIds = entries.flatMap((m) => (m.deleted ? [] : m.files.map((f) => f.id))).filter((id) => /^[0-9a-f]{24}$/i.test(id));
  // Files Parley keeps (visitors' uploads and screenshots) are served to the console; an operator's stay in Slack.
  const kept = new Set(
    (await models.WidgetFile.find({ _id: { $in: fileIds }, conversationId: c._id, data: { $ne: null } }, { _id: 1 }).lean()).map((f) =>
      String(f._id),
    ),
  );
  const fileUrl = (id: string) => (kept.has(id) ? `/v1/reports/${ce._id}/chats/${c._id}/files/${id}` : '');
  return {
    chat,
    messages: entries.map((m) => ({
      id: String(m._id),
      from: m.from,
      author: m.author?.name || (m.from === 'visitor' ? chat.visitor.label : m.from === 'operator' ? 'Operator' : ''),
      text: m.deleted ? '' : m.text,
      html: m.deleted || !m.html ? '' : sanitizeMessageHtml(m.html),
      files: m.deleted ? [] : m.files.map((f) => ({ id: f.id, name: f.name, size: f.size, mimetype: f.mimetype, url: fileUrl(f.id) })),
      at: m.createdAt.toISOString(),
      deleted: m.deleted,
      edited: m.edited,
    })),
  };
}

/**
 * A file of one of the widget's chats, for the console's transcript: only a file Parley keeps (a visitor's upload
 * or screenshot) of that chat; anything else is 404.
 */
export async function transcriptFile(
  models: Models,
  ce: Room,
  chatId: string,
  fileId: string,
): Promise<{ name: string; mimetype: string; data: Buffer }> {
  const notFound = new NotFoundError('File not found');
  if (!/^[0-9a-f]{24}$/i.test(chatId) || !/^[0-9a-f]{24}$/i.test(fileId)) throw notFound;
  const chat = await models.Conversation.exists({ _id: chatId, ceId: ce._id, discarded: false });
  if (!chat) throw notFound;
  const file = await models.WidgetFile.findOne({ _id: fileId, conversationId: chatId });
  if (!file?.data) throw notFound;
  return { name: file.name, mimetype: file.mimetype, data: file.data };
}

/**
 * Chats read from the store and looked up with their visitors at a time by the downloads: few enough that a
 * batch dies young (what outlives a garbage collection of the young generation is what grows the heap).
 */
const BATCH = 250;

/** A batch of raw chats (the fields `presentChat` reads) and, by id, the visitors they name. */
export type ChatBatch = { rows: ConversationRow[]; visitors: Map<string, VisitorRow> };

/**
 * Every chat of the widget (in the range and of the filters, when given), newest first, at most `limit`, as raw documents a batch
 * at a time: memory stays flat whatever the count, and the store reads the next batch while the caller turns
 * this one into its file.
 */
export async function* chatBatches(
  models: Models,
  ce: Room,
  opts: { range?: ReportRange; limit?: number; fields?: DownloadFields; filters?: HistoryFilters },
): AsyncGenerator<ChatBatch> {
  const csv = opts.fields === 'csv';
  // The driver's cursor, not mongoose's: plain documents, nothing hydrated. `limit` only when there is one: the
  // driver takes `limit: 0` as a limit already passed and asks each getMore for twice the last batch.
  const cursor = models.Conversation.collection.find<ConversationRow>(
    { ...kept(ce, opts.range), ...filterConditions(opts.filters) },
    {
      projection: csv ? CSV_CHAT_FIELDS : CHAT_FIELDS,
      sort: { startedAt: -1 },
      batchSize: BATCH,
      ...(opts.limit ? { limit: opts.limit } : {}),
    },
  );
  const documents = cursor[Symbol.asyncIterator]();
  const read = async (): Promise<ChatBatch | undefined> => {
    const first = await documents.next();
    if (first.done) return undefined;
    // The first document of a batch makes the driver fetch it; the rest is already there.
    const rows = [first.value, ...cursor.readBufferedDocuments()];
    return { rows, visitors: await visitorsOf(models, rows, csv ? CSV_VISITOR_FIELDS : VISITOR_FIELDS) };
  };
  const ahead = () => {
    const reading = read();
    // Handled now, awaited later: a failed read while the caller is busy is not an unhandled rejection.
    reading.catch(() => undefined);
    return reading;
  };
  let next = ahead();
  try {
    for (let batch = await next; batch; batch = await next) {
      next = ahead();
      yield batch;
    }
  } finally {
    // A download the client gave up on: let the read under way settle before the cursor closes.
    await next.catch(() => undefined);
    await cursor.close();
  }
}

/** Every chat as its chat record, batch by batch (the JSON download). */
export async function* allChats(
  models: Models,
  ce: Room,
  opts: { range?: ReportRange; limit?: number; filters?: HistoryFilters },
): AsyncGenerator<ChatRecord[]> {
  for await (const { rows, visitors } of chatBatches(models, ce, opts)) {
    yield rows.map((c) => presentChat(ce, c, visitors.get(String(c.visitorId))));
  }
}
