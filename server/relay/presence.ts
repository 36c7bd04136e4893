/**
 * Whether a widget is online. `off` wins over everything; then the account's billing (an expired trial or a
 * canceled subscription is offline); then operating hours (when the schedule is on);
 * then manual mode (online regardless of Slack); otherwise automatic: at least one human member of the linked
 * channel is active in Slack. The channel answer is cached (presenceTtlMs, about 30 s) so a page view costs
 * no Slack call; widgets with open sockets are re-checked every presenceRefreshMs and told at once when the
 * answer changes. Slack's tiers (users.getPresence: 50 a minute per workspace) are kept: each member's presence
 * is cached for the team, shared by all its channels; the member last seen active is asked first; and a rate-limited
 * answer pauses the team's presence calls for Slack's Retry-After, keeping the last answers meanwhile.
 */
import { ErrorCode } from '@slack/web-api';
import { acceptsConversations } from '../billing/state';
import type { ChatEndpoint } from '../models/ChatEndpoint';
import type { PresenceCause } from '../shared/reports';
import type { RelayContext } from './context';

type WidgetState = Pick<
  ChatEndpoint,
  'off' | 'Step' | 'installationRevoked' | 'manualMode' | 'onOffSchedule' | 'operatingHours' | 'tz' | 'slackTeamId' | 'RoomId' | 'accountId'
> & { _id: unknown };

/** HHMM and weekday (0 = Sunday) of `at` in time zone `tz` (UTC when the zone is unknown). */
export function localTime(at: Date, tz: string): { weekday: number; hhmm: number } {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', {
      timeZone: tz || 'UTC',
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).formatToParts(at);
  } catch {
    parts = new Intl.DateTimeFormat('en-US', {
      timeZone: 'UTC',
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).formatToParts(at);
  }
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const weekday = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(get('weekday'));
  return { weekday, hhmm: Number(get('hour')) * 100 + Number(get('minute')) };
}

/** True when the schedule lets the widget be online at `at` (a start..end pair of that weekday contains it). */
export function withinOperatingHours(ce: Pick<ChatEndpoint, 'operatingHours' | 'tz'>, at: Date): boolean {
  const { weekday, hhmm } = localTime(at, ce.tz);
  return ce.operatingHours.some((h) => h.weekday === weekday && h.start !== h.end && hhmm >= h.start && hhmm < h.end);
}

export class Presence {
  private readonly channels = new Map<string, { active: boolean; until: number; pending?: Promise<boolean> }>();
  private readonly botUsers = new Map<string, boolean>();
  /** Per team and member: active in Slack, until when that answer holds. */
  private readonly users = new Map<string, { active: boolean; until: number }>();
  /** Per team and channel: the member last seen active, asked first next time. */
  private readonly lastActive = new Map<string, string>();
  /** Per team: no presence calls before this time (Slack's Retry-After). */
  private readonly pausedUntil = new Map<string, number>();
  /** Last answer pushed per widget, for widgets someone watches. */
  private readonly watched = new Map<string, { count: number; online: boolean | null }>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly ctx: RelayContext) {}

  start(): void {
    this.timer = setInterval(() => void this.refreshWatched(), this.ctx.tuning.presenceRefreshMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** A socket of this widget opened; returns the function to call when it closes. */
  watch(ceId: string, online: boolean): () => void {
    const entry = this.watched.get(ceId) ?? { count: 0, online };
    entry.count += 1;
    this.watched.set(ceId, entry);
    return () => {
      const e = this.watched.get(ceId);
      if (!e) return;
      e.count -= 1;
      if (e.count <= 0) this.watched.delete(ceId);
    };
  }

  async isOnline(ce: WidgetState, opts: { fresh?: boolean } = {}): Promise<boolean> {
    return (await this.state(ce, opts)).online;
  }

  /** Online or not, and the rule that decided it (the availability report records it). */
  async state(ce: WidgetState, opts: { fresh?: boolean } = {}): Promise<{ online: boolean; cause: PresenceCause }> {
    if (ce.off) return { online: false, cause: 'switched-off' };
    if (ce.Step !== 3 || ce.installationRevoked || !ce.RoomId) return { online: false, cause: 'setup' };
    // An expired trial or a canceled subscription takes no new conversations: visitors get the offline form.
    const account = await this.ctx.models.Account.findById(ce.accountId, {
      paymentType: 1,
      trialEndAt: 1,
      subscriptionStatus: 1,
      hadPaidPlan: 1,
    }).lean();
    if (!account || !acceptsConversations(account, this.ctx.clock.now())) return { online: false, cause: 'billing' };
    if (ce.onOffSchedule && !withinOperatingHours(ce, this.ctx.clock.now())) return { online: false, cause: 'operating-hours' };
    if (ce.manualMode) return { online: true, cause: 'manual-mode' };
    return { online: await this.someoneActive(ce.slackTeamId, ce.RoomId, opts.fresh ?? false), cause: 'slack-activity' };
  }

  /** Recomputes a widget's state now (settings changed) and tells its open widgets when it changed. */
  async recheck(ceId: string, opts: { fresh?: boolean } = {}): Promise<boolean> {
    // Settings may have changed: later messages must not see the cached widget.
    this.ctx.widgets.invalidate(ceId);
    const ce = await this.ctx.models.ChatEndpoint.findById(ceId);
    if (!ce) return false;
    const { online, cause } = await this.state(ce, opts).catch(() => ({ online: false, cause: 'slack-activity' as const }));
    await this.ctx.reports.presence(ce, online, cause);
    const status = online ? 'online' : 'offline';
    if (ce.status !== status) await this.ctx.models.ChatEndpoint.updateOne({ _id: ce._id }, { $set: { status } });
    const entry = this.watched.get(ceId);
    if (entry && entry.online !== online) {
      entry.online = online;
      this.ctx.pubsub.publish(`widget:${ceId}`, { t: 'presence', online });
    }
    return online;
  }

  async refreshWatched(): Promise<void> {
    for (const ceId of [...this.watched.keys()]) {
      try {
        await this.recheck(ceId);
      } catch (error) {
        this.ctx.logger.warn({ widgetId: ceId, err: error }, 'presence: could not check a widget');
      }
    }
  }

  private async someoneActive(teamId: string, channel: string, fresh: boolean): Promise<boolean> {
    const key = `${teamId}:${channel}`;
    const cached = this.channels.get(key);
    const now = Date.now();
    if (cached?.pending) return cached.pending;
    if (cached && cached.until > now && !fresh) return cached.active;
    // Slack asked us to wait: a known answer stands until then; a channel never asked waits its turn.
    if (cached && (this.pausedUntil.get(teamId) ?? 0) > now) return cached.active;
    const pending = this.askSlackInTurn(teamId, channel, !cached).then(
      (active) => {
        this.channels.set(key, { active, until: Date.now() + this.ctx.tuning.presenceTtlMs });
        return active;
      },
      (error: unknown) => {
        // Slack unreachable or rate limited: keep the last answer a little longer rather than flap.
        this.channels.set(key, { active: cached?.active ?? false, until: Date.now() + this.ctx.tuning.presenceTtlMs });
        this.ctx.logger.warn({ channel, err: error }, 'presence: Slack did not answer');
        return cached?.active ?? false;
      },
    );
    this.channels.set(key, { active: cached?.active ?? false, until: cached?.until ?? 0, pending });
    return pending;
  }

  /**
   * Asks Slack, honouring Retry-After: a rate-limited answer pauses the team's presence calls; without an earlier
   * answer to fall back on (`mustAnswer`), waits out the pause and asks once more.
   */
  private async askSlackInTurn(teamId: string, channel: string, mustAnswer: boolean): Promise<boolean> {
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
    const team = await this.ctx.slack.forTeam(teamId);
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

  /** One member's presence, asked of Slack at most once per presenceTtlMs for all the team's channels. */
  private async userActive(
    teamId: string,
    client: { users: { getPresence(args: { user: string }): Promise<{ presence?: string }> } },
    user: string,
  ): Promise<boolean> {
    const key = `${teamId}:${user}`;
    const known = this.users.get(key);
    if (known && known.until > Date.now()) return known.active;
    const active = (await client.users.getPresence({ user })).presence === 'active';
    this.users.set(key, { active, until: Date.now() + this.ctx.tuning.presenceTtlMs });
    return active;
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
