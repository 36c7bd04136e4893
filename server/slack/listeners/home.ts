import type { App } from '@slack/bolt';
import type { Config } from '../../config';
import type { Models } from '../../models';
import { chatStatsFor } from '../../commands/chatStats';
import { homeView, type HomeWidget } from '../blocks/home';

/** What the App Home tab shows: the configured widgets of this workspace, with their state and counts. */
export async function homeWidgets(models: Models, teamId: string): Promise<HomeWidget[]> {
  const ces = await models.ChatEndpoint.find({ slackTeamId: teamId, Step: 3, installationRevoked: false });
  const stats = await chatStatsFor(models, ces.map((ce) => ce._id));
  return ces.map((ce) => {
    const s = stats.get(ce.id);
    return {
      id: ce.id,
      channelId: ce.RoomId,
      channelName: ce.RoomName,
      off: ce.off,
      manualMode: ce.manualMode,
      status: ce.status,
      today: s?.last24h ?? 0,
      last30Days: s ? s.dailyCounts30d.reduce((sum, d) => sum + d.chats, 0) : 0,
    };
  });
}

export function registerHomeListeners(app: App, deps: { models: Models; config: Config }): void {
  app.event('app_home_opened', async ({ event, body, client }) => {
    if (event.tab !== 'home') return;
    const widgets = await homeWidgets(deps.models, body.team_id);
    await client.views.publish({ user_id: event.user, view: homeView({ consoleUrl: `${deps.config.publicUrl}/app/`, widgets }) });
  });
}
