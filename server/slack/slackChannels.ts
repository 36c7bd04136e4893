/**
 * The Slack side of widget setup: listing, creating, connecting and renaming channels with the bot
 * token of the widget's team. Slack failures become 400s with a message the console shows as is.
 */
import type { WebClient } from '@slack/web-api';
import { external, ValidationError } from '../errors';
import type { Models } from '../models';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';
import type { SlackRoom } from '../shared/types';
import { isSlackCallError, slackErrorCode } from './slackErrors';

export const HIDDEN_ROOM_NAMES = ['random', 'general'];
export const ROOMS_ERROR = 'Cannot fetch Slack channels';
const MAX_PAGES = 20;

const MESSAGES: Record<string, string> = {
  name_taken: 'A Slack channel with this name already exists. Choose it from the list or pick another name.',
  invalid_name: 'Slack refused this name: use lowercase letters, digits, - and _ only, at most 80 characters.',
  invalid_name_specials: 'Slack refused this name: use lowercase letters, digits, - and _ only, at most 80 characters.',
  invalid_name_punctuation: 'Slack refused this name: use lowercase letters, digits, - and _ only, at most 80 characters.',
  invalid_name_maxlength: 'Slack refused this name: at most 80 characters.',
  invalid_name_required: 'Enter a channel name.',
  channel_not_found: 'This Slack channel does not exist any more. Refresh the list and pick another one.',
  is_archived: 'This Slack channel is archived. Pick another one.',
  not_in_channel: 'Parley is not in this Slack channel. Add the Parley app to the channel, then try again.',
  missing_scope: 'Parley lacks a Slack permission for this. Approve the missing permissions on the Slack permissions page.',
  not_authorized: 'Slack refused: only workspace admins or the channel creator can do this.',
  invalid_auth: 'Parley is no longer installed in this Slack workspace. Add it to Slack again.',
  token_revoked: 'Parley is no longer installed in this Slack workspace. Add it to Slack again.',
  account_inactive: 'Parley is no longer installed in this Slack workspace. Add it to Slack again.',
  ratelimited: 'Slack is busy, please try again in a minute.',
};

function slackFailure(error: unknown, fallback: string): ValidationError {
  if (!isSlackCallError(error)) throw error;
  const code = slackErrorCode(error);
  if (code === undefined) return new ValidationError(fallback, 'slack_error');
  return new ValidationError(MESSAGES[code] ?? `${fallback} (Slack said: ${code})`, external(code));
}

type SlackChannel = {
  id?: string;
  name?: string;
  is_archived?: boolean;
  is_general?: boolean;
  is_private?: boolean;
  topic?: { value?: string };
};

/** Public, unarchived channels of the team, without random and general, sorted by name. */
export async function listRooms(models: Models, ce: ChatEndpointDocument, client: WebClient): Promise<SlackRoom[]> {
  const rooms: SlackRoom[] = [];
  let cursor: string | undefined;
  try {
    for (let page = 0; page < MAX_PAGES; page++) {
      const res = await client.conversations.list({ types: 'public_channel', exclude_archived: true, limit: 200, cursor });
      for (const c of (res.channels ?? []) as SlackChannel[]) {
        if (!c.id || !c.name || c.is_archived || c.is_private || c.is_general || HIDDEN_ROOM_NAMES.includes(c.name)) continue;
        rooms.push({ Id: c.id, Name: c.name, Topic: c.topic?.value ?? '' });
      }
      cursor = res.response_metadata?.next_cursor || undefined;
      if (!cursor) break;
    }
  } catch (error) {
    if (!isSlackCallError(error)) throw error;
    const code = slackErrorCode(error);
    throw new ValidationError(ROOMS_ERROR, code === undefined ? 'slack_error' : external(code));
  }
  rooms.sort((a, b) => a.Name.localeCompare(b.Name));
  await models.ChatEndpoint.updateOne({ _id: ce._id }, { $set: { AvailableRooms: rooms } });
  return rooms;
}

/** Creates a public channel in the widget's team; the console connects it next. */
export async function createSlackChannel(client: WebClient, name: string): Promise<SlackRoom> {
  try {
    const res = await client.conversations.create({ name });
    const channel = res.channel as SlackChannel | undefined;
    if (!channel?.id || !channel.name) throw new ValidationError('Slack did not create the channel, please try again.', 'slack_error');
    return { Id: channel.id, Name: channel.name, Topic: channel.topic?.value ?? '' };
  } catch (error) {
    if (error instanceof ValidationError) throw error;
    throw slackFailure(error, 'Cannot create the Slack channel');
  }
}

/**
 * Links the widget to a channel of its team: checks the channel with Slack (its real name wins over
 * the one sent), has the bot join it, and moves the widget to Step 3.
 */
export async function connectChannel(
  models: Models,
  ce: ChatEndpointDocument,
  client: WebClient,
  roomId: string,
): Promise<ChatEndpointDocument> {
  if (ce.Step < 2 || !ce.slackTeamId) throw new ValidationError('Add Parley to Slack first.', 'not_installed');
  const taken = await models.ChatEndpoint.exists({ _id: { $ne: ce._id }, slackTeamId: ce.slackTeamId, RoomId: roomId, Step: 3 });
  if (taken)
    throw new ValidationError('This Slack channel is already linked to another widget. Pick or create another channel.', 'channel_in_use');
  let channel: SlackChannel | undefined;
  try {
    channel = (await client.conversations.info({ channel: roomId })).channel as SlackChannel | undefined;
    if (!channel?.id || !channel.name) throw new ValidationError(MESSAGES.channel_not_found ?? '', 'channel_not_found');
    if (channel.is_archived) throw new ValidationError(MESSAGES.is_archived ?? '', 'is_archived');
    if (channel.is_private) throw new ValidationError('Pick a public channel.', 'private_channel');
    await client.conversations.join({ channel: roomId });
  } catch (error) {
    if (error instanceof ValidationError) throw error;
    throw slackFailure(error, 'Cannot connect the Slack channel');
  }
  ce.set({ RoomId: channel.id, RoomName: channel.name, topic: channel.topic?.value ?? '', Step: 3 });
  return ce.save();
}

/** Unlinks the channel: the widget goes back to Step 2 so setup can pick another one. */
export async function changeChannel(ce: ChatEndpointDocument): Promise<ChatEndpointDocument> {
  if (ce.Step < 2 || !ce.slackTeamId) throw new ValidationError('Add Parley to Slack first.', 'not_installed');
  ce.set({ Step: 2, RoomId: '', RoomName: '', topic: '', status: 'offline' });
  return ce.save();
}

/** Renames the linked Slack channel and remembers the new name. */
export async function renameChannel(ce: ChatEndpointDocument, client: WebClient, name: string): Promise<ChatEndpointDocument> {
  if (ce.Step !== 3 || !ce.RoomId) throw new ValidationError('Connect a Slack channel first.', 'not_connected');
  let newName = name;
  try {
    const res = await client.conversations.rename({ channel: ce.RoomId, name });
    newName = (res.channel as SlackChannel | undefined)?.name ?? name;
  } catch (error) {
    throw slackFailure(error, 'Cannot rename the Slack channel');
  }
  ce.RoomName = newName;
  return ce.save();
}
