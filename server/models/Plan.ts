import { Schema, type Connection, type HydratedDocument, type Model } from 'mongoose';
import type { PlanDuration, PlanFeature } from '../shared/constants';

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

type Tier = Omit<Plan, 'duration' | 'stripeId' | 'price'> & { key: string; monthlyPrice: number | null };

const TIERS: Tier[] = [
  {
    key: 'basic', label: 'Basic', monthlyPrice: 2900, rank: 1, maxOperators: 3, maxChannels: 1, convosPerMonth: 300,
    reports: false, triggers: false, savedReplies: true, bots: false, whiteLabel: false, phoneSupport: false, questionGroups: false,
  },
  {
    key: 'pro', label: 'Pro', monthlyPrice: 7900, rank: 2, maxOperators: 10, maxChannels: 3, convosPerMonth: 1500,
    reports: true, triggers: true, savedReplies: true, bots: true, whiteLabel: false, phoneSupport: false, questionGroups: false,
  },
  {
    key: 'business', label: 'Business', monthlyPrice: 19900, rank: 3, maxOperators: 0, maxChannels: 10, convosPerMonth: 10000,
    reports: true, triggers: true, savedReplies: true, bots: true, whiteLabel: true, phoneSupport: true, questionGroups: true,
  },
  {
    key: 'custom', label: 'Custom', monthlyPrice: null, rank: 4, maxOperators: 0, maxChannels: 100, convosPerMonth: 100000,
    reports: true, triggers: true, savedReplies: true, bots: true, whiteLabel: true, phoneSupport: true, questionGroups: true,
  },
];

/** Annual plans give one month free: a year costs 11 months. */
const YEARLY_MONTHS = 11;

/** The catalog: every tier monthly and yearly. */
export const PLAN_CATALOG: Plan[] = TIERS.flatMap(({ key, monthlyPrice, ...tier }) => [
  { ...tier, duration: 'monthly' as const, stripeId: `parley_${key}_monthly`, price: monthlyPrice },
  {
    ...tier,
    duration: 'yearly' as const,
    stripeId: `parley_${key}_yearly`,
    price: monthlyPrice === null ? null : monthlyPrice * YEARLY_MONTHS,
  },
]);

/** The plan new accounts start their trial on. */
export const TRIAL_PLAN_STRIPE_ID = 'parley_basic_monthly';

/** Writes the catalog; running it again changes nothing (plans are matched by stripeId). */
export async function seedPlans(Plan: PlanModel): Promise<void> {
  for (const plan of PLAN_CATALOG) {
    await Plan.updateOne({ stripeId: plan.stripeId }, { $set: plan }, { upsert: true });
  }
}
