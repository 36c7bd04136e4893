import { type Connection, type HydratedDocument, type Model, Schema, type Types } from 'mongoose';

/**
 * One entry of a conversation's history, in sequence order. `kind` says what happened: a chat message, an
 * edit or deletion of an earlier message (`targetId`), the end of the conversation, or the operator asking
 * for the visitor's e-mail or for a screenshot of their page (`answer` once the visitor answered it). Each has its own `seq`, so a widget that resumes after `lastSeq` sees edits and
 * deletions that happened while it was away.
 */
export type MessageKind = 'msg' | 'edit' | 'delete' | 'ended' | 'askEmail' | 'screenshot';

export interface MessageFile {
  id: string;
  name: string;
  size: number;
  mimetype: string;
}

/** An article sent as a card (by an operator from Slack, or in an automatic answer): what the widget draws. */
export interface MessageArticle {
  id: string;
  title: string;
  /** Plain text, a line or two of the article. */
  snippet: string;
  url: string;
}

export interface Message {
  conversationId: Types.ObjectId;
  seq: number;
  kind: MessageKind;
  from: 'visitor' | 'operator' | 'system';
  text: string;
  html: string;
  author: { name: string; avatarUrl: string } | null;
  /** The message the edit or delete applies to. */
  targetId: Types.ObjectId | null;
  /** Set on a visitor message by the widget; a resend with the same id is the same message. */
  clientId?: string;
  /** Slack ts of the reply this is (operator) or became (visitor, once posted). */
  slackTs: string;
  slackUserId: string;
  /** An operator message from Slack: the ts of the latest edit applied (an older edit arriving later is ignored). */
  slackChangeTs?: string;
  files: MessageFile[];
  /** Help-center articles this message carries as cards (empty for most). */
  articles?: MessageArticle[];
  /** Sent by Parley from the help center while nobody answered (an automatic answer), not by an operator. */
  automatic?: boolean;
  edited: boolean;
  deleted: boolean;
  /** For `ended`: who ended it. */
  endedBy: string;
  /**
   * For `screenshot`: how the visitor answered ('sent', 'declined', 'unsupported'); for `askEmail`: 'given' (the
   * address in `text`); for an automatic answer, "Did this answer your question?" ('yes', 'no'). Empty while it waits.
   */
  answer?: string;
  createdAt: Date;
  updatedAt: Date;
}
export type MessageDocument = HydratedDocument<Message>;

const ArticleCardSchema = new Schema<MessageArticle>({ id: String, title: String, snippet: String, url: String }, { _id: false });
const FileSchema = new Schema<MessageFile>({ id: String, name: String, size: Number, mimetype: String }, { _id: false });

export const MessageSchema = new Schema<Message>(
  {
    conversationId: { type: Schema.Types.ObjectId, ref: 'Conversation', required: true },
    seq: { type: Number, required: true },
    kind: { type: String, enum: ['msg', 'edit', 'delete', 'ended', 'askEmail', 'screenshot'], default: 'msg' },
    from: { type: String, enum: ['visitor', 'operator', 'system'], required: true },
    text: { type: String, default: '' },
    html: { type: String, default: '' },
    author: { type: new Schema({ name: String, avatarUrl: String }, { _id: false }), default: null },
    targetId: { type: Schema.Types.ObjectId, default: null },
    clientId: { type: String },
    slackTs: { type: String, default: '' },
    slackUserId: { type: String, default: '' },
    slackChangeTs: { type: String },
    files: { type: [FileSchema], default: [] },
    articles: { type: [ArticleCardSchema], default: undefined },
    automatic: { type: Boolean },
    edited: { type: Boolean, default: false },
    deleted: { type: Boolean, default: false },
    endedBy: { type: String, default: '' },
    answer: { type: String },
  },
  { timestamps: true },
);
MessageSchema.index({ conversationId: 1, seq: 1 }, { unique: true });
MessageSchema.index({ conversationId: 1, clientId: 1 }, { unique: true, partialFilterExpression: { clientId: { $type: 'string' } } });
MessageSchema.index({ slackTs: 1 });

export type MessageModel = Model<Message>;
export function messageModel(connection: Connection): MessageModel {
  return (connection.models.Message as MessageModel | undefined) ?? connection.model<Message>('Message', MessageSchema);
}
