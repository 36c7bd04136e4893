import type { App } from '@slack/bolt';
import type { SlackDeps } from '../../deps';
import { forgetMembers } from '../../operators';

/** App Home: published when opened, kept fresh while the person looks at it (see HomeTabs). */
export function registerHomeListeners(app: App, deps: Pick<SlackDeps, 'models' | 'homeTabs'>): void {
  app.event('app_home_opened', async ({ event, body }) => {
    if (event.tab !== 'home') return;
    await deps.homeTabs.opened(body.team_id, event.user);
  });

  // Someone joined a channel: /parley and App Home must see them as a member at once, not after the cache expires.
  app.event('member_joined_channel', async ({ event, body }) => {
    forgetMembers(body.team_id, event.channel);
    deps.homeTabs.teamChanged(body.team_id);
  });

  // A new conversation's header, a visitor's message or an operator's answer in a linked channel.
  app.event('message', async ({ event, body }) => {
    const tabs = deps.homeTabs;
    if (!('channel' in event) || !tabs.watches(body.team_id)) return;
    if (await deps.models.ChatEndpoint.exists({ slackTeamId: body.team_id, RoomId: event.channel })) tabs.teamChanged(body.team_id);
  });
}
