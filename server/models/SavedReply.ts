import { type Connection, type HydratedDocument, type Model, Schema, type Types } from 'mongoose';

/**
 * A canned answer of one widget. `response` is stored HTML-entity encoded (decoded for display and when
 * sent); `shortcut` is what operators type after `reply`; with `autoSend`, a visitor message matching one of
 * the comma-separated `triggerPhrases` sends it by itself (once per conversation).
 */
export interface SavedReply {
  accountId: Types.ObjectId;
  ceId: Types.ObjectId;
  label: string;
  triggerPhrases: string;
  response: string;
  shortcut: string;
  autoSend: boolean;
  createdAt: Date;
  updatedAt: Date;
}
export type SavedReplyDocument = HydratedDocument<SavedReply>;

export const SavedReplySchema = new Schema<SavedReply>(
  {
    accountId: { type: Schema.Types.ObjectId, ref: 'Account', required: true },
    ceId: { type: Schema.Types.ObjectId, ref: 'ChatEndpoint', required: true },
    label: { type: String, required: true },
    triggerPhrases: { type: String, default: '' },
    response: { type: String, required: true },
    shortcut: { type: String, default: '' },
    autoSend: { type: Boolean, default: false },
  },
  { timestamps: true },
);
SavedReplySchema.index({ ceId: 1, shortcut: 1 }, { unique: true, partialFilterExpression: { shortcut: { $gt: '' } } });
SavedReplySchema.index({ ceId: 1, autoSend: 1 });

export type SavedReplyModel = Model<SavedReply>;
export function savedReplyModel(connection: Connection): SavedReplyModel {
  return (connection.models.SavedReply as SavedReplyModel | undefined) ?? connection.model<SavedReply>('SavedReply', SavedReplySchema);
}
