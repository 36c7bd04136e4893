import { type Connection, type HydratedDocument, type Model, Schema, type Types } from 'mongoose';

/**
 * What the team did with a conversation in its shared inbox, one document an event, for Reports → Team:
 * - `assigned` / `unassigned`: `operatorId` got (or lost) the conversation; `byId` who did it ('' for Parley's own
 *   automatic assignment on a first reply);
 * - `response`: `operatorId` answered the visitor: `responseKind` first (the conversation's first answer) or next
 *   (an answer after the visitor wrote again), `waitSecs` the business time the visitor waited (operating hours
 *   only), `withinTarget` whether that was within the widget's target (null when the widget has no target);
 * - `ended`: the conversation ended while `operatorId` had it ('' when nobody did);
 * - `snoozed` / `reopened`: the state changes an operator or the snooze's end made (`byId`);
 * - `tagged` / `untagged`: `tag` added or removed (`byId`).
 * `operatorId` and `byId` are Slack user ids of `teamId`'s workspace. Every event is written through
 * conversations/inboxEvents.ts, which adds it to the day tallies of the report (InboxTally); `talliedBy` says who did
 * ('record', or the start that tallied the events stored before the tallies).
 */
export const INBOX_EVENT_KINDS = ['assigned', 'unassigned', 'response', 'ended', 'snoozed', 'reopened', 'tagged', 'untagged'] as const;
export type InboxEventKind = (typeof INBOX_EVENT_KINDS)[number];

export interface InboxEvent {
  accountId: Types.ObjectId;
  ceId: Types.ObjectId;
  conversationId: Types.ObjectId;
  kind: InboxEventKind;
  at: Date;
  teamId: string;
  operatorId: string;
  byId?: string;
  responseKind?: 'first' | 'next';
  waitSecs?: number;
  withinTarget?: boolean | null;
  tag?: string;
  talliedBy?: string;
}
export type InboxEventDocument = HydratedDocument<InboxEvent>;

export const InboxEventSchema = new Schema<InboxEvent>({
  accountId: { type: Schema.Types.ObjectId, ref: 'Account', required: true },
  ceId: { type: Schema.Types.ObjectId, ref: 'ChatEndpoint', required: true },
  conversationId: { type: Schema.Types.ObjectId, ref: 'Conversation', required: true },
  kind: { type: String, enum: INBOX_EVENT_KINDS, required: true },
  at: { type: Date, required: true, default: () => new Date() },
  teamId: { type: String, default: '' },
  operatorId: { type: String, default: '' },
  byId: { type: String },
  responseKind: { type: String, enum: ['first', 'next'] },
  waitSecs: { type: Number },
  withinTarget: { type: Boolean, default: undefined },
  tag: { type: String },
  talliedBy: { type: String },
});
// Reports → Team: a widget's events in a time range, by kind.
InboxEventSchema.index({ ceId: 1, at: 1 });
InboxEventSchema.index({ conversationId: 1, at: 1 });

export type InboxEventModel = Model<InboxEvent>;
export function inboxEventModel(connection: Connection): InboxEventModel {
  return (connection.models.InboxEvent as InboxEventModel | undefined) ?? connection.model<InboxEvent>('InboxEvent', InboxEventSchema);
}
