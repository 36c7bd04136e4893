/** The Embed Code tab: the embed-code page of setup step 3 (channel, snippets, deleting the widget), and verified identity. */
import { useSession, useUser } from '../../../session/session';
import { EmbedStep } from '../../setup/EmbedStep';
import { IdentitySecretCard } from '../IdentitySecret';
import type { SettingsTabProps } from '../types';

export default function InstallTab({ ce }: SettingsTabProps) {
  // Renaming or changing the channel reloads the session: show its copy of the widget.
  const user = useUser();
  const { reload } = useSession();
  const live = user.ces.find((c) => c.Id === ce.Id) ?? ce;
  return (
    <EmbedStep ce={live} inSettings>
      <IdentitySecretCard ce={live} admin={user.admin} onMade={() => void reload()} />
    </EmbedStep>
  );
}
