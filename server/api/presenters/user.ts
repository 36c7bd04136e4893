import type { UserDocument } from '../../models/User';
import { NEVER_SIGNED_IN } from '../../shared/constants';
import type { AccountView, ChatEndpointView, CurrentUser } from '../../shared/types';

/** How long after sign-up the satisfaction prompt first appears. */
export const NPS_PROMPT_AFTER_DAYS = 14;

/** The prompt shows once an account has had time to form an opinion, until the user rates or dismisses it. */
export function showNPSRating(user: UserDocument, now = new Date()): boolean {
  return user.npsRating === null && now.getTime() - user.createdAt.getTime() >= NPS_PROMPT_AFTER_DAYS * 24 * 60 * 60 * 1000;
}

export function presentCurrentUser(user: UserDocument, account: AccountView, ces: ChatEndpointView[]): CurrentUser {
  return {
    Id: user._id.toHexString(),
    email: user.email,
    admin: user.admin,
    accountId: user.accountId.toHexString(),
    ActiveTOSPP: user.ActiveTOSPP,
    showNPSRating: showNPSRating(user),
    lastSignedInAt: user.lastSignedInAt ? user.lastSignedInAt.toISOString() : NEVER_SIGNED_IN,
    account,
    ces,
  };
}
