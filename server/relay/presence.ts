/**
 * Whether a widget is online. `off` wins over everything; then the account's billing (an expired trial or a
 * canceled subscription is offline); then operating hours (when the schedule is on);
 * then manual mode (online regardless of Slack); otherwise automatic: at least one human member of the linked
 * channel is active in Slack. The channel answer is cached (presenceTtlMs, about 30 s) so a page view costs
 * no Slack call; widgets with open sockets are re-checked every presenceRefreshMs and told at once when the
 * answer changes. Who is active in a channel is asked of `ChannelActivity` (server/slack/channelActivity.ts, which
 * keeps Slack's tiers); while Slack asks to wait, the last answers are kept.
 */
import { acceptsConversations } from '../billing/state';
import { autoAnswerNow } from '../commands/conversationDueTimes';
import type { RelayTuning } from '../config';
import type { Logger } from '../logger';
import type { Models } from '../models';
import { accountBillingState } from '../models/Account';
import type { ChatEndpoint } from '../models/ChatEndpoint';
import type { ReportRecorder } from '../reports/recorder';
import type { PresenceCause } from '../shared/reports';
import type { PubSub } from './pubsub';
import type { WidgetCache } from './widgets';

/** What decides whether a widget is online (a page view reads these alone). */
export const PRESENCE_FIELDS = [
  'off',
  'Step',
  'installationRevoked',
  'manualMode',
  'onOffSchedule',
  'operatingHours',
  'tz',
  'slackTeamId',
  'RoomId',
  'accountId',
] as const satisfies readonly (keyof ChatEndpoint)[];

type WidgetState = Pick<ChatEndpoint, (typeof PRESENCE_FIELDS)[number]> & { _id: unknown };

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

/** Whether a human member of a linked Slack channel is active (implemented by the Slack side, passed in by main.ts). */
export interface ChannelActivity {
  /** Asks now; rejects when Slack did not answer. `mustAnswer`: no earlier answer to fall back on (waits out a pause). */
  someoneActive(teamId: string, channel: string, mustAnswer: boolean): Promise<boolean>;
  /** True while Slack asked to wait before the team's next presence call (Retry-After). */
  paused(teamId: string): boolean;
}

/** What presence works with (the relay builds it before its context, which holds it). */
export type PresenceHost = {
  models: Pick<Models, 'Account' | 'ChatEndpoint' | 'Conversation'>;
  tuning: Pick<RelayTuning, 'presenceTtlMs' | 'presenceRefreshMs'>;
  clock: { now(): Date };
  logger: Pick<Logger, 'warn'>;
  /** Settings may have changed: the cached widget is dropped on a recheck. */
  widgets: Pick<WidgetCache, 'invalidate'>;
  /** Where presence transitions are recorded for the availability report. */
  reports: Pick<ReportRecorder, 'presence'>;
  pubsub: Pick<PubSub, 'publish'>;
};

export class Presence {
  private readonly channels = new Map<string, { active: boolean; until: number; pending?: Promise<boolean> }>();
  /** Last answer pushed per widget, for widgets someone watches. */
  private readonly watched = new Map<string, { count: number; online: boolean | null }>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly ctx: PresenceHost,
    private readonly activity: ChannelActivity,
  ) {}

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
    const account = await accountBillingState(this.ctx.models.Account, ce.accountId);
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
    const entry = this.watched.get(ceId);
    // Nobody will answer the visitors who wait now: their automatic answers are due at once.
    if (!online && (ce.status === 'online' || entry?.online === true)) await autoAnswerNow(this.ctx.models, ce._id, this.ctx.clock.now());
    if (ce.status !== status) await this.ctx.models.ChatEndpoint.updateOne({ _id: ce._id }, { $set: { status } });
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
    if (cached && this.activity.paused(teamId)) return cached.active;
    const pending = this.activity.someoneActive(teamId, channel, !cached).then(
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
}
