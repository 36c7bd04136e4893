/**
 * What the /parley command, the conversation buttons, the modals and App Home share: finding the widget of a
 * channel, checking that the person is in its channel, why a widget is online or offline, conversation counts,
 * and the Slack identity of an operator.
 */
import type { WebClient } from '@slack/web-api';
import type { Models } from '../models';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';
import type { Presence } from '../relay/presence';
import type { PresenceCause } from '../shared/reports';

/** The configured widget linked to a channel, if any. */
export function widgetOfChannel(models: Models, teamId: string, channelId: string): Promise<ChatEndpointDocument | null> {
  return models.ChatEndpoint.findOne({ slackTeamId: teamId, RoomId: channelId, Step: 3 });
}

/** Configured widgets of a workspace, by channel name. */
export async function widgetsOfTeam(models: Models, teamId: string): Promise<ChatEndpointDocument[]> {
  const ces = await models.ChatEndpoint.find({ slackTeamId: teamId, Step: 3, installationRevoked: false, RoomId: { $ne: '' } });
  return ces.sort((a, b) => a.RoomName.localeCompare(b.RoomName));
}

const MEMBERS_TTL_MS = 15_000;
const memberCache = new Map<string, { members: Set<string>; until: number }>();

/** Whether `user` is a member of `channel` (asked with the bot token; cached a few seconds per team and token). */
export async function isChannelMember(client: WebClient, teamId: string, channel: string, user: string): Promise<boolean> {
  // The token is part of the key: a reinstall (or another Slack, such as a second sandbox) never reads stale members.
  const key = `${teamId}:${channel}:${client.token ?? ''}`;
  const cached = memberCache.get(key);
  if (cached && cached.until > Date.now()) return cached.members.has(user);
  const members = new Set<string>();
  let cursor: string | undefined;
  do {
    const res = await client.conversations.members({ channel, limit: 500, ...(cursor ? { cursor } : {}) });
    for (const m of res.members ?? []) members.add(m);
    cursor = res.response_metadata?.next_cursor || undefined;
  } while (cursor && members.size < 10_000);
  memberCache.set(key, { members, until: Date.now() + MEMBERS_TTL_MS });
  if (memberCache.size > 5000) memberCache.delete(memberCache.keys().next().value as string);
  return members.has(user);
}

/** Forgets cached memberships of a channel (someone joined or left). */
export function forgetMembers(teamId: string, channel: string): void {
  const prefix = `${teamId}:${channel}:`;
  for (const key of [...memberCache.keys()]) if (key.startsWith(prefix)) memberCache.delete(key);
}

/** The widgets of a workspace whose channel `user` is a member of. */
export async function widgetsOfMember(models: Models, client: WebClient, teamId: string, user: string): Promise<ChatEndpointDocument[]> {
  const out: ChatEndpointDocument[] = [];
  for (const ce of await widgetsOfTeam(models, teamId)) {
    try {
      if (await isChannelMember(client, teamId, ce.RoomId, user)) out.push(ce);
    } catch {
      // A channel the bot can no longer read (archived, bot removed) is not one the person can use.
    }
  }
  return out;
}

export type Availability = { online: boolean; why: string };

/**
 * Online or offline, and why: the answer of presence (`Presence.state`, the one function the widget's config, its
 * socket and the console's dashboard also read), worded for Slack.
 */
export async function availabilityOf(relay: { presence: Pick<Presence, 'state'> }, ce: ChatEndpointDocument): Promise<Availability> {
  const { online, cause } = await relay.presence.state(ce).catch(() => ({ online: false, cause: 'slack-activity' as const }));
  return { online, why: whyOf(ce, online, cause) };
}

function whyOf(ce: ChatEndpointDocument, online: boolean, cause: PresenceCause): string {
  switch (cause) {
    case 'switched-off':
      return 'turned off (`/parley on` goes back to automatic)';
    case 'setup':
      return ce.installationRevoked ? 'Parley was removed from this Slack workspace' : 'setup is not finished in the Parley console';
    case 'billing':
      return "the account's trial is over or its subscription ended (an admin chooses a plan in the Parley console)";
    case 'operating-hours':
      return `outside operating hours (${ce.tz})`;
    case 'manual-mode':
      return 'manual mode: online whatever Slack presence says, until turned off';
    case 'switched-on':
    case 'slack-activity':
      return online ? `someone in <#${ce.RoomId}> is active in Slack` : `nobody in <#${ce.RoomId}> is active in Slack`;
  }
}

/** Midnight of `now`'s day (or the first of its month) in time zone `tz`, as an instant. */
export function startOfLocal(now: Date, tz: string, unit: 'day' | 'month'): Date {
  let parts: Intl.DateTimeFormatPart[];
  const options: Intl.DateTimeFormatOptions = {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  };
  try {
    parts = new Intl.DateTimeFormat('en-US', { ...options, timeZone: tz || 'UTC' }).formatToParts(now);
  } catch {
    parts = new Intl.DateTimeFormat('en-US', { ...options, timeZone: 'UTC' }).formatToParts(now);
  }
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const localAsUtc = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'));
  const offset = localAsUtc - Math.floor(now.getTime() / 1000) * 1000;
  const start = Date.UTC(n('year'), n('month') - 1, unit === 'day' ? n('day') : 1);
  return new Date(start - offset);
}

export type ConversationCounts = { today: number; thisMonth: number; last30Days: number; open: number };

export async function conversationCounts(models: Models, ce: ChatEndpointDocument, now = new Date()): Promise<ConversationCounts> {
  const since = (from: Date) => models.Conversation.countDocuments({ ceId: ce._id, startedAt: { $gte: from } });
  const [today, thisMonth, last30Days, open] = await Promise.all([
    since(startOfLocal(now, ce.tz, 'day')),
    since(startOfLocal(now, ce.tz, 'month')),
    since(new Date(now.getTime() - 30 * 24 * 60 * 60 * 1000)),
    models.Conversation.countDocuments({ ceId: ce._id, status: 'open' }),
  ]);
  return { today, thisMonth, last30Days, open };
}

export type Operator = { slackUserId: string; name: string; avatarUrl: string };

/** The person's Slack name and avatar, as a saved reply sent for them shows. */
export async function operatorOf(client: WebClient, userId: string): Promise<Operator> {
  try {
    const res = await client.users.info({ user: userId });
    const profile = res.user?.profile;
    return {
      slackUserId: userId,
      name: profile?.display_name || res.user?.real_name || profile?.real_name || res.user?.name || 'Operator',
      avatarUrl: profile?.image_72 || profile?.image_48 || '',
    };
  } catch {
    return { slackUserId: userId, name: 'Operator', avatarUrl: '' };
  }
}

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** 930 → "09:30". */
export function hhmm(value: number): string {
  return `${String(Math.floor(value / 100)).padStart(2, '0')}:${String(value % 100).padStart(2, '0')}`;
}

/** The operating hours, one line per weekday (Monday first), in the widget's time zone. */
export function hoursLines(ce: Pick<ChatEndpointDocument, 'operatingHours' | 'tz'>): string[] {
  const lines: string[] = [];
  for (const day of [1, 2, 3, 4, 5, 6, 0]) {
    const ranges = ce.operatingHours
      .filter((h) => h.weekday === day && h.start !== h.end)
      .sort((a, b) => a.start - b.start)
      .map((h) => `${hhmm(h.start)}–${hhmm(h.end)}`);
    lines.push(`${DAYS[day]}: ${ranges.length > 0 ? ranges.join(', ') : 'closed'}`);
  }
  return lines;
}

export { DAYS as WEEKDAYS };
