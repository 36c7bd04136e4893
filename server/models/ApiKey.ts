import { type Connection, type HydratedDocument, type Model, Schema, type Types } from 'mongoose';

/** `api` authenticates the read API under /v1/api; `zapier` the REST hooks. */
export const API_KEY_KINDS = ['api', 'zapier'] as const;
export type ApiKeyKind = (typeof API_KEY_KINDS)[number];

/**
 * An account's live API key of one kind (at most one per kind). Only the SHA-256 of the key is kept, with its
 * first characters so an admin can tell keys apart; regenerating deletes the row, which revokes the key at once.
 */
export interface ApiKey {
  accountId: Types.ObjectId;
  kind: ApiKeyKind;
  keyHash: string;
  /** The first characters of the key, shown in the console once the full key is gone. */
  prefix: string;
  createdBy: Types.ObjectId;
  lastUsedAt: Date | null;
  createdAt: Date;
}
export type ApiKeyDocument = HydratedDocument<ApiKey>;

export const ApiKeySchema = new Schema<ApiKey>(
  {
    accountId: { type: Schema.Types.ObjectId, ref: 'Account', required: true },
    kind: { type: String, enum: API_KEY_KINDS, required: true },
    keyHash: { type: String, required: true, unique: true },
    prefix: { type: String, required: true },
    createdBy: { type: Schema.Types.ObjectId, ref: 'User', required: true },
    lastUsedAt: { type: Date, default: null },
  },
  { timestamps: { createdAt: true, updatedAt: false } },
);
ApiKeySchema.index({ accountId: 1, kind: 1 }, { unique: true });

export type ApiKeyModel = Model<ApiKey>;
export function apiKeyModel(connection: Connection): ApiKeyModel {
  return (connection.models.ApiKey as ApiKeyModel | undefined) ?? connection.model<ApiKey>('ApiKey', ApiKeySchema);
}
