/**
 * The relay between website visitors and Slack threads: the WebSocket gateway, the outbox worker, presence,
 * and the inactivity check. `startRelay` wires them on Parley's HTTP server; the Slack message listener finds
 * the relay of its models through `relayFor`.
 */
import type { Server } from 'node:http';
import type { App } from '@slack/bolt';
import { endConversation } from '../commands/endConversation';
import type { Config } from '../config';
import type { Logger } from '../http/errorHandler';
import type { Mailer } from '../mail';
import type { Models } from '../models';
import type { ReportRecorder } from '../reports/recorder';
import { type Clock, type RelayContext, SYSTEM_CLOCK } from './context';
import { handleSlackMessage, SlackAuthors, type SlackMessageEvent } from './fromSlack';
import { Gateway } from './gateway';
import { JOB_HANDLERS } from './jobs';
import { Outbox } from './outbox';
import { Presence } from './presence';
import { inProcessPubSub } from './pubsub';
import { OperatingSchedule } from './schedule';
import { SlackClients } from './slackClients';
import { relayTuning } from './tuning';
import { fireWebhook, hasRestHooks } from './webhooks';
import { WidgetCache } from './widgets';

export type Relay = RelayContext & { gateway: Gateway; schedule: OperatingSchedule; start(server: Server): void; close(): Promise<void> };

const relays = new WeakMap<Models, Relay>();

/** The relay running on these models (one per Parley instance), if any. */
export function relayFor(models: Models): Relay | undefined {
  return relays.get(models);
}

export function createRelay(deps: {
  config: Config;
  models: Models;
  mailer: Mailer;
  logger: Logger;
  clock?: Clock;
  reports: ReportRecorder;
}): Relay {
  const tuning = relayTuning(deps.config);
  const ctx = {
    ...deps,
    clock: deps.clock ?? SYSTEM_CLOCK,
    tuning,
    pubsub: inProcessPubSub(),
    slack: new SlackClients(deps.models, deps.config.slack.apiUrl),
    authors: new SlackAuthors(),
    widgets: new WidgetCache(deps.models),
    publicUrl: deps.config.publicUrl,
  } as RelayContext;
  ctx.outbox = new Outbox(ctx, JOB_HANDLERS);
  ctx.presence = new Presence(ctx);
  const schedule = new OperatingSchedule(ctx);
  const gateway = new Gateway(ctx);
  let inactivityTimer: NodeJS.Timeout | null = null;
  const relay: Relay = Object.assign(ctx, {
    gateway,
    schedule,
    start(server: Server) {
      gateway.attach(server);
      ctx.outbox.start();
      ctx.presence.start();
      schedule.start();
      inactivityTimer = setInterval(() => {
        void endInactive(ctx).catch((e: unknown) => ctx.logger.error('relay: inactivity check failed', e));
        void notifyUnanswered(ctx).catch((e: unknown) => ctx.logger.error('relay: no-answer check failed', e));
      }, tuning.inactivityCheckMs);
      inactivityTimer.unref();
    },
    async close() {
      relays.delete(deps.models);
      if (inactivityTimer) clearInterval(inactivityTimer);
      ctx.presence.stop();
      schedule.stop();
      await gateway.close();
      await ctx.outbox.stop();
      await ctx.pubsub.close();
    },
  });
  relays.set(deps.models, relay);
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

/** Registers the Slack `message` listener of the relay on the Bolt app (acknowledged by Bolt before it runs). */
export function registerRelayListeners(app: App, models: Models): void {
  app.event('message', async ({ event, body }) => {
    const relay = relayFor(models);
    if (!relay) return;
    const envelope = body as { team_id?: string; event_id?: string };
    try {
      await handleSlackMessage(relay, envelope.team_id ?? '', envelope.event_id, event as unknown as SlackMessageEvent);
    } catch (error) {
      // An event that arrives while Parley shuts down is lost with the closing database; Slack retries it.
      if (relayFor(models) === relay) throw error;
    }
  });
}
