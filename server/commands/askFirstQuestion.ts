/**
 * A question group running in a conversation: its prompt, then each question as a `question` frame the widget shows
 * with its answers. The visitor's pick comes back through answerQuestion.ts.
 */

import type { ConversationContext } from '../conversations/context';
import { serialised } from '../conversations/history';
import { type OpenConversation, record } from '../conversations/record';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';
import type { QuestionGroupDocument } from '../models/QuestionGroup';
import { ownerTextPlain, renderOwnerText } from '../ownerText';
import { escapeMrkdwn } from '../shared/mrkdwn';
import type { TreeNode } from '../shared/questionGroups';
import { sanitiseQuestionHtml, treeOf } from './questionGroups';
import { queueThreadNote } from './threadPosts';

/** Shows the group's prompt and asks its first question. */
export async function askFirstQuestion(
  ctx: ConversationContext,
  conversation: OpenConversation,
  ce: ChatEndpointDocument,
  group: QuestionGroupDocument,
): Promise<void> {
  const first = treeOf(group)[0];
  if (group.prompt) await sayAsWidget(ctx, conversation, ce, sanitiseQuestionHtml(group.prompt));
  await queueThreadNote(ctx, conversation, `:clipboard: Question group “${escapeMrkdwn(group.label)}” started.`);
  if (first) await askQuestion(ctx, conversation, group.uid, first);
}

/** Sends a question frame (its seq reserved in the conversation's sequence) and remembers it as the one waiting. */
export async function askQuestion(
  ctx: ConversationContext,
  conversation: Pick<OpenConversation, '_id' | 'visitorId'>,
  groupUid: string,
  question: TreeNode,
): Promise<void> {
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
        // Labels are plain text in the widget: Markdown's markers are taken off, never shown.
        text: ownerTextPlain(question.text),
        answers: question.children.filter((a) => !a.isQ).map((a) => ({ nodeId: a.id, text: ownerTextPlain(a.text) })),
      },
      { conversationId: String(conversation._id) },
    );
  });
}

/**
 * A message from the widget itself (a group's prompt, an answer's custom response), written by the owner in Markdown
 * or the allowed tags: its sanitised HTML and plain text (server/ownerText.ts).
 */
export async function sayAsWidget(
  ctx: ConversationContext,
  conversation: Pick<OpenConversation, '_id' | 'visitorId'>,
  ce: ChatEndpointDocument,
  ownerText: string,
): Promise<void> {
  const { text, html } = renderOwnerText(ownerText);
  if (!text.trim()) return;
  const author = { name: ce.agentLabel || 'Support', avatarUrl: ce.teamAvatarOn ? ce.teamAvatarUrl : '' };
  await serialised(String(conversation._id), () => record(ctx, conversation, { kind: 'msg', from: 'operator', text, html, author }));
}
