/**
 * Parley's own posts in a conversation's Slack thread (saved replies, question-group lines, reminders). Each is an
 * outbox job (slack.threadPost) on the conversation's key, so it goes out after the header and everything queued
 * before it for that conversation (the visitor message that led to it), paced and retried like every other Slack
 * post. The thread is read when the job runs, not when it is queued: a post for a conversation whose header is not
 * posted yet waits for it (the header job is first on the key) instead of being dropped. The Slack side builds its
 * Block Kit; the Slack message listener ignores these posts, as it ignores every bot post, so nothing is relayed
 * twice.
 */
import type { Types } from 'mongoose';
import type { JobQueue } from '../conversations/context';
import type { ThreadPost } from '../outbox/catalogue';

/** One of Parley's own posts in a conversation's thread (the slack.threadPost job's payload, outbox/catalogue.ts). */
export type { ThreadPost } from '../outbox/catalogue';

export type ThreadOf = { _id: Types.ObjectId; slackChannel: string };

/** Queues a post in the conversation's thread, in order with the conversation's other Slack posts. */
export async function queueThreadPost(ctx: { outbox: JobQueue }, conversation: ThreadOf, post: ThreadPost): Promise<void> {
  await ctx.outbox.enqueue(
    'slack.threadPost',
    String(conversation._id),
    { conversationId: String(conversation._id), ...post },
    {
      channel: conversation.slackChannel,
      conversationId: conversation._id,
    },
  );
}

/** A small context line in the thread (answers, notes of what Parley or an operator did): the one kind of thread note. */
export function queueThreadNote(ctx: { outbox: JobQueue }, conversation: ThreadOf, text: string): Promise<void> {
  return queueThreadPost(ctx, conversation, { text, look: 'note' });
}
