import { type Connection, type HydratedDocument, type Model, Schema } from 'mongoose';
import { PLAN_CATALOG } from '../shared/plans';
import type { PlanView } from '../shared/types';
import { dropOnEveryWrite, shortReads } from '../shortReads';

/** A plan as the API shows it (shared/types.ts), and its place among the tiles. */
export type Plan = PlanView & {
  /** Order of the tiles within one duration. */
  rank: number;
};
export type PlanDocument = HydratedDocument<Plan>;

export const PlanSchema = new Schema<Plan>({
  label: { type: String, required: true },
  price: { type: Number, default: null },
  duration: { type: String, enum: ['monthly', 'yearly'], required: true },
  stripeId: { type: String, required: true, unique: true },
  maxOperators: { type: Number, required: true },
  maxChannels: { type: Number, required: true },
  convosPerMonth: { type: Number, required: true },
  rank: { type: Number, required: true },
  reports: { type: Boolean, default: false },
  triggers: { type: Boolean, default: false },
  savedReplies: { type: Boolean, default: false },
  bots: { type: Boolean, default: false },
  whiteLabel: { type: Boolean, default: false },
  phoneSupport: { type: Boolean, default: false },
  questionGroups: { type: Boolean, default: false },
});

export type PlanModel = Model<Plan>;
export function planModel(connection: Connection): PlanModel {
  return (connection.models.Plan as PlanModel | undefined) ?? connection.model<Plan>('Plan', PlanSchema);
}

/**
 * The plans by stripeId as the plan's features and limits ask them (commands/planFeature.ts: every page view's widget
 * settings, every gated request), kept for a second per database (the model), so they cost no read most of the time.
 * Every write of a plan through mongoose in this process drops them (the hooks below); another process's is seen
 * within the second. What it answers is shared by the callers of that second: read it, never change it.
 */
const plansKept = shortReads<PlanModel, Plan | null>(1000);

export function planByStripeId(Plan: PlanModel, stripeId: string): Promise<Plan | null> {
  return plansKept.get(Plan, stripeId, () => Plan.findOne({ stripeId }).lean<Plan>().exec());
}

dropOnEveryWrite(PlanSchema, plansKept);

/** Writes the catalog (server/shared/plans.ts); running it again changes nothing (plans are matched by stripeId). */
export async function seedPlans(Plan: PlanModel): Promise<void> {
  for (const { tier: _tier, ...plan } of PLAN_CATALOG) {
    await Plan.updateOne({ stripeId: plan.stripeId }, { $set: plan }, { upsert: true });
  }
}
