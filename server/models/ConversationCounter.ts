import { type Connection, type Model, Schema, type Types } from 'mongoose';

/** Per-widget counter of conversation numbers. */
export interface ConversationCounter {
  ceId: Types.ObjectId;
  next: number;
}
const ConversationCounterSchema = new Schema<ConversationCounter>({
  ceId: { type: Schema.Types.ObjectId, required: true, unique: true },
  next: { type: Number, default: 0 },
});
export type ConversationCounterModel = Model<ConversationCounter>;
export function conversationCounterModel(connection: Connection): ConversationCounterModel {
  return (
    (connection.models.ConversationCounter as ConversationCounterModel | undefined) ??
    connection.model<ConversationCounter>('ConversationCounter', ConversationCounterSchema)
  );
}
