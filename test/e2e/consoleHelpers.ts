/** Driving the console in a browser: a new account's admin, signed in with the terms accepted, as after sign-up. */
import type { Locator, Page } from 'playwright-core';
import { TERMS_VERSION } from '../../server/shared/constants';
import { uniqueEmail } from '../factories';
import type { TestServer } from '../helpers/app';

export type SignedIn = { email: string; token: string; ceId: string; accountId: string };

/** The user of `token` accepts the current terms and privacy policy, as the console's /legal screen does. */
export async function acceptTerms(server: Pick<TestServer, 'url'>, token: string): Promise<void> {
  for (const doc of ['terms', 'privacy-policy']) {
    const res = await fetch(`${server.url}/v1/users/legal_confirmation/${doc}/${TERMS_VERSION}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
    });
    if (!res.ok) throw new Error(`accepting the ${doc} answered ${res.status}`);
  }
}

/** Signs up a new account through the API, accepts the terms and the privacy policy, and signs `page` in as its admin. */
export async function signedInAdmin(server: Pick<TestServer, 'url'>, page: Page, prefix = 'admin'): Promise<SignedIn> {
  const email = uniqueEmail(prefix);
  const res = await fetch(`${server.url}/v1/p/users`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: 'correct horse battery' }),
  });
  const { token } = (await res.json()) as { token: string };
  await acceptTerms(server, token);
  await page.context().addCookies([{ name: 'auth_token', value: token, url: server.url }]);
  const me = (await (await fetch(`${server.url}/v1/users/current`, { headers: { Authorization: `Bearer ${token}` } })).json()) as {
    accountId: string;
    ces: { Id: string }[];
  };
  return { email, token, ceId: me.ces[0]?.Id ?? '', accountId: me.accountId };
}

/**
 * Opens a range report of the console (`#/reports/<view>`, its link named `name`) signed in with `token`, in `zone`
 * over the custom range `from`–`to` (days, both included), and answers the room's card ("<name> of <room>").
 */
export async function openRangeReport(
  page: Page,
  at: { url: string; token: string },
  report: { view: string; name: string; room: string; zone: string; from: string; to: string },
): Promise<Locator> {
  await page.context().addCookies([{ name: 'auth_token', value: at.token, url: at.url }]);
  await page.goto(`${at.url}/app/#/reports/${report.view}`);
  await page.getByRole('link', { name: report.name }).waitFor();
  await page.getByLabel('Time zone').selectOption(report.zone);
  await page.getByLabel('Date range').selectOption('custom');
  await page.getByLabel('From', { exact: true }).fill(report.from);
  await page.getByLabel('To', { exact: true }).fill(report.to);
  return page.getByRole('region', { name: `${report.name} of ${report.room}` });
}

/**
 * Waits until a report shows the figures of the range as chosen last: its `index`th figure reads `text` and is not
 * marked busy. While a range loads, the previous range's figures stay on screen, marked busy; and a custom range
 * filled From first passes through "From to today", whose first figures can equal the final range's (an Answers
 * report read 7 article views there, 6 for the range chosen).
 */
export async function waitForChosenRangeFigure(page: Page, text: string, index = 0): Promise<void> {
  await page.waitForFunction(
    ({ text, index }) => {
      const figure = document.querySelectorAll('.reports__stat dd')[index];
      return figure?.textContent === text && figure.closest('[aria-busy="true"]') === null;
    },
    { text, index },
  );
}
