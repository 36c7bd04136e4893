import { type Connection, type Model, Schema } from 'mongoose';

/** Slack event ids already handled, so Slack's retries of an event are dropped. Expire after a day. */
export interface SlackEventSeen {
  eventId: string;
  at: Date;
}
const SlackEventSeenSchema = new Schema<SlackEventSeen>({
  eventId: { type: String, required: true, unique: true },
  at: { type: Date, default: () => new Date(), expires: 24 * 3600 },
});
export type SlackEventSeenModel = Model<SlackEventSeen>;
export function slackEventSeenModel(connection: Connection): SlackEventSeenModel {
  return (
    (connection.models.SlackEventSeen as SlackEventSeenModel | undefined) ??
    connection.model<SlackEventSeen>('SlackEventSeen', SlackEventSeenSchema)
  );
}
