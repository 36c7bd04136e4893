/**
 * What an operator's message does to a conversation, wherever it came from (a thread reply in Slack, a saved
 * reply): stored and sent to the visitor, the conversation marked answered (its first answer names the agent in
 * the header), and later edits or deletions mirrored to the widget. The caller gives the text as the widget shows
 * it (the Slack side turns mrkdwn into it) and the author as the widget names them (conversations/authors.ts).
 */

import type { Types } from 'mongoose';
import type { Counter } from 'prom-client';
import { conversationProperties, trackEvent } from '../conversations/analytics';
import type { Author } from '../conversations/authors';
import type { ConversationContext } from '../conversations/context';
import { appendEntryReading, type StoredMessage, serialised } from '../conversations/history';
import { headerUpdate, publishEntry, record } from '../conversations/record';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';
import type { Conversation } from '../models/Conversation';
import type { MessageArticle, MessageDocument, MessageFile } from '../models/Message';
import { assignFirstReplier } from './assignConversation';
import { answeredFields } from './conversationDueTimes';
import { recordResponse, WAIT_ENDED, WAIT_READ } from './responseTargets';
import { startUnseenWait } from './unseenReplies';

/** What an operator message needs of the running relay (the relay has it all). */
export type OperatorMessageContext = ConversationContext & {
  /** Widgets as the relay caches them. */
  widgets: { get(id: Types.ObjectId): Promise<ChatEndpointDocument | null> };
  metrics: { operatorMessages: Pick<Counter, 'inc'> };
};

type Answered = Pick<Conversation, 'visitorId' | 'slackChannel' | 'ceId' | 'number'> & { _id: Types.ObjectId };

/** Stores an operator message and sends it to the visitor's sockets. */
export function recordOperatorMessage(ctx: OperatorMessageContext, conversation: Answered, input: OperatorInput): Promise<StoredMessage> {
  return serialised(String(conversation._id), async () => {
    const message = await record(ctx, conversation, { kind: 'msg', from: 'operator', ...input });
    ctx.metrics.operatorMessages.inc();
    return message;
  });
}

type OperatorInput = {
  text: string;
  html: string;
  author: Author;
  slackUserId: string;
  slackTs?: string;
  files?: MessageFile[];
  /** Help-center articles the message carries as cards. */
  articles?: MessageArticle[];
};

/**
 * Looks at the stored answer before anyone hears of it (a Slack reply whose edit or deletion came first): answers
 * it as it is to be sent, or null when it is not to be sent at all.
 */
export type SettleAnswer = (message: StoredMessage) => Promise<StoredMessage | null>;

/**
 * An operator's answer (a reply in the thread, a saved reply): stored, sent to the visitor, and the conversation marked answered by the
 * same write that hands out the seq (answeredFields: lastOperatorMsgAt, which stops reminders). `first`: this was the
 * conversation's first answer, which names the agent in the header (one more write, once per conversation).
 */
export async function recordAnswer(
  ctx: OperatorMessageContext,
  conversation: Answered,
  input: OperatorInput,
): Promise<{ message: StoredMessage; first: boolean }> {
  const answered = await answer(ctx, conversation, input);
  if (!answered) throw new Error(`conversation ${String(conversation._id)} is gone`);
  return answered;
}

/**
 * recordAnswer for a reply in the Slack thread, once per Slack message: null when the conversation relayed its ts
 * already (Slack's retry of the event, in this process or another; the write that hands out the seq records the ts,
 * so this costs no round trip) or is gone. `settle` looks at the stored reply before anyone hears of it.
 */
export function recordSlackReply(
  ctx: OperatorMessageContext,
  conversation: Answered,
  input: OperatorInput & { slackTs: string },
  settle: SettleAnswer,
): Promise<{ message: StoredMessage; first: boolean } | null> {
  return answer(ctx, conversation, input, settle, input.slackTs);
}

function answer(
  ctx: OperatorMessageContext,
  conversation: Answered,
  input: OperatorInput,
  settle?: SettleAnswer,
  onceForSlackTs?: string,
): Promise<{ message: StoredMessage; first: boolean } | null> {
  return serialised(String(conversation._id), async () => {
    const now = new Date();
    const appended = await appendEntryReading(
      ctx.models,
      conversation._id,
      { kind: 'msg', from: 'operator', ...input },
      // The team answered: the conversation now waits for the visitor in the shared inbox (a reply ends a snooze too),
      // and the visitor's wait for the team ends (its response event below reads how it stood).
      { set: { ...answeredFields(now), inboxState: 'waiting', snoozedUntil: null, ...WAIT_ENDED }, onceForSlackTs },
      { ...WAIT_READ, ceId: 1, inboxState: 1, assigneeId: 1 },
    );
    if (!appended) return null;
    // Unseen by the visitor within the widget's emailUnseenAfterMinutes, it goes out by e-mail. The wait starts before
    // the widget hears of the reply, so a `seen` frame for it always finds the wait to end.
    if (appended.before.ceId) await startUnseenWait(ctx, { _id: conversation._id, ceId: appended.before.ceId }, appended.message.seq, now);
    // An edit or a deletion that reached Parley before this reply is applied now; a reply deleted already goes nowhere.
    const settled = settle ? await settle(appended.message) : appended.message;
    if (settled) publishEntry(ctx, conversation, settled);
    ctx.metrics.operatorMessages.inc();
    const first = !appended.before.firstResponseAt && (await claimFirstAnswer(ctx, conversation, input.author, input.slackUserId, now));
    const ce = await ctx.widgets.get(conversation.ceId);
    const { status, inboxState, assigneeId } = appended.before;
    await recordResponse(ctx, { _id: conversation._id, ceId: conversation.ceId }, appended.before, ce, input.slackUserId, now);
    // Nobody has it: the reply's author does (the widget's autoAssignOnReply, on by default); that refreshes the header.
    const assigned =
      status === 'open' &&
      !assigneeId &&
      !!input.slackUserId &&
      ce?.autoAssignOnReply !== false &&
      (await assignFirstReplier(ctx, conversation._id, input.slackUserId));
    // Otherwise the header names the first answer's agent, or shows the inbox state the reply changed, once.
    if (!assigned && (first || (status === 'open' && inboxState !== 'waiting'))) await headerUpdate(ctx, conversation);
    if (ce) {
      await trackEvent(ctx, {
        ce,
        event: 'Operator Replied',
        visitorId: conversation.visitorId,
        properties: {
          ...conversationProperties(conversation),
          messageId: String(appended.message._id),
          operatorName: input.author.name,
          firstReply: first,
        },
        at: now,
      });
    }
    return { message: appended.message, first };
  });
}

/** Names the agent of the conversation's first answer, unless someone answered first (another process too). */
async function claimFirstAnswer(
  ctx: OperatorMessageContext,
  conversation: Answered,
  author: Author,
  slackUserId: string,
  now: Date,
): Promise<boolean> {
  const first = await ctx.models.Conversation.updateOne(
    { _id: conversation._id, firstResponseAt: null },
    {
      $set: {
        firstResponseAt: now,
        noAnswerAt: null,
        autoAnswerAt: null,
        agentName: author.name,
        agentAvatarUrl: author.avatarUrl,
        agentSlackUserId: slackUserId,
      },
    },
  );
  // The header that names them is queued by the caller, once with the assignment this answer may make.
  return first.modifiedCount === 1;
}

/** The agent of the first answer was named by a stand-in (Slack did not answer then): the header names them now. */
export async function correctAgent(
  ctx: OperatorMessageContext,
  conversation: Answered,
  author: Author,
  slackUserId: string,
): Promise<void> {
  await ctx.models.Conversation.updateOne(
    { _id: conversation._id, agentSlackUserId: slackUserId },
    { $set: { agentName: author.name, agentAvatarUrl: author.avatarUrl } },
  );
  await headerUpdate(ctx, conversation);
}

/** A line from Parley itself in the conversation (the widget's "operator joined" text). */
export function recordSystemLine(ctx: OperatorMessageContext, conversation: Answered, text: string): Promise<StoredMessage> {
  return serialised(String(conversation._id), () => record(ctx, conversation, { kind: 'msg', from: 'system', text }));
}

/** An operator message was edited where it was written: the widget shows the new text, marked edited. */
export async function editOperatorMessage(
  ctx: OperatorMessageContext,
  conversation: Answered,
  message: MessageDocument,
  edit: { text: string; html: string; changeTs?: string },
): Promise<void> {
  await serialised(String(conversation._id), async () => {
    message.text = edit.text;
    message.html = edit.html;
    message.edited = true;
    if (edit.changeTs) message.slackChangeTs = edit.changeTs;
    await message.save();
    await record(ctx, conversation, { kind: 'edit', from: 'operator', targetId: message._id, text: message.text, html: message.html });
  });
}

/**
 * An operator message was deleted (or turned into a note): the visitor no longer sees it, and its words leave the
 * history (the message's and its edits' text, its files), so no replay, transcript or export shows them again.
 */
export async function withdrawOperatorMessage(
  ctx: OperatorMessageContext,
  conversation: Answered,
  message: MessageDocument,
): Promise<void> {
  await serialised(String(conversation._id), async () => {
    message.deleted = true;
    message.text = '';
    message.html = '';
    message.files = [];
    await message.save();
    await ctx.models.Message.updateMany(
      { conversationId: conversation._id, targetId: message._id, kind: 'edit' },
      { $set: { text: '', html: '' } },
    );
    await record(ctx, conversation, { kind: 'delete', from: 'operator', targetId: message._id });
  });
}
