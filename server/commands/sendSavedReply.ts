import { isValidObjectId } from 'mongoose';
import { NotFoundError, ValidationError } from '../errors';
import { deliverSavedReply, type SavedReplySender, type SentSavedReply } from './deliverSavedReply';
import type { OperatorMessageContext } from './operatorMessages';
import { requirePlanFeature } from './planFeature';

export type SendSavedReplyInput = {
  conversationId: string;
  /** One of the two: the reply's id, or its shortcut in the conversation's widget. */
  replyId?: string;
  shortcut?: string;
  operator: SavedReplySender;
};

/**
 * Sends a saved reply of the conversation's widget into the conversation: the decoded response reaches the
 * widget as an operator message (name and avatar as the widget's avatar settings say) and is posted in the
 * thread in the operator's name. Throws NotFoundError (no such conversation or reply), ValidationError (the
 * conversation ended, neither replyId nor shortcut given) or PaymentRequiredError (plan without saved replies).
 */
export async function sendSavedReply(deps: OperatorMessageContext, input: SendSavedReplyInput): Promise<SentSavedReply> {
  const { models } = deps;
  const conversation = isValidObjectId(input.conversationId) ? await models.Conversation.findById(input.conversationId) : null;
  if (!conversation) throw new NotFoundError('Conversation not found');
  if (conversation.status !== 'open') throw new ValidationError('This conversation has ended; the saved reply was not sent.');
  await requirePlanFeature(models, conversation.accountId, 'savedReplies');
  const shortcut = input.shortcut?.trim();
  if (!input.replyId && !shortcut) throw new ValidationError('Say which saved reply to send (its shortcut).');
  const reply = input.replyId
    ? /^[0-9a-f]{24}$/i.test(input.replyId)
      ? await models.SavedReply.findOne({ _id: input.replyId, ceId: conversation.ceId })
      : null
    : await models.SavedReply.findOne({ ceId: conversation.ceId, shortcut });
  if (!reply)
    throw new NotFoundError(shortcut ? `No saved reply with the shortcut “${shortcut}” in this widget.` : 'Saved reply not found');
  const ce = await models.ChatEndpoint.findById(conversation.ceId);
  if (!ce) throw new NotFoundError('Widget not found');
  return deliverSavedReply(deps, conversation, ce, reply, input.operator);
}
