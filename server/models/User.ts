import { type Connection, type HydratedDocument, type Model, Schema, type Types } from 'mongoose';

export interface User {
  /** Lowercased and trimmed. */
  email: string;
  /** argon2id hash; null for invited users who have not set a password yet. */
  passwordHash: string | null;
  admin: boolean;
  accountId: Types.ObjectId;
  /** Accepted terms version ('' when never accepted). */
  ActiveTOSPP: string;
  termsAcceptedAt: Date | null;
  /** Accepted privacy policy version. */
  privacyPolicyVersion: string;
  privacyPolicyAcceptedAt: Date | null;
  /** Latest satisfaction rating: 0..10, or -1 when dismissed. */
  npsRating: number | null;
  npsRatedAt: Date | null;
  /** null: invited and never signed in. */
  lastSignedInAt: Date | null;
  /** Tracking id given at sign-up. */
  tklID: string;
  createdAt: Date;
  updatedAt: Date;
}
export type UserDocument = HydratedDocument<User>;

export const UserSchema = new Schema<User>(
  {
    email: { type: String, required: true, lowercase: true, trim: true, unique: true },
    passwordHash: { type: String, default: null },
    admin: { type: Boolean, default: false },
    accountId: { type: Schema.Types.ObjectId, ref: 'Account', required: true, index: true },
    ActiveTOSPP: { type: String, default: '' },
    termsAcceptedAt: { type: Date, default: null },
    privacyPolicyVersion: { type: String, default: '' },
    privacyPolicyAcceptedAt: { type: Date, default: null },
    npsRating: { type: Number, default: null },
    npsRatedAt: { type: Date, default: null },
    lastSignedInAt: { type: Date, default: null },
    tklID: { type: String, default: '' },
  },
  { timestamps: true },
);

export type UserModel = Model<User>;
export function userModel(connection: Connection): UserModel {
  return (connection.models.User as UserModel | undefined) ?? connection.model<User>('User', UserSchema);
}
