/** Find Conversation: the newest conversation of a visitor, by e-mail, optionally open or ended only. */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { type ApiConversation, CONVERSATION_FIELDS, conversationItem, getJson, type Page, SAMPLE_CONVERSATION } from '../api';

export const findConversation = {
  key: 'find_conversation',
  noun: 'Conversation',
  display: { label: 'Find Conversation', description: "Finds a visitor's newest conversation by their e-mail address." },
  operation: {
    inputFields: [
      { key: 'email', label: 'Visitor e-mail', required: true, helpText: 'The e-mail address the visitor gave in the chat.' },
      { key: 'status', label: 'Status', required: false, choices: { open: 'Open', ended: 'Ended' } },
    ],
    perform: async (z: ZObject, bundle: Bundle<{ email?: string; status?: string }>) => {
      const query = new URLSearchParams({ email: String(bundle.inputData.email ?? ''), limit: '1' });
      if (bundle.inputData.status) query.set('status', bundle.inputData.status);
      return (await getJson<Page<ApiConversation>>(z, bundle, `/conversations?${query.toString()}`)).data.map(conversationItem);
    },
    sample: SAMPLE_CONVERSATION,
    outputFields: CONVERSATION_FIELDS,
  },
};
