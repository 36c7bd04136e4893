/**
 * The thread actions an operator takes on one conversation, from `/parley <action> N`, the header buttons,
 * the message shortcut or a modal: each checks the conversation's state, does the work through the relay's
 * commands, leaves a line in the thread, and answers what to tell the operator.
 */

import { endConversation } from '../commands/endConversation';
import type { OperatorMessageContext } from '../commands/operatorMessages';
import { requestScreenshot } from '../commands/screenshots';
import { sendSavedReply } from '../commands/sendSavedReply';
import { startQuestionGroup } from '../commands/startQuestionGroup';
import { queueThreadNote } from '../commands/threadPosts';
import { serialised } from '../conversations/history';
import { record } from '../conversations/record';
import { conversationPayload, transcriptMail } from '../conversations/transcript';
import { visitorLabel } from '../conversations/visitors';
import { ActionRefused } from '../errors';
import type { Models } from '../models';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';
import type { ConversationDocument } from '../models/Conversation';
import { escapeMrkdwn } from '../shared/mrkdwn';
import { ClientFrameSchema } from '../shared/widget-protocol';
import type { Operator } from './operators';

export { ActionRefused };

/** The e-mail address as the widget's transcript request validates it; the refusal says what is wrong. */
export function transcriptAddress(input: string): string {
  const parsed = ClientFrameSchema.safeParse({ t: 'transcript', email: input.trim() });
  if (!parsed.success || parsed.data.t !== 'transcript')
    throw new ActionRefused(`“${input.trim().slice(0, 100)}” is not a valid e-mail address.`);
  return parsed.data.email;
}

function mustBeOpen(c: ConversationDocument): void {
  if (c.status !== 'open') throw new ActionRefused(`Conversation #${c.number} has already ended.`);
}

export async function visitorName(models: Models, c: ConversationDocument): Promise<string> {
  const visitor = await models.Visitor.findById(c.visitorId);
  return visitor ? visitorLabel(visitor, c.number) : `Visitor ${c.number}`;
}

export async function endChat(relay: OperatorMessageContext, c: ConversationDocument, operator: Operator, note = ''): Promise<string> {
  mustBeOpen(c);
  const { ended } = await endConversation(relay, c._id, 'operator', { operatorSlackUserId: operator.slackUserId });
  if (!ended) throw new ActionRefused(`Conversation #${c.number} has already ended.`);
  const trimmed = note.trim();
  await queueThreadNote(
    relay,
    c,
    `:white_check_mark: <@${operator.slackUserId}> ended this chat.${trimmed ? ` Note: ${escapeMrkdwn(trimmed.slice(0, 2000))}` : ''}`,
  );
  return `Conversation #${c.number} ended.`;
}

export async function discardChat(relay: OperatorMessageContext, c: ConversationDocument, operator: Operator): Promise<string> {
  mustBeOpen(c);
  const { ended } = await endConversation(relay, c._id, 'operator', { operatorSlackUserId: operator.slackUserId, discard: true });
  if (!ended) throw new ActionRefused(`Conversation #${c.number} has already ended.`);
  await queueThreadNote(relay, c, `:wastebasket: <@${operator.slackUserId}> discarded this chat: no transcript, webhook or rating.`);
  return `Conversation #${c.number} discarded: ended without transcript, webhook or rating.`;
}

export async function askForEmail(relay: OperatorMessageContext, c: ConversationDocument, operator: Operator): Promise<string> {
  mustBeOpen(c);
  await serialised(String(c._id), () => record(relay, c, { kind: 'askEmail', from: 'system', slackUserId: operator.slackUserId }));
  await queueThreadNote(relay, c, `:e-mail: <@${operator.slackUserId}> asked the visitor for their e-mail address.`);
  return `Asked the visitor of conversation #${c.number} for their e-mail address.`;
}

export async function askForScreenshot(relay: OperatorMessageContext, c: ConversationDocument, operator: Operator): Promise<string> {
  mustBeOpen(c);
  await requestScreenshot(relay, c, operator.slackUserId);
  await queueThreadNote(relay, c, `:camera: <@${operator.slackUserId}> asked the visitor for a screenshot of their page.`);
  return `Asked the visitor of conversation #${c.number} for a screenshot of their page.`;
}

export async function emailTranscript(
  relay: OperatorMessageContext,
  ce: ChatEndpointDocument,
  c: ConversationDocument,
  operator: Operator,
  address: string,
): Promise<string> {
  const to = transcriptAddress(address);
  const mail = await transcriptMail(relay.models, c, to, {
    ce,
    visitorName: await visitorName(relay.models, c),
    // An operator sends the transcript on the visitor's behalf: in their language.
    reader: 'visitor',
  });
  await relay.outbox.enqueue('mail', `mail:${String(c._id)}`, mail);
  await relay.models.Conversation.updateOne({ _id: c._id }, { $set: { transcriptSentTo: to } });
  await queueThreadNote(relay, c, `:page_facing_up: <@${operator.slackUserId}> sent the transcript to ${escapeMrkdwn(to)}.`);
  return `The transcript of conversation #${c.number} is on its way to ${to}.`;
}

export async function sendToWebhook(
  relay: OperatorMessageContext,
  ce: ChatEndpointDocument,
  c: ConversationDocument,
  operator: Operator,
): Promise<string> {
  if (!ce.webhookUrl)
    throw new ActionRefused('This widget has no webhook URL. Set one in the Parley console (Settings → Transcripts and webhooks).');
  await relay.outbox.enqueue('webhook', `webhook:${String(c._id)}`, {
    url: ce.webhookUrl,
    body: { event: 'conversation.sent', conversation: await conversationPayload(relay.models, c) },
  });
  await queueThreadNote(relay, c, `:outbox_tray: <@${operator.slackUserId}> sent this conversation to the webhook.`);
  return `Conversation #${c.number} is on its way to the webhook.`;
}

export async function sendReply(
  relay: OperatorMessageContext,
  c: ConversationDocument,
  operator: Operator,
  which: { replyId: string } | { shortcut: string },
): Promise<string> {
  mustBeOpen(c);
  await sendSavedReply(relay, { conversationId: String(c._id), ...which, operator });
  return `Saved reply sent in conversation #${c.number}.`;
}

export async function startGroup(
  relay: OperatorMessageContext,
  c: ConversationDocument,
  operator: Operator,
  which: { uid: string } | { shortcut: string },
): Promise<string> {
  mustBeOpen(c);
  await startQuestionGroup(relay, { conversationId: String(c._id), ...which });
  await queueThreadNote(relay, c, `:question: <@${operator.slackUserId}> started a question group.`);
  return `Question group started in conversation #${c.number}.`;
}
