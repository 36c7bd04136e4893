import type { Document } from 'bson';

/** The mongod error codes this server answers with, by name (see mongo/base/error_codes.yml). */
export const ErrorCodes = {
  InternalError: 1,
  BadValue: 2,
  FailedToParse: 9,
  Unauthorized: 13,
  TypeMismatch: 14,
  InvalidLength: 16,
  AuthenticationFailed: 18,
  IllegalOperation: 20,
  InvalidBSON: 22,
  NamespaceNotFound: 26,
  IndexNotFound: 27,
  PathNotViable: 28,
  ConflictingUpdateOperators: 40,
  CursorNotFound: 43,
  NamespaceExists: 48,
  InvalidIdField: 53,
  CommandNotFound: 59,
  ImmutableField: 66,
  CannotCreateIndex: 67,
  InvalidOptions: 72,
  InvalidNamespace: 73,
  IndexOptionsConflict: 85,
  IndexKeySpecsConflict: 86,
  CommandNotSupported: 115,
  InvalidIndexSpecificationOption: 197,
  SnapshotTooOld: 239,
  OperationNotSupportedInTransaction: 263,
  DuplicateKey: 11000,
  OutOfDiskSpace: 14031,
  Location17419: 17419,
} as const;

const NAMES: Record<number, string> = Object.fromEntries(
  Object.entries(ErrorCodes)
    .filter(([name]) => !name.startsWith('Location'))
    .map(([name, code]) => [code, name]),
);

/** mongod's codeName for a code; codes that have no name in mongod are reported as `Location<code>`, as mongod does. */
export function codeName(code: number): string {
  return NAMES[code] ?? `Location${code}`;
}

/** An error a command answers with: becomes `{ ok: 0, errmsg, code, codeName, ...extra }`. */
export class CommandError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly extra: Document = {},
  ) {
    super(message);
  }

  toReply(): Document {
    return { ok: 0, errmsg: this.message, code: this.code, codeName: codeName(this.code), ...this.extra };
  }
}

export function badValue(message: string): CommandError {
  return new CommandError(ErrorCodes.BadValue, message);
}

/** Turns anything thrown by a handler (our errors, mingo's, bugs) into a CommandError. */
export function toCommandError(err: unknown): CommandError {
  if (err instanceof CommandError) return err;
  const message = err instanceof Error ? err.message : String(err);
  // mingo reports unknown operators and bad expressions by message only; mongod calls those BadValue.
  if (err instanceof Error && err.constructor.name === 'MingoError') return badValue(cleanMingoMessage(message));
  if (/unknown (query|update|pipeline) operator|unregistered|Unknown update operator/i.test(message)) {
    return badValue(cleanMingoMessage(message));
  }
  return new CommandError(ErrorCodes.InternalError, message);
}

function cleanMingoMessage(message: string): string {
  const unknown = /unknown query operator (\$\w+)/i.exec(message);
  if (unknown) return `unknown operator: ${unknown[1]}`;
  const stage = /unregistered pipeline operator (\$\w+)/i.exec(message);
  if (stage) return `Unrecognized pipeline stage name: '${stage[1]}'`;
  return message;
}
