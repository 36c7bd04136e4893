import type { NextFunction, Request, Response } from 'express';
import type { Models } from '../models';
import type { SessionDocument } from '../models/Session';
import type { UserDocument } from '../models/User';
import { resolveSession } from '../commands/sessions';
import { AuthorizationError } from '../errors';

export type Authenticated = { user: UserDocument; session: SessionDocument };

// The scheme name is case-insensitive (RFC 9110).
const BEARER = /^Bearer ([A-Za-z0-9_.-]{1,4096})$/i;

/**
 * Requires `Authorization: Bearer <token>` of a live session. Missing, malformed, expired or revoked
 * tokens get 403, the answer the console treats as "session invalid, log in again".
 */
export function requireAuth(models: Models, jwtSecret: string) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const match = BEARER.exec(req.get('authorization') ?? '');
    const resolved = match?.[1] ? await resolveSession(models, jwtSecret, match[1]) : null;
    if (!resolved) throw new AuthorizationError();
    res.locals.auth = resolved satisfies Authenticated;
    next();
  };
}

/** The signed-in user and session of a request that went through requireAuth. */
export function authOf(res: Response): Authenticated {
  const auth = res.locals.auth as Authenticated | undefined;
  // Only reachable when a route forgot requireAuth: a programming error, so a 500 is right.
  if (!auth) throw new Error('authOf() called on a route without requireAuth');
  return auth;
}
