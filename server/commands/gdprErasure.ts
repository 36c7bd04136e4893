/**
 * Erasing one visitor on request (GDPR article 17), named by e-mail or visitor id: their identity (the visitor
 * records), the messages of their conversations, the files uploaded in them, the help center's events tied to
 * those conversations (AnswerEvents: an article that resolved one) and their offline messages are deleted from Parley; the conversations stay as anonymous counts (erasedAt set) so statistics still add up.
 * Slack threads are held by Slack and are not touched. The erasure itself is recorded, without the e-mail.
 */
import { isValidObjectId, type Types } from 'mongoose';
import { NotFoundError } from '../errors';
import type { Models } from '../models';
import type { GdprErasureDocument } from '../models/GdprErasure';
import type { UserDocument } from '../models/User';
import { type GdprErasureView, TEAM_MESSAGES } from '../shared/team';

export async function eraseVisitor(models: Models, admin: UserDocument, query: string): Promise<GdprErasureDocument> {
  const accountId = admin.accountId;
  const byId = /^[0-9a-f]{24}$/i.test(query) && isValidObjectId(query);
  const email = query.trim().toLowerCase();
  const visitors = byId ? await models.Visitor.find({ _id: query, accountId }) : await models.Visitor.find({ accountId, email });
  const visitorIds = visitors.map((v) => v._id);
  const offlineFilter = byId
    ? { accountId, visitorId: { $in: visitorIds } }
    : { accountId, $or: [{ email }, { visitorId: { $in: visitorIds } }] };
  const offline = await models.OfflineMessage.countDocuments(offlineFilter);
  if (visitors.length === 0 && offline === 0) throw new NotFoundError(TEAM_MESSAGES.erasureNotFound);

  const conversations = await models.Conversation.find({ accountId, visitorId: { $in: visitorIds } }).select('_id');
  const conversationIds: Types.ObjectId[] = conversations.map((c) => c._id);
  const now = new Date();
  const messages = await models.Message.deleteMany({ conversationId: { $in: conversationIds } });
  const files = await models.WidgetFile.deleteMany({
    $or: [{ visitorId: { $in: visitorIds } }, { conversationId: { $in: conversationIds } }],
  });
  // Queued Slack posts, mails and webhooks of these conversations carry the visitor's words: they go too.
  await models.OutboxJob.deleteMany({ conversationId: { $in: conversationIds } });
  // The record of their mail answers keeps their address (From).
  await models.InboundMail.deleteMany({ conversationId: { $in: conversationIds } });
  // The help center's events of these conversations (which article resolved them) go with the rest of what they held.
  await models.AnswerEvent.deleteMany({ accountId, conversationId: { $in: conversationIds } });
  await models.Conversation.updateMany(
    { _id: { $in: conversationIds } },
    { $set: { erasedAt: now, pageUrl: '', feedback: '', transcriptSentTo: '', firstLine: '', searchTerms: [], status: 'ended' } },
  );
  await models.Conversation.updateMany({ _id: { $in: conversationIds }, endedAt: null }, { $set: { endedAt: now } });
  await models.Visitor.deleteMany({ _id: { $in: visitorIds } });
  await models.OfflineMessage.deleteMany(offlineFilter);
  return models.GdprErasure.create({
    accountId,
    requestedBy: admin._id,
    requestedByEmail: admin.email,
    by: byId ? 'visitorId' : 'email',
    visitorIds,
    conversations: conversationIds.length,
    messages: messages.deletedCount,
    files: files.deletedCount,
    offlineMessages: offline,
  });
}

export function presentErasure(erasure: GdprErasureDocument): GdprErasureView {
  return {
    Id: erasure.id as string,
    createdAt: erasure.createdAt.toISOString(),
    requestedByEmail: erasure.requestedByEmail,
    by: erasure.by,
    visitors: erasure.visitorIds.length,
    conversations: erasure.conversations,
    messages: erasure.messages,
    files: erasure.files,
    offlineMessages: erasure.offlineMessages,
  };
}
