/** What App Home uses of the relay: the widgets' state and their topics (the relay has it all). */
type HomeRelay = {
  models: Models;
  logger: Pick<Logger, 'warn'>;
  pubsub: Pick<PubSub, 'subscribe'>;
  presence: Pick<Presence, 'state'>;
};

/**
 * Keeps the App Home tabs people opened up to date. A home is published when opened, and again when
 * something it shows may have changed: settings or presence of a widget of the team (the widget topics of the
 * relay), a message in a linked channel (a new or answered conversation), an operator action, and a sweep
 * every half minute (presence of widgets nobody's browser watches). Publishes are rate-limited per person
 * (at most one per `minIntervalMs`, the last change always shown: trailing), and skipped when the view did not
 * change. People who have not opened the tab for an hour are forgotten until they open it again.
 */
import type { Config } from '../config';
import { identityProof } from '../conversations/identity';
import { inboxStateOf } from '../conversations/inbox';
import { visitorLabel } from '../conversations/visitors';
import type { Logger } from '../logger';
import type { Models } from '../models';
import type { Conversation } from '../models/Conversation';
import type { Presence } from '../relay/presence';
import type { PubSub } from '../relay/pubsub';
import { type HomeWidget, homeView, type InboxList, type InboxRow } from './blocks/home';
import { availabilityOf, conversationCounts, widgetsOfMember } from './operators';
import type { SlackClients } from './slackClients';

const FORGET_AFTER_MS = 60 * 60 * 1000;
const SWEEP_MS = 30_000;
const MAX_WAITING_SHOWN = 10;
/** Lines of Mine and of Unassigned shown per widget (the rest: "and N more"), within Slack's 100 blocks and 3000 characters. */
export const MAX_INBOX_SHOWN = 8;

type Viewer = {
  seenAt: number;
  lastPublishAt: number;
  timer: NodeJS.Timeout | null;
  lastJson: string;
  publishing: boolean;
  again: boolean;
};

export class HomeTabs {
  /** At most one publish per person in this window (a trailing one carries the latest state). */
  minIntervalMs = 10_000;
  private readonly viewers = new Map<string, Map<string, Viewer>>();
  private readonly watching = new Map<string, () => void>();
  private sweepTimer: NodeJS.Timeout | null = null;

  constructor(private readonly deps: { models: Models; config: Config; relay: HomeRelay; slack: SlackClients }) {}

  /** The person opened the tab: publish now and keep it fresh from here on. */
  async opened(teamId: string, userId: string): Promise<void> {
    let team = this.viewers.get(teamId);
    if (!team) {
      team = new Map();
      this.viewers.set(teamId, team);
    }
    const viewer = team.get(userId) ?? { seenAt: 0, lastPublishAt: 0, timer: null, lastJson: '', publishing: false, again: false };
    viewer.seenAt = Date.now();
    // Opening the tab shows the current state even when it did not change.
    viewer.lastJson = '';
    team.set(userId, viewer);
    this.startSweep();
    await this.publish(teamId, userId, viewer);
    await this.watchWidgets(teamId);
  }

  /** Something a home of this team shows may have changed. */
  teamChanged(teamId: string): void {
    const team = this.viewers.get(teamId);
    if (!team) return;
    for (const [userId, viewer] of team) this.schedule(teamId, userId, viewer);
  }

  /** The person changed something from their own home: show it now, without waiting for the rate limit. */
  async refreshNow(teamId: string, userId: string): Promise<void> {
    const viewer = this.viewers.get(teamId)?.get(userId);
    if (viewer) await this.publish(teamId, userId, viewer);
    this.teamChanged(teamId);
  }

  /** Whether anyone of this team has a home Parley keeps fresh. */
  watches(teamId: string): boolean {
    return (this.viewers.get(teamId)?.size ?? 0) > 0;
  }

  stop(): void {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
    for (const off of this.watching.values()) off();
    this.watching.clear();
    for (const team of this.viewers.values()) for (const v of team.values()) if (v.timer) clearTimeout(v.timer);
    this.viewers.clear();
  }

  private schedule(teamId: string, userId: string, viewer: Viewer): void {
    if (viewer.timer) return;
    const wait = Math.max(0, viewer.lastPublishAt + this.minIntervalMs - Date.now());
    viewer.timer = setTimeout(() => {
      viewer.timer = null;
      void this.publish(teamId, userId, viewer);
    }, wait);
    viewer.timer.unref();
  }

  private async publish(teamId: string, userId: string, viewer: Viewer): Promise<void> {
    if (viewer.publishing) {
      viewer.again = true;
      return;
    }
    viewer.publishing = true;
    try {
      const { relay } = this.deps;
      const team = await this.deps.slack.forTeam(teamId);
      if (!team) return;
      const view = homeView({
        consoleUrl: `${this.deps.config.publicUrl}/app/`,
        widgets: await homeWidgets(relay, team.client, teamId, userId),
      });
      const json = JSON.stringify(view);
      if (json === viewer.lastJson) return;
      viewer.lastPublishAt = Date.now();
      await team.client.views.publish({ user_id: userId, view });
      viewer.lastJson = json;
    } catch (error) {
      this.deps.relay.logger.warn({ slackUser: userId, err: error }, 'home: could not publish an App Home');
    } finally {
      viewer.publishing = false;
      if (viewer.again) {
        viewer.again = false;
        this.schedule(teamId, userId, viewer);
      }
    }
  }

  /** Settings and presence of the team's widgets arrive on their relay topics. */
  private async watchWidgets(teamId: string): Promise<void> {
    const { relay } = this.deps;
    const ces = await this.deps.models.ChatEndpoint.find({ slackTeamId: teamId, Step: 3 }, { _id: 1 });
    for (const ce of ces) {
      const id = String(ce._id);
      if (this.watching.has(id)) continue;
      this.watching.set(
        id,
        relay.pubsub.subscribe(`widget:${id}`, (frame) => {
          if (frame.t === 'config' || frame.t === 'presence') this.teamChanged(teamId);
        }),
      );
    }
  }

  private startSweep(): void {
    if (this.sweepTimer) return;
    this.sweepTimer = setInterval(() => this.sweep(), SWEEP_MS);
    this.sweepTimer.unref();
  }

  private sweep(): void {
    const cutoff = Date.now() - FORGET_AFTER_MS;
    for (const [teamId, team] of this.viewers) {
      for (const [userId, v] of team) {
        if (v.seenAt < cutoff) {
          if (v.timer) clearTimeout(v.timer);
          team.delete(userId);
        }
      }
      if (team.size === 0) this.viewers.delete(teamId);
      else this.teamChanged(teamId);
    }
  }
}

/** What the App Home of `userId` shows: the widgets whose channel they are in. */
export async function homeWidgets(
  relay: HomeRelay,
  client: Parameters<typeof widgetsOfMember>[1],
  teamId: string,
  userId: string,
): Promise<HomeWidget[]> {
  const out: HomeWidget[] = [];
  for (const ce of await widgetsOfMember(relay.models, client, teamId, userId)) {
    const [availability, counts, waiting] = await Promise.all([
      availabilityOf(relay, ce),
      conversationCounts(relay.models, ce),
      relay.models.Conversation.find({ ceId: ce._id, status: 'open', firstResponseAt: null, resolvedByArticleAt: null })
        .sort({ startedAt: 1 })
        .limit(MAX_WAITING_SHOWN),
    ]);
    const linkOf = async (c: Pick<Conversation, 'slackChannel' | 'threadTs'>) => {
      if (!c.threadTs) return '';
      try {
        return (await client.chat.getPermalink({ channel: c.slackChannel, message_ts: c.threadTs })).permalink ?? '';
      } catch {
        return '';
      }
    };
    const now = new Date();
    const inboxList = async (who: Record<string, unknown>): Promise<InboxList> => {
      const { rows, total } = await oldestWaitingFirst(relay.models, { ceId: ce._id, status: 'open', ...who });
      const out: InboxRow[] = [];
      for (const c of rows) {
        const visitor = await relay.models.Visitor.findById(c.visitorId, { name: 1, email: 1 })
          .lean<{ name: string; email: string }>()
          .exec();
        out.push({
          number: c.number,
          name: visitor ? visitorLabel(visitor, c.number) : `Visitor ${c.number}`,
          link: await linkOf(c),
          state: inboxStateOf(c),
          waitingSince: c.waitingSince ?? null,
          snoozedUntil: c.snoozedUntil ?? null,
          missed: !!c.targetRemindedAt || (!!c.targetDueAt && c.targetDueAt.getTime() <= now.getTime()),
        });
      }
      return { rows: out, total };
    };
    const [mine, unassigned] = await Promise.all([inboxList({ assigneeId: userId }), inboxList({ assigneeId: { $in: ['', null] } })]);
    const rows: HomeWidget['waiting'] = [];
    for (const c of waiting) {
      const visitor = await relay.models.Visitor.findById(c.visitorId);
      const link = await linkOf(c);
      rows.push({
        number: c.number,
        name: visitor ? visitorLabel(visitor, c.number) : `Visitor ${c.number}`,
        proof: visitor ? identityProof(visitor, ce) : '',
        since: c.startedAt,
        link,
      });
    }
    out.push({
      id: ce.id,
      channelId: ce.RoomId,
      channelName: ce.RoomName,
      off: ce.off,
      manualMode: ce.manualMode,
      online: availability.online,
      why: availability.why,
      today: counts.today,
      last30Days: counts.last30Days,
      waiting: rows,
      mine,
      unassigned,
    });
  }
  return out;
}

type InboxLine = Pick<
  Conversation,
  | 'number'
  | 'visitorId'
  | 'slackChannel'
  | 'threadTs'
  | 'status'
  | 'inboxState'
  | 'waitingSince'
  | 'snoozedUntil'
  | 'targetDueAt'
  | 'targetRemindedAt'
  | 'startedAt'
>;
const INBOX_LINE = {
  number: 1,
  visitorId: 1,
  slackChannel: 1,
  threadTs: 1,
  status: 1,
  inboxState: 1,
  waitingSince: 1,
  snoozedUntil: 1,
  targetDueAt: 1,
  targetRemindedAt: 1,
  startedAt: 1,
} as const;

/**
 * The first MAX_INBOX_SHOWN conversations of `filter`, oldest waiting first: those whose visitor waits for the team by
 * the start of their wait, then the others (waiting for the visitor, snoozed) by their start; and how many in all.
 */
async function oldestWaitingFirst(models: Models, filter: Record<string, unknown>): Promise<{ rows: InboxLine[]; total: number }> {
  const [total, waiting] = await Promise.all([
    models.Conversation.countDocuments(filter),
    models.Conversation.find({ ...filter, waitingSince: { $ne: null } }, INBOX_LINE)
      .sort({ waitingSince: 1 })
      .limit(MAX_INBOX_SHOWN)
      .lean<InboxLine[]>()
      .exec(),
  ]);
  const left = Math.min(MAX_INBOX_SHOWN, total) - waiting.length;
  const others =
    left > 0
      ? await models.Conversation.find({ ...filter, waitingSince: null }, INBOX_LINE)
          .sort({ startedAt: 1 })
          .limit(left)
          .lean<InboxLine[]>()
          .exec()
      : [];
  return { rows: [...waiting, ...others], total };
}
