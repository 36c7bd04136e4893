/**
 * Exactly-once posts into Slack. A post whose answer never came back (the connection broke or timed out after
 * the request was sent, or Slack said fatal_error) may or may not be in Slack; a blind retry would post it
 * twice. So every post carries Parley's id for it in Slack message metadata, and a post that may already be
 * there is first looked for (conversations.replies of its thread, or conversations.history of its channel,
 * with include_all_metadata): found, its ts is taken and nothing is posted again.
 *
 * "May already be there" is kept on the outbox job: an attempt whose outcome is unknown leaves the post's id in
 * `payload.slackMaybePosted`; a retry writes it before calling (so a process dying mid-call leaves it too),
 * and a definite refusal removes it. A first attempt writes nothing extra: if its process died mid-call, the
 * job comes back claimed more than once with no error recorded, which reads as "may be there" as well.
 */
import { type ChatPostMessageArguments, ErrorCode, type WebClient } from '@slack/web-api';
import type { Types } from 'mongoose';
import type { OutboxJob, OutboxJobModel } from '../models/OutboxJob';

/** The metadata event type of Parley's posts; the payload's `id` is Parley's id for the post. */
export const POST_EVENT_TYPE = 'parley_post';
/** Where a job keeps the ids of posts that may be in Slack already. */
const MAYBE_POSTED = 'slackMaybePosted';
/** Slack's clock and Parley's differ a little: look this far before the job was created. */
const CLOCK_SLACK_MS = 5 * 60_000;
const PAGE = 200;

/** Causes of a failed request that prove it never reached Slack (no connection was made). */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);
/** Slack errors after which, in Slack's words, "some aspect of the operation" may have succeeded. */
const MAYBE_DONE = new Set(['internal_error', 'fatal_error']);

/**
 * True when a failed Web API call may still have been carried out: the request may have reached Slack and the
 * answer was lost (reset, hang-up, timeout), a 5xx, or Slack's own internal_error/fatal_error. False when Slack
 * surely did nothing: it refused (an error code, 429) or no connection was ever made.
 */
export function outcomeUnknown(error: unknown): boolean {
  const e = error as { code?: unknown; statusCode?: unknown; original?: { cause?: { code?: unknown } }; data?: { error?: unknown } } | null;
  if (e?.code === ErrorCode.RequestError) {
    const cause = e.original?.cause?.code;
    return !(typeof cause === 'string' && NEVER_SENT.has(cause));
  }
  if (e?.code === ErrorCode.HTTPError) return typeof e.statusCode === 'number' && e.statusCode >= 500;
  if (e?.code === ErrorCode.PlatformError) return typeof e.data?.error === 'string' && MAYBE_DONE.has(e.data.error);
  return false;
}

/** The outbox job a post is made from: its id, age, claims so far (this one included), last error and payload. */
export type PostJob = Pick<OutboxJob, 'createdAt' | 'attempts' | 'lastError' | 'payload'> & { _id: Types.ObjectId };

/** Whether an earlier attempt of `job` may have made the post `postId`. */
export function mayBePosted(job: PostJob, postId: string): boolean {
  const marked = job.payload[MAYBE_POSTED];
  if (Array.isArray(marked) && marked.includes(postId)) return true;
  // Claimed before, yet no failure was recorded: the process running it died, perhaps mid-call.
  return job.attempts > 1 && !job.lastError;
}

/** Parley's metadata payload of a message as conversations.replies/history give it with include_all_metadata. */
function parleyPayload(message: { metadata?: { event_type?: string; event_payload?: unknown } }): Record<string, unknown> | undefined {
  const meta = message.metadata;
  if (meta?.event_type !== POST_EVENT_TYPE || typeof meta.event_payload !== 'object' || meta.event_payload === null) return undefined;
  return meta.event_payload as Record<string, unknown>;
}

/** A post of Parley's in Slack: its ts, and the metadata payload it was made with (its `id`, and what the caller added). */
export type FoundPost = { ts: string; payload: Record<string, unknown> };

/**
 * Looks for the post `postId` in the thread `threadTs` of `channel` (or among the channel's own messages without
 * a thread), made no earlier than `since`; null when Slack has no such post.
 */
export async function findPost(
  client: WebClient,
  where: { channel: string; threadTs?: string; postId: string; since: Date },
): Promise<FoundPost | null> {
  const oldest = ((where.since.getTime() - CLOCK_SLACK_MS) / 1000).toFixed(6);
  let cursor: string | undefined;
  do {
    const page = where.threadTs
      ? await client.conversations.replies({
          channel: where.channel,
          ts: where.threadTs,
          oldest,
          include_all_metadata: true,
          limit: PAGE,
          ...(cursor ? { cursor } : {}),
        })
      : await client.conversations.history({
          channel: where.channel,
          oldest,
          include_all_metadata: true,
          limit: PAGE,
          ...(cursor ? { cursor } : {}),
        });
    for (const m of page.messages ?? []) {
      const payload = parleyPayload(m);
      if (m.ts && payload?.id === where.postId) return { ts: m.ts, payload };
    }
    cursor = page.response_metadata?.next_cursor || undefined;
  } while (cursor);
  return null;
}

/**
 * Posts `args` once, tagged with `postId` (Parley's id for it, the same on every attempt: a message id, a job
 * id), and answers its ts. When an earlier attempt may have posted it, the post is looked for first and its ts
 * answered; `found` then holds the payload it was made with. `payload` adds to the metadata (a post made of
 * several lines lists them, so a retry finding it knows which lines it holds, even if more are waiting now).
 */
export async function postOnce(
  deps: { OutboxJob: OutboxJobModel },
  job: PostJob,
  post: {
    client: WebClient;
    postId: string;
    args: ChatPostMessageArguments;
    payload?: Record<string, string | number | boolean | string[]>;
  },
): Promise<{ ts: string; found?: Record<string, unknown> }> {
  const { client, postId, args } = post;
  const marks = () => (Array.isArray(job.payload[MAYBE_POSTED]) ? (job.payload[MAYBE_POSTED] as unknown[]) : []);
  const mark = async (on: boolean) => {
    if (marks().includes(postId) === on) return;
    const change = on ? { $addToSet: { [`payload.${MAYBE_POSTED}`]: postId } } : { $pull: { [`payload.${MAYBE_POSTED}`]: postId } };
    await deps.OutboxJob.updateOne({ _id: job._id }, change);
    job.payload[MAYBE_POSTED] = on ? [...marks(), postId] : marks().filter((id) => id !== postId);
  };
  const maybe = mayBePosted(job, postId);
  // A retry says so before it calls: it may die mid-call, or its look-up may fail, with another error on record.
  if (job.attempts > 1) await mark(true);
  if (maybe) {
    const found = await findPost(client, { channel: args.channel, threadTs: args.thread_ts, postId, since: job.createdAt });
    if (found) return { ts: found.ts, found: found.payload };
  }
  const metadata = { event_type: POST_EVENT_TYPE, event_payload: { ...post.payload, id: postId } };
  try {
    const res = await client.chat.postMessage({ ...args, metadata } as ChatPostMessageArguments);
    return { ts: String(res.ts) };
  } catch (error) {
    // Not in Slack for sure (refused, or never sent): the next attempt need not look for it.
    await mark(outcomeUnknown(error));
    throw error;
  }
}
