import { type Connection, type HydratedDocument, type Model, Schema, type Types } from 'mongoose';

/**
 * A durable piece of outbound work (a Slack post, a webhook call, a mail). Jobs of one `key` (a conversation,
 * a channel) run one at a time in creation order; a job is removed only once the other side accepted it.
 */
export type OutboxKind =
  | 'slack.header'
  | 'slack.reply'
  | 'slack.updateHeader'
  | 'slack.note'
  | 'slack.invite'
  | 'slack.offline'
  | 'slack.ephemeral'
  | 'slack.threadPost'
  | 'webhook'
  | 'mail';

export interface OutboxJob {
  kind: OutboxKind;
  /** Ordering key: jobs with the same key run strictly in order. */
  key: string;
  /** Pacing key: at most about one Slack post per second per channel. */
  channel: string;
  payload: Record<string, unknown>;
  attempts: number;
  /** Not before this time (backoff, Retry-After). */
  runAt: Date;
  /** Held by a worker until this time; another worker may take it after (a crashed process). */
  lockedUntil: Date | null;
  lastError: string;
  /** Set once it gave up (a permanent Slack error); kept for inspection. */
  failedAt: Date | null;
  conversationId: Types.ObjectId | null;
  createdAt: Date;
  updatedAt: Date;
}
export type OutboxJobDocument = HydratedDocument<OutboxJob>;

export const OutboxJobSchema = new Schema<OutboxJob>(
  {
    kind: { type: String, required: true },
    key: { type: String, required: true },
    channel: { type: String, default: '' },
    payload: { type: Schema.Types.Mixed, default: () => ({}) },
    attempts: { type: Number, default: 0 },
    runAt: { type: Date, default: () => new Date() },
    lockedUntil: { type: Date, default: null },
    lastError: { type: String, default: '' },
    failedAt: { type: Date, default: null },
    conversationId: { type: Schema.Types.ObjectId, default: null },
  },
  { timestamps: true, minimize: false },
);
OutboxJobSchema.index({ failedAt: 1, runAt: 1 });
OutboxJobSchema.index({ key: 1, _id: 1 });

export type OutboxJobModel = Model<OutboxJob>;
export function outboxJobModel(connection: Connection): OutboxJobModel {
  return (connection.models.OutboxJob as OutboxJobModel | undefined) ?? connection.model<OutboxJob>('OutboxJob', OutboxJobSchema);
}

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
