/** The Operating Hours settings tab. */
import type { SettingsTabProps } from '../types';

export default function OperatingHoursTab(_props: SettingsTabProps) {
  return <h2 className="section-title">Operating Hours</h2>;
}
