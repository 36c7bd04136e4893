/**
 * The sign-in screens through the real UI: the built console (dist/web/console, `npm run build`) served by a
 * real Parley server on loopback, driven in headless Chromium.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { TERMS_VERSION } from '../../server/shared/constants';
import { uniqueEmail } from '../factories';
import { useServer } from '../helpers/app';
import { useBrowser } from '../helpers/browser';
import { acceptTerms } from './consoleHelpers';

const PASSWORD = 'correct horse battery';

describe('console sign-in screens (browser)', function () {
  this.timeout(120_000);
  const server = useServer();
  const browser = useBrowser({ context: 'suite', page: 'suite' });

  const at = (hashPath: string) => `${server.url}/app/#${hashPath}`;
  const hashOf = (page: Page) => new URL(page.url()).hash;

  async function authCookie(page: Page): Promise<string | undefined> {
    const cookies = await page.context().cookies(server.url);
    return cookies.find((c) => c.name === 'auth_token')?.value;
  }

  async function api(method: string, path: string, body?: unknown, token?: string) {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (token) headers.Authorization = `Bearer ${token}`;
    const res = await fetch(`${server.url}/v1${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = method === 'HEAD' ? '' : await res.text();
    return { status: res.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  }

  /** A user created through the API, with the terms accepted unless asked otherwise. */
  async function apiUser(withTerms = true): Promise<{ email: string; token: string }> {
    const email = uniqueEmail('api');
    const created = await api('POST', '/p/users', { email, password: PASSWORD });
    expect(created.status).to.equal(200);
    const token = String(created.json.token);
    if (withTerms) await acceptTerms(server, token);
    return { email, token };
  }

  async function openUserMenuAndChoose(page: Page, email: string, item: string) {
    await page.getByRole('button', { name: email }).click();
    await page.getByRole('menuitem', { name: item }).click();
  }

  it('takes a new user from sign-up through the terms to the dashboard, out and in again, and through a password reset', async () => {
    const page = browser.page;
    const email = uniqueEmail('walk');

    // Sign up.
    await page.goto(at('/signup'));
    await page.getByText('30-day free trial.').waitFor();
    await page.getByLabel('Work email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();

    // A new user has not accepted the terms: setup sends them to /legal first.
    await page.waitForURL(/#\/legal$/);
    const continueButton = page.getByRole('button', { name: 'Continue' });
    expect(await continueButton.isDisabled()).to.equal(true);
    await page.getByRole('checkbox', { name: 'I agree to the Terms of Service and Privacy Policy' }).check();
    expect(await continueButton.isEnabled()).to.equal(true);
    await continueButton.click();

    // Acceptance goes on with the setup of the new widget, inside the navigation shell.
    await page.waitForURL(/#\/setup\/[0-9a-f]{24}$/);
    await page.getByRole('heading', { name: 'Connect Parley to your Slack workspace' }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).waitFor();
    const me = await api('GET', '/users/current', undefined, await authCookie(page));
    expect(me.json.ActiveTOSPP).to.equal(TERMS_VERSION);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();

    // Logout ends the session on the server too.
    const tokenBeforeLogout = await authCookie(page);
    await openUserMenuAndChoose(page, email, 'Logout');
    await page.waitForURL(/#\/login$/);
    expect(await authCookie(page)).to.equal(undefined);
    expect((await api('GET', '/users/current', undefined, tokenBeforeLogout)).status).to.equal(403);

    // Log in again.
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/#\/$/);
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();

    // Forgot the password: ask for the e-mail.
    await openUserMenuAndChoose(page, email, 'Logout');
    await page.waitForURL(/#\/login$/);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL(/#\/forgotpwd$/);
    // The screen is a lazily loaded chunk: until it renders, the login page's Email field is still there.
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send password reset email' }).click();
    await page.getByRole('button', { name: 'Done!' }).waitFor();
    await page.getByText('Check your email for password reset instructions').waitFor();

    // Open the link of the mail from the developer outbox page.
    await page.goto(`${server.url}/dev/outbox`);
    const link = page.locator('a[href*="reset_password?token="]').first();
    const href = await link.getAttribute('href');
    expect(href).to.match(/\/app\/#\/reset_password\?token=[A-Za-z0-9]{64}$/);
    await link.click();
    await page.waitForURL(/#\/reset_password\?token=/);

    // Set the new password: the user lands signed in on the dashboard.
    const newPassword = 'a brand new secret';
    await page.getByLabel('New password').fill(newPassword);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.waitForURL(/#\/$/);
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    expect(await authCookie(page)).to.be.a('string');
    expect((await api('POST', '/p/sessions', { email, password: newPassword })).status).to.equal(200);
    expect((await api('POST', '/p/sessions', { email, password: PASSWORD })).status).to.equal(400);
  });

  it('sends a visitor without a session to the login page', async () => {
    const page = browser.page;
    await page.goto(at('/support'));
    await page.waitForURL(/#\/login$/);
    await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
  });

  it('sends a signed-in user from the login page to the dashboard', async () => {
    const page = browser.page;
    const { token } = await apiUser();
    await page.context().addCookies([{ name: 'auth_token', value: token, url: server.url }]);
    await page.goto(at('/login'));
    await page.waitForURL(/#\/$/);
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
  });

  it('shows Page Not Found with a Return Home button on an unknown route', async () => {
    const page = browser.page;
    await page.goto(at('/no/such/page'));
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    await page.getByRole('link', { name: 'Return Home' }).click();
    // Home needs a session: without one it is the login page.
    await page.waitForURL(/#\/login$/);
  });

  it('shows the generic error text on /error', async () => {
    const page = browser.page;
    await page.goto(at('/error'));
    await page.getByRole('heading', { name: 'Oh no! An unexpected error occurred, please contact support' }).waitFor();
  });

  it('tells a visitor sent back with error=user_exists that the account exists, with reset and login links', async () => {
    const page = browser.page;
    await page.goto(at('/signup?error=user_exists'));
    const alert = page.getByRole('alert');
    await alert.getByText('You already have an account').waitFor();
    await alert.getByRole('link', { name: 'reset your password' }).waitFor();
    await alert.getByRole('link', { name: 'Log in' }).click();
    await page.waitForURL(/#\/login$/);
  });

  it('shows two testimonials and offers "Sign up with Slack" carrying the source', async () => {
    const page = browser.page;
    await page.goto(at('/signup?source=pricing'));
    const testimonials = page.getByLabel('What customers say').locator('figure');
    await testimonials.first().waitFor();
    expect(await testimonials.count()).to.equal(2);
    const teamChat = page.getByRole('link', { name: 'Sign up with Slack', exact: true });
    expect(await teamChat.getAttribute('href')).to.equal('/slack/oauth/signup?source=pricing');
  });

  it('shows the unknown-error message for any other sign-up error value', async () => {
    const page = browser.page;
    await page.goto(at('/signup?error=oauth_failed'));
    await page.getByRole('alert').getByText('an unknown error occurred, please contact support.').waitFor();
  });

  it('offers to log in or reset the password when signing up with an e-mail that already has an account', async () => {
    const page = browser.page;
    const { email } = await apiUser();
    await page.goto(at('/signup'));
    await page.getByLabel('Work email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'You already have an account' });
    await alert.getByRole('link', { name: 'reset your password' }).waitFor();
    await alert.getByRole('link', { name: 'Log in' }).waitFor();
    expect(hashOf(page)).to.equal('#/signup');
  });

  it('checks the sign-up fields before sending anything', async () => {
    const page = browser.page;
    let posted = false;
    page.on('request', (request) => {
      if (request.url().endsWith('/v1/p/users')) posted = true;
    });
    await page.goto(at('/signup'));
    await page.getByLabel('Work email').fill('not-an-email');
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await page.getByText('Email is invalid').waitFor();
    await page.getByText('Password is too short').waitFor();
    expect(posted).to.equal(false);
  });

  it('shows the server message on a wrong password and lets the user try again', async () => {
    const page = browser.page;
    const { email } = await apiUser();
    await page.goto(at('/login'));
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('not the password');
    const button = page.getByRole('button', { name: 'Log in' });
    await button.click();
    await page.getByRole('alert').getByText('Incorrect email or password').waitFor();
    expect(await button.isEnabled()).to.equal(true);
  });

  it('refuses a reset link whose token is not 64 letters and digits', async () => {
    const page = browser.page;
    await page.goto(at('/reset_password?token=abc123'));
    await page.getByRole('alert').getByText('Invalid token').waitFor();
    expect(await page.getByRole('button', { name: 'Set new password' }).isDisabled()).to.equal(true);
  });

  it('clears the session and shows the login page when the server answers 403', async () => {
    const page = browser.page;
    const { token } = await apiUser();
    expect((await api('HEAD', '/users/logout', undefined, token)).status).to.equal(200);
    await page.context().addCookies([{ name: 'auth_token', value: token, url: server.url }]);
    await page.goto(at('/'));
    await page.waitForURL(/#\/login$/);
    expect(await authCookie(page)).to.equal(undefined);
  });

  it('keeps an auth_token handed over in the page URL and opens the setup of the first widget', async () => {
    const page = browser.page;
    const { token } = await apiUser();
    const me = await api('GET', '/users/current', undefined, token);
    const firstCeId = String((me.json.ces as { Id: string }[])[0]?.Id);
    await page.goto(`${server.url}/app/?auth_token=${encodeURIComponent(token)}#/`);
    await page.waitForURL(new RegExp(`#/setup/${firstCeId}$`));
    expect(await authCookie(page)).to.equal(token);
    expect(page.url()).not.to.contain('auth_token');
  });

  it('sends a user whose accepted terms are out of date to the legal page from any screen', async () => {
    const page = browser.page;
    const { token } = await apiUser(false);
    await page.context().addCookies([{ name: 'auth_token', value: token, url: server.url }]);
    await page.goto(at('/support'));
    await page.waitForURL(/#\/legal$/);
  });

  it('sends a user who already accepted the current terms from /legal to the dashboard', async () => {
    const page = browser.page;
    const { token } = await apiUser();
    await page.context().addCookies([{ name: 'auth_token', value: token, url: server.url }]);
    await page.goto(at('/legal'));
    await page.waitForURL(/#\/$/);
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    // The tab no longer names the legal page once the dashboard shows.
    await page.waitForFunction(() => document.title === 'Dashboard · Parley');
  });

  it('opens the change-password dialog from the user menu and e-mails a reset link', async () => {
    const page = browser.page;
    const { email, token } = await apiUser();
    await page.context().addCookies([{ name: 'auth_token', value: token, url: server.url }]);
    await page.goto(at('/'));
    await openUserMenuAndChoose(page, email, 'Change password');
    const dialog = page.getByRole('dialog', { name: 'Change password' });
    await dialog.getByRole('button', { name: 'Send password reset email' }).click();
    await dialog.getByText('Check your email for password reset instructions').waitFor();
    const mail = await server.outbox.latestTo(email);
    expect(mail?.links.some((l) => /reset_password\?token=[A-Za-z0-9]{64}$/.test(l))).to.equal(true);
  });

  it('shows Docs and FAQs in the header and the sidebar entries the user may use', async () => {
    const page = browser.page;
    const { token } = await apiUser();
    const me = await api('GET', '/users/current', undefined, token);
    // The plan that applies now: during the trial, the top self-serve plan's (reports included).
    const plan = (me.json.account as { effectivePlan: { reports: boolean } }).effectivePlan;
    await page.context().addCookies([{ name: 'auth_token', value: token, url: server.url }]);
    await page.goto(at('/'));
    const header = page.getByRole('navigation', { name: 'Help' }).first();
    expect(await header.getByRole('link', { name: 'Docs' }).getAttribute('href')).to.equal('/docs');
    expect(await header.getByRole('link', { name: 'FAQs' }).getAttribute('href')).to.equal('/pricing/#FAQ');
    const sidebar = page.getByRole('navigation', { name: 'Main' });
    await sidebar.getByRole('link', { name: 'Settings' }).waitFor();
    // A new account's first user is its admin.
    expect(me.json.admin).to.equal(true);
    await sidebar.getByRole('link', { name: 'Account' }).waitFor();
    expect(await sidebar.getByRole('link', { name: 'Reports' }).count()).to.equal(plan.reports ? 1 : 0);
  });

  it('lets the user menu be used from the keyboard', async () => {
    const page = browser.page;
    const { email, token } = await apiUser();
    await page.context().addCookies([{ name: 'auth_token', value: token, url: server.url }]);
    await page.goto(at('/'));
    const button = page.getByRole('button', { name: email });
    await button.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menuitem', { name: 'Support' }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).to.equal('Support');
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).to.equal('Change password');
    await page.keyboard.press('Escape');
    await page.getByRole('menu').waitFor({ state: 'detached' });
    expect(await button.evaluate((el) => el === document.activeElement)).to.equal(true);

    // Choosing Support moves the keyboard to the new screen's content.
    await page.keyboard.press('Enter');
    await page.getByRole('menuitem', { name: 'Support' }).waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL(/#\/support$/);
    await page.waitForFunction(() => document.activeElement?.id === 'main');
  });

  it('offers the navigation through a menu button on a phone-sized screen', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 800 } });
    const { token } = await apiUser();
    await page.context().addCookies([{ name: 'auth_token', value: token, url: server.url }]);
    await page.goto(at('/'));
    const sidebar = page.getByRole('navigation', { name: 'Main' });
    expect(await sidebar.isVisible()).to.equal(false);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await sidebar.getByRole('link', { name: 'Dashboard' }).waitFor();
    await sidebar.getByRole('link', { name: 'Docs' }).waitFor();
    await page.keyboard.press('Escape');
    await sidebar.waitFor({ state: 'hidden' });
  });
});
