import { type Connection, type HydratedDocument, type Model, Schema, type Types } from 'mongoose';
import { PRESENCE_CAUSES, type PresenceCause } from '../shared/reports';

/**
 * One online/offline transition of a widget, with what caused it (the availability report reads these).
 * Written by the report recorder only when the state differs from the last one recorded for the widget.
 */
export interface PresenceChange {
  accountId: Types.ObjectId;
  ceId: Types.ObjectId;
  at: Date;
  online: boolean;
  cause: PresenceCause;
  /**
   * The widget's transition number (1, 2, …; absent on transitions recorded before it existed). Unique per
   * widget: when several processes see the same transition, the first one to store its number records it.
   */
  n?: number;
}
export type PresenceChangeDocument = HydratedDocument<PresenceChange>;

export const PresenceChangeSchema = new Schema<PresenceChange>({
  accountId: { type: Schema.Types.ObjectId, ref: 'Account', required: true },
  ceId: { type: Schema.Types.ObjectId, ref: 'ChatEndpoint', required: true },
  at: { type: Date, required: true },
  online: { type: Boolean, required: true },
  cause: { type: String, enum: PRESENCE_CAUSES, required: true },
  n: { type: Number },
});
// Equality on the widget, then a range (or a latest-before sort) on the time.
PresenceChangeSchema.index({ ceId: 1, at: 1 });
PresenceChangeSchema.index({ ceId: 1, n: 1 }, { unique: true, partialFilterExpression: { n: { $type: 'number' } } });

export type PresenceChangeModel = Model<PresenceChange>;
export function presenceChangeModel(connection: Connection): PresenceChangeModel {
  return (
    (connection.models.PresenceChange as PresenceChangeModel | undefined) ??
    connection.model<PresenceChange>('PresenceChange', PresenceChangeSchema)
  );
}
