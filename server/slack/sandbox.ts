/**
 * Without Slack credentials Parley runs the Slack sandbox on its own HTTP server at /sandbox/slack,
 * with the development client id and secrets from DATA_DIR/secrets.json, and points every Slack call
 * and the authorize page at it.
 */
import path from 'node:path';
import type { Config } from '../config';
import { createSlackSandbox, type SlackSandbox } from '../sandbox/slack';
import { EVENTS_PATH } from './app';
import { PARLEY_COMMAND } from './listeners/slashCommands';
import { CONVERSATION_SHORTCUT } from './listeners/views';
import { OAUTH_REDIRECT_PATH } from './oauth';

export const SANDBOX_PATH = '/sandbox/slack';

/** `config` must carry the effective public URL (the real port when the system chose it). */
export function startSlackSandbox(config: Config): { sandbox: SlackSandbox; config: Config } {
  const eventsUrl = `${config.publicUrl}${EVENTS_PATH}`;
  const sandbox = createSlackSandbox({
    baseUrl: `${config.publicUrl}${SANDBOX_PATH}`,
    app: {
      clientId: config.slack.clientId,
      clientSecret: config.slack.clientSecret,
      signingSecret: config.slack.signingSecret,
      eventsUrl,
      interactivityUrl: eventsUrl,
      commandsUrl: eventsUrl,
      redirectUrls: [`${config.publicUrl}${OAUTH_REDIRECT_PATH}`],
      commands: [PARLEY_COMMAND],
      shortcuts: [{ type: 'message', callbackId: CONVERSATION_SHORTCUT, name: 'Conversation actions' }],
    },
    dataFile: path.join(config.dataDir, 'slack-sandbox.json'),
    // Parley always meets Slack's real rate limits here, in development and in tests alike.
    rateLimits: 'slack',
  });
  return { sandbox, config: { ...config, slack: { ...config.slack, apiUrl: sandbox.apiUrl, oauthUrl: sandbox.authorizeUrl } } };
}
