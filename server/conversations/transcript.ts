/** The transcript of a conversation, as the e-mail a visitor or the transcript recipient receives. */

import { escapeHtml } from '../escapeHtml';
import type { MailMessage } from '../mail';
import type { Models } from '../models';
import type { ConversationDocument } from '../models/Conversation';
import { sanitizeMessageHtml } from '../ownerText';
import { inSlackOrder } from './history';

export async function transcriptMail(
  models: Models,
  conversation: ConversationDocument,
  to: string,
  labels: { widgetName: string; visitorName: string; agentLabel: string },
): Promise<MailMessage> {
  const entries = inSlackOrder(await models.Message.find({ conversationId: conversation._id, kind: 'msg', deleted: false }));
  const lines = entries.map((m) => {
    const who = m.from === 'visitor' ? labels.visitorName : m.author?.name || labels.agentLabel;
    const at = m.createdAt.toISOString().replace('T', ' ').slice(0, 16);
    const files = m.files.length > 0 ? ` [${m.files.map((f) => f.name).join(', ')}]` : '';
    // Operator replies are Slack mrkdwn: the mail shows their formatting (html) or plain words, never *asterisks*.
    const plain = m.from === 'operator' ? withoutMarkers(m.text) : m.text;
    // Their HTML (Slack's formatting, or an owner's Markdown) was sanitised when stored, and is once more for the mail.
    return {
      who,
      at,
      text: `${plain}${files}`,
      html: m.from === 'operator' && m.html ? `${sanitizeMessageHtml(m.html)}${escapeHtml(files)}` : '',
    };
  });
  const title = `Transcript of your chat with ${labels.widgetName} (#${conversation.number})`;
  return {
    kind: 'transcript',
    to,
    subject: title,
    text: [title, '', ...lines.map((l) => `[${l.at} UTC] ${l.who}: ${l.text}`)].join('\n'),
    html: `<h2>${escapeHtml(title)}</h2>${lines
      .map((l) => `<p><small>${escapeHtml(l.at)} UTC</small><br><strong>${escapeHtml(l.who)}</strong>: ${l.html || escapeHtml(l.text)}</p>`)
      .join('')}`,
  };
}

/** What the archive webhook receives: the history report's fields and the messages. */
export async function conversationPayload(models: Models, conversation: ConversationDocument) {
  const [visitor, ce, messages] = await Promise.all([
    models.Visitor.findById(conversation.visitorId),
    models.ChatEndpoint.findById(conversation.ceId),
    models.Message.find({ conversationId: conversation._id, kind: 'msg', deleted: false }).then(inSlackOrder),
  ]);
  return {
    id: String(conversation._id),
    number: conversation.number,
    widgetId: ce?.Uuid ?? '',
    channelName: ce?.RoomName ?? '',
    startedAt: conversation.startedAt.toISOString(),
    endedAt: conversation.endedAt?.toISOString() ?? null,
    endedBy: conversation.endedBy,
    firstResponseAt: conversation.firstResponseAt?.toISOString() ?? null,
    agentName: conversation.agentName,
    rating: conversation.rating,
    feedback: conversation.feedback,
    pageUrl: conversation.pageUrl,
    triggerUid: conversation.triggerUid,
    visitor: visitor
      ? {
          name: visitor.name,
          email: visitor.email,
          location: visitor.location,
          currentPage: visitor.currentPage,
          identUserId: visitor.identUserId,
          identTraits: visitor.identTraits,
          createdAt: visitor.createdAt.toISOString(),
        }
      : null,
    messages: messages.map((m) => ({
      from: m.from,
      author: m.author?.name ?? '',
      text: m.text,
      at: m.createdAt.toISOString(),
      files: m.files.map((f) => f.name),
    })),
  };
}

/** The visitor-facing text without mrkdwn's markers: *bold*, _italics_, ~strike~ and `code` as plain words. */
export function withoutMarkers(text: string): string {
  return text
    .replace(/(^|[\s(])\*([^*\n]+)\*(?=$|[\s).,!?:;])/g, '$1$2')
    .replace(/(^|[\s(])_([^_\n]+)_(?=$|[\s).,!?:;])/g, '$1$2')
    .replace(/(^|[\s(])~([^~\n]+)~(?=$|[\s).,!?:;])/g, '$1$2')
    .replace(/`([^`\n]+)`/g, '$1');
}
