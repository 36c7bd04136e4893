/** The Embed Code tab: the embed-code page of setup step 3 (channel, snippets, deleting the widget). */
import { useUser } from '../../../session/session';
import { EmbedStep } from '../../setup/EmbedStep';
import type { SettingsTabProps } from '../types';

export default function InstallTab({ ce }: SettingsTabProps) {
  // Renaming or changing the channel reloads the session: show its copy of the widget.
  const live = useUser().ces.find((c) => c.Id === ce.Id) ?? ce;
  return <EmbedStep ce={live} inSettings />;
}
