import type { NextFunction, Request, Response } from 'express';
import { findApiKey } from '../commands/apiKeys';
import { resolveSession } from '../commands/sessions';
import { AuthenticationError, AuthorizationError } from '../errors';
import type { Models } from '../models';
import type { ApiKeyDocument, ApiKeyKind } from '../models/ApiKey';
import type { SessionDocument } from '../models/Session';
import type { UserDocument } from '../models/User';
import { ERROR_CODES } from '../shared/constants';
import { TEAM_MESSAGES } from '../shared/team';

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

/** After requireAuth: only admins of the account go on (spec section 6); others get 403. */
export function requireAdmin(_req: Request, res: Response, next: NextFunction): void {
  if (!authOf(res).user.admin) throw new AuthorizationError(TEAM_MESSAGES.adminsOnly, ERROR_CODES.adminRequired);
  next();
}

/**
 * Requires `Authorization: Bearer <key>` with a live key of one of `kinds` (API key or Zapier key). Missing,
 * wrong and revoked keys all get 401: the caller is a program, not the console, so no logout semantics.
 */
export function requireApiKey(models: Models, kinds: readonly ApiKeyKind[]) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const match = BEARER.exec(req.get('authorization') ?? '');
    let found: ApiKeyDocument | null = null;
    for (const kind of kinds) found ??= match?.[1] ? await findApiKey(models, kind, match[1]) : null;
    if (!found) {
      res.set('WWW-Authenticate', 'Bearer realm="parley"');
      throw new AuthenticationError(
        match ? 'Invalid API key' : 'Missing API key: send Authorization: Bearer <key>',
        ERROR_CODES.invalidApiKey,
      );
    }
    res.locals.apiKey = found;
    next();
  };
}

/** The key of a request that went through requireApiKey. */
export function apiKeyOf(res: Response): ApiKeyDocument {
  const key = res.locals.apiKey as ApiKeyDocument | undefined;
  if (!key) throw new Error('apiKeyOf() called on a route without requireApiKey');
  return key;
}
