/** New visitor message (visitor_message): each message a visitor sends, with its conversation's ids. */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { type ApiConversation, type ApiMessage, getJson, type Page } from '../api';
import { hookTrigger, type Item } from '../hookTrigger';

type Payload = {
  conversation?: { id?: string; number?: number; widgetId?: string };
  visitor?: { id?: string };
  message?: { id?: string; seq?: number; text?: string; files?: { name: string }[]; createdAt?: string };
};

const item = (
  conversation: { id: string; number: number; widgetId: string },
  visitorId: string,
  message: Omit<ApiMessage, 'kind' | 'from'>,
): Item => ({
  id: message.id,
  text: message.text,
  seq: message.seq,
  files: message.files.map((f) => f.name).join(', '),
  createdAt: message.createdAt,
  conversationId: conversation.id,
  conversationNumber: conversation.number,
  widgetId: conversation.widgetId,
  visitorId,
});

/** The visitor messages of the latest conversations, newest first. */
async function recentMessages(z: ZObject, bundle: Bundle): Promise<Item[]> {
  const { data } = await getJson<Page<ApiConversation>>(z, bundle, '/conversations?limit=3');
  const items: Item[] = [];
  for (const summary of data) {
    const one = await getJson<ApiConversation & { messages: ApiMessage[] }>(z, bundle, `/conversations/${summary.id}`);
    const mine = one.messages.filter((m) => m.from === 'visitor' && m.kind === 'msg').reverse();
    items.push(...mine.map((m) => item(one, one.visitor?.id ?? '', m)));
  }
  return items;
}

export const newVisitorMessage = hookTrigger({
  key: 'new_visitor_message',
  noun: 'Message',
  label: 'New Visitor Message',
  description: 'Triggers on each message a visitor sends in a conversation.',
  event: 'visitor_message',
  fromPayload: (_z, _bundle, payload: Payload) =>
    item(
      { id: payload.conversation?.id ?? '', number: payload.conversation?.number ?? 0, widgetId: payload.conversation?.widgetId ?? '' },
      payload.visitor?.id ?? '',
      {
        id: payload.message?.id ?? '',
        seq: payload.message?.seq ?? 0,
        text: payload.message?.text ?? '',
        files: (payload.message?.files ?? []).map((f) => ({ name: f.name, size: 0, mimetype: '' })),
        createdAt: payload.message?.createdAt ?? null,
      },
    ),
  list: recentMessages,
  sample: {
    id: '6650c0ffee0000000000abce',
    text: 'Do you ship to Lyon?',
    seq: 1,
    files: '',
    createdAt: '2026-05-24T09:12:03.000Z',
    conversationId: '6650c0ffee0000000000abcd',
    conversationNumber: 42,
    widgetId: '4f0c2a9e-8a51-4a6b-9d51-2f6f0e8c1b11',
    visitorId: '6650c0ffee0000000000ab01',
  },
  outputFields: [
    { key: 'id', label: 'Message ID' },
    { key: 'text', label: 'Text' },
    { key: 'seq', label: 'Number in the conversation', type: 'integer' },
    { key: 'files', label: 'File names' },
    { key: 'createdAt', label: 'Sent at', type: 'datetime' },
    { key: 'conversationId', label: 'Conversation ID' },
    { key: 'conversationNumber', label: 'Conversation number', type: 'integer' },
    { key: 'widgetId', label: 'Widget ID' },
    { key: 'visitorId', label: 'Visitor ID' },
  ],
});
