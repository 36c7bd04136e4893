import { isValidObjectId } from 'mongoose';
import type { ConversationContext } from '../conversations/context';
import { NotFoundError, ValidationError } from '../errors';
import type { QuestionGroupDocument } from '../models/QuestionGroup';
import { askFirstQuestion } from './askFirstQuestion';
import { requirePlanFeature } from './planFeature';

export type StartQuestionGroupInput = {
  conversationId: string;
  /** One of the two: the group's uid, or its shortcut in the conversation's account. */
  uid?: string;
  shortcut?: string;
};

/**
 * Starts a question group in a conversation: the widget shows the prompt and the first question with its
 * answers; each answer the visitor picks lands in the thread and leads where the tree says. Throws
 * NotFoundError, ValidationError (conversation ended, nothing named) or PaymentRequiredError.
 */
export async function startQuestionGroup(deps: ConversationContext, input: StartQuestionGroupInput): Promise<QuestionGroupDocument> {
  const { models } = deps;
  const conversation = isValidObjectId(input.conversationId) ? await models.Conversation.findById(input.conversationId) : null;
  if (!conversation) throw new NotFoundError('Conversation not found');
  if (conversation.status !== 'open') throw new ValidationError('This conversation has ended; the question group was not started.');
  await requirePlanFeature(models, conversation.accountId, 'questionGroups');
  const shortcut = input.shortcut?.trim();
  if (!input.uid && !shortcut) throw new ValidationError('Say which question group to start (its shortcut).');
  const group = input.uid
    ? await models.QuestionGroup.findOne({ uid: input.uid, accountId: conversation.accountId })
    : await models.QuestionGroup.findOne({ shortcut, accountId: conversation.accountId });
  if (!group) throw new NotFoundError(shortcut ? `No question group with the shortcut “${shortcut}”.` : 'Question group not found');
  const ce = await models.ChatEndpoint.findById(conversation.ceId);
  if (!ce) throw new NotFoundError('Widget not found');
  await askFirstQuestion(deps, conversation, ce, group);
  return group;
}
