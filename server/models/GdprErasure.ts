import { type Connection, type HydratedDocument, type Model, Schema, type Types } from 'mongoose';

/**
 * The record of one visitor erasure: who asked, when, how the visitor was named (e-mail or visitor id, the
 * e-mail itself is not kept) and what was removed.
 */
export interface GdprErasure {
  accountId: Types.ObjectId;
  requestedBy: Types.ObjectId;
  requestedByEmail: string;
  by: 'email' | 'visitorId';
  visitorIds: Types.ObjectId[];
  conversations: number;
  messages: number;
  files: number;
  offlineMessages: number;
  createdAt: Date;
}
export type GdprErasureDocument = HydratedDocument<GdprErasure>;

export const GdprErasureSchema = new Schema<GdprErasure>(
  {
    accountId: { type: Schema.Types.ObjectId, ref: 'Account', required: true, index: true },
    requestedBy: { type: Schema.Types.ObjectId, ref: 'User', required: true },
    requestedByEmail: { type: String, required: true },
    by: { type: String, enum: ['email', 'visitorId'], required: true },
    visitorIds: { type: [Schema.Types.ObjectId], default: [] },
    conversations: { type: Number, default: 0 },
    messages: { type: Number, default: 0 },
    files: { type: Number, default: 0 },
    offlineMessages: { type: Number, default: 0 },
  },
  { timestamps: { createdAt: true, updatedAt: false } },
);

export type GdprErasureModel = Model<GdprErasure>;
export function gdprErasureModel(connection: Connection): GdprErasureModel {
  return (connection.models.GdprErasure as GdprErasureModel | undefined) ?? connection.model<GdprErasure>('GdprErasure', GdprErasureSchema);
}
