/** New offline message (offline_message): a message left through a widget's offline form. */
import { getJson, type Page } from '../api';
import { hookTrigger, type Item } from '../hookTrigger';

type OfflineMessage = {
  id: string;
  widgetId: string;
  name: string;
  email: string;
  message: string;
  pageUrl: string;
  createdAt: string | null;
};

const item = (m: Partial<OfflineMessage>): Item => ({
  id: m.id ?? '',
  widgetId: m.widgetId ?? '',
  name: m.name ?? '',
  email: m.email ?? '',
  message: m.message ?? '',
  pageUrl: m.pageUrl ?? '',
  createdAt: m.createdAt ?? null,
});

export const newOfflineMessage = hookTrigger({
  key: 'new_offline_message',
  noun: 'Offline Message',
  label: 'New Offline Message',
  description: "Triggers when a visitor leaves a message through a widget's offline form.",
  event: 'offline_message',
  fromPayload: (_z, _bundle, payload) => item(payload as Partial<OfflineMessage>),
  list: async (z, bundle) => (await getJson<Page<OfflineMessage>>(z, bundle, '/offline-messages?limit=10')).data.map(item),
  sample: {
    id: '6650c0ffee0000000000f00d',
    widgetId: '4f0c2a9e-8a51-4a6b-9d51-2f6f0e8c1b11',
    name: 'Erin',
    email: 'erin@example.org',
    message: 'Please call me back tomorrow.',
    pageUrl: 'https://shop.example.com/contact',
    createdAt: '2026-05-24T21:03:11.000Z',
  },
  outputFields: [
    { key: 'id', label: 'Offline message ID' },
    { key: 'widgetId', label: 'Widget ID' },
    { key: 'name', label: 'Name' },
    { key: 'email', label: 'E-mail' },
    { key: 'message', label: 'Message' },
    { key: 'pageUrl', label: 'Page URL' },
    { key: 'createdAt', label: 'Sent at', type: 'datetime' },
  ],
});
