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
