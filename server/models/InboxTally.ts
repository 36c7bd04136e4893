import { type Connection, type HydratedDocument, type Model, Schema, type Types } from 'mongoose';

/** The InboxEvent kinds Reports → Team counts conversations of, and the figure each one is. */
export const TALLIED_KINDS = { assigned: 'assigned', response: 'answered', ended: 'ended' } as const;
export type TalliedKind = keyof typeof TALLIED_KINDS;
export type TallyFigure = (typeof TALLIED_KINDS)[TalliedKind];
export const TALLY_FIGURES = ['assigned', 'answered', 'ended'] as const satisfies readonly TallyFigure[];

/**
 * What the shared inbox's events (InboxEvent) add up to in one UTC day of one widget, for one operator (`operatorId`)
 * or for the whole team (`team`, operatorId ''), kept as the events are written (conversations/inboxEvents.ts), so
 * Reports → Team reads a row a day and operator instead of every event:
 * - `convs.<figure>`: the conversations that had such an event that day (each once), `n.<figure>` how many;
 *   `since.<figure>`: for each of them that had one on an earlier day, when the latest of those was, so a range
 *   spanning several days counts a conversation once (the report takes away those whose earlier one is in the range);
 * - the answers: `firstResponses` / `nextResponses`, their business-time waits as counts per wait (`firstWaits`,
 *   `nextWaits`: key `w` + the seconds, `_` for a decimal point), and how many had a target (`targeted`) and met it
 *   (`withinTarget`).
 * The report never reads `convs`. `since` is worked out when a conversation enters a day, from its events stored by
 * then: the shared inbox records events as they happen, in their order; one recorded late with an earlier time than a
 * later day's event of the same conversation and figure would leave that day's `since` behind it.
 *
 * A month row (`month` true, `day` the first of a UTC month, `convs` empty) is the sum of a closed month's day rows for
 * the team or one operator, built from them when a report first needs it (monthTallies in inboxTallies.ts): `n` counts
 * each conversation once in the month and `since` keeps the earlier events before the month's first day, so a report
 * reads it as it reads a day. An event recorded in a closed month drops that month's rows, which are built again.
 */
export interface InboxTally {
  _id: string;
  ceId: Types.ObjectId;
  day: Date;
  /** A closed UTC month's sum of day rows (absent on day rows). */
  month?: boolean;
  team: boolean;
  operatorId: string;
  convs: Partial<Record<TallyFigure, Types.ObjectId[]>>;
  n: Partial<Record<TallyFigure, number>>;
  since: Partial<Record<TallyFigure, Date[]>>;
  firstResponses: number;
  nextResponses: number;
  firstWaits: Record<string, number>;
  nextWaits: Record<string, number>;
  targeted: number;
  withinTarget: number;
}
export type InboxTallyDocument = HydratedDocument<InboxTally>;

export const InboxTallySchema = new Schema<InboxTally>(
  {
    _id: { type: String, required: true },
    ceId: { type: Schema.Types.ObjectId, ref: 'ChatEndpoint', required: true },
    day: { type: Date, required: true },
    month: { type: Boolean },
    team: { type: Boolean, required: true },
    operatorId: { type: String, default: '' },
    convs: { type: Schema.Types.Mixed, default: {} },
    n: { type: Schema.Types.Mixed, default: {} },
    since: { type: Schema.Types.Mixed, default: {} },
    firstResponses: { type: Number, default: 0 },
    nextResponses: { type: Number, default: 0 },
    firstWaits: { type: Schema.Types.Mixed, default: {} },
    nextWaits: { type: Schema.Types.Mixed, default: {} },
    targeted: { type: Number, default: 0 },
    withinTarget: { type: Number, default: 0 },
  },
  { minimize: false },
);
// Reports → Team: a widget's days in a range.
InboxTallySchema.index({ ceId: 1, day: 1 });
// Reports → Team: a widget's month rows in a range (day rows have no `month`).
InboxTallySchema.index({ ceId: 1, month: 1, day: 1 });

export type InboxTallyModel = Model<InboxTally>;
export function inboxTallyModel(connection: Connection): InboxTallyModel {
  return (connection.models.InboxTally as InboxTallyModel | undefined) ?? connection.model<InboxTally>('InboxTally', InboxTallySchema);
}
