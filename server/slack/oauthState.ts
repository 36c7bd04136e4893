/**
 * OAuth `state` values: a JWT (own audience, so a session token is never accepted as a state, nor the
 * reverse) naming the purpose, the user and widget it was made for, the browser that asked (a cookie),
 * and a nonce stored in the database. A state is accepted once, within ten minutes, with a valid
 * signature, and only from the browser it was made for: a link with someone else's code and state
 * cannot sign a victim in to the attacker's account or link the attacker's workspace to it.
 */
import { randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import jwt from 'jsonwebtoken';
import { z } from 'zod';
import type { Models } from '../models';

export const OAUTH_STATE_TTL_SECONDS = 10 * 60;
export const OAUTH_STATE_AUDIENCE = 'parley-slack-oauth';
const ALGORITHM = 'HS256';

export const OAUTH_PURPOSES = ['signup', 'install', 'new_team', 'swap_user', 'upgrade'] as const;
export type OAuthPurpose = (typeof OAUTH_PURPOSES)[number];

const StateSchema = z.object({
  purpose: z.enum(OAUTH_PURPOSES),
  /** Parley user id (all purposes but sign-up). */
  uid: z
    .string()
    .regex(/^[0-9a-f]{24}$/)
    .optional(),
  /** Widget id (all purposes but sign-up and new_team, whose widget is made once Slack says yes). */
  ceId: z
    .string()
    .regex(/^[0-9a-f]{24}$/)
    .optional(),
  /** Sign-up: the marketing source, kept as the user's tklID. */
  source: z.string().max(200).optional(),
  /** The browser id cookie of the browser the authorisation started in. */
  bid: z.string().min(16).max(64),
  nonce: z.string().min(16).max(64),
});
export type OAuthStatePayload = z.infer<typeof StateSchema>;

export type StateProblem = 'invalid_state' | 'expired_state' | 'used_state' | 'wrong_browser';

export const OAUTH_BROWSER_COOKIE = 'parley_oauth_browser';
const BROWSER_ID = /^[A-Za-z0-9_-]{16,64}$/;

/** The browser id cookie of a request, when it has a well-formed one. */
export function browserIdOf(req: Request): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === OAUTH_BROWSER_COOKIE && value && BROWSER_ID.test(value)) return value;
  }
  return undefined;
}

/** The browser id of the request, set as a cookie first when the browser has none. */
export function ensureBrowserId(req: Request, res: Response, secure: boolean): string {
  const existing = browserIdOf(req);
  if (existing) return existing;
  const id = randomBytes(18).toString('base64url');
  // Lax: the cookie comes back on Slack's top-level redirect to the callback, never on cross-site posts.
  res.cookie(OAUTH_BROWSER_COOKIE, id, { httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: 24 * 60 * 60 * 1000 });
  return id;
}

export async function createOAuthState(models: Models, secret: string, payload: Omit<OAuthStatePayload, 'nonce'>): Promise<string> {
  const nonce = randomBytes(18).toString('base64url');
  await models.OAuthState.create({ nonce, expiresAt: new Date(Date.now() + OAUTH_STATE_TTL_SECONDS * 1000) });
  return jwt.sign({ ...payload, nonce }, secret, {
    algorithm: ALGORITHM,
    audience: OAUTH_STATE_AUDIENCE,
    expiresIn: OAUTH_STATE_TTL_SECONDS,
  });
}

/** Verifies a state and uses it up. Nothing else may change when this answers a problem. */
export async function consumeOAuthState(
  models: Models,
  secret: string,
  state: string,
  browserId: string | undefined,
): Promise<{ ok: true; payload: OAuthStatePayload } | { ok: false; problem: StateProblem }> {
  let decoded: unknown;
  try {
    decoded = jwt.verify(state, secret, { algorithms: [ALGORITHM], audience: OAUTH_STATE_AUDIENCE });
  } catch (error) {
    return { ok: false, problem: error instanceof jwt.TokenExpiredError ? 'expired_state' : 'invalid_state' };
  }
  const parsed = StateSchema.safeParse(decoded);
  if (!parsed.success) return { ok: false, problem: 'invalid_state' };
  if (browserId !== parsed.data.bid) return { ok: false, problem: 'wrong_browser' };
  const now = new Date();
  const used = await models.OAuthState.findOneAndUpdate(
    { nonce: parsed.data.nonce, usedAt: null, expiresAt: { $gt: now } },
    { $set: { usedAt: now } },
  );
  if (!used) return { ok: false, problem: 'used_state' };
  return { ok: true, payload: parsed.data };
}
