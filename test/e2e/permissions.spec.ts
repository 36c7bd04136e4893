/**
 * The Slack permissions page through the real UI (browser): scopes needed against those granted, approving the
 * missing ones through the Slack sandbox's consent page, the wrong_user answer, and the setup redirect.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { startTestServer, useServer } from '../helpers/app';
import { useBrowser } from '../helpers/browser';
import { setUpWidget } from '../slack/helpers';
import { signedInAdmin } from './consoleHelpers';

describe('Slack permissions page (browser)', function () {
  this.timeout(120_000);
  // Declared first, so each test's pages close before its server does.
  const browser = useBrowser({ context: 'suite', page: 'suite' });
  // A server (and Slack sandbox) per test: each test sets up a widget on the sandbox's one Slack workspace.
  const server = useServer({}, startTestServer, 'test');

  const at = (hashPath: string) => `${server.url}/app/#${hashPath}`;

  const signedInUser = async (page: Page): Promise<string> => (await signedInAdmin(server, page, 'perm')).ceId;

  /**
   * A signed-in admin's widget connected to #support, set up through the API (Slack's consent and the channel as the
   * setup screens send them; test/e2e/setup.spec.ts drives those screens). The page has loaded nothing yet.
   */
  async function connectedWidget(page: Page): Promise<string> {
    const { ceId, token } = await signedInAdmin(server, page, 'perm');
    const support = server.slack.state.data.channels.find((channel) => channel.name === 'support');
    await setUpWidget(server, token, ceId, { channel: support?.id });
    return ceId;
  }

  it('lists every needed scope as All good! with Woot! once setup is done', async () => {
    const page = browser.page;
    const ceId = await connectedWidget(page);
    await page.goto(at('/permissions'));
    await page.getByRole('heading', { level: 1, name: 'Slack permissions' }).waitFor();
    await page.getByText('Read this first').waitFor();
    await page.getByText('Woot!').waitFor();
    for (const scope of ['commands', 'channels:history', 'files:read', 'files:write']) {
      expect(await page.locator(`li[data-scope="${scope}"]`).first().textContent()).to.contain('All good!');
    }
    expect(await page.getByText('Your approval needed!').count()).to.equal(0);
    expect(await page.getByRole('button', { name: 'Upgrade permissions' }).count()).to.equal(0);
    expect(new URL(page.url()).hash).to.equal('#/permissions');
    await page.goto(at(`/permissions/${ceId}`));
    await page.getByText('Woot!').waitFor();
  });

  it('shows missing scopes with selective links, and approving them in Slack as the main user makes them all good', async () => {
    const page = browser.page;
    const ceId = await connectedWidget(page);
    const widget = await server.models.ChatEndpoint.findById(ceId);
    await server.models.Installation.updateOne(
      { teamId: widget?.slackTeamId },
      { $pull: { botScopes: { $in: ['files:read', 'files:write'] } } },
    );

    await page.goto(at(`/permissions/${ceId}`));
    // Six during the trial: its bots need users:read too.
    await page.getByText('2 of 6 permissions need your approval.').waitFor();
    expect(await page.locator('li[data-scope="files:read"]').textContent()).to.contain('Your approval needed!');
    expect(await page.locator('li[data-scope="files:write"]').textContent()).to.contain('Your approval needed!');
    expect(await page.locator('li[data-scope="commands"]').textContent()).to.contain('All good!');
    expect(await page.getByText('Woot!').count()).to.equal(0);
    const selective = page.getByRole('region', { name: 'Approve one at a time' });
    expect(await selective.getByRole('link').count()).to.equal(2);
    expect(await selective.getByRole('link', { name: /files:read/ }).getAttribute('href')).to.match(/scope=files%3Aread(&|$)/);

    await page.getByRole('button', { name: 'Upgrade permissions' }).click();
    await page.waitForURL(/\/sandbox\/slack\/oauth\/v2\/authorize/);
    expect(await page.locator('#sandbox-oauth-bot-scopes').textContent())
      .to.contain('files:read')
      .and.contain('files:write');
    await page.locator('#sandbox-oauth-allow').click();
    await page.waitForURL(new RegExp(`#/permissions/${ceId}$`));
    await page.getByText('Woot!').waitFor();
  });

  it("explains a 'wrong_user' answer when someone other than the main user approves", async () => {
    const page = browser.page;
    const ceId = await connectedWidget(page);
    const widget = await server.models.ChatEndpoint.findById(ceId);
    await server.models.Installation.updateOne({ teamId: widget?.slackTeamId }, { $pull: { botScopes: 'files:write' } });
    await page.goto(at(`/permissions/${ceId}`));
    await page.getByRole('button', { name: 'Upgrade permissions' }).click();
    await page.locator('#sandbox-oauth-user').selectOption({ label: 'Bob Baker (@bob)' });
    await page.locator('#sandbox-oauth-allow').click();
    await page.waitForURL(/\?error=wrong_user$/);
    await page
      .getByRole('alert')
      .getByText(/A different Slack user than the one you used to sign up was authenticated/)
      .waitFor();
    expect(await page.locator('li[data-scope="files:write"]').textContent()).to.contain('Your approval needed!');

    await page.goto(at(`/permissions/${ceId}?error=access_denied`));
    await page
      .getByRole('alert')
      .getByText(/An unknown problem occurred while updating your Slack permissions/)
      .waitFor();
  });

  it('asks for a confirmation before migrating a legacy (OauthV1) widget to the current Slack authorisation', async () => {
    const page = browser.page;
    const ceId = await connectedWidget(page);
    await server.models.ChatEndpoint.updateOne({ _id: ceId }, { $set: { OauthV1: true } });
    await page.goto(at(`/permissions/${ceId}`));
    await page.getByRole('heading', { name: 'IMPORTANT' }).waitFor();
    await page.getByRole('button', { name: 'Upgrade Slack integration' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upgrade the Slack integration?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).hash).to.equal(`#/permissions/${ceId}`);
    await page.getByRole('button', { name: 'Upgrade Slack integration' }).click();
    await dialog.getByRole('button', { name: 'Continue to Slack' }).click();
    await page.waitForURL(/\/sandbox\/slack\/oauth\/v2\/authorize/);
    expect(await page.locator('#sandbox-oauth-bot-scopes').textContent()).to.contain('channels:manage');
  });

  it('sends a widget that has not finished setup to its setup page', async () => {
    const page = browser.page;
    const ceId = await signedInUser(page);
    await page.goto(at(`/permissions/${ceId}`));
    await page.waitForURL(new RegExp(`#/setup/${ceId}$`));
    await page.getByRole('button', { name: 'Add to Slack' }).waitFor();
  });
});
