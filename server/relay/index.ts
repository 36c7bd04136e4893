/**
 * The relay between website visitors and Slack threads: the WebSocket gateway, the outbox worker, presence,
 * and the inactivity check. main.ts creates it, hands it to the Slack listeners and the API routers, and
 * `start` wires it on Parley's HTTP server. It knows nothing of the Slack listeners: the Slack posts it
 * queues are run by the job handlers main.ts gives it (server/slack/outboxJobs.ts).
 */
import type { Server } from 'node:http';
import { endConversation } from '../commands/endConversation';
import type { Config } from '../config';
import { fireWebhook, hasRestHooks } from '../conversations/webhooks';
import type { Logger } from '../http/errorHandler';
import { createRateLimiters, type RateLimiters } from '../http/rateLimits';
import type { Mailer } from '../mail';
import type { Models } from '../models';
import type { ReportRecorder } from '../reports/recorder';
import { conversationAssistant } from './assistant';
import { SlackAuthors } from './authors';
import { type Clock, type RelayContext, SYSTEM_CLOCK } from './context';
import { Gateway } from './gateway';
import { type JobHandlers, Outbox } from './outbox';
import { followOtherProcesses } from './peers';
import { Presence } from './presence';
import { inProcessPubSub, type PubSub } from './pubsub';
import { OperatingSchedule } from './schedule';
import type { SlackClients } from './slackClients';
import { relayTuning } from './tuning';
import { WidgetCache } from './widgets';

export type Relay = RelayContext & {
  gateway: Gateway;
  schedule: OperatingSchedule;
  start(server: Server): void;
  close(): Promise<void>;
  /** True once `close` began: work still arriving (a Slack event) is let go, Slack retries it. */
  isClosed(): boolean;
};

export function createRelay(deps: {
  config: Config;
  models: Models;
  mailer: Mailer;
  logger: Logger;
  clock?: Clock;
  reports: ReportRecorder;
  /** What each outbox job kind does: the relay's own (webhooks, mails) and the Slack side's posts. */
  jobHandlers: JobHandlers;
  /** Bot clients of the installed workspaces, for the relay's background Slack calls. */
  slack: SlackClients;
  /** Fan-out to the sockets of every process (createPubSub: over Redis with REDIS_URL); in-process by default. */
  pubsub?: PubSub;
  /** The deployment's counters (createRateLimiters); in-process by default. */
  limiters?: RateLimiters;
}): Relay {
  const { jobHandlers, ...shared } = deps;
  const tuning = relayTuning(deps.config);
  const ctx = {
    ...shared,
    clock: deps.clock ?? SYSTEM_CLOCK,
    tuning,
    pubsub: deps.pubsub ?? inProcessPubSub(),
    limiters: deps.limiters ?? createRateLimiters({ logger: deps.logger }),
    authors: new SlackAuthors(),
    widgets: new WidgetCache(deps.models),
    publicUrl: deps.config.publicUrl,
  } as RelayContext;
  // A stopping process hands its queued keys to the others at once (over Redis) instead of at their next poll.
  ctx.outbox = new Outbox(ctx, jobHandlers, { announce: (keys) => ctx.pubsub.signal({ kind: 'outbox', keys }) });
  ctx.presence = new Presence(ctx);
  ctx.assistant = conversationAssistant(ctx);
  const schedule = new OperatingSchedule(ctx);
  const gateway = new Gateway(ctx);
  let inactivityTimer: NodeJS.Timeout | null = null;
  let unfollow = () => {};
  let closed = false;
  const relay: Relay = Object.assign(ctx, {
    gateway,
    schedule,
    start(server: Server) {
      gateway.attach(server);
      unfollow = followOtherProcesses(ctx);
      ctx.outbox.start();
      ctx.presence.start();
      schedule.start();
      inactivityTimer = setInterval(() => {
        void endInactive(ctx).catch((e: unknown) => ctx.logger.error('relay: inactivity check failed', e));
        void notifyUnanswered(ctx).catch((e: unknown) => ctx.logger.error('relay: no-answer check failed', e));
      }, tuning.inactivityCheckMs);
      inactivityTimer.unref();
    },
    isClosed: () => closed,
    async close() {
      closed = true;
      unfollow();
      if (inactivityTimer) clearInterval(inactivityTimer);
      ctx.presence.stop();
      schedule.stop();
      await gateway.close();
      await ctx.outbox.stop();
      await ctx.pubsub.close();
    },
  });
  return relay;
}

/** Ends open conversations whose visitor has been silent and away longer than the widget's maxVisitorInactiveMins. */
export async function endInactive(ctx: RelayContext, now = new Date()): Promise<number> {
  const candidates = await ctx.models.Conversation.find({ status: 'open' }).limit(5000);
  let ended = 0;
  const widgets = new Map<string, number>();
  for (const c of candidates) {
    const key = String(c.ceId);
    if (!widgets.has(key)) widgets.set(key, (await ctx.models.ChatEndpoint.findById(c.ceId))?.maxVisitorInactiveMins ?? 0);
    const minutes = widgets.get(key) ?? 0;
    if (minutes <= 0) continue;
    const cutoff = now.getTime() - minutes * 60_000;
    const lastVisitorActivity = Math.max(c.lastVisitorMsgAt?.getTime() ?? 0, c.startedAt.getTime());
    if (lastVisitorActivity > cutoff) continue;
    const visitor = await ctx.models.Visitor.findById(c.visitorId);
    if (visitor && visitor.lastSeenAt.getTime() > cutoff) continue;
    if ((await endConversation(ctx, c._id, 'inactivity')).ended) ended += 1;
  }
  return ended;
}

/**
 * Calls noAnswerWebhookUrl once for each open conversation nobody answered within the widget's
 * noAnswerMessageAfterSecs. (Response reminders in the thread are posted by the assistant, relay/assist.ts.)
 */
export async function notifyUnanswered(ctx: RelayContext, now = new Date()): Promise<number> {
  const waiting = await ctx.models.Conversation.find({ status: 'open', firstResponseAt: null, noAnswerNotifiedAt: null }).limit(5000);
  let notified = 0;
  for (const c of waiting) {
    const ce = await ctx.widgets.get(c.ceId);
    if (!ce || now.getTime() - c.startedAt.getTime() < ce.noAnswerMessageAfterSecs * 1000) continue;
    if (!ce.noAnswerWebhookUrl && !(await hasRestHooks(ctx, c.accountId, 'conversation.unanswered'))) continue;
    const marked = await ctx.models.Conversation.updateOne({ _id: c._id, noAnswerNotifiedAt: null }, { $set: { noAnswerNotifiedAt: now } });
    if (marked.modifiedCount !== 1) continue;
    await fireWebhook(ctx, {
      accountId: c.accountId,
      key: `webhook:${String(c._id)}`,
      event: 'conversation.unanswered',
      url: ce.noAnswerWebhookUrl,
      body: {
        event: 'conversation.unanswered',
        conversation: { id: String(c._id), number: c.number, widgetId: ce.Uuid, startedAt: c.startedAt.toISOString(), pageUrl: c.pageUrl },
      },
    });
    notified += 1;
  }
  return notified;
}
