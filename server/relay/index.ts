/**
 * The relay between website visitors and Slack threads: the WebSocket gateway, the outbox engine, presence, pub/sub
 * and the one due-work loop. main.ts creates it, hands it to the Slack listeners and the API routers (each takes a
 * narrow type of what it uses), and `start` wires it on Parley's HTTP server. It knows nothing of Slack: the Slack
 * posts it queues are run by the job handlers main.ts gives it (server/slack/outboxJobs.ts), and what it asks of
 * Slack (who is active in a channel, what an error means) goes through interfaces it declares.
 */
import type { Server } from 'node:http';
import type { Types } from 'mongoose';
import type { ArticleSearch } from '../answers/search';
import { OperatorSeats } from '../billing/operators';
import { AUTO_ANSWER_ROW, type AutoAnswerRow, autoAnswerIfDue } from '../commands/autoAnswers';
import type { AutoSendReplies } from '../commands/autoSendReplies';
import { inactiveAt, SEEN_STALE_MS, scheduleOldDueTimes } from '../commands/conversationDueTimes';
import { endConversation } from '../commands/endConversation';
import { MISSED_ROW, type MissedRow, remindMissedTarget } from '../commands/responseTargets';
import { wakeConversation } from '../commands/snoozeConversation';
import { UNSEEN_ROW, type UnseenRow, unseenWaitDue } from '../commands/unseenReplies';
import type { Config } from '../config';
import type { ConversationAnalytics } from '../conversations/context';
import { inboxFieldsOf } from '../conversations/inbox';
import { JustStarted } from '../conversations/justStarted';
import { fireWebhook, hasRestHooks } from '../conversations/webhooks';
import type { Logger } from '../logger';
import type { Mailer } from '../mail';
import type { Metrics } from '../metrics';
import type { Models } from '../models';
import type { Conversation } from '../models/Conversation';
import type { Visitor } from '../models/Visitor';
import { JOB_RULES } from '../outbox/catalogue';
import { type JobErrorClassifier, Outbox } from '../outbox/engine';
import type { SlackPace } from '../outbox/slackPace';
import { createRateLimiters, type RateLimiters } from '../rateLimits';
import type { ReportRecorder } from '../reports/recorder';
import { type Clock, type RelayContext, type RelayJobHandlers, SYSTEM_CLOCK } from './context';
import { Gateway } from './gateway';
import { registerRelayGauges } from './metrics';
import { followOtherProcesses } from './peers';
import { type ChannelActivity, Presence } from './presence';
import { inProcessPubSub, type PubSub } from './pubsub';
import { REMINDER_ROW, type ReminderRow, remindIfDue } from './reminders';
import { OperatingSchedule } from './schedule';
import { relayTuning } from './tuning';
import { WidgetCache } from './widgets';

export type Relay = RelayContext & {
  gateway: Gateway;
  schedule: OperatingSchedule;
  /** The due work (inactivity, no answer, automatic answers, reminders, unseen-replies mail); `tick(now)` runs one pass now. */
  dueWork: Pick<DueWork, 'tick' | 'run'>;
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
  /** Where the relay counts messages and times acks and Slack posts; it adds its gauges (sockets, outbox). */
  metrics: Metrics;
  clock?: Clock;
  reports: ReportRecorder;
  /** What each outbox job kind does: the relay's own (webhooks, mails) and the Slack side's posts. */
  jobHandlers: RelayJobHandlers;
  /** What the job handlers' failures mean (the Slack side's: rate limits, Slack's error codes). */
  classifyJobError?: JobErrorClassifier;
  /** Who is active in a linked channel (the Slack side asks Slack), for presence. */
  channelActivity: ChannelActivity;
  /** Another process changed a team's Slack installation: what this one forgets (the Slack side's cached clients). */
  teamChanged?: (teamId: string) => void;
  /** Fan-out to the sockets of every process (createPubSub: over Redis with REDIS_URL); in-process by default. */
  pubsub?: PubSub;
  /** The deployment's counters (createRateLimiters); in-process by default. */
  limiters?: RateLimiters;
  /** Slack's pace per channel shared by every process (redisSlackPace, with REDIS_URL); each process alone by default. */
  slackPace?: SlackPace;
  /** This process is the deployment's only one (no REDIS_URL): its outbox knows every job (server/outbox/engine.ts `alone`). */
  singleProcess?: boolean;
  /** The widgets' automatic saved replies in memory (their writes signal the other processes over `pubsub`). */
  autoReplies: AutoSendReplies;
  /** Segment track calls for widgets with a write key. */
  analytics: ConversationAnalytics;
  /** The help center's search, for automatic answers. */
  articleSearch: ArticleSearch;
}): Relay {
  const { jobHandlers, slackPace, singleProcess, classifyJobError, channelActivity, teamChanged = () => {}, ...given } = deps;
  const tuning = relayTuning(deps.config);
  const clock = deps.clock ?? SYSTEM_CLOCK;
  const pubsub = deps.pubsub ?? inProcessPubSub();
  const widgets = new WidgetCache(deps.models);
  const outbox = new Outbox<RelayContext>({ models: deps.models, tuning, logger: deps.logger }, jobHandlers, {
    // A stopping process hands its queued keys to the others at once (over Redis) instead of at their next poll.
    announce: (keys) => pubsub.signal({ kind: 'outbox', keys }),
    rules: JOB_RULES,
    pace: slackPace,
    alone: singleProcess,
    classify: classifyJobError,
    // The handlers get the relay's context, built right below; jobs run only once the relay started.
    context: () => ctx,
  });
  const presence = new Presence(
    { models: deps.models, tuning, clock, logger: deps.logger, widgets, reports: deps.reports, pubsub },
    channelActivity,
  );
  const ctx: RelayContext = {
    ...given,
    clock,
    tuning,
    pubsub,
    limiters: deps.limiters ?? createRateLimiters({ logger: deps.logger }),
    seats: new OperatorSeats(deps.models),
    widgets,
    outbox,
    presence,
    publicUrl: deps.config.publicUrl,
    justStarted: new JustStarted(),
  };
  const schedule = new OperatingSchedule(ctx);
  const gateway = new Gateway(ctx);
  registerRelayGauges(deps.metrics.registry, { gateway, models: deps.models });
  const dueWork = createDueWork(ctx);
  let unfollow = () => {};
  let closed = false;
  const relay: Relay = {
    ...ctx,
    gateway,
    schedule,
    dueWork,
    start(server: Server) {
      gateway.attach(server);
      unfollow = followOtherProcesses(ctx, teamChanged);
      ctx.outbox.start();
      ctx.presence.start();
      dueWork.start();
    },
    isClosed: () => closed,
    async close() {
      closed = true;
      unfollow();
      await dueWork.stop();
      ctx.presence.stop();
      await gateway.close();
      await ctx.outbox.stop();
      await ctx.pubsub.close();
    },
  };
  return relay;
}

/** Conversations one look at a due-time index reads at most; a pass takes up to DUE_BATCHES of them, the rest wait for the next. */
const DUE_BATCH = 500;
const DUE_BATCHES = 10;

/**
 * Looks at the conversations whose `field` has come, earliest first, in batches: `look` resolves each (ends it,
 * notifies, or moves its due time on), so a pass reads what is due and nothing when nothing is. Open ones only,
 * except for the unseen-replies mail, which an ended conversation still gets, and reminders, whose look clears the
 * due time of an ended one.
 */
async function duePass<Row extends { _id: Types.ObjectId }>(
  ctx: RelayContext,
  field: 'inactiveAt' | 'noAnswerAt' | 'autoAnswerAt' | 'unseenMailAt' | 'reminderAt' | 'snoozedUntil' | 'targetDueAt',
  projection: Record<keyof Omit<Row, '_id'>, 1>,
  now: Date,
  look: (row: Row) => Promise<boolean>,
  stopped: () => boolean,
  /** More conditions of the conversations read (a missed target: not reminded yet). */
  also: Record<string, unknown> = {},
): Promise<number> {
  let done = 0;
  for (let batch = 0; batch < DUE_BATCHES && !stopped(); batch++) {
    const due = await ctx.models.Conversation.find(
      { ...(field === 'unseenMailAt' || field === 'reminderAt' ? {} : { status: 'open' }), ...also, [field]: { $lte: now } },
      projection,
    )
      .sort({ [field]: 1 })
      .limit(DUE_BATCH)
      .lean<Row[]>()
      .exec();
    for (const row of due) {
      if (stopped()) break;
      try {
        if (await look(row)) done += 1;
      } catch (error) {
        // One conversation that cannot be handled now (it stays due, and is tried again next pass) holds up no other.
        ctx.logger.error({ conversationId: String(row._id), field, err: error }, 'relay: due check of a conversation failed');
      }
    }
    if (due.length < DUE_BATCH) break;
  }
  return done;
}

/** Moves a due time on, unless someone moved it since it was read (a visitor message, a settings change, another process). */
async function reschedule(ctx: RelayContext, id: Types.ObjectId, field: 'inactiveAt' | 'noAnswerAt', was: Date | null, next: Date | null) {
  await ctx.models.Conversation.updateOne({ _id: id, status: 'open', [field]: was }, { $set: { [field]: next } });
}

type InactiveRow = Pick<Conversation, 'ceId' | 'visitorId' | 'startedAt' | 'lastVisitorMsgAt' | 'inactiveAt'> & { _id: Types.ObjectId };

/**
 * Ends open conversations whose visitor has been silent and away longer than the widget's maxVisitorInactiveMins
 * (0: as soon as they are away). Reads only those whose `inactiveAt` has come; one whose visitor is still on the page
 * (lastSeenAt, written while the widget is open) gets its due time moved on instead.
 */
export function endInactive(ctx: RelayContext, now = ctx.clock.now(), stopped = () => false): Promise<number> {
  const projection = { ceId: 1, visitorId: 1, startedAt: 1, lastVisitorMsgAt: 1, inactiveAt: 1 } as const;
  return duePass<InactiveRow>(
    ctx,
    'inactiveAt',
    projection,
    now,
    async (c) => {
      const ce = await ctx.widgets.get(c.ceId);
      const lastActivity = Math.max(c.startedAt.getTime(), c.lastVisitorMsgAt?.getTime() ?? 0);
      // The grace period may have changed since the due time was set.
      const dueAt = ce ? inactiveAt(new Date(lastActivity), ce) : null;
      if (!ce || !dueAt || dueAt > now) {
        await reschedule(ctx, c._id, 'inactiveAt', c.inactiveAt, dueAt);
        return false;
      }
      const visitor = await ctx.models.Visitor.findById(c.visitorId, { lastSeenAt: 1 }).lean<Pick<Visitor, 'lastSeenAt'>>().exec();
      const stillHere = visitor ? inactiveAt(new Date(visitor.lastSeenAt.getTime() + SEEN_STALE_MS), ce) : null;
      if (stillHere && stillHere > now) {
        await reschedule(ctx, c._id, 'inactiveAt', c.inactiveAt, stillHere);
        return false;
      }
      return (await endConversation(ctx, c._id, 'inactivity', c.inactiveAt ? { dueAt: c.inactiveAt } : {})).ended;
    },
    stopped,
  );
}

type UnansweredRow = Pick<
  Conversation,
  | 'accountId'
  | 'ceId'
  | 'number'
  | 'startedAt'
  | 'pageUrl'
  | 'firstResponseAt'
  | 'noAnswerNotifiedAt'
  | 'noAnswerAt'
  | 'resolvedByArticleAt'
  | 'status'
  | 'inboxState'
  | 'assigneeId'
  | 'tags'
> & { _id: Types.ObjectId };

/**
 * Calls noAnswerWebhookUrl (and the account's REST hooks) once for each open conversation nobody answered within
 * the widget's noAnswerMessageAfterSecs. Reads only those whose `noAnswerAt` has come. (Response reminders in the
 * thread: sendDueReminders.)
 */
export function notifyUnanswered(ctx: RelayContext, now = ctx.clock.now(), stopped = () => false): Promise<number> {
  const projection = {
    accountId: 1,
    ceId: 1,
    number: 1,
    startedAt: 1,
    pageUrl: 1,
    firstResponseAt: 1,
    noAnswerNotifiedAt: 1,
    noAnswerAt: 1,
    resolvedByArticleAt: 1,
    // The shared inbox's fields the webhook carries.
    status: 1,
    inboxState: 1,
    assigneeId: 1,
    tags: 1,
  } as const;
  return duePass<UnansweredRow>(
    ctx,
    'noAnswerAt',
    projection,
    now,
    async (c) => {
      const ce = await ctx.widgets.get(c.ceId);
      const waiting = ce && !c.firstResponseAt && !c.noAnswerNotifiedAt && !c.resolvedByArticleAt;
      const dueAt = waiting ? new Date(c.startedAt.getTime() + ce.noAnswerMessageAfterSecs * 1000) : null;
      if (!ce || !dueAt || dueAt > now) {
        await reschedule(ctx, c._id, 'noAnswerAt', c.noAnswerAt, dueAt);
        return false;
      }
      // Nobody to tell now: the conversation is not looked at again.
      if (!ce.noAnswerWebhookUrl && !(await hasRestHooks(ctx, c.accountId, 'conversation.unanswered'))) {
        await reschedule(ctx, c._id, 'noAnswerAt', c.noAnswerAt, null);
        return false;
      }
      // The guard between processes and against an answer arriving meanwhile: only one marks it.
      const marked = await ctx.models.Conversation.updateOne(
        { _id: c._id, noAnswerNotifiedAt: null, firstResponseAt: null, resolvedByArticleAt: null },
        { $set: { noAnswerNotifiedAt: now, noAnswerAt: null } },
      );
      if (marked.modifiedCount !== 1) return false;
      await fireWebhook(ctx, {
        accountId: c.accountId,
        key: `webhook:${String(c._id)}`,
        event: 'conversation.unanswered',
        url: ce.noAnswerWebhookUrl,
        body: {
          event: 'conversation.unanswered',
          conversation: {
            id: String(c._id),
            number: c.number,
            widgetId: ce.Uuid,
            startedAt: c.startedAt.toISOString(),
            pageUrl: c.pageUrl,
            ...inboxFieldsOf(c),
          },
        },
      });
      return true;
    },
    stopped,
  );
}

/**
 * Answers from the help center the open conversations nobody answered within the widget's autoAnswerAfterSeconds, once
 * each (commands/autoAnswers.ts). Reads only those whose `autoAnswerAt` has come.
 */
export function sendAutoAnswers(ctx: RelayContext, now = ctx.clock.now(), stopped = () => false): Promise<number> {
  return duePass<AutoAnswerRow>(ctx, 'autoAnswerAt', AUTO_ANSWER_ROW, now, (c) => autoAnswerIfDue(ctx, c, now), stopped);
}

/**
 * Mails operator replies the visitor has not seen within the widget's emailUnseenAfterMinutes (one mail per wait;
 * commands/unseenReplies.ts). Reads only conversations whose `unseenMailAt` has come.
 */
export function mailUnseenReplies(ctx: RelayContext, now = ctx.clock.now(), stopped = () => false): Promise<number> {
  return duePass<UnseenRow>(ctx, 'unseenMailAt', UNSEEN_ROW, now, (c) => unseenWaitDue(ctx, c, ctx.clock.now()), stopped);
}

/**
 * Posts a reminder in the thread of each open conversation whose visitor waits unanswered longer than the widget's
 * responseRemindersFreq (relay/reminders.ts). Reads only those whose `reminderAt` has come.
 */
export function sendDueReminders(ctx: RelayContext, now = ctx.clock.now(), stopped = () => false): Promise<number> {
  return duePass<ReminderRow>(ctx, 'reminderAt', REMINDER_ROW, now, (c) => remindIfDue(ctx, c, now), stopped);
}

/**
 * Brings back to open the snoozed conversations whose snooze has ended (commands/snoozeConversation.ts: a line in the
 * thread naming the assignee). Reads only those whose `snoozedUntil` has come.
 */
export function wakeSnoozed(ctx: RelayContext, now = ctx.clock.now(), stopped = () => false): Promise<number> {
  return duePass<{ _id: Types.ObjectId; snoozedUntil: Date }>(
    ctx,
    'snoozedUntil',
    { snoozedUntil: 1 },
    now,
    (c) => wakeConversation(ctx, c._id, { kind: 'time', dueAt: c.snoozedUntil }),
    stopped,
  );
}

/**
 * Gives each open conversation past its response target, not reminded yet, its one reminder and a header that says
 * the target was missed (commands/responseTargets.ts). Reads only those whose `targetDueAt` has come.
 */
export function remindMissedTargets(ctx: RelayContext, now = ctx.clock.now(), stopped = () => false): Promise<number> {
  return duePass<MissedRow>(ctx, 'targetDueAt', MISSED_ROW, now, (c) => remindMissedTarget(ctx, c, now), stopped, {
    targetRemindedAt: null,
  });
}

export type DueWork = {
  start(): void;
  /** Runs one pass now, after any running one (`now`: a later time, as tests move the clock on). */
  tick(now?: Date): Promise<void>;
  /** The scheduler's pass: as tick, and rejects when one of its checks failed (each is logged). */
  run(): Promise<void>;
  stop(): Promise<void>;
};

/**
 * The one due work: a pass is the inactivity end, the no-answer webhook, automatic answers, response reminders and
 * the unseen-replies mail, each reading only the conversations whose due time (commands/conversationDueTimes.ts) has
 * come; passes run one after another. The scheduler's 'due work' task (server/tasks.ts) runs one every
 * `inactivityCheckMs`; at start, conversations from before the due fields get theirs.
 */
function createDueWork(ctx: RelayContext): DueWork {
  let chain: Promise<void> = Promise.resolve();
  let stopping = false;
  const stopped = () => stopping;
  const checks: [string, (now: Date) => Promise<number>][] = [
    ['inactivity check', (now) => endInactive(ctx, now, stopped)],
    ['no-answer check', (now) => notifyUnanswered(ctx, now, stopped)],
    ['automatic answers', (now) => sendAutoAnswers(ctx, now, stopped)],
    ['response reminders', (now) => sendDueReminders(ctx, now, stopped)],
    ['unseen-replies mail', (now) => mailUnseenReplies(ctx, now, stopped)],
    ['snoozes ending', (now) => wakeSnoozed(ctx, now, stopped)],
    ['missed response targets', (now) => remindMissedTargets(ctx, now, stopped)],
  ];
  /** One pass; answers the checks that failed (each logged, the others still run). */
  const pass = async (at?: Date): Promise<string[]> => {
    const failed: string[] = [];
    for (const [name, check] of checks) {
      if (stopping) break;
      await check(at ?? ctx.clock.now()).catch((e: unknown) => {
        failed.push(name);
        ctx.logger.error({ err: e }, `relay: ${name} failed`);
      });
    }
    return failed;
  };
  const queue = <T>(work: () => Promise<T>): Promise<T> => {
    const done = chain.then(work);
    chain = done.then(
      () => {},
      () => {},
    );
    return done;
  };
  return {
    start() {
      stopping = false;
      void queue(() =>
        scheduleOldDueTimes(ctx.models).catch((e: unknown) => ctx.logger.error({ err: e }, 'relay: scheduling due checks failed')),
      );
    },
    tick: (now) => queue(() => pass(now)).then(() => {}),
    async run() {
      const failed = await queue(() => pass());
      if (failed.length > 0) throw new Error(`due work: ${failed.join(', ')} failed`);
    },
    async stop() {
      stopping = true;
      await chain;
    },
  };
}
