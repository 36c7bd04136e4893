/**
 * Parley's Prometheus metrics (prom-client), on a registry of the process's own: main.ts builds one per Parley and
 * hands it to the parts that count, so several Parleys in one process (tests) never share a series. GET /metrics
 * (server/http/metrics.ts) serves it. Counters and histograms are observed where things happen, with one cheap call;
 * what is read from elsewhere (open sockets, the outbox) is computed when scraped, by the gauges' `collect`, which
 * the part that owns the figure registers (`metrics.registry`).
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** Buckets for latencies of the hot path, in seconds (an ack in a few ms; a Slack post in tens to hundreds). */
const FAST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
const SLACK_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];
/** Buckets for the scheduler's tasks: a due-work look in milliseconds, a backup or a retention pass in minutes. */
const TASK_BUCKETS = [0.005, 0.025, 0.1, 0.5, 2.5, 10, 60, 300, 1800, 7200];

export type Metrics = {
  registry: Registry;
  visitorMessages: Counter;
  operatorMessages: Counter;
  /** A visitor's message frame received → its ack sent (stored). */
  relayAck: Histogram;
  /** A visitor's message stored → Slack accepted the post carrying it. */
  slackPost: Histogram;
  slackApiCalls: Counter<'method' | 'outcome'>;
  conversationsStarted: Counter;
  emailsSent: Counter<'kind'>;
  stripeWebhooks: Counter<'type' | 'outcome'>;
  /** By route template (never the raw path) and status code. */
  httpRequests: Histogram<'route' | 'status'>;
  /** The scheduler's tasks (server/scheduler.ts): each run's duration by task and outcome ('ok', 'failed'). */
  taskRuns: Histogram<'task' | 'outcome'>;
  taskFailures: Counter<'task'>;
  /** When each task's last run in this process ended, in Unix seconds. */
  taskLastRun: Gauge<'task'>;
};

/**
 * A registry with Parley's metrics. `processMetrics`: also Node's defaults (event-loop lag, heap, GC, CPU), which
 * watch the process on their own: only when someone can scrape them (METRICS_TOKEN set).
 */
export function createMetrics(options: { processMetrics: boolean }): Metrics {
  const registry = new Registry();
  if (options.processMetrics) collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    visitorMessages: new Counter({
      name: 'parley_visitor_messages_total',
      help: 'Messages visitors sent in the widget (stored and acknowledged).',
      registers,
    }),
    operatorMessages: new Counter({
      name: 'parley_operator_messages_total',
      help: 'Operator replies from Slack threads relayed to visitors.',
      registers,
    }),
    relayAck: new Histogram({
      name: 'parley_relay_ack_seconds',
      help: "A visitor's message frame received until its ack (stored) was sent.",
      buckets: FAST_BUCKETS,
      registers,
    }),
    slackPost: new Histogram({
      name: 'parley_slack_post_seconds',
      help: "A visitor's message stored until Slack accepted the post carrying it.",
      buckets: SLACK_BUCKETS,
      registers,
    }),
    slackApiCalls: new Counter({
      name: 'parley_slack_api_calls_total',
      help: "Slack Web API calls by method and outcome ('ok', Slack's error code, 'http_<status>', or 'network').",
      labelNames: ['method', 'outcome'],
      registers,
    }),
    conversationsStarted: new Counter({
      name: 'parley_conversations_started_total',
      help: 'Conversations opened by a visitor message.',
      registers,
    }),
    emailsSent: new Counter({
      name: 'parley_emails_sent_total',
      help: 'E-mails handed to the mail transport, by kind.',
      labelNames: ['kind'],
      registers,
    }),
    stripeWebhooks: new Counter({
      name: 'parley_stripe_webhooks_total',
      help: "Stripe webhook deliveries by event type and outcome ('processed', 'duplicate', 'invalid_signature', 'failed').",
      labelNames: ['type', 'outcome'],
      registers,
    }),
    httpRequests: new Histogram({
      name: 'parley_http_request_seconds',
      help: 'HTTP requests by route template and status code.',
      labelNames: ['route', 'status'],
      buckets: FAST_BUCKETS,
      registers,
    }),
    taskRuns: new Histogram({
      name: 'parley_task_run_seconds',
      help: "Runs of the scheduler's tasks in this process, by task and outcome ('ok', 'failed').",
      labelNames: ['task', 'outcome'],
      buckets: TASK_BUCKETS,
      registers,
    }),
    taskFailures: new Counter({
      name: 'parley_task_failures_total',
      help: "Runs of the scheduler's tasks in this process that failed (logged with their error), by task.",
      labelNames: ['task'],
      registers,
    }),
    taskLastRun: new Gauge({
      name: 'parley_task_last_run_timestamp_seconds',
      help: "When the last run of each of the scheduler's tasks in this process ended (Unix time, seconds).",
      labelNames: ['task'],
      registers,
    }),
  };
}
