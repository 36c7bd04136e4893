import { type Connection, type HydratedDocument, type Model, Schema } from 'mongoose';
import type { PlanDuration, PlanFeature } from '../shared/constants';
import { PLAN_CATALOG } from '../shared/plans';

export type Plan = {
  label: string;
  /** Cents; null for the custom plan. */
  price: number | null;
  duration: PlanDuration;
  stripeId: string;
  /** 0 means unlimited. */
  maxOperators: number;
  maxChannels: number;
  convosPerMonth: number;
  /** Order of the tiles within one duration. */
  rank: number;
} & Record<PlanFeature, boolean>;
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

/** Writes the catalog (server/shared/plans.ts); running it again changes nothing (plans are matched by stripeId). */
export async function seedPlans(Plan: PlanModel): Promise<void> {
  for (const { tier: _tier, ...plan } of PLAN_CATALOG) {
    await Plan.updateOne({ stripeId: plan.stripeId }, { $set: plan }, { upsert: true });
  }
}
