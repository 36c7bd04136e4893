import { type Connection, type Model, Schema, type Types } from 'mongoose';

/**
 * A durable piece of outbound work (a Slack post, a webhook call, a mail). Jobs of one `key` (a conversation,
 * a channel) run one at a time in creation order; a job is removed only once the other side accepted it. Its kinds
 * and their payloads are the outbox's catalogue (server/outbox/catalogue.ts); stored, a job is any version's.
 */
export interface OutboxJob {
  /** A kind of the catalogue (server/outbox/catalogue.ts JobKind). */
  kind: string;
  /** Ordering key: jobs with the same key run strictly in order. */
  key: string;
  /** Pacing key: at most about one Slack post per second per channel. */
  channel: string;
  payload: Record<string, unknown>;
  attempts: number;
  /** Not before this time (backoff, Retry-After). */
  runAt: Date;
  /**
   * Lease: held by one worker until this time, renewed while it runs; another worker may take the job (and
   * the key behind it) once it passed (a crashed process). Only a key's head is leased.
   */
  lockedUntil: Date | null;
  /** Which claim holds the lease (a random id per claim), so a worker learns which heads it won. */
  lockedBy: string;
  lastError: string;
  /** Set once it gave up (a permanent Slack error); kept for inspection. */
  failedAt: Date | null;
  conversationId: Types.ObjectId | null;
  createdAt: Date;
  updatedAt: Date;
}
/** A job as the worker reads it (plain, not hydrated). */
export type OutboxJobDocument = OutboxJob & { _id: Types.ObjectId };

export const OutboxJobSchema = new Schema<OutboxJob>(
  {
    kind: { type: String, required: true },
    key: { type: String, required: true },
    channel: { type: String, default: '' },
    payload: { type: Schema.Types.Mixed, default: () => ({}) },
    attempts: { type: Number, default: 0 },
    runAt: { type: Date, default: () => new Date() },
    lockedUntil: { type: Date, default: null },
    lockedBy: { type: String, default: '' },
    lastError: { type: String, default: '' },
    failedAt: { type: Date, default: null },
    conversationId: { type: Schema.Types.ObjectId, default: null },
  },
  { timestamps: true, minimize: false },
);
// The worker's reads: the next jobs of given keys; jobs that became due or whose lease expired since the last poll.
OutboxJobSchema.index({ key: 1, _id: 1 });
OutboxJobSchema.index({ failedAt: 1, runAt: 1 });
OutboxJobSchema.index({ failedAt: 1, lockedUntil: 1 });

export type OutboxJobModel = Model<OutboxJob>;
export function outboxJobModel(connection: Connection): OutboxJobModel {
  return (connection.models.OutboxJob as OutboxJobModel | undefined) ?? connection.model<OutboxJob>('OutboxJob', OutboxJobSchema);
}
