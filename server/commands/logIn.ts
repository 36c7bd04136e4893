import type { PasswordHashing } from '../config';
import { ValidationError } from '../errors';
import type { Models } from '../models';
import type { UserDocument } from '../models/User';
import { MESSAGES } from '../shared/auth';
import { ERROR_CODES } from '../shared/constants';
import { verifyPassword } from './passwords';

/**
 * The user an e-mail and password sign in, with the sign-in time recorded. An unknown e-mail and a wrong password
 * get the same answer in about the same time (the hash is checked either way), so neither tells which e-mails exist.
 */
export async function logIn(models: Models, email: string, password: string, hashing: PasswordHashing): Promise<UserDocument> {
  const user = await models.User.findOne({ email });
  const ok = await verifyPassword(user?.passwordHash ?? null, password, hashing);
  if (!user || !ok) throw new ValidationError(MESSAGES.wrongCredentials, ERROR_CODES.invalidCredentials);
  user.lastSignedInAt = new Date();
  await user.save();
  return user;
}
