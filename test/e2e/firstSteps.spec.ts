/**
 * What a new user meets in the console (browser): deleting a widget, a cancelled Slack consent, signing up
 * the texts of the dashboard, dialogs and terms, and unknown pages (issue 15, defects 1, 2, 11, 12).
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { uniqueEmail } from '../factories';
import { useServer } from '../helpers/app';
import { useBrowser } from '../helpers/browser';
import { acceptTerms } from './consoleHelpers';

const PASSWORD = 'correct horse battery';

describe('first steps of a new user (browser)', function () {
  this.timeout(90_000);
  const server = useServer();
  const browser = useBrowser({ context: 'suite' });

  const at = (hashPath: string) => `${server.url}/app/#${hashPath}`;

  async function api(method: string, path: string, token?: string, body?: unknown) {
    const res = await fetch(`${server.url}/v1${path}`, {
      method,
      headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, json: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
  }

  /** A signed-in user (terms accepted) with the widget sign-up made, at step 1. */
  async function newUser(page: Page): Promise<{ email: string; token: string; ceId: string }> {
    const email = uniqueEmail('first');
    const { json } = await api('POST', '/p/users', undefined, { email, password: PASSWORD });
    const token = String(json.token);
    await acceptTerms(server, token);
    await page.context().addCookies([{ name: 'auth_token', value: token, url: server.url }]);
    const me = await api('GET', '/users/current', token);
    return { email, token, ceId: String((me.json.ces as { Id: string }[])[0]?.Id) };
  }

  it('says the Slack consent was cancelled on setup step 1, and the message can be dismissed', async () => {
    const page = browser.page;
    const { ceId } = await newUser(page);
    await page.goto(at(`/setup/${ceId}`));
    await page.getByRole('button', { name: 'Add to Slack' }).click();
    await page.waitForURL(/\/sandbox\/slack\/oauth\/v2\/authorize/);
    await page.locator('#sandbox-oauth-cancel').click();
    await page.waitForURL(/\?error=access_denied$/);
    const alert = page.getByRole('alert').filter({ hasText: 'You cancelled the Slack authorisation' });
    await alert.waitFor();
    await page.getByRole('heading', { name: 'Connect Parley to your Slack workspace' }).waitFor();
    await alert.getByRole('button', { name: 'Dismiss' }).click();
    await alert.waitFor({ state: 'detached' });
    expect(page.url()).to.not.contain('error=');
  });

  it('deletes a finished widget from its embed page and lands on the dashboard with a confirmation, not the 404 page', async () => {
    const page = browser.page;
    const { ceId } = await newUser(page);
    await page.goto(at(`/setup/${ceId}`));
    await page.getByRole('button', { name: 'Add to Slack' }).click();
    await page.locator('#sandbox-oauth-allow').click();
    await page.getByLabel('Channel name').fill('Deleted Soon');
    await page.getByRole('button', { name: 'Create channel' }).click();
    await page.getByRole('heading', { level: 1, name: 'Setup is finished!' }).waitFor();
    await page.getByText('Last step: copy and paste embed code').waitFor();

    await page.getByRole('button', { name: 'Delete widget' }).click();
    await page.getByRole('dialog', { name: 'Delete this widget permanently?' }).getByRole('button', { name: 'Delete permanently' }).click();
    await page.waitForURL(/#\/$/);
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await page.getByText('Widget deleted.').waitFor();
    expect(await page.getByText('Page Not Found').count()).to.equal(0);
    expect(await server.models.ChatEndpoint.findById(ceId)).to.equal(null);
  });

  it('heads the dashboard Dashboard with the plan, and explains the trial day count', async () => {
    const page = browser.page;
    await newUser(page);
    await page.goto(at('/'));
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    expect(await page.title()).to.equal('Dashboard · Parley');
    // During the trial the badge names the plan it has: every Business feature.
    await page.getByRole('link', { name: 'Basic plan · free trial with every Business feature' }).waitFor();
    const trial = page.getByRole('status').filter({ hasText: 'left on the trial' });
    expect(await trial.textContent()).to.match(
      /There are 29 days left on the trial\. Add a card by .+ to keep your widgets online after it\. Nothing is charged before the trial ends\./,
    );
    // One widget not yet in Slack: singular words, and "Not connected to Slack yet" only once.
    await page.getByRole('heading', { name: 'Unfinished widget', exact: true }).waitFor();
    await page.getByText('Finish setup to link this widget to a Slack channel.').waitFor();
    expect(await page.getByText('Not connected to Slack yet').count()).to.equal(1);
  });

  it('closes the change-password dialog with one Done! button once the mail is sent', async () => {
    const page = browser.page;
    const { email } = await newUser(page);
    await page.goto(at('/'));
    await page.getByRole('button', { name: email }).click();
    await page.getByRole('menuitem', { name: 'Change password' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change password' });
    await dialog.getByRole('button', { name: 'Send password reset email' }).click();
    await dialog.getByText('Check your email for password reset instructions').waitFor();
    expect(await dialog.locator('.dialog__actions button').allTextContents()).to.deep.equal(['Done!']);
    await dialog.getByRole('button', { name: 'Done!' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('dates the Terms of Service in words instead of the version code', async () => {
    const page = browser.page;
    await page.goto(at('/legal/terms'));
    await page.getByRole('heading', { level: 1, name: 'Terms of Service' }).waitFor();
    await page.getByText('Last updated 11 August 2020').waitFor();
    expect(await page.getByText('11AUG2020').count()).to.equal(0);
  });

  it("answers an unknown page under /app with 404 and the console's own Page Not Found", async () => {
    const page = browser.page;
    const response = await page.goto(`${server.url}/app/anything-unknown/deeper`);
    expect(response?.status()).to.equal(404);
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    await page.getByRole('link', { name: 'Return Home' }).waitFor();
    // The console's stylesheet loaded: the page is styled like the rest of the console.
    expect(await page.locator('main.standalone').evaluate((el) => getComputedStyle(el).display)).to.not.equal('inline');
  });

  it('gives the Slack sandbox and the outbox pages a tab icon', async () => {
    const page = browser.page;
    for (const path of ['/sandbox/slack', '/dev/outbox']) {
      await page.goto(`${server.url}${path}`);
      const icon = await page.locator('link[rel="icon"]').getAttribute('href');
      expect(icon, path).to.match(/^data:image\/svg\+xml,/);
    }
  });
});
