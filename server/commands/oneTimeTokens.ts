/** Single-use link tokens (password resets, invitations): stored hashed, claimed once, spent together. */
import type { Model, Types } from 'mongoose';
import type { Models } from '../models';
import type { UserDocument } from '../models/User';

type OneTimeToken = { tokenHash: string; userId: Types.ObjectId; expiresAt: Date; usedAt: Date | null };

/**
 * Uses up the token with this hash and answers its user; null for an unknown, expired or used token or a user that
 * is gone. Claiming it in one conditional update keeps it single-use even under concurrent requests.
 */
export async function claimOneTimeToken<T extends OneTimeToken>(
  models: Models,
  tokens: Model<T>,
  tokenHash: string,
  now: Date,
): Promise<UserDocument | null> {
  const claimed = await tokens.findOneAndUpdate(
    { tokenHash, usedAt: null, expiresAt: { $gt: now } },
    { $set: { usedAt: now } },
    { returnDocument: 'after' },
  );
  return claimed ? models.User.findById(claimed.userId) : null;
}

/** Spends the user's other open tokens of the same kind, so older links in the same inbox no longer work. */
export async function spendOpenTokens<T extends OneTimeToken>(tokens: Model<T>, userId: Types.ObjectId, now: Date): Promise<void> {
  await tokens.updateMany({ userId, usedAt: null }, { $set: { usedAt: now } });
}
