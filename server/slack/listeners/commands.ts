import type { App } from '@slack/bolt';

export const PARLEY_COMMAND = '/parley';

/** What `/parley` and `/parley help` answer, only to the person who typed it. */
export function helpText(): string {
  return [
    '*Parley* relays the chat widget on your website to this Slack channel: each visitor conversation is a thread here, and your replies in the thread reach the visitor.',
    '`/parley help` shows this message.',
    'Widgets, channels and permissions are managed in the Parley console.',
  ].join('\n');
}

export function registerCommandListeners(app: App): void {
  app.command(PARLEY_COMMAND, async ({ ack }) => {
    await ack({ response_type: 'ephemeral', text: helpText() });
  });
}
