/**
 * OAuth `state` values: a JWT (own audience, so a session token is never accepted as a state, nor the
 * reverse) naming the purpose, the user and widget it was made for, and a nonce stored in the database.
 * A state is accepted once, within ten minutes, and only with a valid signature.
 */
import { randomBytes } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { z } from 'zod';
import type { Models } from '../models';

export const OAUTH_STATE_TTL_SECONDS = 10 * 60;
export const OAUTH_STATE_AUDIENCE = 'parley-slack-oauth';
const ALGORITHM = 'HS256';

export const OAUTH_PURPOSES = ['signup', 'install', 'swap_user', 'upgrade'] as const;
export type OAuthPurpose = (typeof OAUTH_PURPOSES)[number];

const StateSchema = z.object({
  purpose: z.enum(OAUTH_PURPOSES),
  /** Parley user id (all purposes but sign-up). */
  uid: z.string().regex(/^[0-9a-f]{24}$/).optional(),
  /** Widget id (all purposes but sign-up). */
  ceId: z.string().regex(/^[0-9a-f]{24}$/).optional(),
  /** Sign-up: the marketing source, kept as the user's tklID. */
  source: z.string().max(200).optional(),
  nonce: z.string().min(16).max(64),
});
export type OAuthStatePayload = z.infer<typeof StateSchema>;

export type StateProblem = 'invalid_state' | 'expired_state' | 'used_state';

export async function createOAuthState(
  models: Models,
  secret: string,
  payload: Omit<OAuthStatePayload, 'nonce'>,
): Promise<string> {
  const nonce = randomBytes(18).toString('base64url');
  await models.OAuthState.create({ nonce, expiresAt: new Date(Date.now() + OAUTH_STATE_TTL_SECONDS * 1000) });
  return jwt.sign({ ...payload, nonce }, secret, { algorithm: ALGORITHM, audience: OAUTH_STATE_AUDIENCE, expiresIn: OAUTH_STATE_TTL_SECONDS });
}

/** Verifies a state and uses it up. Nothing else may change when this answers a problem. */
export async function consumeOAuthState(
  models: Models,
  secret: string,
  state: string,
): Promise<{ ok: true; payload: OAuthStatePayload } | { ok: false; problem: StateProblem }> {
  let decoded: unknown;
  try {
    decoded = jwt.verify(state, secret, { algorithms: [ALGORITHM], audience: OAUTH_STATE_AUDIENCE });
  } catch (error) {
    return { ok: false, problem: error instanceof jwt.TokenExpiredError ? 'expired_state' : 'invalid_state' };
  }
  const parsed = StateSchema.safeParse(decoded);
  if (!parsed.success) return { ok: false, problem: 'invalid_state' };
  const now = new Date();
  const used = await models.OAuthState.findOneAndUpdate(
    { nonce: parsed.data.nonce, usedAt: null, expiresAt: { $gt: now } },
    { $set: { usedAt: now } },
  );
  if (!used) return { ok: false, problem: 'used_state' };
  return { ok: true, payload: parsed.data };
}
