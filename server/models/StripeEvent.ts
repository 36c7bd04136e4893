import { type Connection, type Model, Schema } from 'mongoose';

/**
 * A Stripe webhook event Parley has taken: its id is unique, so a second delivery of the same event (Stripe
 * retries, duplicates) finds it and changes nothing. Rows go after 30 days; Stripe retries for 3 at most.
 * Billing's once-only steps are claimed here too, under keys that are not event ids (`mail:receipt:in_…`,
 * `checkout-plan:cs_…`), so a billing mail or a checkout's plan is sent or applied once whichever event brings it.
 */
export interface StripeEvent {
  eventId: string;
  type: string;
  createdAt: Date;
}

export const StripeEventSchema = new Schema<StripeEvent>(
  {
    eventId: { type: String, required: true, unique: true },
    type: { type: String, required: true },
    createdAt: { type: Date, default: () => new Date(), expires: 30 * 24 * 60 * 60 },
  },
  { versionKey: false },
);

export type StripeEventModel = Model<StripeEvent>;
export function stripeEventModel(connection: Connection): StripeEventModel {
  return (connection.models.StripeEvent as StripeEventModel | undefined) ?? connection.model<StripeEvent>('StripeEvent', StripeEventSchema);
}
