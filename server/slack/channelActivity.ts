/**
 * Whether a human member of a linked channel is active in Slack: the Slack side of the relay's presence
 * (server/relay/presence.ts `ChannelActivity`). Slack's tiers (users.getPresence: 50 a minute per workspace) are
 * kept: each member's presence is cached for the team, shared by all its channels; the member last seen active is
 * asked first; and a rate-limited answer pauses the team's presence calls for Slack's Retry-After.
 */
import { ErrorCode } from '@slack/web-api';
import type { ChannelActivity } from '../relay/presence';
import { type ShortReads, shortReads } from '../shortReads';
import type { SlackClients } from './slackClients';

export class SlackChannelActivity implements ChannelActivity {
  private readonly botUsers = new Map<string, boolean>();
  /** Per team and member: active in Slack, for `ttlMs` (server/shortReads.ts). */
  private readonly users: ShortReads<SlackChannelActivity, boolean>;
  /** Per team and channel: the member last seen active, asked first next time. */
  private readonly lastActive = new Map<string, string>();
  /** Per team: no presence calls before this time (Slack's Retry-After). */
  private readonly pausedUntil = new Map<string, number>();

  /** `ttlMs`: how long one member's answer holds (the relay's presenceTtlMs). */
  constructor(
    private readonly slack: SlackClients,
    ttlMs: number,
  ) {
    this.users = shortReads(ttlMs);
  }

  paused(teamId: string): boolean {
    return (this.pausedUntil.get(teamId) ?? 0) > Date.now();
  }

  /**
   * Asks Slack, honouring Retry-After: a rate-limited answer pauses the team's presence calls; without an earlier
   * answer to fall back on (`mustAnswer`), waits out the pause and asks once more.
   */
  async someoneActive(teamId: string, channel: string, mustAnswer: boolean): Promise<boolean> {
    for (let attempt = 0; ; attempt += 1) {
      const wait = (this.pausedUntil.get(teamId) ?? 0) - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      try {
        return await this.askSlack(teamId, channel);
      } catch (error) {
        const e = error as { code?: unknown; retryAfter?: unknown } | null;
        if (e?.code !== ErrorCode.RateLimitedError) throw error;
        this.pausedUntil.set(teamId, Date.now() + Math.max(1, Number(e.retryAfter) || 1) * 1000);
        if (!mustAnswer || attempt >= 2) throw error;
      }
    }
  }

  private async askSlack(teamId: string, channel: string): Promise<boolean> {
    const team = await this.slack.forTeam(teamId);
    if (!team) return false;
    let cursor: string | undefined;
    const members: string[] = [];
    do {
      const res = await team.client.conversations.members({ channel, limit: 200, ...(cursor ? { cursor } : {}) });
      members.push(...(res.members ?? []));
      cursor = res.response_metadata?.next_cursor || undefined;
    } while (cursor && members.length < 1000);
    const channelKey = `${teamId}:${channel}`;
    const first = this.lastActive.get(channelKey);
    const ordered = first && members.includes(first) ? [first, ...members.filter((m) => m !== first)] : members;
    for (const user of ordered) {
      if (user === team.botUserId || (await this.isBot(team.client, user))) continue;
      if (await this.userActive(teamId, team.client, user)) {
        this.lastActive.set(channelKey, user);
        return true;
      }
    }
    return false;
  }

  /** One member's presence, asked of Slack at most once per `ttlMs` for all the team's channels. */
  private async userActive(
    teamId: string,
    client: { users: { getPresence(args: { user: string }): Promise<{ presence?: string }> } },
    user: string,
  ): Promise<boolean> {
    return this.users.get(this, `${teamId}:${user}`, async () => (await client.users.getPresence({ user })).presence === 'active');
  }

  private async isBot(
    client: { users: { info(args: { user: string }): Promise<{ user?: { is_bot?: boolean; deleted?: boolean; id?: string } }> } },
    user: string,
  ): Promise<boolean> {
    const known = this.botUsers.get(user);
    if (known !== undefined) return known;
    const res = await client.users.info({ user });
    const bot = !!res.user?.is_bot || !!res.user?.deleted || user === 'USLACKBOT';
    this.botUsers.set(user, bot);
    return bot;
  }
}
