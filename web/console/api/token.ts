/** The session token lives in the auth_token cookie (30 days, secure on https). */
import { AUTH_COOKIE, AUTH_COOKIE_DAYS } from '../../../server/shared/constants';

export function readToken(): string | null {
  for (const part of document.cookie.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === AUTH_COOKIE) {
      const value = decodeURIComponent(part.slice(eq + 1).trim());
      return value === '' ? null : value;
    }
  }
  return null;
}

export function storeToken(token: string): void {
  const maxAge = AUTH_COOKIE_DAYS * 24 * 60 * 60;
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${AUTH_COOKIE}=${encodeURIComponent(token)}; Max-Age=${maxAge}; Path=/; SameSite=Lax${secure}`;
}

export function removeToken(): void {
  document.cookie = `${AUTH_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax`;
}

/** Tracking id sent with sign-up when a marketing page left one in a cookie. */
export function readTrackingId(): string | undefined {
  const match = document.cookie.match(/(?:^|;\s*)tklID=([^;]*)/);
  const value = match ? decodeURIComponent(match[1] ?? '') : '';
  return value === '' ? undefined : value.slice(0, 200);
}
