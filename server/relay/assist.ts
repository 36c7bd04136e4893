/**
 * What Parley does in conversations by itself, next to relaying: saved replies (sent by an operator or
 * automatically on trigger phrases), question groups the visitor walks through, and response reminders in
 * the thread while a visitor waits. Parley's own thread posts go through a small durable queue (ThreadPost):
 * stored first, posted in order per conversation once the thread exists, retried after failures. The
 * relay's Slack listener ignores them, as it ignores every bot post, so nothing is relayed twice.
 */
import { ErrorCode } from '@slack/web-api';
import type { Types } from 'mongoose';
import { sanitiseQuestionHtml, treeOf } from '../commands/questionGroups';
import { decodeResponse, renderForSlack, renderForWidget } from '../commands/savedReplies';
import type { Models } from '../models';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';
import type { ConversationDocument } from '../models/Conversation';
import type { MessageDocument } from '../models/Message';
import type { QuestionGroupDocument } from '../models/QuestionGroup';
import type { SavedReplyDocument } from '../models/SavedReply';
import { findNode, type TreeNode } from '../shared/questionGroups';
import { matchesTriggerPhrases } from '../shared/savedReplies';
import { escapeMrkdwn, visitorLabel } from './blocks';
import type { RelayContext } from './context';
import { headerUpdate, record, WidgetRefusal } from './conversations';
import { operatorAuthor } from './fromSlack';
import { serialised } from './history';

/** How often the worker looks for due reminders and unposted thread posts, unless told otherwise. */
export const ASSIST_TICK_MS = 5_000;
const LOCK_MS = 60_000;
/** A thread that never appeared (Parley uninstalled before the header was posted): give its posts up. */
const THREAD_WAIT_MS = 30 * 60_000;

type Block = Record<string, unknown>;
type Post = { text: string; blocks?: Block[]; username?: string; iconUrl?: string; messageId?: Types.ObjectId | null };

function context(text: string): Block {
  return { type: 'context', elements: [{ type: 'mrkdwn', text }] };
}

/** Stores a thread post and wakes the worker of this process. */
export async function queueThreadPost(ctx: RelayContext, conversationId: Types.ObjectId, post: Post): Promise<void> {
  await ctx.models.ThreadPost.create({
    conversationId,
    text: post.text,
    blocks: post.blocks ?? [],
    username: post.username ?? '',
    iconUrl: post.iconUrl ?? '',
    messageId: post.messageId ?? null,
  });
  assistants.get(ctx.models)?.kick();
}

/** A small context line in the thread (answers, notes of what Parley did). */
export function queueThreadNote(ctx: RelayContext, conversationId: Types.ObjectId, text: string): Promise<void> {
  return queueThreadPost(ctx, conversationId, { text, blocks: [context(text)] });
}

/** Posts waiting for a thread younger than this make the worker look again soon rather than at its next tick. */
const SOON_MS = 30_000;

/**
 * Posts the due thread posts, oldest first, one conversation at a time. `waiting`: some recent post waits for
 * its conversation's thread (the header is being posted right now).
 */
export async function postThreadPosts(ctx: RelayContext, now = new Date()): Promise<{ posted: number; waiting: boolean }> {
  const due = await ctx.models.ThreadPost.find({ failedAt: null, runAt: { $lte: now } }, { conversationId: 1 })
    .sort({ _id: 1 })
    .limit(1000)
    .lean<{ conversationId: Types.ObjectId }[]>();
  const result = { posted: 0, waiting: false };
  for (const id of new Set(due.map((d) => String(d.conversationId)))) await drainConversation(ctx, id, result);
  return result;
}

async function drainConversation(ctx: RelayContext, conversationId: string, result: { posted: number; waiting: boolean }): Promise<void> {
  const { ThreadPost, Conversation, Message } = ctx.models;
  for (;;) {
    const head = await ThreadPost.findOne({ conversationId, failedAt: null }).sort({ _id: 1 });
    if (!head) return;
    const now = Date.now();
    if (head.runAt.getTime() > now || (head.lockedUntil && head.lockedUntil.getTime() > now)) return;
    const conversation = await Conversation.findById(conversationId);
    if (!conversation) {
      await ThreadPost.deleteMany({ conversationId });
      return;
    }
    if (!conversation.threadTs) {
      const age = now - head.createdAt.getTime();
      if (age > THREAD_WAIT_MS) {
        await ThreadPost.updateMany(
          { conversationId },
          { $set: { failedAt: new Date(), lastError: 'the conversation never got a Slack thread' } },
        );
      }
      if (age < SOON_MS) result.waiting = true;
      return;
    }
    const claimed = await ThreadPost.findOneAndUpdate(
      { _id: head._id, lockedUntil: head.lockedUntil },
      { $set: { lockedUntil: new Date(now + LOCK_MS) }, $inc: { attempts: 1 } },
      { returnDocument: 'after' },
    );
    if (!claimed) return;
    const team = await ctx.slack.forTeam(conversation.slackTeamId);
    if (!team) {
      await ThreadPost.updateOne(
        { _id: claimed._id },
        { $set: { failedAt: new Date(), lastError: 'Parley is not installed in the team' } },
      );
      continue;
    }
    try {
      const res = await team.client.chat.postMessage({
        channel: conversation.slackChannel,
        thread_ts: conversation.threadTs,
        text: claimed.text,
        ...(claimed.blocks.length > 0 ? { blocks: claimed.blocks } : {}),
        ...(claimed.username ? { username: claimed.username } : {}),
        ...(claimed.iconUrl ? { icon_url: claimed.iconUrl } : {}),
        unfurl_links: false,
        unfurl_media: false,
      } as Parameters<typeof team.client.chat.postMessage>[0]);
      if (claimed.messageId) await Message.updateOne({ _id: claimed.messageId }, { $set: { slackTs: String(res.ts) } });
      await ThreadPost.deleteOne({ _id: claimed._id });
      result.posted += 1;
    } catch (error) {
      const e = error as { code?: unknown; retryAfter?: unknown; data?: { error?: unknown }; message?: string };
      const message = e.message ?? String(error);
      if (
        e.code === ErrorCode.PlatformError &&
        !['internal_error', 'fatal_error', 'service_unavailable', 'request_timeout'].includes(String(e.data?.error))
      ) {
        ctx.logger.warn(`assist: thread post ${String(claimed._id)} refused by Slack: ${message}`);
        await ThreadPost.updateOne({ _id: claimed._id }, { $set: { failedAt: new Date(), lockedUntil: null, lastError: message } });
        continue;
      }
      const wait =
        e.code === ErrorCode.RateLimitedError
          ? Math.max(1, Number(e.retryAfter) || 1) * 1000
          : Math.min(300_000, 1000 * 2 ** Math.min(claimed.attempts, 8));
      await ThreadPost.updateOne(
        { _id: claimed._id },
        { $set: { runAt: new Date(Date.now() + wait), lockedUntil: null, lastError: message } },
      );
      return;
    }
  }
}

/**
 * At most this many @here reminders per wait, then one last note without @here: an abandoned chat must not
 * ping the channel every minute for ever. A new visitor message starts a new wait (and a new count).
 */
export const MAX_RESPONSE_REMINDERS = 3;

/** Posts a reminder in the thread of each open conversation whose visitor waits unanswered longer than the widget's responseRemindersFreq. */
export async function sendDueReminders(ctx: RelayContext, now = new Date()): Promise<number> {
  const { Conversation, ConversationAssist, Visitor } = ctx.models;
  const waiting = await Conversation.find({ status: 'open', lastVisitorMsgAt: { $ne: null } }).limit(5000);
  const widgets = new Map<string, ChatEndpointDocument | null>();
  let sent = 0;
  for (const c of waiting) {
    const asked = c.lastVisitorMsgAt;
    if (!asked || (c.lastOperatorMsgAt && c.lastOperatorMsgAt.getTime() >= asked.getTime())) continue;
    const key = String(c.ceId);
    if (!widgets.has(key)) widgets.set(key, await ctx.widgets.get(c.ceId));
    const ce = widgets.get(key);
    if (!ce?.responseReminders || !(ce.responseRemindersFreq > 0)) continue;
    const cutoff = new Date(now.getTime() - ce.responseRemindersFreq * 1000);
    if (asked.getTime() > cutoff.getTime()) continue;
    const before = await ConversationAssist.findOne({ conversationId: c._id }, { remindedAt: 1, reminders: 1 });
    const previous = before?.remindedAt ?? null;
    if (previous && previous.getTime() > cutoff.getTime()) continue;
    // Reminders sent before this wait began belong to an earlier question.
    const count = previous && previous.getTime() >= asked.getTime() ? (before?.reminders ?? 0) + 1 : 1;
    if (count > MAX_RESPONSE_REMINDERS + 1) continue;
    try {
      // The claim is the guard between processes: only the one that still sees the previous remindedAt moves it.
      const claimed = await ConversationAssist.findOneAndUpdate(
        { conversationId: c._id, remindedAt: previous },
        { $set: { remindedAt: now, reminders: count } },
        { upsert: !before, setDefaultsOnInsert: true },
      );
      if (before && !claimed) continue;
    } catch (error) {
      if ((error as { code?: unknown }).code === 11000) continue;
      throw error;
    }
    const visitor = await Visitor.findById(c.visitorId, { name: 1, email: 1 });
    const who = escapeMrkdwn(visitor ? visitorLabel(visitor, c.number) : `Visitor ${c.number}`);
    const waited = waitedFor(now.getTime() - asked.getTime());
    const text =
      count <= MAX_RESPONSE_REMINDERS
        ? `<!here> :alarm_clock: ${who} has been waiting ${waited} for an answer.`
        : `:hourglass: ${who} is still unanswered after ${waited}. That was the last reminder; the visitor sees your reply whenever it comes.`;
    await queueThreadPost(ctx, c._id, { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] });
    sent += 1;
  }
  return sent;
}

function waitedFor(ms: number): string {
  const seconds = Math.max(1, Math.round(ms / 1000));
  if (seconds < 120) return `${seconds} seconds`;
  const minutes = Math.round(seconds / 60);
  return minutes < 120 ? `${minutes} minutes` : `${Math.round(minutes / 60)} hours`;
}

/** Records an operator-side message in the conversation and marks the conversation answered. */
async function operatorMessage(
  ctx: RelayContext,
  conversation: ConversationDocument,
  content: { text: string; html: string },
  author: { name: string; avatarUrl: string },
  slackUserId: string,
  markAnswered: boolean,
): Promise<MessageDocument> {
  const message = await serialised(String(conversation._id), () =>
    record(ctx, conversation, { kind: 'msg', from: 'operator', text: content.text, html: content.html, author, slackUserId }),
  );
  if (markAnswered) {
    const now = new Date();
    const first = await ctx.models.Conversation.findOneAndUpdate(
      { _id: conversation._id, firstResponseAt: null },
      { $set: { firstResponseAt: now, agentName: author.name, agentAvatarUrl: author.avatarUrl, agentSlackUserId: slackUserId } },
    );
    await ctx.models.Conversation.updateOne({ _id: conversation._id }, { $set: { lastOperatorMsgAt: now } });
    if (first) await headerUpdate(ctx, conversation);
  }
  return message;
}

export type SentSavedReply = { message: MessageDocument; text: string; html: string };

/**
 * Sends a saved reply into a conversation: the decoded response to the widget (text and sanitised HTML),
 * stored as an operator message, and posted in the thread in the sender's name. `operator` null: sent
 * automatically, in the widget's name, and said so in the thread.
 */
export async function deliverSavedReply(
  ctx: RelayContext,
  conversation: ConversationDocument,
  ce: ChatEndpointDocument,
  reply: SavedReplyDocument,
  operator: { slackUserId: string; name: string; avatarUrl: string } | null,
): Promise<SentSavedReply> {
  const decoded = decodeResponse(reply.response);
  const rendered = renderForWidget(decoded);
  const agent = ce.agentLabel || 'Support';
  const author = operator
    ? operatorAuthor(ce, { slackName: operator.name, image: operator.avatarUrl })
    : operatorAuthor(ce, { slackName: agent, image: ce.teamAvatarOn ? ce.teamAvatarUrl : '' });
  const message = await operatorMessage(ctx, conversation, rendered, author, operator?.slackUserId ?? '', operator !== null);
  const slackText = renderForSlack(decoded);
  const label = escapeMrkdwn(reply.label);
  const line = operator
    ? `Saved reply “${label}” sent by <@${operator.slackUserId}>`
    : `:robot_face: Sent automatically: saved reply “${label}” matched the visitor's message.`;
  await queueThreadPost(ctx, conversation._id, {
    text: slackText,
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text: slackText || ' ' } }, context(line)],
    username: operator ? operator.name : author.name,
    iconUrl: operator ? operator.avatarUrl : author.avatarUrl,
    messageId: message._id,
  });
  return { message, ...rendered };
}

/** After a visitor message was stored: saved replies whose trigger phrases match, and the automatic question group of a new conversation. */
export async function afterVisitorMessage(ctx: RelayContext, conversation: ConversationDocument, message: MessageDocument): Promise<void> {
  const ce = await ctx.widgets.get(conversation.ceId);
  if (!ce) return;
  if (message.seq === 1) {
    const auto = await ctx.models.QuestionGroup.findOne({ accountId: ce.accountId, auto: true });
    if (auto && (await planAllows(ctx.models, ce.accountId, 'questionGroups'))) await askFirstQuestion(ctx, conversation, ce, auto);
  }
  if (!message.text) return;
  const candidates = await ctx.models.SavedReply.find({ ceId: ce._id, autoSend: true, triggerPhrases: { $gt: '' } }).sort({ _id: 1 });
  const matching = candidates.filter((r) => matchesTriggerPhrases(r.triggerPhrases, message.text));
  if (matching.length === 0 || !(await planAllows(ctx.models, ce.accountId, 'savedReplies'))) return;
  for (const reply of matching) {
    // Each reply at most once per conversation, even when two processes see matching messages at once.
    const claimed = await ctx.models.ConversationAssist.findOneAndUpdate(
      { conversationId: conversation._id, autoSentReplyIds: { $ne: reply._id } },
      { $push: { autoSentReplyIds: reply._id } },
      { upsert: true, setDefaultsOnInsert: true },
    ).catch((error: unknown) => {
      if ((error as { code?: unknown }).code === 11000) return 'taken' as const;
      throw error;
    });
    if (claimed === 'taken') continue;
    await deliverSavedReply(ctx, conversation, ce, reply, null);
  }
}

async function planAllows(models: Models, accountId: Types.ObjectId, feature: 'savedReplies' | 'questionGroups'): Promise<boolean> {
  const account = await models.Account.findById(accountId, { planStripeId: 1 });
  const plan = account ? await models.Plan.findOne({ stripeId: account.planStripeId }) : null;
  return Boolean(plan?.[feature]);
}

function widgetAuthor(ce: ChatEndpointDocument): { name: string; avatarUrl: string } {
  return { name: ce.agentLabel || 'Support', avatarUrl: ce.teamAvatarOn ? ce.teamAvatarUrl : '' };
}

function plain(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/** Shows the group's prompt and asks its first question. */
export async function askFirstQuestion(
  ctx: RelayContext,
  conversation: ConversationDocument,
  ce: ChatEndpointDocument,
  group: QuestionGroupDocument,
): Promise<void> {
  const first = treeOf(group)[0];
  if (group.prompt) {
    const html = sanitiseQuestionHtml(group.prompt);
    await serialised(String(conversation._id), () =>
      record(ctx, conversation, { kind: 'msg', from: 'operator', text: plain(html), html, author: widgetAuthor(ce) }),
    );
  }
  await queueThreadNote(ctx, conversation._id, `:clipboard: Question group “${escapeMrkdwn(group.label)}” started.`);
  if (first) await ask(ctx, conversation, group.uid, first);
}

/** Sends a question frame (its seq reserved in the conversation's sequence) and remembers it as the one waiting. */
async function ask(ctx: RelayContext, conversation: ConversationDocument, groupUid: string, question: TreeNode): Promise<void> {
  await ctx.models.ConversationAssist.updateOne(
    { conversationId: conversation._id },
    { $set: { question: { groupUid, nodeId: question.id } } },
    { upsert: true, setDefaultsOnInsert: true },
  );
  await serialised(String(conversation._id), async () => {
    const reserved = await ctx.models.Conversation.findOneAndUpdate(
      { _id: conversation._id },
      { $inc: { lastSeq: 1 } },
      { returnDocument: 'after' },
    );
    if (!reserved) return;
    ctx.pubsub.publish(
      `visitor:${String(conversation.visitorId)}`,
      {
        t: 'question',
        seq: reserved.lastSeq,
        groupUid,
        nodeId: question.id,
        text: question.text,
        answers: question.children.filter((a) => !a.isQ).map((a) => ({ nodeId: a.id, text: a.text })),
      },
      { conversationId: String(conversation._id) },
    );
  });
}

/** The visitor picked an answer: its line goes to the thread, then the answer's action runs. */
export async function answerQuestion(
  ctx: RelayContext,
  visitorId: Types.ObjectId,
  answer: { groupUid: string; nodeId: string },
): Promise<void> {
  const conversation = await ctx.models.Conversation.findOne({ visitorId, status: 'open' }).sort({ _id: -1 });
  const waiting = conversation ? await ctx.models.ConversationAssist.findOne({ conversationId: conversation._id }) : null;
  const group =
    waiting?.question && waiting.question.groupUid === answer.groupUid && conversation
      ? await ctx.models.QuestionGroup.findOne({ uid: answer.groupUid, accountId: conversation.accountId })
      : null;
  const tree = group ? treeOf(group) : [];
  const found = findNode(tree, answer.nodeId);
  if (!conversation || !waiting?.question || !group || !found || found.node.isQ || found.parent?.id !== waiting.question.nodeId) {
    throw new WidgetRefusal('bad_frame', 'No question is waiting for this answer.');
  }
  // Taken once: a second click (another tab) finds the question already answered.
  const taken = await ctx.models.ConversationAssist.findOneAndUpdate(
    { _id: waiting._id, 'question.nodeId': waiting.question.nodeId },
    { $set: { question: null } },
  );
  if (!taken) return;
  const { node, parent, top } = found;
  await queueThreadNote(
    ctx,
    conversation._id,
    `:ballot_box_with_check: ${escapeMrkdwn(parent?.text ?? '')} → *${escapeMrkdwn(node.text)}*`,
  );
  const ce = await ctx.models.ChatEndpoint.findById(conversation.ceId);
  if (!ce) return;
  const action = node.action ?? '';
  if (action === 'new' && node.children[0]) return ask(ctx, conversation, group.uid, node.children[0]);
  if (action === 'next' && tree[top + 1]) return ask(ctx, conversation, group.uid, tree[top + 1] as TreeNode);
  if (action === 'form') {
    await serialised(String(conversation._id), () => record(ctx, conversation, { kind: 'askEmail', from: 'operator' }));
    await queueThreadNote(ctx, conversation._id, ':email: The visitor was asked for their e-mail address.');
    return;
  }
  if (action === 'customResponse') {
    const html = sanitiseQuestionHtml(node.customResponseText ?? '');
    if (html)
      await serialised(String(conversation._id), () =>
        record(ctx, conversation, { kind: 'msg', from: 'operator', text: plain(html), html, author: widgetAuthor(ce) }),
      );
    return;
  }
  if (action && !['new', 'next', 'form', 'customResponse'].includes(action)) {
    const room = await ctx.models.ChatEndpoint.findOne({ Uuid: action, accountId: conversation.accountId }, { RoomName: 1 });
    await ctx.models.ConversationAssist.updateOne({ _id: waiting._id }, { $set: { roomChoice: action } });
    await queueThreadNote(
      ctx,
      conversation._id,
      `:door: The visitor chose to chat in ${room?.RoomName ? `#${escapeMrkdwn(room.RoomName)}` : 'another room'}.`,
    );
    return;
  }
  await queueThreadNote(ctx, conversation._id, `:checkered_flag: Question group “${escapeMrkdwn(group.label)}” finished.`);
}

export type Assistant = { tick(now?: Date): Promise<void>; kick(): void; stop(): Promise<void> };
const assistants = new WeakMap<Models, Assistant>();

/** The assistant worker running on these models, if any (tests run a tick with it). */
export function assistantFor(models: Models): Assistant | undefined {
  return assistants.get(models);
}

/** Starts the worker: due reminders and thread posts every `tickMs`, and thread posts at once when kicked. */
export function startAssistant(ctx: RelayContext, tickMs = ASSIST_TICK_MS): Assistant {
  // Passes run one after another on one chain; kicks while one is waiting to start add nothing.
  let chain: Promise<void> = Promise.resolve();
  let kickQueued = false;
  let stopped = false;
  const pass = async (now?: Date) => {
    if (stopped) return;
    await sendDueReminders(ctx, now);
    const { waiting } = await postThreadPosts(ctx);
    if (waiting && !stopped) setTimeout(kick, 250).unref();
  };
  const queue = (work: () => Promise<void>): Promise<void> => {
    chain = chain.then(work).catch((error: unknown) => {
      if (!stopped) ctx.logger.error('assist: pass failed', error);
    });
    return chain;
  };
  const kick = () => {
    if (kickQueued || stopped) return;
    kickQueued = true;
    void queue(() => {
      kickQueued = false;
      return pass();
    });
  };
  const timer = setInterval(kick, tickMs);
  timer.unref();
  const assistant: Assistant = {
    tick: (now) => queue(() => pass(now)),
    kick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      assistants.delete(ctx.models);
      await chain;
    },
  };
  assistants.set(ctx.models, assistant);
  return assistant;
}
