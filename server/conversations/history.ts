/**
 * A conversation's history: every entry gets the next sequence number of its conversation and is stored
 * before anyone hears of it. Appends to one conversation are serialised in this process so frames are
 * published in sequence order.
 */
import type { Document } from 'mongodb';
import { Types } from 'mongoose';
import type { Models } from '../models';
import { type Conversation, SLACK_REPLIES_KEPT } from '../models/Conversation';
import type { Message } from '../models/Message';
import { APPLIED, JOURNALED } from '../models/writeConcerns';
import { messageSearchTerms } from '../shared/searchTerms';
import type { ChatMessage, ServerFrame } from '../shared/widget-protocol';

const chains = new Map<string, Promise<unknown>>();

/** Runs `work` after every earlier `serialised` call for the same key has finished. */
export function serialised<T>(key: string, work: () => Promise<T>): Promise<T> {
  const previous = chains.get(key) ?? Promise.resolve();
  const next = previous.then(work, work);
  const settled = next.then(
    () => undefined,
    () => undefined,
  );
  chains.set(key, settled);
  void settled.then(() => {
    if (chains.get(key) === settled) chains.delete(key);
  });
  return next;
}

export type NewEntry = Partial<Omit<Message, 'conversationId' | 'seq' | 'createdAt' | 'updatedAt'>> &
  Pick<Message, 'from'> & { _id?: Types.ObjectId };

/** A history entry as stored: a plain object, as lean reads give it (no mongoose document on the hot path). */
export type StoredMessage = Message & { _id: Types.ObjectId };

/**
 * Stores an entry with the conversation's next seq. Call inside `serialised(conversationId)`. Two writes: the
 * conversation hands out the seq (and counts chat messages for the reports, and takes `set`), then the entry is
 * inserted as it is (insertEntry). `whileOpen`: only into an open conversation; null when it is not (ended meanwhile,
 * perhaps by another process), and nothing is written. A clientId already stored in the conversation throws the index's
 * duplicate-key error (code 11000) after its seq was spent: seqs may skip, never repeat.
 */
export async function appendEntry(
  models: Models,
  conversationId: Types.ObjectId,
  entry: NewEntry,
  options: { set?: Record<string, unknown>; whileOpen?: boolean; journaled?: boolean } = {},
): Promise<StoredMessage | null> {
  return (await appendEntryReading(models, conversationId, entry, options, {}))?.message ?? null;
}

/**
 * appendEntry that also answers `read`: those fields of the conversation as they were just before this write
 * (the same atomic update hands out the seq, so they cost no extra round trip). `onceForSlackTs`: a Slack thread
 * reply's ts, appended only when the conversation's latest replies do not hold it yet (the same write records it);
 * null when they do, or when the conversation is gone, and nothing is written.
 */
export async function appendEntryReading<F extends keyof Conversation>(
  models: Models,
  conversationId: Types.ObjectId,
  entry: NewEntry,
  options: { set?: Record<string, unknown>; whileOpen?: boolean; journaled?: boolean; onceForSlackTs?: string },
  read: Partial<Record<F, 1>>,
): Promise<{ message: StoredMessage; before: Partial<Pick<Conversation, F>> } | null> {
  const { counter, terms } = addedBy(entry);
  const inc = counter ? { lastSeq: 1, [counter]: 1 } : { lastSeq: 1 };
  const now = new Date();
  const once = options.onceForSlackTs;
  // Written through the driver, so the update spells out the `updatedAt` mongoose's timestamps would add. A plain
  // Document: the driver's update types refuse `$push` on a collection they do not know the fields of.
  const update: Document = {
    $inc: inc,
    $set: { ...options.set, updatedAt: now },
    // The history search finds the chat by the words of its messages (the same write: no extra round trip).
    ...(terms.length ? { $addToSet: { searchTerms: { $each: terms } } } : {}),
    ...(once ? { $push: { slackReplyTs: { $each: [once], $slice: -SLACK_REPLIES_KEPT } } } : {}),
  };
  const filter: { _id: Types.ObjectId; status?: 'open'; slackReplyTs?: { $ne: string } } = { _id: conversationId };
  if (options.whileOpen) filter.status = 'open';
  if (once) filter.slackReplyTs = { $ne: once };
  // The document as it was: lastSeq + 1 is this entry's seq ($inc is atomic), and `read` is the state before.
  // Acknowledged once applied (j: false): the entry's insert below waits for the journal, which holds this write
  // before it, so one journal flush makes both durable.
  const before = await models.Conversation.collection.findOneAndUpdate(filter, update, {
    returnDocument: 'before',
    projection: { lastSeq: 1, ...read },
    writeConcern: APPLIED,
  });
  if (!before) {
    if (options.whileOpen || once) return null;
    throw new Error(`conversation ${String(conversationId)} is gone`);
  }
  const seq = (typeof before.lastSeq === 'number' ? before.lastSeq : 0) + 1;
  const stored = await insertEntry(models, conversationId, seq, entry, { journaled: options.journaled }, now);
  // The driver types raw documents loosely; the projection above asked for exactly these fields.
  return { message: stored, before: before as unknown as Partial<Pick<Conversation, F>> };
}

/**
 * The fields of a conversation stored together with its first entry, as appendEntry's update would leave them:
 * seq 1 taken, the entry counted for the reports, its words added to `searchTerms`. The entry is then stored with
 * `insertEntry(…, 1, …)`, without the update: one round trip fewer for a new conversation's first line.
 */
export function firstEntryFields(
  entry: Pick<NewEntry, 'kind' | 'from' | 'text'>,
  searchTerms: readonly string[],
): Pick<Conversation, 'lastSeq' | 'searchTerms'> & Partial<Pick<Conversation, 'visitorMsgs' | 'operatorMsgs'>> {
  const { counter, terms } = addedBy(entry);
  return { lastSeq: 1, ...(counter ? { [counter]: 1 } : {}), searchTerms: [...new Set([...searchTerms, ...terms])] };
}

/**
 * Inserts an entry under a seq its conversation already handed out (appendEntry's second write; a new conversation's
 * first entry, whose seq its insert took: firstEntryFields), every field spelled out here (the Message type makes a new
 * field a compile error until it is). Durable before anyone hears of it (a visitor's ack, a frame), whatever the
 * deployment's default write concern; `journaled: false` when the caller's next write is journaled and nobody hears of
 * the entry before it.
 */
export async function insertEntry(
  models: Models,
  conversationId: Types.ObjectId,
  seq: number,
  entry: NewEntry,
  options: { journaled?: boolean },
  now = new Date(),
): Promise<StoredMessage> {
  const stored: StoredMessage = {
    _id: entry._id ?? new Types.ObjectId(),
    conversationId,
    seq,
    kind: entry.kind ?? 'msg',
    from: entry.from,
    text: entry.text ?? '',
    html: entry.html ?? '',
    author: entry.author ? { name: entry.author.name ?? '', avatarUrl: entry.author.avatarUrl ?? '' } : null,
    targetId: entry.targetId ?? null,
    ...(entry.clientId !== undefined ? { clientId: entry.clientId } : {}),
    slackTs: entry.slackTs ?? '',
    slackUserId: entry.slackUserId ?? '',
    ...(entry.slackChangeTs ? { slackChangeTs: entry.slackChangeTs } : {}),
    files: (entry.files ?? []).map((f) => ({ id: f.id, name: f.name, size: f.size, mimetype: f.mimetype })),
    ...(entry.articles?.length ? { articles: entry.articles.map(({ id, title, snippet, url }) => ({ id, title, snippet, url })) } : {}),
    ...(entry.automatic ? { automatic: true } : {}),
    edited: entry.edited ?? false,
    deleted: entry.deleted ?? false,
    endedBy: entry.endedBy ?? '',
    createdAt: now,
    updatedAt: now,
  };
  await models.Message.collection.insertOne(stored, { writeConcern: options.journaled === false ? APPLIED : JOURNALED });
  return stored;
}

/** What an entry adds to its conversation besides its seq: its count for the reports, its words for the history search. */
function addedBy(entry: Pick<NewEntry, 'kind' | 'from' | 'text'>): { counter?: 'visitorMsgs' | 'operatorMsgs'; terms: string[] } {
  return { counter: countedAs(entry), terms: searchable(entry) ? messageSearchTerms(entry.text ?? '') : [] };
}

/** Whether an entry's words are searched: chat messages and their edits, from the visitor or an operator. */
function searchable(entry: Pick<NewEntry, 'kind' | 'from' | 'text'>): boolean {
  const kind = entry.kind ?? 'msg';
  return !!entry.text && (kind === 'msg' || kind === 'edit') && (entry.from === 'visitor' || entry.from === 'operator');
}

/** The conversation counter a chat message adds to (the reports' message counts); none for other entries. */
function countedAs(entry: Pick<NewEntry, 'kind' | 'from'>): 'visitorMsgs' | 'operatorMsgs' | undefined {
  if ((entry.kind ?? 'msg') !== 'msg') return undefined;
  return ({ visitor: 'visitorMsgs', operator: 'operatorMsgs' } as const)[entry.from as 'visitor' | 'operator'];
}

/**
 * Chat messages as the Slack thread shows them: in seq order, except that an operator reply from Slack goes right
 * before the first reply placed ahead of it whose Slack ts is later (Slack delivers events concurrently, so a reply can
 * be stored after a later one). The widget places replies by the same rule (web/widget/panel/reducer.ts placeOf), so
 * a transcript, the archive webhook and the API read the conversation in the order the visitor saw it.
 */
export function inSlackOrder<T extends { seq: number; from: string; slackTs?: string; kind?: string }>(entries: readonly T[]): T[] {
  const reply = (e: T): string => (e.from === 'operator' && (e.kind ?? 'msg') === 'msg' && e.slackTs) || '';
  const placed: T[] = [];
  for (const entry of [...entries].sort((a, b) => a.seq - b.seq)) {
    const ts = reply(entry);
    const later = ts ? placed.findIndex((p) => reply(p) > ts) : -1;
    if (later === -1) placed.push(entry);
    else placed.splice(later, 0, entry);
  }
  return placed;
}

export function fileUrl(publicUrl: string, fileId: string): string {
  return `${publicUrl}/widget/files/${fileId}`;
}

export function chatMessage(publicUrl: string, m: StoredMessage): ChatMessage {
  const message: ChatMessage = { seq: m.seq, id: String(m._id), from: m.from, text: m.text, at: m.createdAt.toISOString() };
  if (m.html) message.html = m.html;
  if (m.author?.name) message.author = { name: m.author.name, ...(m.author.avatarUrl ? { avatarUrl: m.author.avatarUrl } : {}) };
  if (m.files.length > 0) {
    message.files = m.files.map((f) => ({ id: f.id, name: f.name, size: f.size, mimetype: f.mimetype, url: fileUrl(publicUrl, f.id) }));
  }
  if (m.articles?.length) message.articles = m.articles.map(({ id, title, snippet, url }) => ({ id, title, snippet, url }));
  if (m.automatic) {
    message.automatic = true;
    if (m.answer === 'yes' || m.answer === 'no') message.helpful = m.answer === 'yes';
  }
  if (m.edited) message.edited = true;
  if (m.clientId) message.clientId = m.clientId;
  // A reply from Slack: the widget places operator replies in Slack's order, however late one reached Parley.
  if (m.from === 'operator' && m.slackTs) message.ts = m.slackTs;
  return message;
}

/**
 * The frame a history entry becomes. A deleted message is replayed as a deletion at its own seq: nothing of it is
 * shown, and the widget knows the seq holds nothing more (it asks to be replayed after the seqs it has in a row).
 */
export function entryFrame(publicUrl: string, m: StoredMessage): ServerFrame | null {
  switch (m.kind) {
    case 'msg':
      return m.deleted ? { t: 'delete', seq: m.seq, id: String(m._id) } : { t: 'msg', message: chatMessage(publicUrl, m) };
    case 'edit':
      return { t: 'edit', seq: m.seq, id: String(m.targetId), text: m.text, ...(m.html ? { html: m.html } : {}) };
    case 'delete':
      return { t: 'delete', seq: m.seq, id: String(m.targetId) };
    case 'ended':
      return { t: 'ended', seq: m.seq, by: m.endedBy === 'operator' || m.endedBy === 'inactivity' ? m.endedBy : 'visitor' };
    case 'askEmail':
      // Answered: shown with the address given, never asking again.
      return m.answer ? { t: 'askEmail', seq: m.seq, email: m.text } : { t: 'askEmail', seq: m.seq };
    case 'screenshot':
      // An answered request is not asked again after a reload.
      return m.answer ? null : { t: 'screenshot', seq: m.seq, id: String(m._id) };
  }
}

/** The seq a history frame carries (0 for live-only frames such as presence). */
export function frameSeq(frame: ServerFrame): number {
  switch (frame.t) {
    case 'msg':
      return frame.message.seq;
    case 'edit':
    case 'delete':
    case 'ended':
    case 'askEmail':
    case 'screenshot':
    case 'question':
      return frame.seq;
    default:
      return 0;
  }
}
