/**
 * Errors that cross the HTTP boundary. Each has a code (the Error field of the `{ Message, Error }`
 * body), an HTTP status, and whether it is worth reporting to operators (only unexpected ones are).
 */

import { MESSAGES } from './shared/auth';
import { ERROR_CODES } from './shared/constants';

export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly isReportable: boolean;

  constructor(message: string, options: { status: number; code: string; isReportable?: boolean }) {
    super(message);
    this.name = new.target.name;
    this.status = options.status;
    this.code = options.code;
    this.isReportable = options.isReportable ?? false;
  }
}

/** 400: the input is wrong; the message is shown to the user. */
export class ValidationError extends AppError {
  constructor(message: string, code: string = ERROR_CODES.badRequest) {
    super(message, { status: 400, code });
  }
}

/**
 * 400 when Parley's Slack installation lacks a permission: the body also carries `Code: 'missing_scope'`
 * (spec section 7), which the console reads to ask for expanded permissions.
 */
export class MissingScopeError extends ValidationError {
  readonly body = { Code: 'missing_scope' } as const;
  constructor(message: string) {
    super(message, 'missing_scope');
  }
}

/** 401: credentials are required (used where a 403 would log the console out wrongly). */
export class AuthenticationError extends AppError {
  constructor(message = 'Authentication required', code: string = ERROR_CODES.unauthenticated) {
    super(message, { status: 401, code });
  }
}

/** 402: the plan does not allow this. */
export class PaymentRequiredError extends AppError {
  constructor(message = 'Your plan does not include this feature', code: string = ERROR_CODES.paymentRequired) {
    super(message, { status: 402, code });
  }
}

/** 403: missing, bad or revoked session, or not allowed; the console logs out on it. */
export class AuthorizationError extends AppError {
  constructor(message: string = MESSAGES.sessionInvalid, code: string = ERROR_CODES.sessionInvalid) {
    super(message, { status: 403, code });
  }
}

/** 404: unknown, or belongs to another account (the two are not told apart). */
export class NotFoundError extends AppError {
  constructor(message = 'Not found', code: string = ERROR_CODES.notFound) {
    super(message, { status: 404, code });
  }
}

/** 429 */
export class RateLimitError extends AppError {
  constructor(message = 'Too many attempts, please wait a few minutes and try again', code: string = ERROR_CODES.rateLimited) {
    super(message, { status: 429, code });
  }
}
