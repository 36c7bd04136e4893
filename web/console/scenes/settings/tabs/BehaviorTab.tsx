/** The Behavior settings tab. */
import type { SettingsTabProps } from '../types';

export default function BehaviorTab(_props: SettingsTabProps) {
  return <h2 className="section-title">Behavior</h2>;
}
