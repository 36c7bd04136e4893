/**
 * The bots and people a widget adds to each new conversation (the console's "Configure Bots and Users"): the
 * workspace's users as Slack lists them (needs users:read), and the stored choice. The relay invites them
 * when it opens a conversation's thread (server/slack/outboxJobs.ts, slack.invite).
 */
import type { WebClient } from '@slack/web-api';
import { external, MissingScopeError, NotFoundError, ValidationError } from '../errors';
import type { Models } from '../models';
import type { BotUserDocument } from '../models/BotUser';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';
import type { AddBotPayload, BotUserView, SlackUserView } from '../shared/bots';
import { botUsersChanged } from './botUserCache';
import { isSlackCallError, slackErrorCode } from './slackErrors';

export const MISSING_USERS_READ =
  'Parley needs the users:read Slack permission to list the bots and people of your workspace. Approve the expanded permissions on the Slack permissions page.';
const MAX_PAGES = 20;

type SlackMember = {
  id?: string;
  name?: string;
  real_name?: string;
  deleted?: boolean;
  is_bot?: boolean;
  profile?: { bot_id?: string; image_48?: string; real_name?: string };
};

function slackFailure(error: unknown, what: string): Error {
  if (!isSlackCallError(error)) return error as Error;
  const code = slackErrorCode(error);
  if (code === 'missing_scope') return new MissingScopeError(MISSING_USERS_READ);
  if (code === 'user_not_found') return new ValidationError('This Slack user does not exist (any more).', code);
  return new ValidationError(`${what} (Slack said: ${code ?? 'unreachable'})`, code === undefined ? 'slack_error' : external(code));
}

function present(m: SlackMember): SlackUserView {
  return {
    id: m.id ?? '',
    name: m.name ?? '',
    real_name: m.real_name ?? m.profile?.real_name ?? m.name ?? '',
    is_bot: m.is_bot === true,
    profile: {
      ...(m.profile?.bot_id ? { bot_id: m.profile.bot_id } : {}),
      ...(m.profile?.image_48 ? { image_48: m.profile.image_48 } : {}),
    },
  };
}

async function parleyBotUserId(models: Models, ce: ChatEndpointDocument): Promise<string> {
  const inst = await models.Installation.findOne({ teamId: ce.slackTeamId, revokedAt: null }, { botUserId: 1 });
  return inst?.botUserId ?? '';
}

/** Active members of the widget's workspace, bots first, without Slackbot and Parley itself. */
export async function listSlackUsers(models: Models, ce: ChatEndpointDocument, client: WebClient): Promise<SlackUserView[]> {
  const self = await parleyBotUserId(models, ce);
  const users: SlackUserView[] = [];
  let cursor: string | undefined;
  try {
    for (let page = 0; page < MAX_PAGES; page++) {
      const res = await client.users.list({ limit: 200, cursor });
      for (const m of (res.members ?? []) as SlackMember[]) {
        if (!m.id || m.deleted || m.id === 'USLACKBOT' || m.id === self) continue;
        users.push(present(m));
      }
      cursor = res.response_metadata?.next_cursor || undefined;
      if (!cursor) break;
    }
  } catch (error) {
    throw slackFailure(error, 'Slack users could not be listed');
  }
  return users.sort((a, b) => Number(b.is_bot) - Number(a.is_bot) || a.name.localeCompare(b.name));
}

export function presentBotUser(b: BotUserDocument): BotUserView {
  return { ID: b.id as string, userID: b.userID, name: b.name, botID: b.botID };
}

export async function listBotUsers(models: Models, ce: ChatEndpointDocument): Promise<BotUserView[]> {
  return (await models.BotUser.find({ ceId: ce._id }).sort({ _id: 1 })).map(presentBotUser);
}

/** Adds a bot or person, as Slack knows them (name and bot id are read from Slack, not trusted from the form). */
export async function addBotUser(models: Models, ce: ChatEndpointDocument, client: WebClient, input: AddBotPayload): Promise<BotUserView> {
  if (input.userID === (await parleyBotUserId(models, ce))) throw new ValidationError('Parley is already in every conversation.');
  let member: SlackMember;
  try {
    member = ((await client.users.info({ user: input.userID })).user ?? {}) as SlackMember;
  } catch (error) {
    throw slackFailure(error, 'This Slack user could not be checked');
  }
  if (member.deleted) throw new ValidationError('This Slack user is deactivated.');
  const fields = { name: member.name ?? input.name, botID: member.is_bot ? (member.profile?.bot_id ?? input.botID) : '' };
  const saved = await models.BotUser.findOneAndUpdate(
    { ceId: ce._id, userID: input.userID },
    { $set: fields, $setOnInsert: { accountId: ce.accountId, ceId: ce._id, userID: input.userID } },
    { upsert: true, returnDocument: 'after' },
  );
  botUsersChanged(models, ce._id);
  return presentBotUser(saved);
}

export async function removeBotUser(models: Models, ce: ChatEndpointDocument, id: string): Promise<void> {
  const found = await models.BotUser.findOneAndDelete({ _id: id, ceId: ce._id });
  botUsersChanged(models, ce._id);
  if (!found) throw new NotFoundError('Bot user not found');
}
