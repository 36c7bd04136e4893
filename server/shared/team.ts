/**
 * Team users, API keys and GDPR (spec: Account screen, roles, error catalogue): the payloads, the answers and
 * the messages, shared by the API and the console.
 */
import { z } from 'zod';
import { NewPasswordSchema } from './auth';
import { EMAIL_MAX_LENGTH } from './constants';
import { API_KEY_FIELDS, INVITATION_TOKEN_LENGTH, TEAM_MESSAGES } from './teamMessages';

export * from './teamMessages';

const IdSchema = z.string().regex(/^[0-9a-f]{24}$/i, 'Unknown user');

/** POST /v1/dashboard-admin/users: the address is judged by the server (answers invalid_email). */
export const InviteUserSchema = z.strictObject({
  email: z.string(TEAM_MESSAGES.invalidEmail).max(EMAIL_MAX_LENGTH * 4, TEAM_MESSAGES.invalidEmail),
});
/** PUT /v1/dashboard-admin/users: toggles the admin flag of the user `id`. */
export const ToggleAdminSchema = z.strictObject({ id: IdSchema });
/** DELETE /v1/dashboard-admin/users */
export const DeleteUserSchema = z.strictObject({ Id: IdSchema });

/** POST /v1/p/invitations/accept: the invitee sets a password and accepts the terms. */
export const AcceptInvitationSchema = z.strictObject({
  token: z
    .string(TEAM_MESSAGES.invitationInvalid)
    .regex(new RegExp(`^[A-Za-z0-9]{${INVITATION_TOKEN_LENGTH}}$`), TEAM_MESSAGES.invitationInvalid),
  password: NewPasswordSchema,
  acceptTerms: z.literal(true, TEAM_MESSAGES.termsRequired),
});
export type AcceptInvitationPayload = z.input<typeof AcceptInvitationSchema>;

/** PUT /v1/accounts/generate-api-key: which key to (re)generate; the API key when the body is empty. */
export const GenerateApiKeySchema = z
  .strictObject({ key: z.enum(API_KEY_FIELDS, 'key must be apiKey or zapierApiKey').default('apiKey') })
  .optional()
  .transform((body) => body ?? { key: 'apiKey' as const });

/** POST /v1/accounts/gdpr-erasure: one visitor, by e-mail or by visitor id. */
export const GdprErasureSchema = z.strictObject({
  query: z
    .string(TEAM_MESSAGES.erasureQuery)
    .trim()
    .min(1, TEAM_MESSAGES.erasureQuery)
    .max(EMAIL_MAX_LENGTH, TEAM_MESSAGES.erasureNotFound),
});
