/**
 * The catalogue of outbox jobs: every kind of outbound work Parley stores before doing it, with the payload its
 * producers write and its handler reads, and how the engine paces and retries it. `enqueue(kind, key, payload)`
 * takes exactly the kind's payload (a misspelt or missing field does not compile), and each handler table is typed
 * by kind from this map, so a handler reads only fields its producers write. Go to the definition of a kind where
 * it is queued and you land on its payload here; find its references and you reach its producers and its handler
 * (server/slack/outboxJobs.ts for slack.*, server/relay/jobs.ts for the others).
 *
 * A new kind is a line in JobPayloads, its rules in JOB_RULES (the compiler asks for both, and for a handler in
 * main.ts's tables). A kind is retired by moving its stored jobs to another kind in models/migrations.ts.
 */
import type { Types } from 'mongoose';
import type { MailMessage } from '../mail';
import type { MessageFile } from '../models/Message';

/** One of Parley's own posts in a conversation's thread; the Slack side builds its Block Kit (slack.threadPost). */
export type ThreadPost = {
  /** mrkdwn. */
  text: string;
  /** note: a small grey line; alert: a full-size line (reminders); reply: a saved reply, `footer` under it. */
  look: 'note' | 'alert' | 'reply';
  footer?: string;
  /** Posted in this name and with this picture instead of Parley's. */
  username?: string;
  iconUrl?: string;
  /** The operator message this post mirrors in the thread; its slackTs is set once posted. */
  messageId?: string;
  /** `{link}` in the text becomes a link to this message (its Slack permalink, asked for when posting), or the label. */
  linkTo?: { channel: string; ts: string; label: string };
};

/** A plain line in a channel, outside any thread: an offline message, a schedule change, a settings announcement. */
export type ChannelPost = { teamId: string; channel: string; text: string };

/** A webhook call: the body goes to `url` (a widget's webhook URL) or to the REST hook `hookId` (read when it runs). */
export type WebhookCall = { body: Record<string, unknown> } & ({ url: string; hookId?: undefined } | { hookId: string; url?: undefined });

/**
 * A mail as mail/ sends it. The visitor to answer of an offline message is kept as two strings (as jobs stored by
 * every earlier version have it), not as MailMessage's `replyTo`.
 */
export type MailJob = Omit<MailMessage, 'replyTo'> & { replyToAddress?: string; replyToName?: string };

/** Every job kind and its payload: what its producers write and its handler reads. */
export type JobPayloads = {
  /** A new conversation's thread header; it leads the visitor line stored right behind it (slack/outboxJobs.ts postHeader). */
  'slack.header': {
    conversationId: string;
    /** The first line, when the visitor's message opened the conversation (read from the history otherwise). */
    firstMessage?: string;
  };
  /**
   * A visitor's line in the thread; lines waiting in a row make one post (slack/outboxJobs.ts replyPoster). The line
   * is carried (jobs stored by versions before that carry only `messageId`, and the message is read).
   */
  'slack.reply': { messageId: string; text: string; files: MessageFile[] };
  /** The thread header redrawn as the conversation is now (slack/outboxJobs.ts updateHeader); a row of them is one update. */
  'slack.updateHeader': { conversationId: string };
  /** The widget's chosen bots and people invited to the channel and mentioned in the thread (slack/outboxJobs.ts inviteBots). */
  'slack.invite': { conversationId: string };
  /** A line only `user` sees, in the channel (and thread) given (slack/outboxJobs.ts postEphemeral). */
  'slack.ephemeral': { teamId: string; channel: string; user: string; text: string; threadTs?: string };
  /**
   * One of Parley's posts in the conversation's thread as it is when the job runs (slack/outboxJobs.ts postInThread).
   * `blocks`: the Block Kit of posts moved from the old thread-post queue (models/migrations.ts), posted as built then.
   */
  'slack.threadPost': ThreadPost & { conversationId: string; blocks?: Record<string, unknown>[] };
  /** A line in the channel (slack/outboxJobs.ts postInChannel). */
  'slack.channelPost': ChannelPost;
  /** A reaction on a message (:eyes: once the visitor saw a reply) (slack/outboxJobs.ts addReaction). */
  'slack.react': { teamId: string; channel: string; ts: string; name: string };
  /** A new conversation's "Suggested" post: articles, saved replies and past answers close to its first line (slack/suggestions.ts). */
  'slack.suggest': { conversationId: string; text: string };
  /** A webhook or REST hook call (relay/jobs.ts callWebhook). */
  webhook: WebhookCall;
  /** A mail (relay/jobs.ts sendMail). */
  mail: MailJob;
  /**
   * The mail of operator replies a visitor did not see, up to `upToSeq` (relay/unseenMail.ts sendUnseenReplies).
   * Jobs stored before the range was carried have no `upToSeq`: they mail everything not mailed yet.
   */
  'mail.unseen': { conversationId: string; upToSeq?: number };
};

export type JobKind = keyof JobPayloads;

/** The jobs whose handlers are the Slack side's. */
export type SlackJobKind = Extract<JobKind, `slack.${string}`>;

/** How the engine treats a kind's jobs. */
export type JobRules = {
  /**
   * 'channel': each job is a post into its `channel` and takes that channel's pace (Slack limits chat.postMessage
   * per channel), and Slack's Retry-After holds the channel's other posts too; 'none': runs as soon as it is due.
   */
  pace: 'channel' | 'none';
  /** Attempts after which a failure that could pass counts as permanent (the job is set aside). */
  maxAttempts: number;
};

/** Slack is Parley's own channel to its users: a post waits for Slack as long as it takes. */
const SLACK_POST: JobRules = { pace: 'channel', maxAttempts: Number.POSITIVE_INFINITY };
/** Webhooks and mails of a customer may be down for good: they stop after this many attempts. */
const OUTSIDE: JobRules = { pace: 'none', maxAttempts: 12 };

/** Each kind's rules. */
export const JOB_RULES: { readonly [K in JobKind]: JobRules } = {
  'slack.header': SLACK_POST,
  'slack.reply': SLACK_POST,
  // A chat.update: Slack counts it per workspace, apart from posts, so it takes nothing of the budget lines need.
  'slack.updateHeader': { pace: 'none', maxAttempts: Number.POSITIVE_INFINITY },
  'slack.invite': SLACK_POST,
  'slack.ephemeral': SLACK_POST,
  'slack.threadPost': SLACK_POST,
  'slack.channelPost': SLACK_POST,
  'slack.react': SLACK_POST,
  'slack.suggest': SLACK_POST,
  webhook: OUTSIDE,
  mail: OUTSIDE,
  'mail.unseen': OUTSIDE,
};

/**
 * When and how a job is stored: `channel` paces it, `start: false` leaves it to the `poke` that follows. A job due now
 * is stored already claimed by the process that stores it (which runs it at once when it is the key's next), unless
 * it is left to a poke: `claim: true` claims such a job too.
 */
export type EnqueueOptions = {
  channel?: string;
  conversationId?: Types.ObjectId | null;
  runAt?: Date;
  start?: boolean;
  claim?: boolean;
};

/** The durable outbox as producers see it: jobs stored first, run in order per key. `start: false`: run once poked. */
export interface JobQueue {
  enqueue<K extends JobKind>(kind: K, key: string, payload: JobPayloads[K], opts?: EnqueueOptions): Promise<void>;
  poke(key: string): void;
}
