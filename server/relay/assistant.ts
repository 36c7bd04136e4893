import { askFirstQuestion } from '../commands/askFirstQuestion';
import type { ConversationAssistant } from '../commands/conversationAssistant';
import { deliverSavedReply } from './assist';
import type { RelayContext } from './context';

/** The relay's assistant as the commands take it (sendSavedReply, startQuestionGroup, afterVisitorMessage). */
export function conversationAssistant(ctx: RelayContext): ConversationAssistant {
  return {
    deliverSavedReply: (conversation, ce, reply, operator) => deliverSavedReply(ctx, conversation, ce, reply, operator),
    askFirstQuestion: (conversation, ce, group) => askFirstQuestion(ctx, conversation, ce, group),
  };
}
