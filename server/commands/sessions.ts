/**
 * Session tokens: JWTs signed with the configured secret whose jti names a Session row, so a token
 * stops working as soon as its row is revoked, whatever its own expiry says.
 */
import { randomBytes } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { Types } from 'mongoose';
import { z } from 'zod';
import type { Models } from '../models';
import type { SessionDocument } from '../models/Session';
import type { UserDocument } from '../models/User';
import { AUTH_COOKIE_DAYS } from '../shared/constants';

const SESSION_MS = AUTH_COOKIE_DAYS * 24 * 60 * 60 * 1000;
const ALGORITHM = 'HS256';

const ClaimsSchema = z.object({ sub: z.string().regex(/^[0-9a-f]{24}$/), jti: z.string().min(16).max(64) });

export async function createSession(models: Models, secret: string, userId: Types.ObjectId): Promise<string> {
  const jti = randomBytes(24).toString('base64url');
  const expiresAt = new Date(Date.now() + SESSION_MS);
  await models.Session.create({ jti, userId, expiresAt });
  return jwt.sign({ sub: userId.toHexString(), jti }, secret, {
    algorithm: ALGORITHM,
    expiresIn: Math.floor(SESSION_MS / 1000),
  });
}

/** The user and session a token stands for, or null when it is malformed, expired, revoked or its user is gone. */
export async function resolveSession(
  models: Models,
  secret: string,
  token: string,
): Promise<{ user: UserDocument; session: SessionDocument } | null> {
  let payload: unknown;
  try {
    payload = jwt.verify(token, secret, { algorithms: [ALGORITHM] });
  } catch {
    return null;
  }
  const claims = ClaimsSchema.safeParse(payload);
  if (!claims.success) return null;
  const session = await models.Session.findOne({ jti: claims.data.jti });
  if (!session || session.revokedAt !== null || session.expiresAt.getTime() <= Date.now()) return null;
  if (session.userId.toHexString() !== claims.data.sub) return null;
  const user = await models.User.findById(session.userId);
  if (!user) return null;
  return { user, session };
}

export async function revokeSession(models: Models, jti: string): Promise<void> {
  await models.Session.updateOne({ jti, revokedAt: null }, { $set: { revokedAt: new Date() } });
}

/** Ends every session of a user, for example after a password reset. */
export async function revokeUserSessions(models: Models, userId: Types.ObjectId): Promise<void> {
  await models.Session.updateMany({ userId, revokedAt: null }, { $set: { revokedAt: new Date() } });
}
