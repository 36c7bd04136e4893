import type { PasswordHashing } from '../config';
import { ValidationError } from '../errors';
import type { Models } from '../models';
import type { UserDocument } from '../models/User';
import { MESSAGES } from '../shared/auth';
import { ERROR_CODES, TRIAL_DAYS } from '../shared/constants';
import { TRIAL_PLAN_STRIPE_ID } from '../shared/plans';
import { createWidget } from './createWidget';
import { hashPassword } from './passwords';

const DAY_MS = 24 * 60 * 60 * 1000;

const isDuplicateKey = (error: unknown) => (error as { code?: unknown } | null)?.code === 11000;

/**
 * A new account on a 30-day trial of the basic plan, its first user (an admin) and its first widget at Step 1.
 * Throws a ValidationError with code user_exists when the e-mail is taken.
 */
export async function signUp(
  models: Models,
  input: { email: string; password: string; tklID?: string },
  passwordHashing: PasswordHashing,
): Promise<UserDocument> {
  const userExists = () => new ValidationError(MESSAGES.userExists, ERROR_CODES.userExists);
  if (await models.User.exists({ email: input.email })) throw userExists();

  const passwordHash = await hashPassword(input.password, passwordHashing);
  const now = new Date();
  const account = await models.Account.create({
    planStripeId: TRIAL_PLAN_STRIPE_ID,
    paymentType: 'none',
    trialEndAt: new Date(now.getTime() + TRIAL_DAYS * DAY_MS),
    email: input.email,
  });
  let user: UserDocument;
  try {
    user = await models.User.create({
      email: input.email,
      passwordHash,
      admin: true,
      accountId: account._id,
      lastSignedInAt: now,
      tklID: input.tklID ?? '',
    });
  } catch (error) {
    // Two sign-ups with one address raced past the check above: the unique index decided.
    await models.Account.deleteOne({ _id: account._id });
    if (isDuplicateKey(error)) throw userExists();
    throw error;
  }
  await createWidget(models, { accountId: account._id, userId: user._id });
  return user;
}
