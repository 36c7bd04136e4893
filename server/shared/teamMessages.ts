/** Constants, messages and answer shapes of team users, API keys and GDPR, without zod (the console imports them). */

import { NEVER_SIGNED_IN } from './constants';

export { NEVER_SIGNED_IN };

/** The account fields of the two keys; PUT /v1/accounts/generate-api-key names one in its body. */
export const API_KEY_FIELDS = ['apiKey', 'zapierApiKey'] as const;
export type ApiKeyField = (typeof API_KEY_FIELDS)[number];

/** An invitation link works for this long. */
export const INVITATION_TTL_DAYS = 7;
/** A GDPR export download link works for this long. */
export const GDPR_EXPORT_TTL_HOURS = 24;
/** The console shows GDPRExportSignedURL only when it is longer than this (spec). */
export const GDPR_LINK_MIN_LENGTH = 6;
export const INVITATION_TOKEN_LENGTH = 64;

export const TEAM_MESSAGES = {
  userExists: 'User already exists',
  invalidEmail: 'Invalid email',
  invited: (email: string) => `Successfully invited user ${email}`,
  unknownError: 'unknown error, contact support',
  updated: 'Successfully updated user',
  adminsOnly: 'Only admins of this account can do this',
  notYourself: 'You cannot change your own admin rights',
  lastAdmin: 'An account needs at least one admin',
  deleteYourself: 'You cannot delete yourself',
  deleteAdmin: 'Turn off admin rights before deleting this user',
  invitationInvalid: 'This invitation link is invalid or has expired. Ask an admin of your team to invite you again.',
  termsRequired: 'Please agree to the Terms of Service and Privacy Policy',
  apiKeyUnknownError: 'an unknown error occurred, please contact support',
  regenerateConfirm: 'Regenerating revokes the current key at once: anything using it stops working. Continue?',
  exportRunning: 'An export is already being built',
  erasureNotFound: 'No visitor with this e-mail or visitor id',
  erasureQuery: 'Enter the visitor’s e-mail or visitor id',
} as const;

/** A row of the users table (GET /v1/dashboard-admin/users). */
export type DashboardUserRow = { Id: string; email: string; admin: boolean; lastSignedInAt: string };

/** The e-mail an invitation is for, shown on the accept page (GET /v1/p/invitations/{token}). */
export type InvitationView = { email: string; expiresAt: string };

/** GET/POST /v1/accounts/gdpr-export */
export type GdprExportView = {
  Id: string;
  status: 'running' | 'ready' | 'failed';
  done: number;
  total: number;
  size: number;
  createdAt: string;
  /** The signed download link while it works, else ''. */
  url: string;
  expiresAt: string | null;
};

export type GdprErasureView = {
  Id: string;
  createdAt: string;
  requestedByEmail: string;
  by: 'email' | 'visitorId';
  visitors: number;
  conversations: number;
  messages: number;
  files: number;
  offlineMessages: number;
};
