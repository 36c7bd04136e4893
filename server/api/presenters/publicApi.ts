/** What the public API (/v1/api) answers: exactly these fields, ids as strings, dates in ISO 8601. */
import type { ConversationDocument } from '../../models/Conversation';
import type { MessageDocument } from '../../models/Message';
import type { RestHookDocument } from '../../models/RestHook';
import type { VisitorDocument } from '../../models/Visitor';

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);

export function presentApiVisitor(visitor: VisitorDocument, widgetId: string) {
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

export function presentApiConversation(conversation: ConversationDocument, widgetId: string, visitor: VisitorDocument | undefined) {
  return {
    id: String(conversation._id),
    number: conversation.number,
    widgetId,
    status: conversation.status,
    startedAt: iso(conversation.startedAt),
    endedAt: iso(conversation.endedAt),
    endedBy: conversation.endedBy,
    firstResponseAt: iso(conversation.firstResponseAt),
    agentName: conversation.agentName,
    rating: conversation.rating,
    feedback: conversation.feedback,
    pageUrl: conversation.pageUrl,
    visitor: visitor ? { id: String(visitor._id), name: visitor.name, email: visitor.email } : null,
  };
}

export function presentApiMessage(message: MessageDocument) {
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

export function presentRestHook(hook: RestHookDocument) {
  return { id: String(hook._id), event: hook.event, targetUrl: hook.targetUrl, createdAt: iso(hook.createdAt) };
}
