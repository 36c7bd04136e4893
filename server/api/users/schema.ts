import { z } from 'zod';
import { MESSAGES } from '../../shared/auth';
import { LEGAL_DOCUMENTS } from '../../shared/constants';

export type { LoginPayload, PasswordResetEmailPayload, PasswordResetPayload, SignUpPayload } from '../../shared/auth';
export {
  LoginSchema,
  PasswordResetEmailSchema,
  PasswordResetSchema,
  SignUpSchema,
} from '../../shared/auth';

/** POST /users/legal_confirmation/{document}/{version} */
export const LegalConfirmationParamsSchema = z.object({
  document: z.enum(LEGAL_DOCUMENTS, `Unknown document, expected one of: ${LEGAL_DOCUMENTS.join(', ')}`),
  version: z.string().max(64),
});

/**
 * GET /users/rate/{value}: the path segment must be exactly an integer from -1 to 10, no "5.0" or " 5". It stays a
 * string here (Express types path parameters as strings); the route reads it as a number.
 */
export const RateParamsSchema = z.object({
  value: z.string().regex(/^(?:-1|10|[0-9])$/, MESSAGES.invalidRating),
});
