import { type Connection, type HydratedDocument, type Model, Schema, type Types } from 'mongoose';

/** A message left through the offline form (the overview report counts them per widget). */
export interface OfflineMessage {
  accountId: Types.ObjectId;
  ceId: Types.ObjectId;
  visitorId: Types.ObjectId | null;
  name: string;
  email: string;
  message: string;
  pageUrl: string;
  country: string;
  createdAt: Date;
  updatedAt: Date;
}
export type OfflineMessageDocument = HydratedDocument<OfflineMessage>;

export const OfflineMessageSchema = new Schema<OfflineMessage>(
  {
    accountId: { type: Schema.Types.ObjectId, required: true },
    ceId: { type: Schema.Types.ObjectId, required: true, index: true },
    visitorId: { type: Schema.Types.ObjectId, default: null },
    name: { type: String, default: '' },
    email: { type: String, required: true },
    message: { type: String, required: true },
    pageUrl: { type: String, default: '' },
    country: { type: String, default: '' },
  },
  { timestamps: true },
);
// The overview report counts a widget's offline messages in a time range.
OfflineMessageSchema.index({ ceId: 1, createdAt: 1 });

export type OfflineMessageModel = Model<OfflineMessage>;
export function offlineMessageModel(connection: Connection): OfflineMessageModel {
  return (
    (connection.models.OfflineMessage as OfflineMessageModel | undefined) ??
    connection.model<OfflineMessage>('OfflineMessage', OfflineMessageSchema)
  );
}
