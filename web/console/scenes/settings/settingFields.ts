/**
 * Where each setting of a widget is edited: the Behavior and Appearance tabs' descriptions, and the settings the
 * Operating Hours and Triggers tabs edit with editors of their own. test/web/settingFields.unit.spec.ts holds it
 * to the API's settings schema: every setting described exactly once, nothing described that is no setting.
 */

import type { SettingsTab } from '../../lib/rules';
import { APPEARANCE_SECTIONS } from './appearanceFields';
import { BEHAVIOR_SECTIONS } from './behaviorFields';
import { descriptionsOf, type FieldKey, keysOf } from './fields';

/** Settings whose tab has an editor of its own rather than field descriptions (the schedule's time zone is Behavior's). */
const OWN_EDITORS: Partial<Record<SettingsTab, readonly FieldKey[]>> = {
  'op-hours': ['operatingHours', 'onOffSchedule', 'sendOpHourChangeMessages'],
  triggers: ['triggerJson'],
};

/** Each setting's tab, one entry per setting a description (or an own editor) edits. */
export function settingFields(): { tab: SettingsTab; key: FieldKey }[] {
  const described = (tab: SettingsTab, keys: readonly FieldKey[]) => keys.map((key) => ({ tab, key }));
  return [
    ...described('behavior', descriptionsOf(BEHAVIOR_SECTIONS).flatMap(keysOf)),
    ...described('appearance', descriptionsOf(APPEARANCE_SECTIONS).flatMap(keysOf)),
    ...Object.entries(OWN_EDITORS).flatMap(([tab, keys]) => described(tab as SettingsTab, keys ?? [])),
  ];
}
