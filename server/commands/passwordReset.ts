import { createHash, randomInt } from 'node:crypto';
import type { PasswordHashing } from '../config';
import { ValidationError } from '../errors';
import type { Mailer } from '../mail';
import { passwordResetMail } from '../mail/templates';
import type { Models } from '../models';
import type { UserDocument } from '../models/User';
import { MESSAGES } from '../shared/auth';
import { ERROR_CODES, RESET_TOKEN_LENGTH, RESET_TOKEN_TTL_MINUTES } from '../shared/constants';
import { claimOneTimeToken, spendOpenTokens } from './oneTimeTokens';
import { hashPassword } from './passwords';
import { revokeUserSessions } from './sessions';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** 64 alphanumeric characters from a uniform, cryptographically strong source (~381 bits). */
export function newResetToken(): string {
  let token = '';
  for (let i = 0; i < RESET_TOKEN_LENGTH; i++) token += ALPHABET[randomInt(ALPHABET.length)];
  return token;
}

export const hashResetToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The console route a reset link opens. */
export const resetLink = (publicUrl: string, token: string) => `${publicUrl}/app/#/reset_password?token=${token}`;

/**
 * Mails a reset link when a user has this e-mail. Says nothing either way, so the caller cannot
 * learn which addresses have accounts.
 */
export async function requestPasswordReset(models: Models, mailer: Mailer, publicUrl: string, email: string): Promise<void> {
  const user = await models.User.findOne({ email });
  if (!user) return;
  const token = newResetToken();
  await models.PasswordResetToken.create({
    tokenHash: hashResetToken(token),
    userId: user._id,
    expiresAt: new Date(Date.now() + RESET_TOKEN_TTL_MINUTES * 60 * 1000),
  });
  await mailer.send(await passwordResetMail(user.email, resetLink(publicUrl, token), RESET_TOKEN_TTL_MINUTES));
}

/**
 * Sets a new password with a reset token, uses up every reset token of the user and ends their sessions.
 * Throws 'Invalid token' for unknown, expired or used tokens.
 */
export async function resetPassword(
  models: Models,
  token: string,
  password: string,
  passwordHashing: PasswordHashing,
): Promise<UserDocument> {
  const invalid = () => new ValidationError(MESSAGES.invalidToken, ERROR_CODES.invalidToken);
  const now = new Date();
  const user = await claimOneTimeToken(models, models.PasswordResetToken, hashResetToken(token), now);
  if (!user) throw invalid();
  user.passwordHash = await hashPassword(password, passwordHashing);
  await user.save();
  await spendOpenTokens(models.PasswordResetToken, user._id, now);
  await revokeUserSessions(models, user._id);
  return user;
}
