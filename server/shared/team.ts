/**
 * Team users, API keys and GDPR (spec: Account screen, roles, error catalogue): the payloads, the answers and
 * the messages, shared by the API and the console.
 */
import { z } from 'zod';
import { EMAIL_MAX_LENGTH, NEVER_SIGNED_IN } from './constants';
import { NewPasswordSchema } from './auth';

export { NEVER_SIGNED_IN };

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

const IdSchema = z.string().regex(/^[0-9a-f]{24}$/i, 'Unknown user');

/** POST /v1/dashboard-admin/users: the address is judged by the server (answers invalid_email). */
export const InviteUserSchema = z.strictObject({ email: z.string(TEAM_MESSAGES.invalidEmail).max(EMAIL_MAX_LENGTH * 4, TEAM_MESSAGES.invalidEmail) });
/** PUT /v1/dashboard-admin/users: toggles the admin flag of the user `id`. */
export const ToggleAdminSchema = z.strictObject({ id: IdSchema });
/** DELETE /v1/dashboard-admin/users */
export const DeleteUserSchema = z.strictObject({ Id: IdSchema });

/** POST /v1/p/invitations/accept: the invitee sets a password and accepts the terms. */
export const AcceptInvitationSchema = z.strictObject({
  token: z.string(TEAM_MESSAGES.invitationInvalid).regex(new RegExp(`^[A-Za-z0-9]{${INVITATION_TOKEN_LENGTH}}$`), TEAM_MESSAGES.invitationInvalid),
  password: NewPasswordSchema,
  acceptTerms: z.literal(true, TEAM_MESSAGES.termsRequired),
});
export type AcceptInvitationPayload = z.input<typeof AcceptInvitationSchema>;

/** The e-mail an invitation is for, shown on the accept page (GET /v1/p/invitations/{token}). */
export type InvitationView = { email: string; expiresAt: string };

/** PUT /v1/accounts/generate-api-key: which key to (re)generate; the API key when the body is empty. */
export const API_KEY_FIELDS = ['apiKey', 'zapierApiKey'] as const;
export type ApiKeyField = (typeof API_KEY_FIELDS)[number];
export const GenerateApiKeySchema = z
  .strictObject({ key: z.enum(API_KEY_FIELDS, 'key must be apiKey or zapierApiKey').default('apiKey') })
  .optional()
  .transform((body) => body ?? { key: 'apiKey' as const });

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

/** POST /v1/accounts/gdpr-erasure: one visitor, by e-mail or by visitor id. */
export const GdprErasureSchema = z.strictObject({
  query: z.string(TEAM_MESSAGES.erasureQuery).trim().min(1, TEAM_MESSAGES.erasureQuery).max(EMAIL_MAX_LENGTH, TEAM_MESSAGES.erasureNotFound),
});

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
