/**
 * The link of a mail of unseen replies opened in another browser (a phone's mail app, another computer): its resume
 * token is exchanged for a visitor token of the conversation's visitor, so that browser shows the history and carries
 * on the same conversation. The resume token is never a visitor token itself: it names one conversation and expires
 * (conversations/mailTokens.ts); each exchange issues one more device token, kept hashed like the first.
 *
 * A verified visitor (identified by the site with a valid userHash) is not handed out: the link must not let another
 * browser become a signed-in user of the site. Their conversation follows them on every browser where the site
 * identifies them; elsewhere the widget says to sign in.
 */
import type { Types } from 'mongoose';
import { readResumeToken, verifyResumeToken } from '../conversations/mailTokens';
import { hashToken, newVisitorToken } from '../conversations/visitors';
import { AppError, ValidationError } from '../errors';
import type { Models } from '../models';
import { ERROR_CODES } from '../shared/constants';

/** The device tokens kept per visitor (the oldest dropped first), as for a verified visitor's browsers. */
const MAX_DEVICE_TOKENS = 50;

const INVALID = 'This chat link is not valid. Copy the whole link from the mail.';

export async function resumeConversation(
  ctx: { models: Pick<Models, 'ChatEndpoint' | 'Conversation' | 'Visitor'>; secret: string },
  input: { uuid: string; token: string; now?: Date },
): Promise<{ visitorToken: string; conversationId: string }> {
  const { models } = ctx;
  const read = readResumeToken(input.token);
  const ce = read ? await models.ChatEndpoint.findOne({ Uuid: input.uuid }, { _id: 1 }).lean<{ _id: Types.ObjectId }>() : null;
  const conversation =
    read && ce
      ? await models.Conversation.findOne({ _id: read.conversationId, ceId: ce._id }, { visitorId: 1 }).lean<{
          _id: Types.ObjectId;
          visitorId: Types.ObjectId;
        }>()
      : null;
  if (
    !read ||
    !conversation ||
    !verifyResumeToken(ctx.secret, input.token, { conversationId: conversation._id, visitorId: conversation.visitorId })
  ) {
    throw new ValidationError(INVALID, ERROR_CODES.resumeInvalid);
  }
  if (read.expiresAt.getTime() <= (input.now ?? new Date()).getTime()) {
    throw new AppError('This chat link has expired.', { status: 410, code: ERROR_CODES.resumeExpired });
  }
  const visitor = await models.Visitor.findById(conversation.visitorId, { verifiedUserId: 1 }).lean<{ verifiedUserId: string }>();
  if (!visitor) throw new ValidationError(INVALID, ERROR_CODES.resumeInvalid);
  if (visitor.verifiedUserId) {
    throw new AppError('Sign in on the website to continue this chat.', { status: 403, code: ERROR_CODES.resumeVerified });
  }
  const visitorToken = newVisitorToken();
  const added = await models.Visitor.findOneAndUpdate(
    { _id: conversation.visitorId },
    { $push: { deviceTokenHashes: hashToken(visitorToken) } },
    { returnDocument: 'after', projection: { deviceTokenHashes: 1 } },
  );
  if (!added) throw new ValidationError(INVALID, ERROR_CODES.resumeInvalid);
  if (added.deviceTokenHashes.length > MAX_DEVICE_TOKENS) {
    await models.Visitor.updateOne({ _id: conversation.visitorId }, { $pop: { deviceTokenHashes: -1 } });
  }
  return { visitorToken, conversationId: String(conversation._id) };
}
