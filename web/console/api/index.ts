/** Typed calls of the console (spec section 7). Payload and answer types come from server/shared. */
import type {
  ChatEndpointWithStats,
  CurrentUser,
  LegalDocument,
  LoginPayload,
  PasswordResetEmailPayload,
  PasswordResetPayload,
  SignUpPayload,
  TokenResponse,
} from '../../../server/shared';
import { TERMS_VERSION } from '../../../server/shared/constants';
import { ApiError, apiRequest, UNKNOWN_ERROR } from './client';

export { ApiError, messageOf, onSessionEnded, UNKNOWN_ERROR } from './client';
export { readToken, readTrackingId, removeToken, storeToken } from './token';

function tokenOf(answer: unknown): string | null {
  const token = (answer as Partial<TokenResponse> | null | undefined)?.token;
  return typeof token === 'string' && token !== '' ? token : null;
}

async function sessionCall(path: string, body: SignUpPayload | LoginPayload): Promise<string> {
  const token = tokenOf(await apiRequest<unknown>('POST', path, { body, auth: false }));
  if (!token) throw new ApiError(UNKNOWN_ERROR, 200);
  return token;
}

export function signUp(payload: SignUpPayload): Promise<string> {
  return sessionCall('/p/users', payload);
}

export function logIn(payload: LoginPayload): Promise<string> {
  return sessionCall('/p/sessions', payload);
}

export function sendPasswordResetEmail(payload: PasswordResetEmailPayload): Promise<void> {
  return apiRequest('POST', '/p/users/password_reset_email', { body: payload, auth: false });
}

/** Sets the new password; answers the new session token when the server signs the user in. */
export async function resetPassword(payload: PasswordResetPayload): Promise<string | null> {
  return tokenOf(await apiRequest<unknown>('POST', '/p/users/password_reset', { body: payload, auth: false }));
}

/** Invalidates the token on the server. */
export function logOut(): Promise<void> {
  return apiRequest('HEAD', '/users/logout');
}

export async function getCurrentUser(): Promise<CurrentUser> {
  const user = await apiRequest<CurrentUser | null>('GET', '/users/current');
  if (!user || typeof user !== 'object' || !user.account || !Array.isArray(user.ces)) {
    throw new Error('Your account could not be loaded. Please contact support.');
  }
  return user;
}

export function confirmLegal(document: LegalDocument, version: string = TERMS_VERSION): Promise<void> {
  return apiRequest('POST', `/users/legal_confirmation/${document}/${encodeURIComponent(version)}`);
}

export function listChatEndpoints(): Promise<ChatEndpointWithStats[]> {
  return apiRequest<ChatEndpointWithStats[]>('GET', '/users/current/chat_endpoints');
}
