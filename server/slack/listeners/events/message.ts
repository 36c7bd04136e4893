/**
 * The Slack `message` event, Slack → visitor: this file reads the event; what a reply does to the conversation
 * is server/commands/operatorMessages.ts. Thread replies by people in a conversation's thread become operator messages; edits and
 * deletions of relayed replies are mirrored; notes (`;` or `//`), bot posts (Parley's own included) and other
 * subtypes are not relayed. Slack retries of an event are dropped by event id.
 *
 * Slack delivers events concurrently and retries a failed delivery 1 s, 1 min and 5 min later, so an edit or a
 * deletion may arrive before its message, and an older edit after a newer one. Such a change is kept
 * (SlackEarlyChange) and the message relayed as it stands when it comes (a deleted one never); edits apply in
 * Slack's order of changes (their ts). Both sides write before they look for the other, so with any interleaving,
 * in any process, one of them sees the other.
 */

import type { App } from '@slack/bolt';
import type { Types } from 'mongoose';
import {
  correctAgent,
  editOperatorMessage,
  type OperatorMessageContext,
  recordSlackReply,
  recordSystemLine,
  withdrawOperatorMessage,
} from '../../../commands/operatorMessages';
import { queueThreadNote } from '../../../commands/threadPosts';
import { operatorAuthor } from '../../../conversations/authors';
import type { StoredMessage } from '../../../conversations/history';
import { operatorJoinedLine } from '../../../conversations/widgetLanguage';
import type { Conversation } from '../../../models/Conversation';
import type { MessageFile } from '../../../models/Message';
import type { SlackEarlyChange } from '../../../models/SlackEarlyChange';
import { APPLIED } from '../../../models/writeConcerns';
import type { SlackDeps, SlackRelay } from '../../deps';
import { slackToHtml, slackToText } from '../../slackText';

/** What a thread reply uses of the relay: the conversation context of the commands, the log, the operator seats. */
type MessageContext = OperatorMessageContext & Pick<SlackRelay, 'logger' | 'seats'>;

/** The parts of a Slack message event the relay reads. */
export type SlackMessageEvent = {
  type: 'message';
  subtype?: string;
  channel?: string;
  user?: string;
  bot_id?: string;
  text?: string;
  ts?: string;
  thread_ts?: string;
  files?: { id?: string; name?: string; title?: string; mimetype?: string; size?: number }[];
  message?: { ts?: string; text?: string; user?: string; bot_id?: string; thread_ts?: string; subtype?: string };
  deleted_ts?: string;
  previous_message?: { ts?: string; thread_ts?: string };
  event_ts?: string;
};

/** Subtypes of a person's message that carry a reply; every other subtype is noise for the relay. */
const HUMAN_SUBTYPES = new Set([undefined, 'file_share', 'thread_broadcast']);

export function isNote(text: string): boolean {
  const t = text.trimStart();
  return t.startsWith(';') || t.startsWith('//');
}

/** Records the event id; false when it was seen before (a Slack retry). */
export async function firstDelivery(ctx: MessageContext, eventId: string | undefined): Promise<boolean> {
  if (!eventId) return true;
  try {
    // Acknowledged once applied: the reply's own insert, which waits for the journal, comes after it and makes it
    // durable too. A crash before that loses both, and Slack's retry is then rightly handled as new.
    await ctx.models.SlackEventSeen.collection.insertOne({ eventId, at: new Date() }, { writeConcern: APPLIED });
    return true;
  } catch (error) {
    if ((error as { code?: unknown }).code === 11000) return false;
    throw error;
  }
}

/** What a thread reply needs of its conversation. */
type ThreadConversation = Pick<
  Conversation,
  'status' | 'ceId' | 'accountId' | 'visitorId' | 'number' | 'slackTeamId' | 'slackChannel' | 'threadTs' | 'agentName' | 'agentSlackUserId'
> & { _id: Types.ObjectId };
const THREAD_CONVERSATION_FIELDS = {
  status: 1,
  ceId: 1,
  accountId: 1,
  visitorId: 1,
  number: 1,
  slackTeamId: 1,
  slackChannel: 1,
  threadTs: 1,
  agentName: 1,
  agentSlackUserId: 1,
} as const;

function conversationOfThread(ctx: MessageContext, teamId: string, channel: string, threadTs: string): Promise<ThreadConversation | null> {
  return ctx.models.Conversation.collection.findOne<ThreadConversation>(
    { slackTeamId: teamId, slackChannel: channel, threadTs },
    { projection: THREAD_CONVERSATION_FIELDS },
  );
}

/** What a thread reply needs of the Slack side: the team's bot (to skip its own posts) and the operator's name. */
type SlackSide = Pick<SlackDeps, 'slack' | 'authors'>;

export async function handleSlackMessage(
  ctx: MessageContext,
  side: SlackSide,
  teamId: string,
  eventId: string | undefined,
  event: SlackMessageEvent,
): Promise<void> {
  if (!event.channel) return;
  if (event.subtype === 'message_changed') return mirrorEdit(ctx, teamId, event);
  if (event.subtype === 'message_deleted') return mirrorDelete(ctx, teamId, event);
  if (!HUMAN_SUBTYPES.has(event.subtype) || event.bot_id || !event.user || !event.ts) return;
  if (!event.thread_ts || event.thread_ts === event.ts) return;
  const team = await side.slack.forTeam(teamId);
  if (team && event.user === team.botUserId) return;
  const conversation = await conversationOfThread(ctx, teamId, event.channel, event.thread_ts);
  if (!conversation) return;
  const text = event.text ?? '';
  // A reply is relayed once per Slack message by the write that hands out its seq (recordSlackReply). What happens
  // before that write (a note's or an ended conversation's post, a reply's files stored) is kept once by the event id.
  const note = isNote(text);
  const ended = conversation.status === 'ended';
  if ((note || ended || !!event.files?.length) && !(await firstDelivery(ctx, eventId))) return;
  if (note) {
    await queueThreadNote(ctx, conversation, ':lock: Internal note: not sent to the visitor.');
    return;
  }
  if (ended) {
    // Slack's retry of a reply relayed before the conversation ended is no late reply (a rare read: ended threads).
    if (await ctx.models.Conversation.exists({ _id: conversation._id, slackReplyTs: event.ts })) return;
    await queueThreadNote(ctx, conversation, ':warning: This conversation has ended; the reply was not sent to the visitor.');
    return;
  }
  const ce = await ctx.widgets.get(conversation.ceId);
  if (!ce) return;
  const slackAuthor = await side.authors.lookup(teamId, event.user);
  const author = operatorAuthor(ce, slackAuthor);
  const files = await operatorFiles(ctx, ce._id, conversation._id, teamId, event.files ?? []);
  const user = event.user;
  const { channel, ts } = event;
  const answered = await recordSlackReply(
    ctx,
    conversation,
    { text: slackToText(text), html: slackToHtml(text), author, slackTs: ts, slackUserId: user, files },
    // Stored first, then looked for among the changes that came before it: an edit or deletion stored after this
    // look finds the reply (it writes, then looks), so with any interleaving, in any process, one sees the other.
    (stored) => asItStands(ctx, stored, teamId, channel, ts),
  );
  // Slack's retry of an event relayed already (here or in another process).
  if (!answered) return;
  const { first } = answered;
  // The first reply came while Slack did not answer users.info: the header named a stand-in until now.
  const correctsFallback = !first && slackAuthor.known && conversation.agentSlackUserId === user && conversation.agentName !== author.name;
  if (correctsFallback) await correctAgent(ctx, conversation, author, user);
  if (first && ce.sendOpJoinAutoResponse && ce.opJoinAutoResponseMessage) {
    const visitor = await ctx.models.Visitor.findById(conversation.visitorId, { locale: 1, language: 1 })
      .lean<{ locale?: string; language?: string }>()
      .exec();
    await recordSystemLine(ctx, conversation, operatorJoinedLine(ce.opJoinAutoResponseMessage, visitor, author.name));
  }
  const overLimit = await ctx.seats.check(conversation.accountId, user, conversation._id).catch((error: unknown) => {
    ctx.logger.warn({ err: error }, 'operators: could not check the seat');
    return null;
  });
  if (overLimit) {
    await ctx.outbox.enqueue(
      'slack.ephemeral',
      String(conversation._id),
      {
        teamId,
        channel: conversation.slackChannel,
        threadTs: conversation.threadTs,
        user,
        text: overLimit,
      },
      { channel: conversation.slackChannel, conversationId: conversation._id },
    );
  }
}

async function operatorFiles(
  ctx: MessageContext,
  ceId: Types.ObjectId,
  conversationId: Types.ObjectId,
  teamId: string,
  files: NonNullable<SlackMessageEvent['files']>,
): Promise<MessageFile[]> {
  const out: MessageFile[] = [];
  for (const f of files) {
    if (!f.id) continue;
    const stored = await ctx.models.WidgetFile.create({
      ceId,
      conversationId,
      source: 'slack',
      name: f.name || f.title || 'file',
      size: f.size ?? 0,
      mimetype: f.mimetype || 'application/octet-stream',
      slackTeamId: teamId,
      slackFileId: f.id,
    });
    out.push({ id: String(stored._id), name: stored.name, size: stored.size, mimetype: stored.mimetype });
  }
  return out;
}

async function relayedReply(ctx: MessageContext, teamId: string, channel: string, ts: string) {
  const message = await ctx.models.Message.findOne({ slackTs: ts, kind: 'msg', from: 'operator' });
  if (!message) return null;
  const conversation = await ctx.models.Conversation.findById(message.conversationId);
  if (!conversation || conversation.slackChannel !== channel || conversation.slackTeamId !== teamId) return null;
  return { message, conversation };
}
type RelayedReply = NonNullable<Awaited<ReturnType<typeof relayedReply>>>;

/** A change of a message, as Slack describes it: a new text (an edit) or none (a deletion), and when it was made. */
type Change = Pick<SlackEarlyChange, 'changeTs' | 'text' | 'deleted'>;

/** Slack ts values compare as text (ten digits, a dot, six digits). */
const newer = (ts: string, than: string | undefined): boolean => !than || ts > than;

function earlyChange(ctx: MessageContext, teamId: string, channel: string, ts: string): Promise<SlackEarlyChange | null> {
  return ctx.models.SlackEarlyChange.collection.findOne<SlackEarlyChange>({ teamId, channel, ts });
}

/**
 * A reply just stored, before anyone hears of it: edited or deleted in Slack before its own event came, it is sent
 * as it stands now, or not at all (its words leave the history at once).
 */
async function asItStands(ctx: MessageContext, stored: StoredMessage, teamId: string, channel: string, ts: string) {
  const early = await earlyChange(ctx, teamId, channel, ts);
  if (!early) return stored;
  const messages = ctx.models.Message.collection;
  if (early.deleted || isNote(early.text)) {
    await messages.updateOne({ _id: stored._id }, { $set: { deleted: true, text: '', html: '', files: [] } });
    return null;
  }
  const edit = { text: slackToText(early.text), html: slackToHtml(early.text), edited: true, slackChangeTs: early.changeTs };
  await messages.updateOne({ _id: stored._id }, { $set: edit });
  return { ...stored, ...edit };
}

/** Keeps a change whose message is not stored (yet): a deletion for good, an edit unless a newer change is kept. */
async function keepEarly(ctx: MessageContext, key: { teamId: string; channel: string; ts: string }, change: Change): Promise<void> {
  const collection = ctx.models.SlackEarlyChange.collection;
  if (change.deleted) {
    await collection.updateOne(key, { $set: { deleted: true, text: '', changeTs: change.changeTs, at: new Date() } }, { upsert: true });
    return;
  }
  try {
    await collection.updateOne(
      { ...key, deleted: false, changeTs: { $lt: change.changeTs } },
      { $set: { text: change.text, changeTs: change.changeTs, at: new Date() } },
      { upsert: true },
    );
  } catch (error) {
    // The filter missed an existing entry: a newer edit or a deletion is kept already.
    if ((error as { code?: unknown }).code !== 11000) throw error;
  }
}

/** Mirrors a change onto a relayed reply, unless it is deleted already or a newer change was applied. */
async function applyChange(ctx: MessageContext, { message, conversation }: RelayedReply, change: Change): Promise<void> {
  if (message.deleted) return;
  // A reply deleted in Slack, or edited into a note, must no longer be seen by the visitor.
  if (change.deleted || isNote(change.text)) return withdrawOperatorMessage(ctx, conversation, message);
  if (!newer(change.changeTs, message.slackChangeTs)) return;
  const text = slackToText(change.text);
  if (text === message.text) {
    // Nothing the visitor would see; remembered so that an older edit arriving later is not applied over it.
    message.slackChangeTs = change.changeTs;
    await message.save();
    return;
  }
  await editOperatorMessage(ctx, conversation, message, { text, html: slackToHtml(change.text), changeTs: change.changeTs });
}

/** A change of a message in a channel: applied to the relayed reply, or kept until the reply comes. */
async function mirrorChange(
  ctx: MessageContext,
  teamId: string,
  message: { channel: string; ts: string; threadTs?: string },
  change: Change,
): Promise<void> {
  const { channel, ts } = message;
  const found = await relayedReply(ctx, teamId, channel, ts);
  if (found) return applyChange(ctx, found, change);
  // Not a reply Parley relayed, or one whose event has not come yet (Slack's order is not guaranteed). Only changes
  // of thread replies are kept (a reply is what Parley relays).
  if (!message.threadTs || message.threadTs === ts) return;
  await keepEarly(ctx, { teamId, channel, ts }, change);
  // The reply may have been stored since the look above (here or in another process): it did not see this change.
  const now = await relayedReply(ctx, teamId, channel, ts);
  if (now) await applyChange(ctx, now, change);
}

async function mirrorEdit(ctx: MessageContext, teamId: string, event: SlackMessageEvent): Promise<void> {
  const edited = event.message;
  if (!edited?.ts || edited.bot_id || !event.channel) return;
  const changeTs = event.event_ts ?? event.ts ?? '';
  const message = { channel: event.channel, ts: edited.ts, threadTs: edited.thread_ts };
  await mirrorChange(ctx, teamId, message, { changeTs, text: edited.text ?? '', deleted: false });
}

async function mirrorDelete(ctx: MessageContext, teamId: string, event: SlackMessageEvent): Promise<void> {
  if (!event.deleted_ts || !event.channel) return;
  const changeTs = event.event_ts ?? event.ts ?? '';
  const message = { channel: event.channel, ts: event.deleted_ts, threadTs: event.previous_message?.thread_ts };
  await mirrorChange(ctx, teamId, message, { changeTs, text: '', deleted: true });
}

/** Registers the `message` listener that relays thread replies (Bolt acknowledges the event before it runs). */
export function registerMessageListener(app: App, deps: SlackDeps): void {
  const { relay } = deps;
  app.event('message', async ({ event, body }) => {
    const envelope = body as { team_id?: string; event_id?: string };
    try {
      await handleSlackMessage(relay, deps, envelope.team_id ?? '', envelope.event_id, event as unknown as SlackMessageEvent);
    } catch (error) {
      // An event that arrives while Parley shuts down is lost with the closing database; Slack retries it.
      if (!relay.isClosed()) throw error;
    }
  });
}
