/**
 * Parley's public API as the Zapier app calls it: the account's Parley address and Zapier key come from the
 * connection (bundle.authData); every request carries the key as a bearer token; an error answer becomes a Zapier
 * error with Parley's own Message.
 */
import type { Bundle, HttpRequestOptions, HttpResponse, ZObject } from 'zapier-platform-core';

/** `https://chat.example.com` + `/v1/api` + path, whatever slashes the user typed. */
export function apiUrl(bundle: Bundle, path: string): string {
  const base = String(bundle.authData.baseUrl ?? '')
    .trim()
    .replace(/\/+$/, '');
  return `${base}/v1/api${path}`;
}

export function addApiKey(request: HttpRequestOptions, _z: ZObject, bundle: Bundle): HttpRequestOptions {
  request.headers = {
    ...request.headers,
    Authorization: `Bearer ${String(bundle.authData.apiKey ?? '').trim()}`,
    Accept: 'application/json',
  };
  return request;
}

/** Parley answers errors as `{ Message, Error }`: that Message is what the Zap's owner sees. */
export function explainErrors(response: HttpResponse, z: ZObject): HttpResponse {
  // A caller that reads the status itself (unsubscribing a hook that is already gone).
  if (response.request.skipThrowForStatus) return response;
  if (response.status === 401) {
    throw new z.errors.RefreshAuthError('Parley refused the Zapier API key: generate a new one on the Account page and reconnect.');
  }
  if (response.status >= 400) {
    const body = response.data as { Message?: unknown; Error?: unknown } | undefined;
    const message = typeof body?.Message === 'string' ? body.Message : `Parley answered ${response.status}`;
    throw new z.errors.Error(message, typeof body?.Error === 'string' ? body.Error : 'ParleyError', response.status);
  }
  return response;
}

export async function getJson<T>(z: ZObject, bundle: Bundle, path: string): Promise<T> {
  const response = await z.request({ url: apiUrl(bundle, path), method: 'GET' });
  return response.data as T;
}

/** A conversation as the public API lists it (GET /v1/api/conversations). */
export type ApiConversation = {
  id: string;
  number: number;
  widgetId: string;
  status: 'open' | 'ended';
  /** The shared inbox: open (waiting for the team), waiting (for the visitor), snoozed, ended. */
  state: 'open' | 'waiting' | 'snoozed' | 'ended';
  assigneeId: string;
  assigneeName: string;
  tags: string[];
  startedAt: string | null;
  endedAt: string | null;
  endedBy: string | null;
  firstResponseAt: string | null;
  agentName: string;
  rating: 'up' | 'down' | null;
  feedback: string;
  pageUrl: string;
  visitor: { id: string; name: string; email: string } | null;
};
export type ApiMessage = {
  id: string;
  seq: number;
  kind: string;
  from: 'visitor' | 'operator' | 'system';
  text: string;
  files: { name: string; size: number; mimetype: string }[];
  createdAt: string | null;
};
export type Page<T> = { data: T[]; nextCursor: string | null };

/** A conversation as a Zap's fields: flat, the visitor's name and e-mail beside its own fields. */
export function conversationItem(c: ApiConversation) {
  return {
    id: c.id,
    number: c.number,
    widgetId: c.widgetId,
    status: c.status,
    state: c.state,
    assigneeId: c.assigneeId,
    assigneeName: c.assigneeName,
    tags: c.tags,
    startedAt: c.startedAt,
    endedAt: c.endedAt,
    endedBy: c.endedBy,
    agentName: c.agentName,
    rating: c.rating,
    feedback: c.feedback,
    pageUrl: c.pageUrl,
    visitorId: c.visitor?.id ?? null,
    visitorName: c.visitor?.name ?? '',
    visitorEmail: c.visitor?.email ?? '',
  };
}

export const CONVERSATION_FIELDS = [
  { key: 'id', label: 'Conversation ID' },
  { key: 'number', label: 'Conversation number', type: 'integer' as const },
  { key: 'widgetId', label: 'Widget ID' },
  { key: 'status', label: 'Status' },
  { key: 'state', label: 'State (open, waiting, snoozed, ended)' },
  { key: 'assigneeId', label: 'Assignee Slack user ID' },
  { key: 'assigneeName', label: 'Assignee' },
  { key: 'tags', label: 'Tags' },
  { key: 'startedAt', label: 'Started at', type: 'datetime' as const },
  { key: 'endedAt', label: 'Ended at', type: 'datetime' as const },
  { key: 'endedBy', label: 'Ended by' },
  { key: 'agentName', label: 'Agent' },
  { key: 'rating', label: 'Rating' },
  { key: 'feedback', label: 'Feedback' },
  { key: 'pageUrl', label: 'Page URL' },
  { key: 'visitorId', label: 'Visitor ID' },
  { key: 'visitorName', label: 'Visitor name' },
  { key: 'visitorEmail', label: 'Visitor e-mail' },
];

export const SAMPLE_CONVERSATION = {
  id: '6650c0ffee0000000000abcd',
  number: 42,
  widgetId: '4f0c2a9e-8a51-4a6b-9d51-2f6f0e8c1b11',
  status: 'ended',
  state: 'ended',
  assigneeId: 'U0ALICE001',
  assigneeName: 'Alice',
  tags: ['billing', 'refund'],
  startedAt: '2026-05-24T09:12:03.000Z',
  endedAt: '2026-05-24T09:20:44.000Z',
  endedBy: 'visitor',
  agentName: 'Alice',
  rating: 'up',
  feedback: 'Quick and kind',
  pageUrl: 'https://shop.example.com/pricing',
  visitorId: '6650c0ffee0000000000ab01',
  visitorName: 'Erin',
  visitorEmail: 'erin@example.org',
};

/** The conversation a webhook payload names, read from the API so every trigger's item has the same fields. */
export async function conversationById(z: ZObject, bundle: Bundle, id: string) {
  return conversationItem(await getJson<ApiConversation>(z, bundle, `/conversations/${encodeURIComponent(id)}`));
}
