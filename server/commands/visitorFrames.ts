/**
 * What a visitor's widget asks for besides sending messages: their details, the page they are on, a rating of the
 * conversation, its transcript by mail. The gateway parses the frames and calls these; the widget's HTTP API could
 * call them as well.
 */
import type { Types } from 'mongoose';
import { conversationProperties, trackEvent } from '../conversations/analytics';
import type { ConversationContext } from '../conversations/context';
import { inboxFieldsOf } from '../conversations/inbox';
import { maskEmail } from '../conversations/mailTokens';
import { findOpenConversation, headerUpdate } from '../conversations/record';
import { type TranscriptWidget, transcriptMail } from '../conversations/transcript';
import { searchableAs, visitorLabel } from '../conversations/visitors';
import { fireWebhook } from '../conversations/webhooks';
import type { Models } from '../models';
import type { ChatEndpoint } from '../models/ChatEndpoint';
import type { Visitor } from '../models/Visitor';
import { escapeMrkdwn } from '../shared/mrkdwn';
import { queueThreadNote, type ThreadOf } from './threadPosts';

/** A connected visitor's lastSeenAt is saved at most this often (on their next frame). */
export const SEEN_SAVED_EVERY_MS = 60_000;

/** A visitor's widget is open: the inactivity check leaves their conversation alone. */
export async function visitorSeen(models: Models, visitorId: Types.ObjectId): Promise<void> {
  await models.Visitor.updateOne({ _id: visitorId }, { $set: { lastSeenAt: new Date() } });
}

export async function visitorOnPage(models: Models, visitorId: Types.ObjectId, page: { url: string; title: string }): Promise<void> {
  await models.Visitor.updateOne({ _id: visitorId }, { $set: { currentPage: page.url, pageTitle: page.title } });
}

/** The visitor told their name or e-mail address (the thread header shows them) or accepted the privacy policy. */
export async function updateVisitorInfo(
  ctx: Pick<ConversationContext, 'models' | 'outbox'>,
  visitorId: Types.ObjectId,
  info: { name?: string; email?: string; acceptedPrivacy?: boolean },
): Promise<void> {
  const set: Record<string, unknown> = {};
  if (info.name !== undefined) set.name = info.name;
  if (info.email !== undefined) set.email = info.email;
  if (info.acceptedPrivacy === true) set.acceptedPrivacyAt = new Date();
  if (Object.keys(set).length === 0) return;
  const before = await ctx.models.Visitor.findOneAndUpdate({ _id: visitorId }, { $set: set }, { projection: { email: 1 } }).lean<{
    email?: string;
  }>();
  if (info.name === undefined && info.email === undefined) return;
  await searchableAs(ctx.models, visitorId, info);
  const open = await findOpenConversation(ctx, visitorId);
  if (!open) return;
  await headerUpdate(ctx, open);
  if (info.email) await emailGiven(ctx, open, info.email, (before?.email ?? '') !== info.email);
}

/**
 * The visitor gave their e-mail during a conversation: the requests for it that wait (askEmail entries) are answered
 * with it, so a reload shows them answered instead of asking again, and the thread is told (the address masked)
 * when it answered a request or is new.
 */
async function emailGiven(
  ctx: Pick<ConversationContext, 'models' | 'outbox'>,
  conversation: ThreadOf,
  email: string,
  changed: boolean,
): Promise<void> {
  const answered = await ctx.models.Message.updateMany(
    { conversationId: conversation._id, kind: 'askEmail', answer: { $exists: false } },
    { $set: { answer: 'given', text: email } },
  );
  if (answered.modifiedCount === 0 && !changed) return;
  await queueThreadNote(ctx, conversation, `:email: The visitor gave their e-mail ${escapeMrkdwn(maskEmail(email))}.`);
}

type WidgetOf = Pick<ChatEndpoint, 'accountId' | 'Uuid' | 'feedbackWebhookUrl' | 'RoomName' | 'agentLabel' | 'segmentWriteKey'>;

/** Rates the visitor's latest conversation: stored, shown in the thread header, sent to the feedback webhook. */
export async function rateConversation(
  ctx: Pick<ConversationContext, 'models' | 'outbox' | 'analytics'>,
  input: { visitorId: Types.ObjectId; ce: WidgetOf; rating: 'up' | 'down'; feedback?: string },
): Promise<void> {
  const latest = await ctx.models.Conversation.findOne({ visitorId: input.visitorId }).sort({ _id: -1 });
  if (!latest) return;
  latest.rating = input.rating;
  if (input.feedback !== undefined) latest.feedback = input.feedback;
  await latest.save();
  await headerUpdate(ctx, latest);
  await fireWebhook(ctx, {
    accountId: input.ce.accountId,
    key: `webhook:${String(latest._id)}`,
    event: 'conversation.rated',
    url: input.ce.feedbackWebhookUrl,
    body: {
      event: 'conversation.rated',
      conversation: {
        id: String(latest._id),
        number: latest.number,
        widgetId: input.ce.Uuid,
        rating: latest.rating,
        feedback: latest.feedback,
        ...inboxFieldsOf(latest),
      },
    },
  });
  await trackEvent(ctx, {
    ce: input.ce,
    event: 'Chat Rated',
    visitorId: latest.visitorId,
    properties: { ...conversationProperties(latest), rating: latest.rating, feedback: latest.feedback },
  });
}

/** Mails the visitor's latest conversation to the address they gave (through the outbox). */
export async function mailTranscript(
  ctx: Pick<ConversationContext, 'models' | 'outbox'>,
  input: { visitorId: Types.ObjectId; ce: WidgetOf & TranscriptWidget; email: string },
): Promise<void> {
  const { models } = ctx;
  const [latest, visitor] = await Promise.all([
    models.Conversation.findOne({ visitorId: input.visitorId }).sort({ _id: -1 }),
    models.Visitor.findById(input.visitorId, { name: 1, email: 1 }).lean<Pick<Visitor, 'name' | 'email'>>().exec(),
  ]);
  if (!latest || !visitor) return;
  const mail = await transcriptMail(models, latest, input.email, {
    ce: input.ce,
    visitorName: visitorLabel(visitor, latest.number),
    reader: 'visitor',
  });
  await ctx.outbox.enqueue('mail', `mail:${String(latest._id)}`, mail);
  await models.Conversation.updateOne({ _id: latest._id }, { $set: { transcriptSentTo: input.email } });
}
