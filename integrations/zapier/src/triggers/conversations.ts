/**
 * The conversation triggers: a new conversation (conversation.started), a conversation ended
 * (conversation.archived) and a conversation rated (conversation.rated). Each item is the conversation as the API
 * answers it, so the Zap editor's samples (recent conversations) have exactly the fields of a live call.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import {
  type ApiConversation,
  CONVERSATION_FIELDS,
  conversationById,
  conversationItem,
  getJson,
  type Page,
  SAMPLE_CONVERSATION,
} from '../api';
import { hookTrigger } from '../hookTrigger';

const conversationOf = (z: ZObject, bundle: Bundle, payload: Record<string, unknown>) =>
  conversationById(z, bundle, String((payload.conversation as { id?: unknown } | undefined)?.id ?? ''));

const recent = async (z: ZObject, bundle: Bundle, query: string, keep: (c: ApiConversation) => boolean = () => true) =>
  (await getJson<Page<ApiConversation>>(z, bundle, `/conversations?${query}`)).data.filter(keep).map(conversationItem);

export const newConversation = hookTrigger({
  key: 'new_conversation',
  noun: 'Conversation',
  label: 'New Conversation',
  description: 'Triggers when a visitor starts a conversation in one of your widgets.',
  event: 'conversation.started',
  fromPayload: conversationOf,
  list: (z, bundle) => recent(z, bundle, 'limit=10'),
  sample: {
    ...SAMPLE_CONVERSATION,
    status: 'open',
    state: 'open',
    assigneeId: '',
    assigneeName: '',
    tags: [],
    endedAt: null,
    endedBy: null,
    rating: null,
    feedback: '',
  },
  outputFields: CONVERSATION_FIELDS,
});

export const conversationEnded = hookTrigger({
  key: 'conversation_ended',
  noun: 'Conversation',
  label: 'Conversation Ended',
  description: 'Triggers when a conversation ends (the visitor, an operator or inactivity ended it).',
  event: 'conversation.archived',
  fromPayload: conversationOf,
  list: (z, bundle) => recent(z, bundle, 'status=ended&limit=10'),
  sample: SAMPLE_CONVERSATION,
  outputFields: CONVERSATION_FIELDS,
});

export const conversationRated = hookTrigger({
  key: 'conversation_rated',
  noun: 'Rating',
  label: 'Conversation Rated',
  description: 'Triggers when a visitor rates a conversation or leaves feedback.',
  event: 'conversation.rated',
  fromPayload: conversationOf,
  list: (z, bundle) => recent(z, bundle, 'limit=50', (c) => c.rating !== null || c.feedback !== ''),
  sample: SAMPLE_CONVERSATION,
  outputFields: CONVERSATION_FIELDS,
});
