/**
 * A conversation's history: every entry gets the next sequence number of its conversation and is stored
 * before anyone hears of it. Appends to one conversation are serialised in this process so frames are
 * published in sequence order.
 */
import type { Types } from 'mongoose';
import type { Models } from '../models';
import type { Message, MessageDocument } from '../models/Message';
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

/** Stores an entry with the conversation's next seq. Call inside `serialised(conversationId)`. */
export async function appendEntry(
  models: Models,
  conversationId: Types.ObjectId,
  entry: NewEntry,
  conversationSet: Record<string, unknown> = {},
): Promise<MessageDocument> {
  // Chat messages are counted for the reports in the same write that hands out the sequence number.
  const counter =
    (entry.kind ?? 'msg') === 'msg'
      ? ({ visitor: 'visitorMsgs', operator: 'operatorMsgs' } as const)[entry.from as 'visitor' | 'operator']
      : undefined;
  const inc = counter ? { lastSeq: 1, [counter]: 1 } : { lastSeq: 1 };
  const update = Object.keys(conversationSet).length > 0 ? { $inc: inc, $set: conversationSet } : { $inc: inc };
  const conversation = await models.Conversation.findOneAndUpdate({ _id: conversationId }, update, { returnDocument: 'after' });
  if (!conversation) throw new Error(`conversation ${String(conversationId)} is gone`);
  return models.Message.create({ ...entry, conversationId, seq: conversation.lastSeq });
}

export function fileUrl(publicUrl: string, fileId: string): string {
  return `${publicUrl}/widget/files/${fileId}`;
}

export function chatMessage(publicUrl: string, m: MessageDocument): ChatMessage {
  const message: ChatMessage = { seq: m.seq, id: String(m._id), from: m.from, text: m.text, at: m.createdAt.toISOString() };
  if (m.html) message.html = m.html;
  if (m.author?.name) message.author = { name: m.author.name, ...(m.author.avatarUrl ? { avatarUrl: m.author.avatarUrl } : {}) };
  if (m.files.length > 0) {
    message.files = m.files.map((f) => ({ id: f.id, name: f.name, size: f.size, mimetype: f.mimetype, url: fileUrl(publicUrl, f.id) }));
  }
  if (m.edited) message.edited = true;
  if (m.clientId) message.clientId = m.clientId;
  return message;
}

/** The frame a history entry becomes; null for entries a widget no longer shows (a deleted message). */
export function entryFrame(publicUrl: string, m: MessageDocument): ServerFrame | null {
  switch (m.kind) {
    case 'msg':
      return m.deleted ? null : { t: 'msg', message: chatMessage(publicUrl, m) };
    case 'edit':
      return { t: 'edit', seq: m.seq, id: String(m.targetId), text: m.text, ...(m.html ? { html: m.html } : {}) };
    case 'delete':
      return { t: 'delete', seq: m.seq, id: String(m.targetId) };
    case 'ended':
      return { t: 'ended', seq: m.seq, by: m.endedBy === 'operator' || m.endedBy === 'inactivity' ? m.endedBy : 'visitor' };
    case 'askEmail':
      return { t: 'askEmail', seq: m.seq };
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
    case 'question':
      return frame.seq;
    default:
      return 0;
  }
}
