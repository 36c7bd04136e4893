import { type Connection, type HydratedDocument, type Model, Schema, type Types } from 'mongoose';

/**
 * A Slack bot or person added by itself to every new conversation of one widget (the console's "Configure
 * Bots and Users"): invited to the widget's channel and mentioned in each new thread. `botID` is empty for people.
 */
export interface BotUser {
  accountId: Types.ObjectId;
  ceId: Types.ObjectId;
  userID: string;
  name: string;
  botID: string;
  createdAt: Date;
  updatedAt: Date;
}
export type BotUserDocument = HydratedDocument<BotUser>;

export const BotUserSchema = new Schema<BotUser>(
  {
    accountId: { type: Schema.Types.ObjectId, ref: 'Account', required: true },
    ceId: { type: Schema.Types.ObjectId, ref: 'ChatEndpoint', required: true },
    userID: { type: String, required: true },
    name: { type: String, default: '' },
    botID: { type: String, default: '' },
  },
  { timestamps: true },
);
BotUserSchema.index({ ceId: 1, userID: 1 }, { unique: true });

export type BotUserModel = Model<BotUser>;
export function botUserModel(connection: Connection): BotUserModel {
  return (connection.models.BotUser as BotUserModel | undefined) ?? connection.model<BotUser>('BotUser', BotUserSchema);
}
