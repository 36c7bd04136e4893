/**
 * The one place the console talks HTTP. Adds the bearer token from the cookie, turns error answers into
 * ApiError (with the server's Message), and on any 403 ends the session (spec section 8).
 * It uses only the types of server/shared, not its zod schemas: zod is ~50 KB gzipped and is loaded only by
 * the screens whose forms validate with the shared field rules.
 */
import type { ApiErrorBody } from '../../../server/shared';
import { readToken, removeToken } from './token';

export const API_BASE = '/v1';

export const UNKNOWN_ERROR = 'an unknown error occurred, please contact support.';

export class ApiError extends Error {
  readonly status: number;
  /** The Error code of a `{ Message, Error }` body, when the server sent one. */
  readonly code: string | undefined;
  constructor(message: string, status: number, code?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}

type SessionEndedListener = () => void;
let sessionEnded: SessionEndedListener = () => undefined;

/** Registers what happens after a 403 removed the cookie (the session clears the user and shows login). */
export function onSessionEnded(listener: SessionEndedListener): void {
  sessionEnded = listener;
}

/** Ends the session after a 403 (also used by calls made without apiRequest, such as uploads). */
export function endSession(): void {
  removeToken();
  sessionEnded();
}

export type RequestOptions = {
  body?: unknown;
  /** Public calls (/p/...) carry no token. */
  auth?: boolean;
};

export async function apiRequest<T = void>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD',
  path: string,
  options: RequestOptions = {},
): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.auth !== false) {
    const token = readToken();
    if (token) headers.Authorization = `Bearer ${token}`;
  }
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError('Parley could not be reached. Check your connection and try again.', 0);
  }

  if (response.status === 403) endSession();
  if (!response.ok) throw await errorFrom(response);
  if (method === 'HEAD' || response.status === 204) return undefined as T;

  const text = await response.text();
  if (text === '') return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ApiError(UNKNOWN_ERROR, response.status);
  }
}

async function errorFrom(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as Partial<ApiErrorBody> | null;
    if (body && typeof body.Message === 'string' && body.Message !== '') {
      return new ApiError(body.Message, response.status, typeof body.Error === 'string' ? body.Error : undefined);
    }
  } catch {
    // Not JSON: fall through to the raw text.
  }
  const raw = text.trim();
  const message = raw !== '' && raw.length < 300 && !raw.startsWith('<') ? raw : UNKNOWN_ERROR;
  return new ApiError(message, response.status);
}

/** The message to show for any failure: the server's Message, else the error's own message, else the generic one. */
export function messageOf(err: unknown): string {
  if (err instanceof Error && err.message) return err.message;
  return UNKNOWN_ERROR;
}
