/**
 * Parley's one error family (bolt-js CodedError style): every error a user may read is an AppError with a code,
 * an HTTP status and whether it is worth reporting to operators (only unexpected ones are). Each transport turns
 * them into its own shape in one place: http/errorHandler.ts (the `{ Message, Error }` body),
 * slack/listeners/failures.ts (an ephemeral text) and relay/widgetErrors.ts (a widget `error` frame).
 */

import { MESSAGES } from './shared/auth';
import { ERROR_CODES, type ErrorCode } from './shared/constants';
import type { WidgetErrorCode } from './shared/widget-constants';

/**
 * A code Parley passes on as another service said it (Slack's `name_taken`, Stripe's `card_declined` …): the
 * console shows Slack's and Stripe's own wording for them. Made only through `external()`, so every code that is
 * not Parley's own is marked where it enters.
 */
export type ExternalCode = string & { readonly __external: true };
export const external = (code: string): ExternalCode => code as ExternalCode;

/** Every code an AppError may carry: Parley's own, the widget protocol's, or one passed on from Slack or Stripe. */
export type AppErrorCode = ErrorCode | WidgetErrorCode | ExternalCode;

export class AppError extends Error {
  readonly status: number;
  readonly code: AppErrorCode;
  readonly isReportable: boolean;

  constructor(message: string, options: { status: number; code: AppErrorCode; isReportable?: boolean; cause?: unknown }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.status = options.status;
    this.code = options.code;
    this.isReportable = options.isReportable ?? false;
  }
}

/** 400: the input is wrong; the message is shown to the user. */
export class ValidationError extends AppError {
  constructor(message: string, code: AppErrorCode = ERROR_CODES.badRequest) {
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
  constructor(message = 'Authentication required', code: AppErrorCode = ERROR_CODES.unauthenticated) {
    super(message, { status: 401, code });
  }
}

/** 402: the plan does not allow this. */
export class PaymentRequiredError extends AppError {
  constructor(message = 'Your plan does not include this feature', code: AppErrorCode = ERROR_CODES.paymentRequired) {
    super(message, { status: 402, code });
  }
}

/** 403: missing, bad or revoked session, or not allowed; the console logs out on it. */
export class AuthorizationError extends AppError {
  constructor(message: string = MESSAGES.sessionInvalid, code: AppErrorCode = ERROR_CODES.sessionInvalid) {
    super(message, { status: 403, code });
  }
}

/** 404: unknown, or belongs to another account (the two are not told apart). */
export class NotFoundError extends AppError {
  constructor(message = 'Not found', code: AppErrorCode = ERROR_CODES.notFound) {
    super(message, { status: 404, code });
  }
}

/** 429 */
export class RateLimitError extends AppError {
  constructor(message = 'Too many attempts, please wait a few minutes and try again', code: AppErrorCode = ERROR_CODES.rateLimited) {
    super(message, { status: 429, code });
  }
}

/** A refusal a Slack user reads as it is: the conversation ended, no webhook is set, a bad address … */
export class ActionRefused extends AppError {
  constructor(message: string) {
    super(message, { status: 400, code: ERROR_CODES.actionRefused });
  }
}

/** A visitor's request the widget protocol refuses, with the code the widget shows a message for. */
export class WidgetRefusal extends AppError {
  declare readonly code: WidgetErrorCode;
  constructor(code: WidgetErrorCode, message: string) {
    super(message, { status: 400, code });
  }
}

/** MongoDB's names for "the database is not there" (the driver's error classes). */
const DATABASE_UNREACHABLE = new Set(['MongoNetworkError', 'MongoServerSelectionError', 'MongoNotConnectedError', 'MongoPoolClearedError']);
/** mongod's OutOfDiskSpace: its disk (or the embedded store's) takes no writes until there is room again. */
const OUT_OF_DISK_SPACE = 14031;

/**
 * Whether the database could not take the write (a full disk) or could not be reached: nothing was stored, and
 * the same request a little later will do. The driver's errors are told apart by name and code, not by class,
 * so this module needs no database import.
 */
export function isStorageUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return isDiskFull(error) || DATABASE_UNREACHABLE.has(error.name);
}

function isDiskFull(error: unknown): boolean {
  return (error as { code?: unknown }).code === OUT_OF_DISK_SPACE;
}

/** What the API says when the disk takes no writes, and when the database cannot be reached at all. */
const STORAGE_MESSAGES = {
  full: 'Parley cannot save changes right now. Please try again in a minute.',
  unreachable: 'Parley cannot reach its database right now. Please try again in a minute.',
};

/** What the body parsers' error `type`s mean to the client. */
const BODY_ERRORS: Record<string, string | undefined> = {
  'entity.parse.failed': 'The request body is not valid JSON',
  'entity.too.large': 'The request body is too large',
  'charset.unsupported': 'The request body encoding is not supported',
  'encoding.unsupported': 'The request body encoding is not supported',
};

/**
 * What to answer for an error Express or its body parsers raise for a request they cannot read, or undefined when
 * `error` is not one. They carry a 4xx `status` (http-errors): the body parsers' have a `type` (unparsable, too
 * large, an unsupported charset or encoding, an aborted or mis-sized body) and are answered 400 whatever their own
 * status; the router's URIError for a path parameter with a malformed percent-encoding (`%E0%A4%A`) is a 400; any
 * other http-errors 4xx (`expose`: its message is meant for the client) keeps its status and message.
 */
export function requestError(error: unknown): { status: number; message: string } | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { type, status, statusCode, expose } = error as { type?: unknown; status?: unknown; statusCode?: unknown; expose?: unknown };
  const code = typeof status === 'number' ? status : statusCode;
  if (typeof code !== 'number' || code < 400 || code >= 500) return undefined;
  if (error instanceof URIError) return { status: 400, message: 'The address is not valid: it has a malformed percent-encoding' };
  const known = typeof type === 'string' ? BODY_ERRORS[type] : undefined;
  if (known !== undefined) return { status: 400, message: known };
  if (typeof type === 'string') return { status: 400, message: 'The request body could not be read' };
  if (expose === true && error instanceof Error && error.message) return { status: code, message: error.message };
  return undefined;
}

/**
 * Any thrown value as an AppError: itself when it is one; a 400 for a request Express or its parsers could not
 * read (requestError); a 503 when the database cannot take it; else a reportable 500 that keeps the
 * original as its cause.
 */
export function asCodedError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const unreadable = requestError(error);
  if (unreadable !== undefined) {
    const code = unreadable.status === 404 ? ERROR_CODES.notFound : ERROR_CODES.badRequest;
    return new AppError(unreadable.message, { status: unreadable.status, code, cause: error });
  }
  if (isStorageUnavailable(error)) {
    return new AppError(isDiskFull(error) ? STORAGE_MESSAGES.full : STORAGE_MESSAGES.unreachable, {
      status: 503,
      code: ERROR_CODES.storageUnavailable,
      isReportable: true,
      cause: error,
    });
  }
  return new AppError('An unexpected error occurred, please contact support', {
    status: 500,
    code: ERROR_CODES.internal,
    isReportable: true,
    cause: error,
  });
}
