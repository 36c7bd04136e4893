import { type Connection, type HydratedDocument, type Model, Schema, type Types } from 'mongoose';

/** A password reset link. Only the SHA-256 of the token is kept, so a database leak gives no working link. */
export interface PasswordResetToken {
  tokenHash: string;
  userId: Types.ObjectId;
  expiresAt: Date;
  usedAt: Date | null;
  createdAt: Date;
}
export type PasswordResetTokenDocument = HydratedDocument<PasswordResetToken>;

export const PasswordResetTokenSchema = new Schema<PasswordResetToken>(
  {
    tokenHash: { type: String, required: true, unique: true },
    userId: { type: Schema.Types.ObjectId, ref: 'User', required: true, index: true },
    expiresAt: { type: Date, required: true, expires: 0 },
    usedAt: { type: Date, default: null },
  },
  { timestamps: { createdAt: true, updatedAt: false } },
);

export type PasswordResetTokenModel = Model<PasswordResetToken>;
export function passwordResetTokenModel(connection: Connection): PasswordResetTokenModel {
  return (
    (connection.models.PasswordResetToken as PasswordResetTokenModel | undefined) ??
    connection.model<PasswordResetToken>('PasswordResetToken', PasswordResetTokenSchema)
  );
}
