/**
 * Screenshot requests: an operator asks (from Slack) for a picture of the page the visitor is on; the request is a
 * history entry (kind `screenshot`), so a widget that connects later still sees it. The visitor answers once: with
 * the picture (an upload naming the request, which reaches the thread as any visitor file does), or a refusal, or
 * their browser could not take it; the thread is told about the last two.
 */
import { Types } from 'mongoose';
import type { ConversationContext } from '../conversations/context';
import { serialised } from '../conversations/history';
import { record } from '../conversations/record';
import type { Models } from '../models';
import type { Conversation } from '../models/Conversation';
import { queueThreadNote } from './threadPosts';

export type ScreenshotAnswer = 'sent' | 'declined' | 'unsupported';

const NOTES: Record<Exclude<ScreenshotAnswer, 'sent'>, string> = {
  declined: ':no_entry_sign: The visitor declined the screenshot request.',
  unsupported: ':warning: The visitor allowed the screenshot, but their browser could not take one of this page.',
};

/** Stores the request and shows it on the visitor's widget. */
export async function requestScreenshot(
  ctx: ConversationContext,
  conversation: Pick<Conversation, 'visitorId'> & { _id: Types.ObjectId },
  slackUserId: string,
): Promise<void> {
  await serialised(String(conversation._id), () => record(ctx, conversation, { kind: 'screenshot', from: 'system', slackUserId }));
}

/** Whether `id` is a screenshot request of this visitor's that waits for its answer. */
export async function screenshotPending(models: Models, visitorId: Types.ObjectId, id: string): Promise<boolean> {
  if (!Types.ObjectId.isValid(id)) return false;
  const request = await models.Message.findOne({ _id: new Types.ObjectId(id), kind: 'screenshot', answer: { $exists: false } });
  return !!request && !!(await models.Conversation.exists({ _id: request.conversationId, visitorId }));
}

/**
 * Marks the visitor's request `id` answered; true when this call answered it (false: not theirs, unknown, or
 * answered already, in another tab for instance). Declined and unsupported answers leave a line in the thread.
 */
export async function answerScreenshot(
  ctx: Pick<ConversationContext, 'models' | 'outbox'>,
  visitorId: Types.ObjectId,
  id: string,
  answer: ScreenshotAnswer,
): Promise<boolean> {
  if (!Types.ObjectId.isValid(id)) return false;
  const request = await ctx.models.Message.findOne({ _id: new Types.ObjectId(id), kind: 'screenshot' }, { conversationId: 1 });
  const conversation = request
    ? await ctx.models.Conversation.findOne({ _id: request.conversationId, visitorId }, { slackChannel: 1 })
    : null;
  if (!request || !conversation) return false;
  const taken = await ctx.models.Message.updateOne({ _id: request._id, answer: { $exists: false } }, { $set: { answer } });
  if (taken.modifiedCount === 0) return false;
  if (answer !== 'sent') await queueThreadNote(ctx, conversation, NOTES[answer]);
  return true;
}
