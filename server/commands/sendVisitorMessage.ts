/**
 * A visitor's message into their conversation, opening one when needed (the widget's socket and its file upload
 * send them). What it needs of the running relay is passed in (VisitorMessageContext; the relay has it all).
 */

import { Types } from 'mongoose';
import type { Counter } from 'prom-client';
import { refreshQuotaSoon } from '../billing/quota';
import { conversationProperties, trackEvent } from '../conversations/analytics';
import type { ConversationContext } from '../conversations/context';
import { appendEntryReading, firstEntryFields, insertEntry, type NewEntry, type StoredMessage, serialised } from '../conversations/history';
import { inboxFieldsOf } from '../conversations/inbox';
import { findOpenConversation, headerUpdate, type OpenConversation, publishEntry, REFUSALS, WidgetRefusal } from '../conversations/record';
import { fireWebhook } from '../conversations/webhooks';
import type { Logger } from '../logger';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';
import type { Conversation } from '../models/Conversation';
import type { MessageFile } from '../models/Message';
import type { Visitor } from '../models/Visitor';
import { visitorSearchTerms } from '../shared/searchTerms';
import { type DueSettings, firstReminderAt, inactiveAt, openingDueTimes, type ReminderSettings } from './conversationDueTimes';
import { openingWait, startWait } from './responseTargets';
import { visitorLineReopened } from './snoozeConversation';

export type VisitorMessageContext = ConversationContext & {
  /** Whether someone answers in the widget's channel now (a new conversation needs it). */
  presence: { isOnline(ce: ChatEndpointDocument): Promise<boolean> };
  logger: Pick<Logger, 'warn'>;
  metrics: { conversationsStarted: Pick<Counter, 'inc'> };
};

/** The chat's first line as the history shows it: the opening message's first line, cut to FIRST_LINE_MAX characters. */
export function firstLineOf(text: string): string {
  const line = text.trim().split(/\r?\n/, 1)[0] ?? '';
  return line.length > FIRST_LINE_MAX ? `${line.slice(0, FIRST_LINE_MAX - 1)}…` : line;
}
const FIRST_LINE_MAX = 140;

/**
 * Opens a new conversation after checking what the widget's settings demand. Before the visitor's ack only what
 * decides or makes the conversation: the visitor, presence and the widget's limit of open conversations (read
 * together), the counter, the conversation and its header job. The month's quota is counted after it (it marks the
 * account, it refuses nothing), and the REST hooks come from a cache (conversations/webhooks.ts).
 */
export async function startConversation(
  ctx: VisitorMessageContext,
  ce: ChatEndpointDocument,
  visitorId: Types.ObjectId,
  origin: { pageUrl: string; triggerUid: string },
  firstLine = '',
  /**
   * checks: false for a visitor answering by e-mail, whom the widget's rules for new chats do not concern.
   * firstMessage: the text of the message that opens it, carried on the header job, which then posts without reading it.
   * firstEntry: that message as it will be stored; the conversation is stored with what its append would write (seq 1
   * taken, its count, its words, the visitor's line's times), and the caller inserts it under seq 1 (`firstLine`).
   */
  options: { checks?: boolean; firstMessage?: string; firstEntry?: NewEntry } = {},
): Promise<StartedConversation> {
  const checks = options.checks !== false;
  // Independent reads, in flight together; the refusals keep their order (erased, offline, info, privacy, too many).
  const [visitor, online, open] = await Promise.all([
    // Whole: the thread's header shows it (handed to the header job below).
    ctx.models.Visitor.findById(visitorId).lean<Visitor>().exec(),
    checks ? ctx.presence.isOnline(ce) : true,
    // Counted up to the limit only: whether it is reached is all that matters.
    checks && ce.maxConcurrentConvos > 0
      ? ctx.models.Conversation.countDocuments({ ceId: ce._id, status: 'open' }, { limit: ce.maxConcurrentConvos })
      : 0,
  ]);
  // Erased (GDPR) while its widget was open.
  if (!visitor) throw new WidgetRefusal('unknown_widget', 'This chat is no longer available.');
  if (!online) throw new WidgetRefusal('widget_offline', REFUSALS.offline);
  if (checks && ce.requireInfo && !visitor.email) throw new WidgetRefusal('info_required', REFUSALS.info);
  if (checks && ce.displayPrivacyPolicy && ce.requireAcceptance && !visitor.acceptedPrivacyAt) {
    throw new WidgetRefusal('privacy_not_accepted', REFUSALS.privacy);
  }
  if (checks && ce.maxConcurrentConvos > 0 && open >= ce.maxConcurrentConvos) {
    throw new WidgetRefusal('too_many_conversations', REFUSALS.tooMany);
  }
  const now = new Date();
  const visitorTerms = visitorSearchTerms(visitor);
  const counter = await ctx.models.ConversationCounter.findOneAndUpdate(
    { ceId: ce._id },
    { $inc: { next: 1 } },
    { returnDocument: 'after', upsert: true, setDefaultsOnInsert: true },
  )
    .lean<{ next: number }>()
    .orFail();
  const conversation = await ctx.models.Conversation.create({
    accountId: ce.accountId,
    ceId: ce._id,
    number: counter.next,
    visitorId,
    pageUrl: origin.pageUrl,
    triggerUid: origin.triggerUid,
    slackTeamId: ce.slackTeamId,
    slackChannel: ce.RoomId,
    firstLine: firstLineOf(firstLine),
    // Found in the history search by its visitor's name and e-mail; its messages add their words as they are stored.
    searchTerms: visitorTerms,
    ...openingDueTimes(ce, now),
    // The visitor waits for the team's first answer from now on (its target, when the widget has one).
    ...openingWait(ce, now),
    ...(options.firstEntry ? { ...visitorLineFields(now, ce), ...firstEntryFields(options.firstEntry, visitorTerms) } : {}),
  });
  ctx.metrics.conversationsStarted.inc();
  ctx.justStarted?.put({ conversation: conversation.toObject(), visitor });
  // Over the month's quota the conversation still goes through; the account is marked and its console says so.
  refreshQuotaSoon(ctx.models, ce.accountId, (error: unknown) =>
    ctx.logger.warn({ accountId: String(ce.accountId), err: error }, 'quota: could not count conversations'),
  );
  // Started by the caller once the first message is stored: the header quotes it.
  await ctx.outbox.enqueue(
    'slack.header',
    String(conversation._id),
    { conversationId: String(conversation._id), ...(options.firstMessage !== undefined ? { firstMessage: options.firstMessage } : {}) },
    {
      channel: ce.RoomId,
      conversationId: conversation._id,
      start: false,
      // Stored claimed by this process, which runs it with the first line once poked.
      claim: true,
    },
  );
  await fireWebhook(ctx, {
    accountId: ce.accountId,
    key: `webhook:${String(conversation._id)}`,
    event: 'conversation.started',
    url: ce.newConversationWebhookURL,
    body: {
      event: 'conversation.started',
      conversation: {
        id: String(conversation._id),
        number: conversation.number,
        widgetId: ce.Uuid,
        pageUrl: origin.pageUrl,
        ...inboxFieldsOf(conversation),
      },
    },
  });
  await trackEvent(ctx, {
    ce,
    event: 'Chat Started',
    visitorId,
    properties: { ...conversationProperties(conversation), pageUrl: origin.pageUrl },
    at: conversation.startedAt,
  });
  return {
    _id: conversation._id,
    visitorId,
    ceId: conversation.ceId,
    accountId: conversation.accountId,
    number: conversation.number,
    slackTeamId: conversation.slackTeamId,
    slackChannel: conversation.slackChannel,
    // The shared inbox's fields before the first line, as its append would have read them: no state yet.
    ...(options.firstEntry
      ? { firstLine: { at: now, before: { assigneeId: conversation.assigneeId, waitingSince: conversation.waitingSince } } }
      : {}),
  };
}

/** A conversation just opened; `firstLine` when it was stored with its first line's seq taken (`firstEntry`). */
export type StartedConversation = OpenConversation & { firstLine?: FirstLine };

/** A new conversation's first line, whose seq 1 the conversation's insert took: when, and the inbox's fields before it. */
type FirstLine = { at: Date; before: InboxBefore };

/** What a visitor's line writes on its conversation besides its seq, count and words. */
function visitorLineFields(at: Date, ce: DueSettings & ReminderSettings) {
  return {
    lastVisitorMsgAt: at,
    reminderAt: firstReminderAt(at, ce),
    inactiveAt: inactiveAt(at, ce),
    inboxState: 'open' as const,
    snoozedUntil: null,
  };
}

export type VisitorMessageResult = { message: StoredMessage; conversation: OpenConversation; duplicate: boolean };

/**
 * Stores a visitor message (once per clientId) in the visitor's open conversation, opening one when needed,
 * and queues it for the Slack thread. `known`: the open conversation the caller remembers (a socket keeps the
 * last one); if it ended meanwhile, nothing is written to it and the message goes where it belongs.
 *
 * Before the ack: the conversation hands out the seq (only while open), the message is stored, then its Slack job;
 * one journal flush makes the three durable. A resent clientId is caught by the messages' unique index, not by a
 * read before each message: no job is queued, its count is given back, and the message first stored is the answer.
 */
export async function visitorMessage(
  ctx: VisitorMessageContext,
  input: {
    ce: ChatEndpointDocument;
    visitorId: Types.ObjectId;
    known?: OpenConversation | null;
    clientId: string;
    text: string;
    files?: MessageFile[];
    origin: { pageUrl: string; triggerUid: string };
    /** Id of the sending socket, which gets an ack instead of the message frame. */
    socket?: string;
  },
): Promise<VisitorMessageResult> {
  return serialised(`visitor:${String(input.visitorId)}`, async () => {
    let conversation = input.known ?? (await findOpenConversation(ctx, input.visitorId));
    for (let attempt = 0; ; attempt++) {
      const entry = visitorEntry(input);
      let current: OpenConversation;
      let firstLine: FirstLine | undefined;
      if (conversation) current = conversation;
      else {
        const opening = input.text.trim() || input.files?.[0]?.name || '';
        const { firstLine: taken, ...started } = await startConversation(ctx, input.ce, input.visitorId, input.origin, opening, {
          firstMessage: input.text,
          firstEntry: entry,
        });
        current = started;
        firstLine = taken;
      }
      const stored = await storeVisitorMessage(ctx, current, input, entry, firstLine);
      if (stored && !stored.duplicate) {
        // After the ack, in the conversation's order, without holding up the visitor: REST hooks and Segment, and the
        // shared inbox's news of a conversation the line brought back to open.
        const { message, inbox } = stored;
        void serialised(`announce:${String(current._id)}`, async () => {
          // A line after the team's answer starts the visitor's next wait; the header shows its target (refreshed by
          // visitorLineReopened when the line reopened it, else here). A wait the line's own write found running
          // costs nothing more.
          const targeted = !inbox?.waitingSince && (await startWait(ctx, current._id, input.ce, message.createdAt));
          if (targeted && inbox?.inboxState !== 'waiting' && inbox?.inboxState !== 'snoozed') await headerUpdate(ctx, current);
          if (inbox) await visitorLineReopened(ctx, current, inbox, input.clientId.startsWith('mail-') ? 'mail' : 'widget');
          await announceVisitorMessage(ctx, input.ce, current, message);
        }).catch((error: unknown) => ctx.logger.warn({ err: error }, 'visitor message: REST hooks or Segment failed'));
      }
      if (stored) return { ...stored, conversation: current };
      // It ended (an operator, the inactivity check, another process): the message opens the next one.
      conversation = attempt === 0 ? await findOpenConversation(ctx, input.visitorId) : null;
    }
  });
}

/** A new visitor message for the account's `visitor_message` REST hooks and the widget's Segment source. */
async function announceVisitorMessage(
  ctx: VisitorMessageContext,
  ce: ChatEndpointDocument,
  conversation: OpenConversation,
  message: StoredMessage,
): Promise<void> {
  const id = String(conversation._id);
  await fireWebhook(ctx, {
    accountId: ce.accountId,
    key: `webhook:${id}`,
    event: 'visitor_message',
    url: '',
    body: {
      event: 'visitor_message',
      conversation: { id, number: conversation.number, widgetId: ce.Uuid },
      visitor: { id: String(conversation.visitorId) },
      message: {
        id: String(message._id),
        seq: message.seq,
        text: message.text,
        files: message.files.map((f) => ({ name: f.name, size: f.size, mimetype: f.mimetype })),
        createdAt: message.createdAt.toISOString(),
      },
    },
  });
  await trackEvent(ctx, {
    ce,
    event: 'Visitor Message Sent',
    visitorId: conversation.visitorId,
    properties: { ...conversationProperties(conversation), messageId: String(message._id), seq: message.seq, files: message.files.length },
    at: message.createdAt,
  });
}

/** A visitor's line as its conversation's history stores it. */
function visitorEntry(input: { clientId: string; text: string; files?: MessageFile[] }): NewEntry {
  return { _id: new Types.ObjectId(), kind: 'msg', from: 'visitor', text: input.text, clientId: input.clientId, files: input.files ?? [] };
}

/** `firstLine`: the conversation was stored with this line's seq (1) taken; the line is inserted, nothing updated. */
async function storeVisitorMessage(
  ctx: VisitorMessageContext,
  conversation: OpenConversation,
  input: { ce: DueSettings & ReminderSettings; clientId: string; socket?: string },
  entry: NewEntry,
  firstLine?: FirstLine,
): Promise<{ message: StoredMessage; duplicate: boolean; inbox?: InboxBefore } | null> {
  const key = String(conversation._id);
  let stored: { message: StoredMessage; before: InboxBefore } | null;
  try {
    stored = await serialised(key, async () => {
      const at = new Date();
      // The message first, acknowledged once applied; then its Slack job, journaled, which makes both durable (the
      // journal keeps writes in order). Only then does anyone hear of it: the visitor's ack, their other tabs. A
      // job thus never exists without its message, and carries what the post needs.
      // The line brings the conversation back to open in the shared inbox (from waiting or snoozed), in the same write.
      const appended = firstLine
        ? {
            message: await insertEntry(ctx.models, conversation._id, 1, entry, { journaled: false }, firstLine.at),
            before: firstLine.before,
          }
        : await appendEntryReading(
            ctx.models,
            conversation._id,
            entry,
            { set: visitorLineFields(at, input.ce), whileOpen: true, journaled: false },
            { inboxState: 1, assigneeId: 1, waitingSince: 1 },
          );
      if (!appended) return null;
      const { message } = appended;
      await queueReply(ctx, conversation, message, { start: false });
      publishEntry(ctx, conversation, message, input.socket);
      return { message, before: appended.before };
    });
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code !== 11000) throw error;
    // A resend of a message already stored: its count is given back, and the message first stored is the answer.
    await ctx.models.Conversation.updateOne({ _id: conversation._id }, { $inc: { visitorMsgs: -1 } });
    const earlier = await ctx.models.Message.findOne({ conversationId: conversation._id, clientId: input.clientId })
      .lean<StoredMessage>()
      .exec();
    if (!earlier) throw new Error(`message ${input.clientId} is both stored and missing`);
    await requeueIfLost(ctx, conversation, earlier);
    return { message: earlier, duplicate: true };
  }
  if (!stored) return null;
  ctx.outbox.poke(key);
  return { message: stored.message, duplicate: false, inbox: stored.before };
}

/** The shared inbox's fields as a visitor line found them. */
type InboxBefore = Partial<Pick<Conversation, 'inboxState' | 'assigneeId' | 'waitingSince'>>;

/**
 * A resent message that is stored but has no Slack job and was never posted: the database failed between the
 * message and its job. Queued now, so the widget's resend is what gets it to Slack. Read in this order (job, then
 * message): a job removed after its post had set the message's slackTs first, so a posted message is never
 * queued again.
 */
async function requeueIfLost(ctx: VisitorMessageContext, conversation: OpenConversation, message: StoredMessage): Promise<void> {
  const id = String(message._id);
  if (await ctx.models.OutboxJob.exists({ key: String(conversation._id), kind: 'slack.reply', 'payload.messageId': id })) return;
  const now = await ctx.models.Message.findById(message._id, { slackTs: 1 }).lean<{ slackTs: string }>();
  if (!now || now.slackTs) return;
  await queueReply(ctx, conversation, message, { start: true });
}

/** The Slack job of a stored visitor message, carrying its line (slack/outboxJobs.ts posts it without a read). */
function queueReply(
  ctx: VisitorMessageContext,
  conversation: OpenConversation,
  message: StoredMessage,
  opts: { start: boolean },
): Promise<void> {
  return ctx.outbox.enqueue(
    'slack.reply',
    String(conversation._id),
    { messageId: String(message._id), text: message.text, files: message.files },
    // Claimed as it is stored, also when it waits for the poke: this process runs it.
    { channel: conversation.slackChannel, conversationId: conversation._id, start: opts.start, claim: true },
  );
}
