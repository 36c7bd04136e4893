/**
 * The users of an account (spec: users table, roles): inviting by e-mail, toggling the admin flag, deleting,
 * and an invitee accepting. The rules: nobody changes their own admin flag or deletes themselves, an admin is
 * un-admined before deletion, and an account keeps at least one admin. The target user was checked to belong
 * to the actor's account (findOwned) by the caller.
 */
import { createHash } from 'node:crypto';
import type { Types } from 'mongoose';
import type { PasswordHashing } from '../config';
import { ValidationError } from '../errors';
import type { Mailer } from '../mail';
import { invitationMail } from '../mail/templates';
import type { Models } from '../models';
import type { UserDocument } from '../models/User';
import { EmailSchema } from '../shared/auth';
import { ERROR_CODES, TERMS_VERSION } from '../shared/constants';
import { INVITATION_TTL_DAYS, TEAM_MESSAGES } from '../shared/team';
import { claimOneTimeToken, spendOpenTokens } from './oneTimeTokens';
import { newResetToken } from './passwordReset';
import { hashPassword } from './passwords';
import { revokeUserSessions } from './sessions';

const DAY_MS = 24 * 60 * 60 * 1000;
const isDuplicateKey = (error: unknown) => (error as { code?: unknown } | null)?.code === 11000;

export const hashInvitationToken = (token: string) => createHash('sha256').update(`invitation:${token}`).digest('hex');

/** The console route an invitation link opens. */
export const invitationLink = (publicUrl: string, token: string) => `${publicUrl}/app/#/accept-invite?token=${token}`;

export function listUsers(models: Models, accountId: Types.ObjectId): Promise<UserDocument[]> {
  return models.User.find({ accountId }).sort({ _id: 1 });
}

/**
 * Creates an invited user (no password, never signed in, not an admin) and mails them a one-time link valid
 * for 7 days. 'Invalid email' (invalid_email) and 'User already exists' (user_exists) as the spec says.
 */
export async function inviteUser(
  deps: { models: Models; mailer: Mailer; publicUrl: string },
  inviter: UserDocument,
  rawEmail: string,
): Promise<UserDocument> {
  const { models } = deps;
  const parsed = EmailSchema.safeParse(rawEmail);
  if (!parsed.success) throw new ValidationError(TEAM_MESSAGES.invalidEmail, ERROR_CODES.invalidEmail);
  const email = parsed.data;
  const exists = () => new ValidationError(TEAM_MESSAGES.userExists, ERROR_CODES.userExists);
  if (await models.User.exists({ email })) throw exists();
  let user: UserDocument;
  try {
    user = await models.User.create({ email, admin: false, accountId: inviter.accountId, passwordHash: null, lastSignedInAt: null });
  } catch (error) {
    if (isDuplicateKey(error)) throw exists();
    throw error;
  }
  const token = newResetToken();
  await models.Invitation.create({
    tokenHash: hashInvitationToken(token),
    userId: user._id,
    accountId: inviter.accountId,
    invitedBy: inviter._id,
    expiresAt: new Date(Date.now() + INVITATION_TTL_DAYS * DAY_MS),
  });
  await deps.mailer.send(await invitationMail(email, inviter.email, invitationLink(deps.publicUrl, token), INVITATION_TTL_DAYS));
  return user;
}

/** Flips the admin flag of a teammate; refuses the actor's own flag and taking away the last admin. */
export async function toggleAdmin(models: Models, actor: UserDocument, user: UserDocument): Promise<UserDocument> {
  if (user._id.equals(actor._id)) throw new ValidationError(TEAM_MESSAGES.notYourself);
  if (user.admin) {
    // Conditional on another admin remaining, so two admins un-admining each other at once cannot leave none.
    const others = await models.User.countDocuments({ accountId: actor.accountId, admin: true, _id: { $ne: user._id } });
    if (others === 0) throw new ValidationError(TEAM_MESSAGES.lastAdmin);
  }
  const updated = await models.User.findOneAndUpdate(
    { _id: user._id, admin: user.admin },
    { $set: { admin: !user.admin } },
    { returnDocument: 'after' },
  );
  if (!updated) throw new ValidationError(TEAM_MESSAGES.unknownError);
  // A demoted admin's open console must not keep admin screens: their sessions end.
  if (user.admin) await revokeUserSessions(models, user._id);
  return updated;
}

/**
 * Deletes a teammate who is not an admin and not the actor: their sessions and invitations end, and the
 * widgets they created pass to the actor (offline-message mails go to a widget's owner).
 */
export async function deleteUser(models: Models, actor: UserDocument, user: UserDocument): Promise<void> {
  if (user._id.equals(actor._id)) throw new ValidationError(TEAM_MESSAGES.deleteYourself);
  if (user.admin) throw new ValidationError(TEAM_MESSAGES.deleteAdmin);
  const deleted = await models.User.deleteOne({ _id: user._id, admin: false });
  if (deleted.deletedCount !== 1) throw new ValidationError(TEAM_MESSAGES.deleteAdmin);
  await revokeUserSessions(models, user._id);
  await models.Invitation.deleteMany({ userId: user._id });
  await models.ChatEndpoint.updateMany({ accountId: actor.accountId, userId: user._id }, { $set: { userId: actor._id } });
}

/** The invitation of a token, while it can still be used. */
export async function findInvitation(models: Models, token: string): Promise<{ email: string; expiresAt: Date }> {
  const invitation = await models.Invitation.findOne({
    tokenHash: hashInvitationToken(token),
    usedAt: null,
    expiresAt: { $gt: new Date() },
  });
  const user = invitation ? await models.User.findById(invitation.userId) : null;
  if (!invitation || !user) throw new ValidationError(TEAM_MESSAGES.invitationInvalid, ERROR_CODES.invalidToken);
  return { email: user.email, expiresAt: invitation.expiresAt };
}

/** Uses up an invitation: sets the invitee's password and records their acceptance of the terms. */
export async function acceptInvitation(
  models: Models,
  token: string,
  password: string,
  passwordHashing: PasswordHashing,
): Promise<UserDocument> {
  const invalid = () => new ValidationError(TEAM_MESSAGES.invitationInvalid, ERROR_CODES.invalidToken);
  const now = new Date();
  const user = await claimOneTimeToken(models, models.Invitation, hashInvitationToken(token), now);
  if (!user) throw invalid();
  user.passwordHash = await hashPassword(password, passwordHashing);
  user.ActiveTOSPP = TERMS_VERSION;
  user.termsAcceptedAt = now;
  user.privacyPolicyVersion = TERMS_VERSION;
  user.privacyPolicyAcceptedAt = now;
  user.lastSignedInAt = now;
  await user.save();
  await spendOpenTokens(models.Invitation, user._id, now);
  return user;
}
