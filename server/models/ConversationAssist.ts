import { type Connection, type HydratedDocument, type Model, Schema, type Types } from 'mongoose';

/**
 * What Parley itself does in a conversation besides relaying: response reminders sent, saved replies sent
 * automatically (each at most once), and the question group the visitor is walking through. One per
 * conversation, created when first needed.
 */
export interface ConversationAssist {
  conversationId: Types.ObjectId;
  /** When the last response reminder was posted; null before the first. */
  remindedAt: Date | null;
  reminders: number;
  autoSentReplyIds: Types.ObjectId[];
  /** The question waiting for the visitor's answer, if any. */
  question: { groupUid: string; nodeId: string } | null;
  /** Widget Uuid the visitor chose to chat in through a question group answer. */
  roomChoice: string;
  createdAt: Date;
  updatedAt: Date;
}
export type ConversationAssistDocument = HydratedDocument<ConversationAssist>;

export const ConversationAssistSchema = new Schema<ConversationAssist>(
  {
    conversationId: { type: Schema.Types.ObjectId, ref: 'Conversation', required: true, unique: true },
    remindedAt: { type: Date, default: null },
    reminders: { type: Number, default: 0 },
    autoSentReplyIds: { type: [Schema.Types.ObjectId], default: [] },
    question: { type: new Schema({ groupUid: String, nodeId: String }, { _id: false }), default: null },
    roomChoice: { type: String, default: '' },
  },
  { timestamps: true },
);

export type ConversationAssistModel = Model<ConversationAssist>;
export function conversationAssistModel(connection: Connection): ConversationAssistModel {
  return (
    (connection.models.ConversationAssist as ConversationAssistModel | undefined) ??
    connection.model<ConversationAssist>('ConversationAssist', ConversationAssistSchema)
  );
}

/**
 * A post Parley makes in a conversation's thread in its own name or an operator's (saved replies, reminders,
 * question group answers). Kept until Slack accepted it, posted in creation order per conversation once the
 * thread exists, so a restart or a Slack outage delays it but does not lose it.
 */
export interface ThreadPost {
  conversationId: Types.ObjectId;
  text: string;
  /** Block Kit of the post (JSON-safe). */
  blocks: Record<string, unknown>[];
  username: string;
  iconUrl: string;
  /** The operator message of the conversation this post mirrors; its slackTs is set once posted. */
  messageId: Types.ObjectId | null;
  runAt: Date;
  lockedUntil: Date | null;
  attempts: number;
  lastError: string;
  failedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}
export type ThreadPostDocument = HydratedDocument<ThreadPost>;

export const ThreadPostSchema = new Schema<ThreadPost>(
  {
    conversationId: { type: Schema.Types.ObjectId, required: true },
    text: { type: String, default: '' },
    blocks: { type: Schema.Types.Mixed, default: () => [] },
    username: { type: String, default: '' },
    iconUrl: { type: String, default: '' },
    messageId: { type: Schema.Types.ObjectId, default: null },
    runAt: { type: Date, default: () => new Date() },
    lockedUntil: { type: Date, default: null },
    attempts: { type: Number, default: 0 },
    lastError: { type: String, default: '' },
    failedAt: { type: Date, default: null },
  },
  { timestamps: true, minimize: false },
);
ThreadPostSchema.index({ failedAt: 1, runAt: 1 });
ThreadPostSchema.index({ conversationId: 1, _id: 1 });

export type ThreadPostModel = Model<ThreadPost>;
export function threadPostModel(connection: Connection): ThreadPostModel {
  return (connection.models.ThreadPost as ThreadPostModel | undefined) ?? connection.model<ThreadPost>('ThreadPost', ThreadPostSchema);
}
