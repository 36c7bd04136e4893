/**
 * Pure rules of the console (spec section 2): which routes are public, where a user must be sent,
 * which sidebar entries show. No React and no browser globals here, so they are unit-tested directly.
 */
import type { ChatEndpointView, CurrentUser } from '../../../server/shared';
import { TERMS_VERSION } from '../../../server/shared/constants';

/** Routes reachable without the auth_token cookie. */
export const PUBLIC_ROUTES = ['/login', '/forgotpwd', '/reset_password', '/signup'] as const;

/** Routes anyone may open, signed in or not. */
export const OPEN_ROUTES = ['/error', '/legal/terms', '/legal/privacy-policy'] as const;

export const SIDEBAR_NAME_MAX = 15;

export const SETTINGS_TABS = [
  'behavior',
  'appearance',
  'op-hours',
  'install',
  'triggers',
  'saved-replies',
  'integrations',
  'question-groups',
  'answers',
] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];

export function isSettingsTab(value: string): value is SettingsTab {
  return (SETTINGS_TABS as readonly string[]).includes(value);
}

export function isPublicRoute(pathname: string): boolean {
  return (PUBLIC_ROUTES as readonly string[]).includes(normalise(pathname));
}

function normalise(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

/** True when the user must (re)accept the terms before using the console. */
export function needsTermsAcceptance(user: Pick<CurrentUser, 'ActiveTOSPP'>): boolean {
  return user.ActiveTOSPP !== TERMS_VERSION;
}

/** Where a signed-in user on `pathname` must be sent instead, or null to stay. */
export function signedInRedirect(user: Pick<CurrentUser, 'ActiveTOSPP' | 'admin'>, pathname: string): string | null {
  const path = normalise(pathname);
  if (needsTermsAcceptance(user) && path !== '/legal') return '/legal';
  if (path.startsWith('/reports') && !user.admin) return '/';
  return null;
}

/** Ids are strings whose order is creation order; numeric strings compare as numbers (legacy ids). */
function compareIds(a: string, b: string): number {
  const numeric = /^\d+$/;
  if (numeric.test(a) && numeric.test(b)) return Number(a) - Number(b);
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The current chat endpoint with no ceId in the route: the one with the lowest Id. */
export function firstChatEndpoint<T extends Pick<ChatEndpointView, 'Id'>>(ces: readonly T[]): T | undefined {
  return [...ces].sort((a, b) => compareIds(a.Id, b.Id))[0];
}

/** The Step field may arrive as a number or as text; missing or unreadable counts as 1. */
export function stepOf(ce: { Step?: number | string | null }): 1 | 2 | 3 {
  const step = Number(ce.Step);
  if (!Number.isFinite(step) || step < 2) return 1;
  return step >= 3 ? 3 : 2;
}

export function isConfigured(ce: { Step?: number | string | null }): boolean {
  return stepOf(ce) === 3;
}

/** Names longer than the limit are cut and end with an ellipsis. */
export function cutName(name: string, max: number = SIDEBAR_NAME_MAX): string {
  return name.length > max ? `${name.slice(0, max)}…` : name;
}

export type SidebarWidget = { id: string; label: string };
export type Sidebar = {
  dashboard: true;
  settings: true;
  /** Configured widgets, listed under Settings only when the user has more than one widget. */
  settingsWidgets: SidebarWidget[];
  account: boolean;
  reports: boolean;
};

export function sidebarFor(user: Pick<CurrentUser, 'admin' | 'ces' | 'account'>): Sidebar {
  const settingsWidgets =
    user.ces.length > 1
      ? [...user.ces]
          .filter(isConfigured)
          .sort((a, b) => compareIds(a.Id, b.Id))
          .map((ce) => ({ id: ce.Id, label: widgetName(ce, SIDEBAR_NAME_MAX) }))
      : [];
  return {
    dashboard: true,
    settings: true,
    settingsWidgets,
    account: user.admin,
    reports: user.admin && Boolean(user.account.effectivePlan.reports),
  };
}

/** What a widget is called in lists: its Slack channel once connected; `max` cuts the channel name. */
export function widgetName(ce: Pick<ChatEndpointView, 'RoomName'>, max?: number): string {
  if (!ce.RoomName) return 'New widget';
  const name = ce.RoomName.replace(/^#/, '');
  return `#${max === undefined ? name : cutName(name, max)}`;
}

/** Href of the 'Sign up with Slack' button, carrying the optional marketing source. */
export function teamChatSignUpHref(source: string | null): string {
  return source ? `/slack/oauth/signup?source=${encodeURIComponent(source)}` : '/slack/oauth/signup';
}

export type SignUpError = { kind: 'user_exists' } | { kind: 'unknown' };

/** Reads the error query value of the sign-up route. */
export function signUpErrorFrom(value: string | null): SignUpError | null {
  if (value === null || value === '') return null;
  return value === 'user_exists' ? { kind: 'user_exists' } : { kind: 'unknown' };
}

/**
 * Finds an auth_token in a page URL (in the real query string, or in the query that follows the hash path)
 * and returns it with the URL it should be replaced by: token removed, hash pointing at the setup of the
 * widget the URL names, else at /setup (the first widget).
 */
export function takeAuthTokenFromUrl(href: string): { token: string; cleanHref: string } | null {
  const url = new URL(href);
  const fromSearch = url.searchParams.get('auth_token');
  const hash = url.hash.replace(/^#/, '');
  const queryAt = hash.indexOf('?');
  const hashParams = new URLSearchParams(queryAt >= 0 ? hash.slice(queryAt + 1) : '');
  const fromHash = hashParams.get('auth_token');
  const token = fromSearch || fromHash;
  if (!token) return null;
  url.searchParams.delete('auth_token');
  const hashPath = queryAt >= 0 ? hash.slice(0, queryAt) : hash;
  url.hash = /^\/setup\/[^/?#]+$/.test(hashPath) ? `#${hashPath}` : '#/setup';
  return { token, cleanHref: url.toString() };
}
