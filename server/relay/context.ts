import type { ArticleSearch } from '../answers/search';
import type { OperatorSeats } from '../billing/operators';
import type { AutoSendReplies } from '../commands/autoSendReplies';
import type { Config, RelayTuning } from '../config';
import type { ConversationAnalytics } from '../conversations/context';
import type { JustStarted } from '../conversations/justStarted';
import type { Logger } from '../logger';
import type { Mailer } from '../mail';
import type { Metrics } from '../metrics';
import type { Models } from '../models';
import type { JobKind, JobPayloads } from '../outbox/catalogue';
import type { Job, JobHandler, JobHandlers, Outbox } from '../outbox/engine';
import type { RateLimiters } from '../rateLimits';
import type { ReportRecorder } from '../reports/recorder';
import type { Presence } from './presence';
import type { PubSub } from './pubsub';
import type { WidgetCache } from './widgets';

/** What every part of the relay works with. */
export type RelayContext = {
  config: Config;
  tuning: RelayTuning;
  models: Models;
  mailer: Mailer;
  logger: Logger;
  /** Parley's Prometheus metrics (server/metrics.ts): counted where things happen. */
  metrics: Metrics;
  pubsub: PubSub;
  /** Counters of the deployment (in Redis with several processes), e.g. new sockets per IP. */
  limiters: RateLimiters;
  /** The plan's operator seats, remembered once taken. */
  seats: OperatorSeats;
  outbox: Outbox<RelayContext>;
  presence: Presence;
  widgets: WidgetCache;
  /** The widgets' automatic saved replies, kept in memory (built by main.ts). */
  autoReplies: AutoSendReplies;
  /** Where presence transitions are recorded for the availability report. */
  reports: ReportRecorder;
  /** Segment track calls for widgets with a write key (built by main.ts). */
  analytics: ConversationAnalytics;
  /** The help center's search (built by main.ts): automatic answers. */
  articleSearch: ArticleSearch;
  /** Base URL of Parley, for file links handed to widgets. */
  publicUrl: string;
  /** New conversations handed to their header job (conversations/justStarted.ts). */
  justStarted: JustStarted;
  /** What time it is; tests pass a clock they control. */
  clock: Clock;
};

/** The outbox's job handlers as the relay runs them: each gets the relay's context and its kind's job. */
export type RelayJobHandler<K extends JobKind> = JobHandler<RelayContext, K>;
export type RelayJobHandlers = JobHandlers<RelayContext>;
/** A job of kind K, its payload typed (JobPayloads[K]). */
export type RelayJob<K extends JobKind> = Job<K, JobPayloads>;

export type Clock = { now(): Date };

export const SYSTEM_CLOCK: Clock = { now: () => new Date() };
