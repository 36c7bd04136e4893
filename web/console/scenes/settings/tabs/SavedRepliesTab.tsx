/** The Saved Replies settings tab (built by the settings-b work; this module is its lazily loaded entry). */
import type { SettingsTabProps } from '../types';

export default function SavedRepliesTab(_props: SettingsTabProps) {
  return <h2 className="section-title">Saved Replies</h2>;
}
