import type { App } from '@slack/bolt';
import type { SlackDeps } from '../deps';
import { failureText } from './failures';
import { helpText, PARLEY_COMMAND, parseCommand, type Reply, runParley } from './parley';

export { helpText, PARLEY_COMMAND } from './parley';

/** `/parley`: acknowledged at once (Slack waits 3 s at most); the answer follows on the response_url. */
export function registerSlashCommandListeners(app: App, deps: SlackDeps): void {
  app.command(PARLEY_COMMAND, async ({ command, ack, respond, client, logger }) => {
    // Help needs nothing from the database: it is the acknowledgement itself.
    if (parseCommand(command.text).sub === 'help') {
      await ack({ response_type: 'ephemeral', text: helpText() });
      return;
    }
    await ack();
    let reply: Reply;
    try {
      reply = await runParley(deps, client, {
        teamId: command.team_id,
        userId: command.user_id,
        channelId: command.channel_id,
        text: command.text,
      });
    } catch (error) {
      reply = { text: failureText(error, logger, `/parley ${command.text}`) };
    }
    try {
      await respond({ response_type: 'ephemeral', ...reply });
    } catch (error) {
      logger.warn('/parley: could not answer on the response_url', error instanceof Error ? error.message : error);
    }
  });
}
