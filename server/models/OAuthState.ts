import { type Connection, type HydratedDocument, type Model, Schema } from 'mongoose';

/**
 * The single-use half of a Slack OAuth state: the signed state carries this nonce, and the callback
 * consumes the row, so a state works once and only before it expires.
 */
export interface OAuthState {
  nonce: string;
  expiresAt: Date;
  usedAt: Date | null;
  createdAt: Date;
}
export type OAuthStateDocument = HydratedDocument<OAuthState>;

export const OAuthStateSchema = new Schema<OAuthState>(
  {
    nonce: { type: String, required: true, unique: true },
    // The database drops old rows on its own; the code checks expiry too.
    expiresAt: { type: Date, required: true, expires: 0 },
    usedAt: { type: Date, default: null },
  },
  { timestamps: { createdAt: true, updatedAt: false } },
);

export type OAuthStateModel = Model<OAuthState>;
export function oauthStateModel(connection: Connection): OAuthStateModel {
  return (connection.models.OAuthState as OAuthStateModel | undefined) ?? connection.model<OAuthState>('OAuthState', OAuthStateSchema);
}
