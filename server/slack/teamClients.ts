/** Web API clients for a widget's Slack team, from the stored installation. */
import type { WebClient } from '@slack/web-api';
import { ValidationError } from '../errors';
import type { Models } from '../models';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';
import { slackClient } from './client';

export const NOT_INSTALLED = 'Add Parley to Slack first.';

/** The bot client of the widget's team; 400 (with `failure` as the Message) without an active installation. */
/** Where the Slack Web API is, and the fetch that reaches it (SlackClients.fetch: each call counted in the metrics). */
export type SlackApi = { url: string; fetch?: typeof globalThis.fetch };

export async function teamBotClient(models: Models, api: SlackApi, ce: ChatEndpointDocument, failure = NOT_INSTALLED): Promise<WebClient> {
  const inst = ce.slackTeamId ? await models.Installation.findOne({ teamId: ce.slackTeamId, revokedAt: null }) : null;
  if (ce.Step < 2 || !inst) throw new ValidationError(failure, 'not_installed');
  return slackClient(api.url, inst.botToken, api.fetch);
}

/**
 * The client new channels are created with: the main user's (the spec's "Slack user used to create
 * channels"), so the person is in the channel they made; the bot's when their token cannot.
 */
export async function channelCreatorClient(models: Models, api: SlackApi, ce: ChatEndpointDocument): Promise<WebClient> {
  const bot = await teamBotClient(models, api, ce);
  const inst = await models.Installation.findOne({ teamId: ce.slackTeamId, revokedAt: null });
  const userToken = inst?.userTokens.find((t) => t.userId === ce.slackMainUser && !t.revokedAt && t.scopes.includes('channels:write'));
  return userToken ? slackClient(api.url, userToken.token, api.fetch) : bot;
}
