import { type Connection, type HydratedDocument, type Model, Schema, type Types } from 'mongoose';

/**
 * An invitation to join an account: the link mailed to the invitee. Only the SHA-256 of its token is kept;
 * it works once, until expiresAt (7 days).
 */
export interface Invitation {
  tokenHash: string;
  userId: Types.ObjectId;
  accountId: Types.ObjectId;
  invitedBy: Types.ObjectId;
  expiresAt: Date;
  usedAt: Date | null;
  createdAt: Date;
}
export type InvitationDocument = HydratedDocument<Invitation>;

export const InvitationSchema = new Schema<Invitation>(
  {
    tokenHash: { type: String, required: true, unique: true },
    userId: { type: Schema.Types.ObjectId, ref: 'User', required: true, index: true },
    accountId: { type: Schema.Types.ObjectId, ref: 'Account', required: true },
    invitedBy: { type: Schema.Types.ObjectId, ref: 'User', required: true },
    expiresAt: { type: Date, required: true, expires: 0 },
    usedAt: { type: Date, default: null },
  },
  { timestamps: { createdAt: true, updatedAt: false } },
);

export type InvitationModel = Model<Invitation>;
export function invitationModel(connection: Connection): InvitationModel {
  return (connection.models.Invitation as InvitationModel | undefined) ?? connection.model<Invitation>('Invitation', InvitationSchema);
}
