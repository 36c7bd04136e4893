/** The Question Groups settings tab (built by the settings-b work; this module is its lazily loaded entry). */
import type { SettingsTabProps } from '../types';

export default function QuestionGroupsTab(_props: SettingsTabProps) {
  return <h2 className="section-title">Question Groups</h2>;
}
