import { type Connection, type HydratedDocument, type Model, Schema, type Types } from 'mongoose';

/** One signed-in session. The JWT carries its jti; deleting or revoking the row ends the session. */
export interface Session {
  jti: string;
  userId: Types.ObjectId;
  expiresAt: Date;
  revokedAt: Date | null;
  createdAt: Date;
}
export type SessionDocument = HydratedDocument<Session>;

export const SessionSchema = new Schema<Session>(
  {
    jti: { type: String, required: true, unique: true },
    userId: { type: Schema.Types.ObjectId, ref: 'User', required: true, index: true },
    // The database drops expired sessions on its own; the code checks expiry too.
    expiresAt: { type: Date, required: true, expires: 0 },
    revokedAt: { type: Date, default: null },
  },
  { timestamps: { createdAt: true, updatedAt: false } },
);

export type SessionModel = Model<Session>;
export function sessionModel(connection: Connection): SessionModel {
  return (connection.models.Session as SessionModel | undefined) ?? connection.model<Session>('Session', SessionSchema);
}
