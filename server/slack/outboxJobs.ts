/**
 * The Slack posts of the outbox: what each `slack.*` job does. main.ts hands this table to the relay's outbox,
 * which runs the jobs of a conversation in order, paced per channel, with its retries. Every handler is safe
 * to run again after a crash: it checks what was already done (a stored ts, a stored Slack file id) before
 * calling out.
 */
import type { WebClient } from '@slack/web-api';
import { LRUCache } from 'lru-cache';
import { Types } from 'mongoose';
import { planHasFeature } from '../commands/planFeature';
import { visitorLabel } from '../conversations/visitors';
import type { Conversation } from '../models/Conversation';
import type { Message } from '../models/Message';
import { type Visitor, visitorLabelFields } from '../models/Visitor';
import type { WidgetFileDocument } from '../models/WidgetFile';
import { APPLIED } from '../models/writeConcerns';
import type { SlackJobKind, ThreadPost } from '../outbox/catalogue';
import { type CoalescingHandler, type Job, type JobHandler, PermanentJobError } from '../outbox/engine';
import type { RelayContext, RelayJobHandler, RelayJobHandlers } from '../relay/context';
import { visitorAvatarUrl } from '../shared/avatars';
import { escapeMrkdwn } from '../shared/mrkdwn';
import { contextLine, headerMessage, threadPostMessage } from './blocks/thread';
import { hasBotUsers } from './botUserCache';
import { postOnce } from './postOnce';
import type { SlackClients } from './slackClients';
import { type SlackAnswers, suggestionPoster } from './suggestions';

/**
 * What the slack.* handlers work with: the relay's context, the Slack clients and who follows a header's changes
 * (slackJobHandlers adds them).
 */
type SlackJobContext = RelayContext & { slack: SlackClients; headerUpdated: (teamId: string) => void };
/** Runs the jobs of kind K, given its payload typed (outbox/catalogue.ts JobPayloads). */
type Handler<K extends SlackJobKind> = JobHandler<SlackJobContext, K>;

async function teamClient(ctx: SlackJobContext, teamId: string) {
  const team = await ctx.slack.forTeam(teamId);
  if (!team) throw new PermanentJobError(`Parley is not installed in team ${teamId}`);
  return team;
}

async function loadConversation(ctx: RelayContext, id: string) {
  const conversation = await ctx.models.Conversation.findById(id).lean<Conversation & { _id: Types.ObjectId }>();
  if (!conversation) throw new PermanentJobError(`conversation ${id} is gone`);
  return withWidget(ctx, conversation, ctx.models.Visitor.findById(conversation.visitorId).lean<Visitor>().exec());
}

/** A conversation with its widget (kept in memory) and its visitor. */
async function withWidget<C extends Conversation & { _id: Types.ObjectId }>(
  ctx: RelayContext,
  conversation: C,
  visitorOf: Visitor | null | Promise<Visitor | null>,
) {
  const [ce, visitor] = await Promise.all([ctx.widgets.get(conversation.ceId), visitorOf]);
  if (!ce || !visitor) throw new PermanentJobError(`widget or visitor of conversation ${String(conversation._id)} is gone`);
  return { conversation, ce, visitor };
}

/**
 * The text of each conversation's first visitor line, which every header shows, as this process read it: a visitor's
 * line is never changed once stored, so the header's later updates need not read it again.
 */
type FirstLines = LRUCache<string, string>;

async function firstVisitorText(ctx: RelayContext, conversationId: Types.ObjectId, firstLines: FirstLines): Promise<string> {
  const key = String(conversationId);
  const kept = firstLines.get(key);
  if (kept !== undefined) return kept;
  const first = await ctx.models.Message.findOne({ conversationId, kind: 'msg', from: 'visitor' }, { text: 1 })
    .sort({ seq: 1 })
    .lean<{ text: string }>();
  // None yet (a conversation opened from Slack or by e-mail before its first line): read again next time.
  if (first?.text) firstLines.set(key, first.text);
  return first?.text ?? '';
}

/** What a reply post needs of its messages, its conversation and its visitor. */
type ReplyMessage = Pick<Message, 'conversationId' | 'text' | 'slackTs' | 'files'> & { _id: Types.ObjectId };
const REPLY_MESSAGE_FIELDS = { conversationId: 1, text: 1, slackTs: 1, files: 1 } as const;
type ThreadOf = Pick<Conversation, 'ceId' | 'visitorId' | 'number' | 'slackTeamId' | 'slackChannel' | 'threadTs'> & { _id: Types.ObjectId };
const THREAD_FIELDS = { ceId: 1, visitorId: 1, number: 1, slackTeamId: 1, slackChannel: 1, threadTs: 1 } as const;

/**
 * The visitor line a reply job carries (stored after its message, which therefore exists): what a post needs of
 * it, without reading it. A line posted by an earlier attempt is found by postOnce's read-back, not by its slackTs.
 */
function carriedLine(job: Job<'slack.reply'>, conversationId: Types.ObjectId): ReplyMessage[] {
  const { messageId, text, files } = job.payload;
  // Jobs stored by versions before lines were carried have the message id alone: their message is read.
  if (typeof text !== 'string' || !Array.isArray(files)) return [];
  return [{ _id: new Types.ObjectId(messageId), conversationId, text, slackTs: '', files }];
}

/**
 * Conversations' threads as reply jobs need them. Every field is fixed once the thread exists (threadTs is set
 * once, by the header job), so a thread read once is kept without invalidation, bounded by THREADS_KEPT.
 */
export type ThreadCache = LRUCache<string, ThreadOf>;
const THREADS_KEPT = 10_000;

/**
 * The visitor's name and e-mail as the header job just read them, for the line posted right after it in the same run
 * (the outbox runs a header and the lines behind it together): taken once, and only within a second.
 */
type JustRead = LRUCache<string, Pick<Visitor, 'name' | 'email'>>;

async function loadThread(ctx: RelayContext, id: Types.ObjectId | string, threads: ThreadCache, justRead: JustRead) {
  const key = String(id);
  const conversation = threads.get(key) ?? (await ctx.models.Conversation.findById(id, THREAD_FIELDS).lean<ThreadOf>());
  if (!conversation) throw new PermanentJobError(`conversation ${key} is gone`);
  if (conversation.threadTs) threads.set(key, conversation);
  const fresh = justRead.get(key);
  justRead.delete(key);
  const [ce, visitor] = await Promise.all([
    ctx.widgets.get(conversation.ceId),
    // Kept a second (models/Visitor.ts): a visitor's lines in a row cost one read of their name.
    fresh ?? visitorLabelFields(ctx.models.Visitor, conversation.visitorId),
  ]);
  if (!ce || !visitor) throw new PermanentJobError(`widget or visitor of conversation ${key} is gone`);
  return { conversation, ce, visitor };
}

/**
 * The thread's header, the conversation's first post. The first message's text comes with the job when the visitor's
 * message opened the conversation (read otherwise). Once posted, the thread is kept in `threads`, so the reply jobs
 * behind it read no conversation.
 */
const postHeader =
  (threads: ThreadCache, justRead: JustRead, firstLines: FirstLines): Handler<'slack.header'> =>
  async (ctx, job) => {
    // A conversation this process just opened comes as it stored it, with its visitor: neither is read again.
    const handed = job.attempts === 1 ? ctx.justStarted.take(job.payload.conversationId) : undefined;
    const { conversation, ce, visitor } = handed
      ? await withWidget(ctx, handed.conversation, handed.visitor)
      : await loadConversation(ctx, job.payload.conversationId);
    if (conversation.threadTs) return;
    justRead.set(String(conversation._id), { name: visitor.name, email: visitor.email });
    const carried = job.payload.firstMessage;
    const firstMessage = carried ?? (await firstVisitorText(ctx, conversation._id, firstLines));
    // A conversation starts with a visitor message, stored alongside this job: a poll may pick the job up first.
    if (carried === undefined && !firstMessage && Date.now() - job.createdAt.getTime() < 60_000) {
      throw new Error('the first message is not stored yet');
    }
    const { client } = await teamClient(ctx, conversation.slackTeamId);
    const header = headerMessage({ ce, conversation, visitor, firstMessage });
    const { ts } = await postOnce(ctx.models, job, {
      client,
      postId: String(conversation._id),
      args: { channel: conversation.slackChannel, ...header, unfurl_links: false, unfurl_media: false },
    });
    // Stored before any reply job of this conversation runs (same key, so they wait for this one).
    await ctx.models.Conversation.updateOne({ _id: conversation._id }, { $set: { threadTs: ts } });
    const { _id, ceId, visitorId, number, slackTeamId, slackChannel } = conversation;
    threads.set(String(_id), { _id, ceId, visitorId, number, slackTeamId, slackChannel, threadTs: ts });
    // Chosen bots stay stored on a plan without bots, and are invited again on one with them.
    if ((await hasBotUsers(ctx.models, conversation.ceId)) && (await planHasFeature(ctx.models, conversation.accountId, 'bots'))) {
      await ctx.outbox.enqueue(
        'slack.invite',
        String(conversation._id),
        { conversationId: String(conversation._id) },
        { channel: conversation.slackChannel },
      );
    }
  };

/** Slack errors that leave nothing to do for one invited user (already there, gone, Parley itself). */
const INVITE_SKIPS = new Set([
  'already_in_channel',
  'user_not_found',
  'cant_invite_self',
  'user_is_restricted',
  'user_is_ultra_restricted',
]);

/** The widget's chosen bots and people join the channel and are mentioned in the new thread, so they follow it. */
const inviteBots: Handler<'slack.invite'> = async (ctx, job) => {
  const { conversation } = await loadConversation(ctx, job.payload.conversationId);
  if (!conversation.threadTs) return;
  const chosen = await ctx.models.BotUser.find({ ceId: conversation.ceId }, { userID: 1 }).sort({ _id: 1 }).lean<{ userID: string }[]>();
  if (chosen.length === 0) return;
  const { client } = await teamClient(ctx, conversation.slackTeamId);
  const present: string[] = [];
  for (const { userID } of chosen) {
    try {
      await client.conversations.invite({ channel: conversation.slackChannel, users: userID });
      present.push(userID);
    } catch (error) {
      const code = (error as { data?: { error?: unknown } } | null)?.data?.error;
      if (typeof code !== 'string' || !INVITE_SKIPS.has(code)) throw error;
      if (code === 'already_in_channel') present.push(userID);
    }
  }
  if (present.length === 0) return;
  const mentions = present.map((id) => `<@${id}>`).join(', ');
  await postOnce(ctx.models, job, {
    client,
    postId: String(job._id),
    args: {
      channel: conversation.slackChannel,
      thread_ts: conversation.threadTs,
      ...contextLine(`Added ${mentions} to this conversation.`),
    },
  });
};

const updateHeader =
  (firstLines: FirstLines): Handler<'slack.updateHeader'> =>
  async (ctx, job) => {
    const { conversation, ce, visitor } = await loadConversation(ctx, job.payload.conversationId);
    if (!conversation.threadTs) return;
    const { client } = await teamClient(ctx, conversation.slackTeamId);
    const header = headerMessage({ ce, conversation, visitor, firstMessage: await firstVisitorText(ctx, conversation._id, firstLines) });
    await client.chat.update({ channel: conversation.slackChannel, ts: conversation.threadTs, ...header });
    // What changed the header (an assignee, a state, a target met or missed) is on App Home too.
    ctx.headerUpdated(conversation.slackTeamId);
  };

/** Slack cuts a message's text at 40,000 characters: coalesced visitor lines stop well below that. */
const MAX_POST_CHARS = 35_000;

/**
 * Visitor messages waiting for the same thread go out as one post holding their lines in order (each message
 * records that post's ts); their files are uploaded one message at a time after it. Lines past MAX_POST_CHARS
 * wait for the next post.
 */
const replyPoster = (threads: ThreadCache, justRead: JustRead): CoalescingHandler<SlackJobContext, 'slack.reply'> => ({
  max: 20,
  async coalesce(ctx, jobs) {
    const ids = jobs.map((job) => job.payload.messageId);
    // Jobs stored since visitor messages carry their conversation on the job: its thread is read alongside them.
    const conversationId = jobs[0].conversationId;
    // Jobs queued since visitor messages are stored before their job carry the line itself; older ones are read.
    const carried = new Map(jobs.flatMap((job) => (conversationId ? carriedLine(job, conversationId) : [])).map((m) => [String(m._id), m]));
    const unread = ids.filter((id) => !carried.has(id));
    const [found, known] = await Promise.all([
      unread.length > 0 ? ctx.models.Message.find({ _id: { $in: unread } }, REPLY_MESSAGE_FIELDS).lean<ReplyMessage[]>() : [],
      conversationId ? loadThread(ctx, conversationId, threads, justRead) : null,
    ]);
    const byId = new Map([...carried, ...found.map((m): [string, ReplyMessage] => [String(m._id), m])]);
    const messages = ids.map((id, i) => {
      const message = byId.get(id);
      // The job is stored alongside its message (not after it), so a young job may briefly find none yet.
      if (!message && Date.now() - jobs[i].createdAt.getTime() < 60_000) throw new Error('the message is not stored yet');
      return message ?? null;
    });
    const first = messages.find((m) => m !== null);
    if (!first) throw new PermanentJobError('message is gone');
    const { conversation, ce, visitor } = known ?? (await loadThread(ctx, first.conversationId, threads, justRead));
    if (!conversation.threadTs) throw new PermanentJobError('the conversation has no Slack thread');
    const { client, token } = await teamClient(ctx, conversation.slackTeamId);
    const username = visitorLabel(visitor, conversation.number);
    // What a visitor typed must not ping @channel or forge links.
    const lines: { id: Types.ObjectId; text: string }[] = [];
    let taken = 0;
    let chars = 0;
    for (const message of messages) {
      const text = message && !message.slackTs && message.text ? escapeMrkdwn(message.text) : '';
      if (taken > 0 && chars + text.length > MAX_POST_CHARS) break;
      if (message && text) lines.push({ id: message._id, text });
      chars += text.length + 1;
      taken += 1;
    }
    if (lines.length > 0) {
      // Tagged with its first line's message id and listing every line's: a retry that finds the post made by an
      // attempt whose answer was lost learns which lines it holds (perhaps fewer than are waiting now).
      const { ts, found } = await postOnce(ctx.models, jobs[0], {
        client,
        postId: String(lines[0].id),
        ...(lines.length > 1 ? { payload: { lines: lines.map((line) => String(line.id)) } } : {}),
        args: {
          channel: conversation.slackChannel,
          thread_ts: conversation.threadTs,
          text: lines.map((line) => line.text).join('\n'),
          username,
          // Slack shows this beside the visitor's posts, as a person's picture.
          icon_url: visitorAvatarUrl(ctx.publicUrl, String(conversation.visitorId)),
          reply_broadcast: ce.notifyChannelOnMsg,
          unfurl_links: false,
          unfurl_media: false,
        },
      });
      // A post found without a list holds its first line alone.
      const held = found ? new Set(Array.isArray(found.lines) ? found.lines.map(String) : [String(lines[0].id)]) : null;
      if (held) {
        // Only the lines that post holds are done; the jobs after its last line wait for the next post.
        const last = messages.findLastIndex((m) => m !== null && held.has(String(m._id)));
        taken = Math.max(1, last + 1);
        lines.splice(0, lines.length, ...lines.filter((line) => held.has(String(line.id))));
      }
      // Acknowledged once applied: the outbox's removal of these jobs, which waits for the journal, follows it and
      // makes it durable too. A crash before both runs the jobs again, and postOnce finds the post.
      await ctx.models.Message.collection.updateMany(
        { _id: { $in: lines.map((line) => line.id) } },
        { $set: { slackTs: ts, updatedAt: new Date() } },
        { writeConcern: APPLIED },
      );
      // Each posted line's wait: its message stored (its job queued alongside) → Slack accepted the post.
      const posted = new Set(lines.map((line) => String(line.id)));
      const now = Date.now();
      for (const [i, job] of jobs.slice(0, taken).entries()) {
        if (posted.has(ids[i])) ctx.metrics.slackPost.observe((now - job.createdAt.getTime()) / 1000);
      }
    }
    for (const message of messages.slice(0, taken)) {
      for (const ref of message?.files ?? []) {
        const file = await ctx.models.WidgetFile.findById(ref.id);
        if (!file || file.slackFileId || !file.data) continue;
        await uploadOnce(client, token, file, {
          channel: conversation.slackChannel,
          threadTs: conversation.threadTs,
          // A screenshot says which request it answers: the note "… asked the visitor for a screenshot" above it.
          comment: message?.text
            ? undefined
            : file.answersScreenshot
              ? `${escapeMrkdwn(username)} sent the screenshot asked for in this thread`
              : `${escapeMrkdwn(username)} sent a file`,
        });
      }
    }
    return taken;
  },
});

/** How long the bytes of one visitor file may take to reach Slack's upload URL. */
const UPLOAD_TIMEOUT_MS = 60_000;

/**
 * A visitor's file into the thread, exactly once. Slack's three steps are made here (filesUploadV2 hides the
 * file id): the id Slack hands out is stored before the call that shares the file, so a retry after a lost answer
 * first asks Slack (files.info) whether that file is in the channel, and uploads again only if it is not.
 */
async function uploadOnce(
  client: WebClient,
  token: string,
  file: WidgetFileDocument,
  target: { channel: string; threadTs: string; comment?: string },
): Promise<void> {
  const data = file.data;
  if (!data) return;
  if (file.slackPendingFileId) {
    const pending = file.slackPendingFileId;
    const info = await client.files.info({ file: pending }).catch((error: unknown) => {
      // Never completed (or gone): nothing was shared, so it is uploaded anew.
      if ((error as { data?: { error?: unknown } } | null)?.data?.error === 'file_not_found') return null;
      throw error;
    });
    const shares = info?.file?.shares as { public?: Record<string, unknown>; private?: Record<string, unknown> } | undefined;
    if (info?.file?.channels?.includes(target.channel) || shares?.public?.[target.channel] || shares?.private?.[target.channel]) {
      file.slackFileId = pending;
      file.slackPendingFileId = '';
      await file.save();
      return;
    }
  }
  const { upload_url: uploadUrl, file_id: fileId } = await client.files.getUploadURLExternal({ filename: file.name, length: data.length });
  if (!uploadUrl || !fileId) throw new Error('Slack gave no upload URL');
  file.slackPendingFileId = fileId;
  await file.save();
  const res = await fetch(uploadUrl, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
    body: new Uint8Array(data),
    signal: AbortSignal.timeout(UPLOAD_TIMEOUT_MS),
  });
  if (!res.ok) throw new Error(`Slack's upload URL answered ${res.status}`);
  await client.files.completeUploadExternal({
    files: [{ id: fileId, title: file.name }],
    channel_id: target.channel,
    thread_ts: target.threadTs,
    ...(target.comment ? { initial_comment: target.comment } : {}),
  });
  file.slackFileId = fileId;
  file.slackPendingFileId = '';
  await file.save();
}

/** Seen only by one person: `user`, in the channel (and thread) given. */
const postEphemeral: Handler<'slack.ephemeral'> = async (ctx, job) => {
  const { teamId, channel, user, text, threadTs } = job.payload;
  const { client } = await teamClient(ctx, teamId);
  await client.chat.postEphemeral({ channel, user, text, ...(threadTs ? { thread_ts: threadTs } : {}) });
};

/** `{link}` made a link to another message (its permalink), or its label when Slack has none to give. */
async function withLink(client: WebClient, text: string, linkTo: ThreadPost['linkTo']): Promise<string> {
  if (!linkTo || !text.includes('{link}')) return text;
  const label = escapeMrkdwn(linkTo.label);
  const permalink = linkTo.ts
    ? await client.chat
        .getPermalink({ channel: linkTo.channel, message_ts: linkTo.ts })
        .then((r) => r.permalink ?? '')
        .catch(() => '')
    : '';
  return text.replace('{link}', permalink ? `<${permalink}|${label}>` : label);
}

/** A plain line in a channel, outside any thread (an offline message, an announcement of a settings change). */
const postInChannel: Handler<'slack.channelPost'> = async (ctx, job) => {
  const { teamId, channel, text } = job.payload;
  const { client } = await teamClient(ctx, teamId);
  await postOnce(ctx.models, job, { client, postId: String(job._id), args: { channel, text, unfurl_links: false } });
};

/** Where a thread post goes: its conversation's thread as it is when the job runs. */
async function postTarget(ctx: RelayContext, conversationId: string): Promise<{ teamId: string; channel: string; threadTs: string }> {
  const conversation = await ctx.models.Conversation.findById(conversationId, {
    slackTeamId: 1,
    slackChannel: 1,
    threadTs: 1,
  }).lean<Pick<Conversation, 'slackTeamId' | 'slackChannel' | 'threadTs'>>();
  if (!conversation) throw new PermanentJobError('the conversation is gone');
  if (!conversation.threadTs) throw new PermanentJobError('the conversation never got a Slack thread');
  return { teamId: conversation.slackTeamId, channel: conversation.slackChannel, threadTs: conversation.threadTs };
}

/**
 * One of Parley's own posts in a conversation's thread (a saved reply, a question-group answer, a note, a
 * reminder). Its key is the conversation's, so it runs after the header (a post queued before the thread existed
 * finds it here) and after the visitor message that led to it. A saved reply's stored ts makes a second run a no-op.
 */
const postInThread: Handler<'slack.threadPost'> = async (ctx, job) => {
  const post = job.payload;
  const target = await postTarget(ctx, post.conversationId);
  const message = post.messageId
    ? await ctx.models.Message.findById(post.messageId, { slackTs: 1 }).lean<Pick<Message, 'slackTs'>>()
    : null;
  if (message?.slackTs) return;
  const { client } = await teamClient(ctx, target.teamId);
  const text = await withLink(client, post.text, post.linkTo);
  // Posts queued before thread posts became outbox jobs carry their Block Kit as it was built then.
  const body = post.blocks
    ? { text, ...(post.blocks.length > 0 ? { blocks: post.blocks } : {}) }
    : threadPostMessage({ text, look: post.look, footer: post.footer });
  const { ts } = await postOnce(ctx.models, job, {
    client,
    postId: post.messageId ? String(post.messageId) : String(job._id),
    args: {
      channel: target.channel,
      thread_ts: target.threadTs,
      ...body,
      ...(post.username ? { username: post.username } : {}),
      ...(post.iconUrl ? { icon_url: post.iconUrl } : {}),
      unfurl_links: false,
      unfurl_media: false,
    } as Parameters<typeof client.chat.postMessage>[0],
  });
  if (post.messageId) await ctx.models.Message.updateOne({ _id: post.messageId }, { $set: { slackTs: ts } });
};

/**
 * A reaction on a message in a thread (:eyes: once the visitor saw an operator's reply). Slack's already_reacted
 * means an earlier attempt got there: done.
 */
const addReaction: Handler<'slack.react'> = async (ctx, job) => {
  const { teamId, channel, ts, name } = job.payload;
  const { client } = await teamClient(ctx, teamId);
  try {
    await client.reactions.add({ channel, timestamp: ts, name });
  } catch (error) {
    if ((error as { data?: { error?: unknown } }).data?.error === 'already_reacted') return;
    throw error;
  }
};

/**
 * The `slack.*` job handlers, with their own cache of conversation threads (built once by main.ts); they reach
 * Slack through `slack`, make the Suggested post of a new conversation from `answers`, and tell `headerUpdated`
 * (App Home's tabs) of each header they changed: a target missed by the due work shows there at once, not at the
 * tabs' next sweep.
 */
export function slackJobHandlers(
  slack: SlackClients,
  answers: SlackAnswers,
  headerUpdated: (teamId: string) => void = () => {},
): Pick<RelayJobHandlers, SlackJobKind> {
  const threads: ThreadCache = new LRUCache({ max: THREADS_KEPT });
  const justRead: JustRead = new LRUCache({ max: 1000, ttl: 1000 });
  const firstLines: FirstLines = new LRUCache({ max: THREADS_KEPT });
  // The relay's context is built whole once and never changes: its copy with the clients is made once too.
  const bound = new WeakMap<RelayContext, SlackJobContext>();
  const on = (ctx: RelayContext): SlackJobContext => {
    let withSlack = bound.get(ctx);
    if (!withSlack) {
      withSlack = { ...ctx, slack, headerUpdated };
      bound.set(ctx, withSlack);
    }
    return withSlack;
  };
  const one =
    <K extends SlackJobKind>(handler: Handler<K>): RelayJobHandler<K> =>
    (ctx, job) =>
      handler(on(ctx), job);
  const replies = replyPoster(threads, justRead);
  const headerUpdater = updateHeader(firstLines);
  return {
    // The header and the visitor lines queued behind it (the line that opened the conversation) are read, claimed and
    // removed together; the lines post right after the header, as the reply jobs would.
    'slack.header': { lead: one(postHeader(threads, justRead, firstLines)), followedBy: 'slack.reply' },
    // Header updates waiting in a row make one chat.update: it shows the conversation as it is now.
    'slack.updateHeader': {
      max: 50,
      async coalesce(ctx, jobs) {
        await headerUpdater(on(ctx), jobs[0]);
        return jobs.length;
      },
    },
    'slack.reply': { max: replies.max, coalesce: (ctx, jobs) => replies.coalesce(on(ctx), jobs) },
    'slack.invite': one(inviteBots),
    'slack.channelPost': one(postInChannel),
    'slack.ephemeral': one(postEphemeral),
    'slack.threadPost': one(postInThread),
    'slack.react': one(addReaction),
    'slack.suggest': one(suggestionPoster(answers)),
  };
}
