import type { WebClient } from '@slack/web-api';
import { isValidObjectId } from 'mongoose';
import type { Models } from '../../models';
import type { ChatEndpointDocument } from '../../models/ChatEndpoint';
import type { ConversationDocument } from '../../models/Conversation';
import { ActionRefused } from '../conversationActions';
import { isChannelMember } from '../operators';

/** A conversation of this workspace whose channel the person is in, with its widget; else a clear refusal. */
export async function conversationForMember(
  models: Models,
  client: WebClient,
  who: { teamId: string; userId: string },
  conversationId: string,
): Promise<{ c: ConversationDocument; ce: ChatEndpointDocument }> {
  const c = isValidObjectId(conversationId) ? await models.Conversation.findById(conversationId) : null;
  if (!c || c.slackTeamId !== who.teamId) throw new ActionRefused('This conversation no longer exists in Parley.');
  const ce = await models.ChatEndpoint.findById(c.ceId);
  if (!ce) throw new ActionRefused('The widget of this conversation was deleted.');
  if (!(await isChannelMember(client, who.teamId, c.slackChannel, who.userId))) {
    throw new ActionRefused(`Only members of <#${c.slackChannel}> can act on its conversations. Join the channel first.`);
  }
  return { c, ce };
}

/** A widget of this workspace whose channel the person is in; else a clear refusal. */
export async function widgetForMember(
  models: Models,
  client: WebClient,
  who: { teamId: string; userId: string },
  ceId: string,
): Promise<ChatEndpointDocument> {
  const ce = isValidObjectId(ceId) ? await models.ChatEndpoint.findById(ceId) : null;
  if (!ce || ce.slackTeamId !== who.teamId || ce.Step !== 3)
    throw new ActionRefused('This widget is no longer linked to a channel of this workspace.');
  if (!(await isChannelMember(client, who.teamId, ce.RoomId, who.userId))) {
    throw new ActionRefused(`Only members of <#${ce.RoomId}> can change its website chat. Join the channel first.`);
  }
  return ce;
}
