import type { Plan } from '../../models/Plan';
import type { PlanView } from '../../shared/types';

export function presentPlan(plan: Plan): PlanView {
  return {
    label: plan.label,
    price: plan.price,
    duration: plan.duration,
    stripeId: plan.stripeId,
    maxOperators: plan.maxOperators,
    maxChannels: plan.maxChannels,
    convosPerMonth: plan.convosPerMonth,
    reports: plan.reports,
    triggers: plan.triggers,
    savedReplies: plan.savedReplies,
    bots: plan.bots,
    whiteLabel: plan.whiteLabel,
    phoneSupport: plan.phoneSupport,
    questionGroups: plan.questionGroups,
  };
}
