/** Visitors: how one is named wherever Parley shows them, and the token a widget keeps to be recognised. */
import { createHash, randomBytes } from 'node:crypto';
import type { Types } from 'mongoose';
import type { Models } from '../models';
import type { Visitor, VisitorDocument, VisitorModel } from '../models/Visitor';
import { visitorSearchTerms } from '../shared/searchTerms';

export { visitorLabel } from '../shared/visitors';

/** Visitor tokens are stored hashed: a database read gives nobody a way in as a visitor. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function newVisitorToken(): string {
  return randomBytes(24).toString('base64url');
}

/**
 * A visitor told a new name or e-mail address: their chats are found by it in the history search from now on (the
 * words of an earlier name stay: the chat was held under it).
 */
export async function searchableAs(
  models: Models,
  visitorId: Types.ObjectId,
  visitor: Partial<Pick<Visitor, 'name' | 'email'>>,
): Promise<void> {
  const terms = visitorSearchTerms(visitor);
  if (terms.length === 0) return;
  await models.Conversation.updateMany({ visitorId }, { $addToSet: { searchTerms: { $each: terms } } });
}

/**
 * The visitor a token opens: the token of their first browser, or one issued to another browser of a verified
 * visitor. With `ceId`, only a token issued for that widget counts. Two indexed reads rather than one `$or`.
 */
export async function findVisitorByToken(Visitor: VisitorModel, token: string, ceId?: Types.ObjectId): Promise<VisitorDocument | null> {
  const tokenHash = hashToken(token);
  const ofWidget = ceId ? { ceId } : {};
  return (await Visitor.findOne({ tokenHash, ...ofWidget })) ?? (await Visitor.findOne({ deviceTokenHashes: tokenHash, ...ofWidget }));
}
