/** Visitors: how one is named wherever Parley shows them, and the token a widget keeps to be recognised. */
import { createHash, randomBytes } from 'node:crypto';
import type { Types } from 'mongoose';
import type { Visitor, VisitorDocument, VisitorModel } from '../models/Visitor';

/** How a visitor is named (in Slack, mails, the console): their name, else their e-mail address, else "Visitor N". */
export function visitorLabel(visitor: Pick<Visitor, 'name' | 'email'>, number: number): string {
  return visitor.name || visitor.email || `Visitor ${number}`;
}

/** Visitor tokens are stored hashed: a database read gives nobody a way in as a visitor. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function newVisitorToken(): string {
  return randomBytes(24).toString('base64url');
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
