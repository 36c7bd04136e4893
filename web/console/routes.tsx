/** The route table of the console (spec section 2). Hash based: #/path?query. */
import { lazy, Suspense } from 'react';
import { HashRouter, Navigate, Outlet, Route, Routes, useParams } from 'react-router-dom';
import { AdminOnly, RedirectIfSignedIn, RequireAuth, useCurrentCe } from './components/guards';
import { Shell } from './components/Shell';
import { PageLoader } from './components/ui';
import { Dashboard } from './scenes/dashboard/Dashboard';
import { ErrorPage, NotFound } from './scenes/errors/Errors';
import { ForgotPassword } from './scenes/forgot-password/ForgotPassword';
import { Legal } from './scenes/legal/Legal';
import { Login } from './scenes/login/Login';
import { Permissions } from './scenes/permissions/Permissions';
import { Setup } from './scenes/setup/Setup';
import { Support } from './scenes/support/Support';
import { PleaseUpgrade } from './scenes/upgrade/PleaseUpgrade';
import { ThankYou } from './scenes/upgrade/ThankYou';

// Screens that validate with the shared zod field rules, and long documents, load on demand: zod alone is
// ~50 KB gzipped and most visits never need it.
const SignUp = lazy(() => import('./scenes/signup/SignUp').then((m) => ({ default: m.SignUp })));
const ResetPassword = lazy(() => import('./scenes/reset-password/ResetPassword').then((m) => ({ default: m.ResetPassword })));
const SettingsPage = lazy(() => import('./scenes/settings/SettingsPage').then((m) => ({ default: m.SettingsPage })));
const AcceptInvite = lazy(() => import('./scenes/accept-invite/AcceptInvite').then((m) => ({ default: m.AcceptInvite })));
const Account = lazy(() => import('./scenes/account/Account').then((m) => ({ default: m.Account })));
const Reports = lazy(() => import('./scenes/reports/Reports').then((m) => ({ default: m.Reports })));
const TermsOfService = lazy(() => import('./scenes/legal/Documents').then((m) => ({ default: m.TermsOfService })));
const PrivacyPolicy = lazy(() => import('./scenes/legal/Documents').then((m) => ({ default: m.PrivacyPolicy })));

/** /settings and /customize open the behavior settings of the first widget. */
function FirstWidgetSettings() {
  const ce = useCurrentCe(undefined);
  return <Navigate to={ce ? `/settings/${ce.Id}/behavior` : '/'} replace />;
}

/** /settings/{ceId} without a tab opens its behavior tab. */
function WidgetBehavior() {
  const { ceId = '' } = useParams();
  return <Navigate to={`/settings/${encodeURIComponent(ceId)}/behavior`} replace />;
}

/** /setup without an id opens the first widget's setup. */
function FirstWidgetSetup() {
  const ce = useCurrentCe(undefined);
  return <Navigate to={ce ? `/setup/${ce.Id}` : '/'} replace />;
}

export function AppRoutes() {
  return (
    <HashRouter>
      <Suspense fallback={<PageLoader />}>
        <Routes>
          <Route element={<RedirectIfSignedIn />}>
            <Route path="/login" element={<Login />} />
          </Route>
          <Route path="/forgotpwd" element={<ForgotPassword />} />
          <Route path="/reset_password" element={<ResetPassword />} />
          <Route path="/signup" element={<SignUp />} />
          <Route path="/accept-invite" element={<AcceptInvite />} />
          <Route path="/error" element={<ErrorPage />} />
          <Route path="/legal/terms" element={<TermsOfService />} />
          <Route path="/legal/privacy-policy" element={<PrivacyPolicy />} />

          <Route element={<RequireAuth />}>
            <Route path="/legal" element={<Legal />} />
            <Route element={<Shell />}>
              <Route index element={<Dashboard />} />
              <Route path="/support" element={<Support />} />
              <Route path="/setup" element={<FirstWidgetSetup />} />
              <Route path="/setup/:ceId" element={<Setup />} />
              <Route path="/settings" element={<FirstWidgetSettings />} />
              <Route path="/customize" element={<FirstWidgetSettings />} />
              <Route path="/settings/:ceId" element={<WidgetBehavior />} />
              <Route path="/settings/:ceId/:tab" element={<SettingsPage />} />
              <Route path="/permissions" element={<Permissions />} />
              <Route path="/permissions/:ceId" element={<Permissions />} />
              <Route
                path="/please-upgrade"
                element={
                  <AdminOnly title="Time to upgrade?">
                    <PleaseUpgrade />
                  </AdminOnly>
                }
              />
              <Route path="/thank-you-for-upgrading" element={<ThankYou />} />
              <Route
                path="/account"
                element={
                  <AdminOnly title="Manage your account">
                    <Account />
                  </AdminOnly>
                }
              />
              {/* Non-admins never get here: the sign-in guard sends them to the dashboard. */}
              <Route path="/reports" element={<Outlet />}>
                <Route index element={<Navigate to="/reports/overview" replace />} />
                <Route path="overview" element={<Reports view="overview" />} />
                <Route path="history" element={<Reports view="history" />} />
                <Route path="availability" element={<Reports view="availability" />} />
                <Route path="answers" element={<Reports view="answers" />} />
                <Route path="team" element={<Reports view="team" />} />
              </Route>
            </Route>
          </Route>

          <Route path="*" element={<NotFound />} />
        </Routes>
      </Suspense>
    </HashRouter>
  );
}
