/** The transcript of a conversation, as the e-mail a visitor or the transcript recipient receives. */

import type { MailMessage } from '../mail';
import { transcriptMailMessage } from '../mail/templates';
import type { Models } from '../models';
import type { ConversationDocument } from '../models/Conversation';
import { inSlackOrder } from './history';
import { inboxFieldsOf } from './inbox';
import { mailSender, validTimeZone, visitorMailLanguage } from './widgetLanguage';

/** What a transcript needs of its widget: its texts and overrides, colours, sender name and time zone. */
export type TranscriptWidget = Parameters<typeof visitorMailLanguage>[0] &
  Parameters<typeof mailSender>[0] & { tz?: string; agentLabel: string };

/**
 * The transcript mail of a conversation. For the visitor (`reader: 'visitor'`): in their language (the widget's,
 * with the owner's wording), dated in their time zone, from the widget's sender name. For the owner's transcript
 * recipient: in English, dated in the widget's time zone, naming the visitor.
 */
export async function transcriptMail(
  models: Models,
  conversation: ConversationDocument,
  to: string,
  opts: { ce: TranscriptWidget; visitorName: string; reader: 'visitor' | 'owner' },
): Promise<MailMessage> {
  const { ce } = opts;
  const [entries, visitor] = await Promise.all([
    models.Message.find({ conversationId: conversation._id, kind: 'msg', deleted: false }).then(inSlackOrder),
    models.Visitor.findById(conversation.visitorId, { locale: 1, timeZone: 1, language: 1 })
      .lean<{ locale?: string; timeZone?: string; language?: string }>()
      .exec(),
  ]);
  const forVisitor = opts.reader === 'visitor';
  const { language, texts } = forVisitor
    ? visitorMailLanguage(ce, visitor)
    : (() => {
        const english = visitorMailLanguage(ce, { locale: 'en' });
        return { ...english, language: { ...english.language, timeZone: validTimeZone(ce.tz) || 'UTC' } };
      })();
  const sender = mailSender(ce, texts);
  const lines = entries.map((m) => ({
    who: m.from === 'visitor' ? (forVisitor ? texts.browserSideAuthorLabel : opts.visitorName) : m.author?.name || texts.agentLabel,
    at: m.createdAt,
    // Operator replies are Slack mrkdwn: the mail shows their formatting (html) or plain words, never *asterisks*.
    text: m.from === 'operator' ? withoutMarkers(m.text) : m.text,
    html: m.from === 'operator' ? m.html : '',
    files: m.files.map((f) => ({ name: f.name, url: '' })),
  }));
  return transcriptMailMessage({ to, sender, language, name: sender.name, number: conversation.number, lines });
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
    // The shared inbox: its tags, state (open, waiting, snoozed, ended) and who had it ('' when nobody).
    ...inboxFieldsOf(conversation),
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
