/**
 * The chat history of a widget, newest first: pages for the table, one chat's transcript, and a cursor over
 * any number of chats for the downloads. Kept conversations only (a discarded chat is left out everywhere).
 */
import type { Types } from 'mongoose';
import { NotFoundError } from '../errors';
import type { Models } from '../models';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';
import type { Conversation } from '../models/Conversation';
import type { Visitor } from '../models/Visitor';
import { type ChatRecord, type ChatsPage, NO_RESPONSE, type Transcript } from '../shared/reports';
import { reportedChats } from './overview';
import type { ReportRange } from './range';

type ConversationRow = Conversation & { _id: Types.ObjectId };
type VisitorRow = Visitor & { _id: Types.ObjectId };
type Room = Pick<ChatEndpointDocument, '_id' | 'RoomName' | 'RoomId' | 'slackBaseUrl'>;

/** What `presentChat` reads of a conversation: the downloads fetch no more (less to parse per chat). */
const CHAT_FIELDS = {
  _id: 1,
  number: 1,
  visitorId: 1,
  startedAt: 1,
  endedAt: 1,
  firstResponseAt: 1,
  agentName: 1,
  agentAvatarUrl: 1,
  rating: 1,
  feedback: 1,
  pageUrl: 1,
  slackChannel: 1,
  threadTs: 1,
} as const;
const VISITOR_FIELDS = { name: 1, email: 1, location: 1, createdAt: 1, currentPage: 1, identUserId: 1, identTraits: 1 } as const;

function threadUrl(ce: Room, c: ConversationRow): string {
  const base = ce.slackBaseUrl ? ce.slackBaseUrl.replace(/\/?$/, '/') : 'https://slack.com/';
  const channel = c.slackChannel || ce.RoomId;
  return c.threadTs ? `${base}archives/${channel}/p${c.threadTs.replace('.', '')}` : `${base}archives/${channel}`;
}

/** The chat record of the spec (section 3): exactly the fields that leave the server. */
export function presentChat(ce: Room, c: ConversationRow, v: VisitorRow | undefined): ChatRecord {
  const location = v ? [v.location?.city, v.location?.country].filter(Boolean).join(', ') : '';
  return {
    id: String(c._id),
    startedAt: c.startedAt.toISOString(),
    endedAt: c.endedAt ? c.endedAt.toISOString() : '',
    title: `Conversation #${c.number}`,
    channelUrl: threadUrl(ce, c),
    channelName: ce.RoomName,
    chatRating: c.rating ?? '',
    chatFeedback: c.feedback,
    agentName: c.firstResponseAt ? c.agentName : '',
    agentAvatarUrl: c.firstResponseAt ? c.agentAvatarUrl : '',
    firstResponseAt: c.firstResponseAt ? c.firstResponseAt.toISOString() : NO_RESPONSE,
    visitor: {
      name: v?.name ?? '',
      email: v?.email ?? '',
      avatarUrl: '',
      location,
      createdAt: v ? v.createdAt.toISOString() : '',
      currentPage: c.pageUrl || v?.currentPage || '',
      identUserId: v?.identUserId ?? '',
      identTraits: v && Object.keys(v.identTraits ?? {}).length ? JSON.stringify(v.identTraits) : '',
    },
  };
}

async function withVisitors(models: Models, ce: Room, rows: ConversationRow[]): Promise<ChatRecord[]> {
  const ids = [...new Map(rows.map((c) => [String(c.visitorId), c.visitorId])).values()];
  const visitors = ids.length
    ? await models.Visitor.collection.find<VisitorRow>({ _id: { $in: ids } }, { projection: VISITOR_FIELDS }).toArray()
    : [];
  const byId = new Map(visitors.map((v) => [String(v._id), v]));
  return rows.map((c) => presentChat(ce, c, byId.get(String(c.visitorId))));
}

function kept(ce: Room, range?: Pick<ReportRange, 'start' | 'end'>) {
  return range ? reportedChats(ce, range) : { ceId: ce._id, discarded: false };
}

/** One page (zero-based) of the widget's chats, newest first, and how many there are. */
export async function chatsPage(models: Models, ce: Room, page: number, perPage: number): Promise<ChatsPage> {
  const [rows, totalChats] = await Promise.all([
    models.Conversation.find(kept(ce))
      .sort({ startedAt: -1 })
      .skip(page * perPage)
      .limit(perPage)
      .lean<ConversationRow[]>(),
    models.Conversation.countDocuments(kept(ce)),
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
  return {
    chat,
    messages: entries.map((m) => ({
      id: String(m._id),
      from: m.from,
      author: m.author?.name || (m.from === 'visitor' ? chat.visitor.name || 'Visitor' : m.from === 'operator' ? 'Operator' : ''),
      text: m.deleted ? '' : m.text,
      at: m.createdAt.toISOString(),
      deleted: m.deleted,
      edited: m.edited,
    })),
  };
}

/** Chats read from the store and looked up with their visitors at a time by the downloads. */
const BATCH = 1000;

/**
 * Every chat of the widget (in the range, when given), newest first, at most `limit`, in batches: memory stays
 * flat whatever the count.
 */
export async function* allChats(models: Models, ce: Room, opts: { range?: ReportRange; limit?: number }): AsyncGenerator<ChatRecord> {
  // The driver's cursor, not mongoose's: plain documents, read a batch at a time, nothing hydrated.
  // `limit` only when there is one: the driver takes `limit: 0` as a limit already passed and asks each getMore
  // for twice the last batch (1,000, 2,000, 4,000 … chats, each batch parsed and held at once).
  const cursor = models.Conversation.collection.find<ConversationRow>(kept(ce, opts.range), {
    projection: CHAT_FIELDS,
    sort: { startedAt: -1 },
    batchSize: BATCH,
    ...(opts.limit ? { limit: opts.limit } : {}),
  });
  let batch: ConversationRow[] = [];
  try {
    for await (const row of cursor) {
      batch.push(row);
      if (batch.length === BATCH) {
        yield* await withVisitors(models, ce, batch);
        batch = [];
      }
    }
    if (batch.length) yield* await withVisitors(models, ce, batch);
  } finally {
    await cursor.close();
  }
}
