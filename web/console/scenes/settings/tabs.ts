/** The settings tabs (spec section 2): order in the tab bar, labels, page titles and plan gating. */
import type { PlanFeature } from '../../../../server/shared';
import { planUnlocking } from '../../../../server/shared/plans';
import type { SettingsTab } from '../../lib/rules';

export type TabMeta = { tab: SettingsTab; label: string; title: string; feature?: PlanFeature; featureName?: string };

export const TAB_META: readonly TabMeta[] = [
  { tab: 'behavior', label: 'Behavior', title: 'Presence and widget behavior' },
  { tab: 'appearance', label: 'Appearance', title: 'Appearance' },
  { tab: 'op-hours', label: 'Operating Hours', title: 'Operating Hours' },
  { tab: 'triggers', label: 'Triggers', title: 'Triggers', feature: 'triggers', featureName: 'Triggers' },
  { tab: 'question-groups', label: 'Question Groups', title: 'Question Groups', feature: 'questionGroups', featureName: 'Question Groups' },
  { tab: 'saved-replies', label: 'Saved Replies', title: 'Saved Replies', feature: 'savedReplies', featureName: 'Saved Replies' },
  { tab: 'answers', label: 'Answers', title: 'Answers (help center)' },
  { tab: 'integrations', label: 'Integrations', title: 'Integrations', feature: 'bots', featureName: 'Integrations' },
  { tab: 'install', label: 'Embed Code', title: 'Widget Install (Embed Code)' },
];

export function tabMeta(tab: SettingsTab): TabMeta {
  const meta = TAB_META.find((m) => m.tab === tab);
  if (!meta) throw new Error(`unknown settings tab ${tab}`);
  return meta;
}

/** A gated tab whose feature the plan lacks (shown with the plan that unlocks it, its content with the upgrade warning). */
export function isLocked(meta: TabMeta, plan: Partial<Record<PlanFeature, boolean>>): boolean {
  return meta.feature !== undefined && plan[meta.feature] !== true;
}

/** The badge of a locked tab: the plan that unlocks its feature ('Pro', 'Business'), never the plan the account is on. */
export function unlockLabel(meta: TabMeta): string {
  return (meta.feature && planUnlocking(meta.feature)) || 'Upgrade';
}
