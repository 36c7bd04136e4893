/** The visitor picked an answer of a question group (the widget's `answer` frame). */
import type { Types } from 'mongoose';
import type { ConversationContext } from '../conversations/context';
import { serialised } from '../conversations/history';
import { record, WidgetRefusal } from '../conversations/record';
import { ownerTextPlain } from '../ownerText';
import { escapeMrkdwn } from '../shared/mrkdwn';
import { findNode, type TreeNode } from '../shared/questionGroups';
import { askQuestion, sayAsWidget } from './askFirstQuestion';
import { sanitiseQuestionHtml, treeOf } from './questionGroups';
import { tagFromPick } from './tagConversation';
import { queueThreadNote } from './threadPosts';

/**
 * The answer's line goes to the thread, then its action runs: the next question, the e-mail form, a custom response,
 * another room, or the end of the group. Throws WidgetRefusal when no question of that group waits for this answer;
 * a second click (another tab) on a question already answered does nothing.
 */
export async function answerQuestion(
  ctx: ConversationContext,
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
  // The labels as the visitor saw them (plain words), escaped for Slack.
  const asked = escapeMrkdwn(ownerTextPlain(parent?.text ?? ''));
  await queueThreadNote(ctx, conversation, `:ballot_box_with_check: ${asked} → *${escapeMrkdwn(ownerTextPlain(node.text))}*`);
  const ce = await ctx.models.ChatEndpoint.findById(conversation.ceId);
  if (!ce) return;
  // Answering the group's first question is picking the group: its tag, when the owner set one the widget lists.
  if (group.tag && parent?.id === tree[0]?.id) {
    await tagFromPick(ctx, conversation._id, ce.tags ?? [], [group.tag], `(the visitor answered “${escapeMrkdwn(group.label)}”)`);
  }
  const action = node.action ?? '';
  if (action === 'new' && node.children[0]) return askQuestion(ctx, conversation, group.uid, node.children[0]);
  if (action === 'next' && tree[top + 1]) return askQuestion(ctx, conversation, group.uid, tree[top + 1] as TreeNode);
  if (action === 'form') {
    await serialised(String(conversation._id), () => record(ctx, conversation, { kind: 'askEmail', from: 'operator' }));
    await queueThreadNote(ctx, conversation, ':email: The visitor was asked for their e-mail address.');
    return;
  }
  if (action === 'customResponse') {
    await sayAsWidget(ctx, conversation, ce, sanitiseQuestionHtml(node.customResponseText ?? ''));
    return;
  }
  if (action && !['new', 'next', 'form', 'customResponse'].includes(action)) {
    const room = await ctx.models.ChatEndpoint.findOne({ Uuid: action, accountId: conversation.accountId }, { RoomName: 1 });
    await ctx.models.ConversationAssist.updateOne({ _id: waiting._id }, { $set: { roomChoice: action } });
    await queueThreadNote(
      ctx,
      conversation,
      `:door: The visitor chose to chat in ${room?.RoomName ? `#${escapeMrkdwn(room.RoomName)}` : 'another room'}.`,
    );
    return;
  }
  await queueThreadNote(ctx, conversation, `:checkered_flag: Question group “${escapeMrkdwn(group.label)}” finished.`);
}
