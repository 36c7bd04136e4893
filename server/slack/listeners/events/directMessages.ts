import type { App } from '@slack/bolt';
import type { Config } from '../../../config';

/** Parley's answer to a direct message: what it does, where to start, where the console is. */
export function directMessageReply(consoleUrl: string): string {
  return [
    'Hi! I am Parley: I bring the chats from your website into a Slack channel, one thread per visitor, and send your thread replies back to them.',
    'Type `/parley help` in a linked channel to see what you can do from Slack.',
    `Widgets, settings and reports are in the Parley console: <${consoleUrl}|open the console>.`,
  ].join('\n');
}

/** The app's Messages tab: a person writes to Parley directly and gets a short, helpful answer in the same DM. */
export function registerMessagesTabListeners(app: App, deps: { config: Config }): void {
  app.event('message', async ({ event, client }) => {
    if (event.channel_type !== 'im' || event.subtype !== undefined || ('bot_id' in event && event.bot_id)) return;
    await client.chat.postMessage({ channel: event.channel, text: directMessageReply(`${deps.config.publicUrl}/app/`) });
  });
}
