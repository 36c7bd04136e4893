/**
 * Parley's plan catalog, the one source of plans: the API seeds its Plan collection from it, the console
 * and the pricing page show it, and the Stripe sandbox seeds its products and prices from it.
 */
import type { PlanDuration, PlanFeature } from './constants';
import type { PlanView } from './types';

/** A catalog plan: what the API presents plus its place in the ladder and the tier it belongs to. */
export type CatalogPlan = PlanView & {
  /** The tier shared by the monthly and the yearly plan ('basic', 'pro' ...): the Stripe product. */
  tier: string;
  /** Order of the tiles within one duration. */
  rank: number;
};

type Tier = Omit<CatalogPlan, 'duration' | 'stripeId' | 'price'> & { monthlyPrice: number | null };

const TIERS: Tier[] = [
  {
    tier: 'basic',
    label: 'Basic',
    monthlyPrice: 2900,
    rank: 1,
    maxOperators: 3,
    maxChannels: 1,
    convosPerMonth: 300,
    reports: false,
    triggers: false,
    savedReplies: true,
    bots: false,
    whiteLabel: false,
    phoneSupport: false,
    questionGroups: false,
  },
  {
    tier: 'pro',
    label: 'Pro',
    monthlyPrice: 7900,
    rank: 2,
    maxOperators: 10,
    maxChannels: 3,
    convosPerMonth: 1500,
    reports: true,
    triggers: true,
    savedReplies: true,
    bots: true,
    whiteLabel: false,
    phoneSupport: false,
    questionGroups: false,
  },
  {
    tier: 'business',
    label: 'Business',
    monthlyPrice: 19900,
    rank: 3,
    maxOperators: 0,
    maxChannels: 10,
    convosPerMonth: 10000,
    reports: true,
    triggers: true,
    savedReplies: true,
    bots: true,
    whiteLabel: true,
    phoneSupport: true,
    questionGroups: true,
  },
  {
    tier: 'custom',
    label: 'Custom',
    monthlyPrice: null,
    rank: 4,
    maxOperators: 0,
    maxChannels: 100,
    convosPerMonth: 100000,
    reports: true,
    triggers: true,
    savedReplies: true,
    bots: true,
    whiteLabel: true,
    phoneSupport: true,
    questionGroups: true,
  },
];

/** Annual plans give one month free: a year costs 11 months. */
export const YEARLY_MONTHS = 11;

/** The plan's Stripe price id ('parley_pro_yearly'); the same id names the Plan in Parley. */
export function planStripeId(tier: string, duration: PlanDuration): string {
  return `parley_${tier}_${duration}`;
}

/** The catalog: every tier monthly and yearly, in ladder order. */
export const PLAN_CATALOG: readonly CatalogPlan[] = TIERS.flatMap(({ monthlyPrice, ...tier }) => [
  { ...tier, duration: 'monthly' as const, stripeId: planStripeId(tier.tier, 'monthly'), price: monthlyPrice },
  {
    ...tier,
    duration: 'yearly' as const,
    stripeId: planStripeId(tier.tier, 'yearly'),
    price: monthlyPrice === null ? null : monthlyPrice * YEARLY_MONTHS,
  },
]);

/** The plan new accounts start their trial on: what they are billed for at its end unless they choose another. */
export const TRIAL_PLAN_STRIPE_ID = planStripeId('basic', 'monthly');

/** The top self-serve plan: a trialing account has its features and limits, whatever plan it chose, until the trial ends. */
export const TRIAL_FEATURES_STRIPE_ID = planStripeId('business', 'monthly');
/** The name of that plan ('Business'), for texts. */
export const TRIAL_FEATURES_LABEL = PLAN_CATALOG.find((plan) => plan.stripeId === TRIAL_FEATURES_STRIPE_ID)?.label ?? 'Business';

/** What messages call each feature, in the order they list them. */
export const PLAN_FEATURE_NAMES: Record<PlanFeature, string> = {
  reports: 'reports',
  triggers: 'triggers',
  savedReplies: 'saved replies',
  bots: 'bots',
  questionGroups: 'question groups',
  whiteLabel: 'white label',
  phoneSupport: 'phone support',
};

type Limits = Pick<PlanView, 'maxOperators' | 'maxChannels' | 'convosPerMonth' | PlanFeature>;

/** A limit where 0 means unlimited: whether `to` allows less than `from`. */
const lower = (from: number, to: number) => to !== 0 && (from === 0 || to < from);

/** What plan `to` lacks of plan `from`: features switched off, and limits lowered. */
export type PlanLoss = {
  /** The features `to` lacks ('reports', 'question groups'). */
  features: string[];
  /** The limits `to` lowers, as `to` has them ('3 operators a month', '1 channel', '300 conversations a month'). */
  limits: string[];
};

/** What going from plan `from` to plan `to` switches off and lowers, in words; both empty when `to` has all of `from`. */
export function lossBetween(from: Limits, to: Limits): PlanLoss {
  const features = (Object.keys(PLAN_FEATURE_NAMES) as PlanFeature[]).filter((f) => from[f] && !to[f]).map((f) => PLAN_FEATURE_NAMES[f]);
  const limits: string[] = [];
  const n = (count: number) => count.toLocaleString('en-US');
  if (lower(from.maxOperators, to.maxOperators))
    limits.push(`${n(to.maxOperators)} ${to.maxOperators === 1 ? 'operator' : 'operators'} a month`);
  if (lower(from.maxChannels, to.maxChannels)) limits.push(`${n(to.maxChannels)} ${to.maxChannels === 1 ? 'channel' : 'channels'}`);
  if (lower(from.convosPerMonth, to.convosPerMonth)) limits.push(`${n(to.convosPerMonth)} conversations a month`);
  return { features, limits };
}

export function catalogPlan(stripeId: string): CatalogPlan | undefined {
  return PLAN_CATALOG.find((plan) => plan.stripeId === stripeId);
}

/** The label of the cheapest plan with `feature` ('Pro' for triggers, 'Business' for question groups): what unlocks it. */
export function planUnlocking(feature: PlanFeature): string | null {
  const tier = TIERS.filter((t) => t.monthlyPrice !== null && t[feature]).sort((a, b) => a.rank - b.rank)[0];
  return tier?.label ?? null;
}

/** Monthly figure of a plan in whole currency units: yearly prices are shown per month, rounded up (spec §9). */
export function monthlyPrice(plan: Pick<PlanView, 'price' | 'duration'>): number | null {
  if (plan.price === null) return null;
  return plan.duration === 'yearly' ? Math.ceil(plan.price / 12 / 100) : plan.price / 100;
}

/** The struck-through figure of a yearly plan: a month at the yearly price without the free month (spec §9). */
export function yearlyListMonthlyPrice(plan: Pick<PlanView, 'price'>): number | null {
  return plan.price === null ? null : Math.round(plan.price / 100 / YEARLY_MONTHS);
}

/**
 * The first plan of the current plan's duration whose maxChannels exceeds the channels in use; otherwise a
 * custom plan with no price ('Contact us!'). Plans are taken in the order given (the ladder order).
 */
export function nextPlan(current: PlanView, available: readonly PlanView[], channelsInUse: number): PlanView {
  const next = available.find(
    (plan) => plan.duration === current.duration && plan.stripeId !== current.stripeId && plan.maxChannels > channelsInUse,
  );
  return next ?? { ...current, label: 'Custom', price: null, stripeId: '', maxChannels: Math.max(current.maxChannels, channelsInUse + 1) };
}
