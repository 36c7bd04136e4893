/** The Appearance settings tab. */
import type { SettingsTabProps } from '../types';

export default function AppearanceTab(_props: SettingsTabProps) {
  return <h2 className="section-title">Appearance</h2>;
}
