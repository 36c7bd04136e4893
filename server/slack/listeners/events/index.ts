/**
 * Events API listeners. Bolt acknowledges events before listeners run, so Slack gets its answer at once.
 * Thread replies (the `message` event) are relayed to visitors by ./message.ts, App Home is kept fresh by
 * ./appHome.ts, direct messages to Parley are answered by ./directMessages.ts; workspace and channel changes here.
 */
import type { App } from '@slack/bolt';
import { markInstallationRevoked, markUserTokensRevoked } from '../../../commands/slackInstallations';
import type { SlackDeps } from '../../deps';
import { installationChanged } from '../../slackClients';
import { registerHomeListeners } from './appHome';
import { registerMessagesTabListeners } from './directMessages';
import { registerMessageListener } from './message';

export function registerEventListeners(app: App, deps: SlackDeps): void {
  const { models } = deps;
  registerMessageListener(app, deps);
  registerHomeListeners(app, deps);
  registerMessagesTabListeners(app, deps);
  // Nothing is deleted: widgets go offline and the dashboard and permissions page say why.
  app.event('app_uninstalled', async ({ body }) => {
    await markInstallationRevoked(models, body.team_id);
    installationChanged({ slack: deps.slack, pubsub: deps.relay.pubsub }, body.team_id);
  });

  app.event('tokens_revoked', async ({ event, body }) => {
    if ((event.tokens.bot ?? []).length > 0) await markInstallationRevoked(models, body.team_id);
    await markUserTokensRevoked(models, body.team_id, event.tokens.oauth ?? []);
    installationChanged({ slack: deps.slack, pubsub: deps.relay.pubsub }, body.team_id);
  });

  app.event('channel_rename', async ({ event, body }) => {
    await models.ChatEndpoint.updateMany(
      { slackTeamId: body.team_id, RoomId: event.channel.id },
      { $set: { RoomName: event.channel.name } },
    );
  });

  // An archived channel cannot take new threads: its widgets go back to Step 2 to pick another one.
  app.event('channel_archive', async ({ event, body }) => {
    await models.ChatEndpoint.updateMany(
      { slackTeamId: body.team_id, RoomId: event.channel },
      { $set: { Step: 2, RoomId: '', RoomName: '', topic: '', status: 'offline' } },
    );
  });

  // Subscribed so Slack delivers joins (the bot's own when it connects a channel, and people's); nothing
  // Parley keeps depends on channel membership yet, so there is nothing to update.
  app.event('member_joined_channel', async () => {});
}
