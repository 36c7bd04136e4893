import { type Connection, type Model, Schema } from 'mongoose';

/**
 * An edit or a deletion of a Slack message that reached Parley before the message itself (Slack delivers events
 * concurrently and retries a failed one 1 s, 1 min and 5 min later): kept until the message comes, which is then
 * relayed as it stands (edited) or not at all (deleted). Expire after a day, well after Slack's last retry.
 */
export interface SlackEarlyChange {
  teamId: string;
  channel: string;
  /** The ts of the message the change applies to. */
  ts: string;
  /** The ts of the latest change kept (an older change arriving later does not replace it). */
  changeTs: string;
  /** The message's text after the latest edit ('' for a deletion). */
  text: string;
  deleted: boolean;
  at: Date;
}
const SlackEarlyChangeSchema = new Schema<SlackEarlyChange>({
  teamId: { type: String, required: true },
  channel: { type: String, required: true },
  ts: { type: String, required: true },
  changeTs: { type: String, default: '' },
  text: { type: String, default: '' },
  deleted: { type: Boolean, default: false },
  at: { type: Date, default: () => new Date(), expires: 24 * 3600 },
});
SlackEarlyChangeSchema.index({ teamId: 1, channel: 1, ts: 1 }, { unique: true });
export type SlackEarlyChangeModel = Model<SlackEarlyChange>;
export function slackEarlyChangeModel(connection: Connection): SlackEarlyChangeModel {
  return (
    (connection.models.SlackEarlyChange as SlackEarlyChangeModel | undefined) ??
    connection.model<SlackEarlyChange>('SlackEarlyChange', SlackEarlyChangeSchema)
  );
}
