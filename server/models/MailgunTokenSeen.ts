import { type Connection, type Model, Schema } from 'mongoose';

/**
 * Tokens of Mailgun webhook signatures already taken, so one signed (timestamp, token, signature) triple is never
 * accepted twice, whichever process receives it. A signature older than 5 minutes is refused anyway, so a token is
 * remembered for 15 minutes (the window either side of now, and a margin), then dropped by the TTL index.
 */
export interface MailgunTokenSeen {
  token: string;
  at: Date;
}
const MailgunTokenSeenSchema = new Schema<MailgunTokenSeen>({
  token: { type: String, required: true, unique: true },
  at: { type: Date, default: () => new Date(), expires: 15 * 60 },
});
export type MailgunTokenSeenModel = Model<MailgunTokenSeen>;
export function mailgunTokenSeenModel(connection: Connection): MailgunTokenSeenModel {
  return (
    (connection.models.MailgunTokenSeen as MailgunTokenSeenModel | undefined) ??
    connection.model<MailgunTokenSeen>('MailgunTokenSeen', MailgunTokenSeenSchema)
  );
}
