/** Route guards: the sign-in requirement, the terms redirect, admin-only pages, and the current widget. */
import { type ReactNode, useEffect, useState } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import type { ChatEndpointView } from '../../../server/shared';
import { ApiError, readToken } from '../api';
import { firstChatEndpoint, signedInRedirect } from '../lib/rules';
import { useSession, useUser } from '../session/session';
import { ButtonLink, PageHeader, PageLoader, useDocumentTitle } from './ui';

/** Where the login screen sends the user back to after signing in. */
export type LoginState = { from?: string };

/** Renders its routes for a signed-in user whose terms are current; otherwise redirects. */
export function RequireAuth() {
  const { user, reload } = useSession();
  const location = useLocation();
  const token = readToken();
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (!token || user) return;
    reload().catch((err: unknown) => {
      // A 403 already ended the session and moved to login.
      if (!(err instanceof ApiError && err.status === 403)) setFailed(true);
    });
  }, [token, user, reload]);

  if (!token) {
    const from = location.pathname + location.search;
    return <Navigate to="/login" replace state={from === '/' ? undefined : ({ from } satisfies LoginState)} />;
  }
  if (failed) return <Navigate to="/error" replace />;
  if (!user) return <PageLoader label="Loading your account…" />;
  const redirect = signedInRedirect(user, location.pathname);
  if (redirect) return <Navigate to={redirect} replace />;
  return <Outlet />;
}

export const ADMINS_ONLY_TITLE = 'Only admins can see this page';
export const ADMINS_ONLY_TEXT =
  'Plans, billing, invoices and usage are for the admins of your account. Contact an admin on your account to add a payment method or change the plan.';

/**
 * A page only admins may see (the Account screen): others get a clear message and a way back, not the page, and
 * the API refuses them its data (403) anyway.
 */
export function AdminOnly({ title, children }: { title: string; children: ReactNode }) {
  const user = useUser();
  if (user.admin) return children;
  return <AdminsOnlyMessage title={title} />;
}

function AdminsOnlyMessage({ title }: { title: string }) {
  useDocumentTitle(title);
  return (
    <>
      <PageHeader title={title} />
      <section className="card admins-only" aria-labelledby="admins-only-title">
        <h2 id="admins-only-title">{ADMINS_ONLY_TITLE}</h2>
        <p className="muted">{ADMINS_ONLY_TEXT}</p>
        <ButtonLink to="/">Back to the dashboard</ButtonLink>
      </section>
    </>
  );
}

/** The login page is for signed-out visitors: with a token it goes to the dashboard. */
export function RedirectIfSignedIn() {
  return readToken() ? <Navigate to="/" replace /> : <Outlet />;
}

/**
 * The chat endpoint a route refers to: the one whose Id is `ceId`, or the lowest Id when there is none.
 * `undefined` means the ceId is unknown (or the user has no widget).
 */
export function useCurrentCe(ceId: string | undefined): ChatEndpointView | undefined {
  const user = useUser();
  if (ceId === undefined) return firstChatEndpoint(user.ces);
  return user.ces.find((ce) => ce.Id === ceId);
}

/** Sends an unknown ceId to the page-not-found page. */
export function NotFoundRedirect() {
  return <Navigate to="/not-found" replace />;
}
