/**
 * The shared inbox's actions from Slack (header controls, `/parley assign|unassign|snooze`, the snooze modal): who may
 * be assigned is checked here with Slack (a person of this workspace, a member of the linked channel, not an app),
 * then commands/assignConversation.ts and commands/snoozeConversation.ts make the change. Each answers what to tell
 * the person; a refusal is an ActionRefused with the explanation, and nothing changed.
 */
import type { WebClient } from '@slack/web-api';
import { setAssignee } from '../commands/assignConversation';
import { snoozeConversation, wakeConversation } from '../commands/snoozeConversation';
import { slackTime } from '../conversations/snooze';
import { ActionRefused } from '../errors';
import type { ConversationDocument } from '../models/Conversation';
import type { SlackRelay } from './deps';
import { isChannelMember } from './operators';
import { isSlackCallError, slackErrorCode } from './slackErrors';

/** The operator's Slack time zone (users.info `tz`), UTC when Slack does not say. */
export async function operatorTimeZone(client: WebClient, userId: string): Promise<string> {
  try {
    return (await client.users.info({ user: userId })).user?.tz || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** A Slack user id as typed or mentioned: `<@U123>`, `<@U123|name>`, `U123`. */
export function userIdOf(word: string | undefined): string {
  const m = /^<@([UW][A-Z0-9]+)(?:\|[^>]*)?>$/.exec(word ?? '') ?? /^([UW][A-Z0-9]{2,})$/.exec(word ?? '');
  return m?.[1] ?? '';
}

/**
 * Who `word` names in `/parley assign N word`: a mention Slack escaped (`<@U123|dana>`), a user id, or `@dana` as typed
 * (the command does not ask Slack to escape, so that e-mail addresses stay as typed): matched against the workspace's
 * people by handle, display name or real name. '' when nobody matches.
 */
export async function userNamed(client: WebClient, word: string | undefined): Promise<string> {
  const id = userIdOf(word);
  if (id) return id;
  const name = (word ?? '').replace(/^@/, '').toLowerCase();
  if (!name) return '';
  let cursor: string | undefined;
  for (let page = 0; page < 20; page++) {
    const res = await client.users.list({ limit: 200, ...(cursor ? { cursor } : {}) });
    const found = (res.members ?? []).find(
      (u) => !u.deleted && [u.name, u.profile?.display_name, u.real_name].some((n) => n && n.toLowerCase() === name),
    );
    if (found?.id) return found.id;
    cursor = res.response_metadata?.next_cursor || undefined;
    if (!cursor) break;
  }
  return '';
}

/** Refuses an assignee Slack says is not a person of the conversation's workspace, or not in its channel. */
async function checkAssignee(client: WebClient, c: ConversationDocument, userId: string): Promise<void> {
  let user: { is_bot?: boolean; deleted?: boolean; team_id?: string } | undefined;
  try {
    user = (await client.users.info({ user: userId })).user;
  } catch (error) {
    if (isSlackCallError(error) && slackErrorCode(error) === 'user_not_found') user = undefined;
    else throw error;
  }
  if (!user || (user.team_id && user.team_id !== c.slackTeamId)) {
    throw new ActionRefused(`<@${userId}> is not a person of this Slack workspace. Assign someone in <#${c.slackChannel}>.`);
  }
  if (user.is_bot || user.deleted) throw new ActionRefused(`<@${userId}> is an app or a deactivated account: assign a person.`);
  if (!(await isChannelMember(client, c.slackTeamId, c.slackChannel, userId))) {
    throw new ActionRefused(
      `<@${userId}> is not a member of <#${c.slackChannel}>, so they cannot answer its conversations. Invite them first.`,
    );
  }
}

/**
 * Gives conversation `c` to `assigneeId` (or nobody, ''), as `byId`. `expected`: what the header showed the person
 * (Assign to me, Unassign), so a click on an outdated header changes nothing.
 */
export async function assignFromSlack(
  relay: SlackRelay,
  client: WebClient,
  c: ConversationDocument,
  assigneeId: string,
  byId: string,
  expected?: string,
): Promise<string> {
  if (c.status !== 'open') throw new ActionRefused(`Conversation #${c.number} has already ended.`);
  if (assigneeId && assigneeId !== byId) await checkAssignee(client, c, assigneeId);
  const changed = await setAssignee(relay, c._id, { assigneeId, byId, ...(expected !== undefined ? { expected } : {}) });
  if (!changed) {
    return assigneeId
      ? `Conversation #${c.number} is already assigned to ${assigneeId === byId ? 'you' : `<@${assigneeId}>`}.`
      : `Nobody has conversation #${c.number}.`;
  }
  if (!assigneeId) return `Conversation #${c.number} is unassigned now.`;
  return assigneeId === byId ? `Conversation #${c.number} is yours now.` : `Conversation #${c.number} is assigned to <@${assigneeId}> now.`;
}

export async function snoozeFromSlack(relay: SlackRelay, c: ConversationDocument, until: Date, byId: string): Promise<string> {
  if (c.status !== 'open') throw new ActionRefused(`Conversation #${c.number} has already ended.`);
  await snoozeConversation(relay, c._id, until, byId);
  return `Conversation #${c.number} is snoozed until ${slackTime(until)}; it comes back as open then, or as soon as the visitor writes.`;
}

export async function wakeFromSlack(relay: SlackRelay, c: ConversationDocument, byId: string): Promise<string> {
  const woke = await wakeConversation(relay, c._id, { kind: 'operator', byId });
  return woke ? `Conversation #${c.number} is open again.` : `Conversation #${c.number} is not snoozed.`;
}
