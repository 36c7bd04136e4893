import type { UserDocument } from '../../models/User';
import { NEVER_SIGNED_IN } from '../../shared/constants';
import type { DashboardUserRow } from '../../shared/team';

/** A row of the users table: no password hash, no terms or rating details. */
export function presentDashboardUser(user: UserDocument): DashboardUserRow {
  return {
    Id: user._id.toHexString(),
    email: user.email,
    admin: user.admin,
    lastSignedInAt: user.lastSignedInAt ? user.lastSignedInAt.toISOString() : NEVER_SIGNED_IN,
  };
}
