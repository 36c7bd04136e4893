/** Field rules and payloads of the sign-in screens, enforced by the API and by the console forms alike. */
import { z } from 'zod';
import { EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_EXCLUSIVE, RESET_TOKEN_LENGTH } from './constants';

export const MESSAGES = {
  emailInvalid: 'Email is invalid',
  emailRequired: 'Email is required',
  passwordTooShort: 'Password is too short',
  passwordTooLong: 'Password is too long',
  passwordRequired: 'Password is required',
  invalidToken: 'Invalid token',
  invalidRating: 'Rating must be a whole number from 0 to 10, or -1',
  wrongCredentials: 'Incorrect email or password',
  userExists: 'A user with this email already exists',
  sessionInvalid: 'Your session is invalid, please log in again',
} as const;

/** An e-mail address, trimmed and lowercased so the same address always finds the same user. */
export const EmailSchema = z
  .string(MESSAGES.emailInvalid)
  .trim()
  .toLowerCase()
  .max(EMAIL_MAX_LENGTH, MESSAGES.emailInvalid)
  // The format check runs only on strings of a sane length (pipe stops at the first failure).
  .pipe(z.email(MESSAGES.emailInvalid));

/** A new password: longer than 6 characters. */
export const NewPasswordSchema = z
  .string(MESSAGES.passwordTooShort)
  .min(PASSWORD_MIN_EXCLUSIVE + 1, MESSAGES.passwordTooShort)
  .max(PASSWORD_MAX_LENGTH, MESSAGES.passwordTooLong);

/** A password typed at login: only required, its length rule may have changed since it was set. */
export const LoginPasswordSchema = z
  .string(MESSAGES.passwordRequired)
  .min(1, MESSAGES.passwordRequired)
  .max(PASSWORD_MAX_LENGTH, MESSAGES.wrongCredentials);

export const RESET_TOKEN_PATTERN = new RegExp(`^[A-Za-z0-9]{${RESET_TOKEN_LENGTH}}$`);
export const ResetTokenSchema = z.string(MESSAGES.invalidToken).regex(RESET_TOKEN_PATTERN, MESSAGES.invalidToken);

/** POST /v1/p/users */
export const SignUpSchema = z.strictObject({
  email: EmailSchema,
  password: NewPasswordSchema,
  /** Tracking id from a cookie; optional and opaque. */
  tklID: z.string().max(200).optional(),
});
export type SignUpPayload = z.input<typeof SignUpSchema>;

/** POST /v1/p/sessions */
export const LoginSchema = z.strictObject({
  email: EmailSchema,
  password: LoginPasswordSchema,
});
export type LoginPayload = z.input<typeof LoginSchema>;

/** POST /v1/p/users/password_reset_email */
export const PasswordResetEmailSchema = z.strictObject({
  email: EmailSchema,
});
export type PasswordResetEmailPayload = z.input<typeof PasswordResetEmailSchema>;

/** POST /v1/p/users/password_reset */
export const PasswordResetSchema = z.strictObject({
  token: ResetTokenSchema,
  password: NewPasswordSchema,
});
export type PasswordResetPayload = z.input<typeof PasswordResetSchema>;

/** Answer of sign-up and login. */
export const TokenResponseSchema = z.object({ token: z.string() });
export type TokenResponse = z.infer<typeof TokenResponseSchema>;

/** Body of every API error. */
export const ApiErrorBodySchema = z.object({ Message: z.string(), Error: z.string(), Code: z.string().optional() });
export type ApiErrorBody = z.infer<typeof ApiErrorBodySchema>;
