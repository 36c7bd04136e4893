/**
 * What the public API (/v1/api) answers: exactly these fields, ids as strings, dates in ISO 8601, typed by the
 * response schemas of the OpenAPI document (public-api/schema.ts).
 */
import { articleUrl } from '../../answers/search';
import { inboxStateOf } from '../../conversations/inbox';
import type { Article } from '../../models/Article';
import type { ConversationDocument } from '../../models/Conversation';
import type { MessageDocument } from '../../models/Message';
import type { OfflineMessageDocument } from '../../models/OfflineMessage';
import type { RestHookDocument } from '../../models/RestHook';
import type { VisitorDocument } from '../../models/Visitor';
import { articleHtml } from '../../ownerText';
import type { WidgetLocale } from '../../shared/widget-texts';
import type { ApiArticle, ApiConversation, ApiMessage, ApiOfflineMessage, ApiRestHook, ApiVisitor } from '../public-api/schema';

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);

export function presentApiVisitor(visitor: VisitorDocument, widgetId: string): ApiVisitor {
  return {
    id: String(visitor._id),
    widgetId,
    name: visitor.name,
    email: visitor.email,
    country: visitor.location.country,
    city: visitor.location.city,
    userId: visitor.identUserId,
    traits: visitor.identTraits,
    createdAt: iso(visitor.createdAt),
    lastSeenAt: iso(visitor.lastSeenAt),
  };
}

export function presentApiConversation(
  conversation: ConversationDocument,
  widgetId: string,
  visitor: VisitorDocument | undefined,
  /** The assignee's Slack name ('' when nobody has it or it is not known). */
  assigneeName = '',
): ApiConversation {
  return {
    id: String(conversation._id),
    number: conversation.number,
    widgetId,
    status: conversation.status,
    state: inboxStateOf(conversation),
    assigneeId: conversation.assigneeId ?? '',
    assigneeName: conversation.assigneeId ? assigneeName : '',
    snoozedUntil: iso(conversation.snoozedUntil),
    startedAt: iso(conversation.startedAt),
    endedAt: iso(conversation.endedAt),
    endedBy: conversation.endedBy,
    firstResponseAt: iso(conversation.firstResponseAt),
    agentName: conversation.agentName,
    rating: conversation.rating,
    feedback: conversation.feedback,
    pageUrl: conversation.pageUrl,
    tags: [...(conversation.tags ?? [])],
    visitor: visitor ? { id: String(visitor._id), name: visitor.name, email: visitor.email } : null,
  };
}

export function presentApiMessage(message: MessageDocument): ApiMessage {
  return {
    id: String(message._id),
    seq: message.seq,
    kind: message.kind,
    from: message.from,
    text: message.text,
    author: message.author?.name ?? '',
    files: message.files.map((f) => ({ name: f.name, size: f.size, mimetype: f.mimetype })),
    edited: message.edited,
    deleted: message.deleted,
    createdAt: iso(message.createdAt),
  };
}

export function presentApiOfflineMessage(message: OfflineMessageDocument, widgetId: string): ApiOfflineMessage {
  return {
    id: String(message._id),
    widgetId,
    visitorId: message.visitorId ? String(message.visitorId) : null,
    name: message.name,
    email: message.email,
    message: message.message,
    pageUrl: message.pageUrl,
    createdAt: iso(message.createdAt),
  };
}

export function presentRestHook(hook: RestHookDocument): ApiRestHook {
  return { id: String(hook._id), event: hook.event, targetUrl: hook.targetUrl, createdAt: iso(hook.createdAt) };
}

/** An article for programs: `widgetId` its widget's public id, `url` its public page under `baseUrl`. */
export function presentApiArticle(article: Article & { _id: unknown }, widgetId: string, baseUrl: string): ApiArticle {
  return {
    id: String(article._id),
    widgetId,
    title: article.title,
    body: article.body,
    html: articleHtml(article.body),
    language: article.language as WidgetLocale,
    slug: article.slug,
    published: article.published,
    url: articleUrl(baseUrl, widgetId, article.slug, article.language),
    createdAt: iso(article.createdAt),
    updatedAt: iso(article.updatedAt),
  };
}
