/**
 * Widget setup through the real UI (browser): sign up, add Parley to the Slack sandbox on its consent page,
 * pick or create a channel, reach the embed page, and see the widget online on the dashboard.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { uniqueEmail } from '../factories';
import { startTestServer, useServer } from '../helpers/app';
import { useBrowser } from '../helpers/browser';
import { signedInAdmin } from './consoleHelpers';

const PASSWORD = 'correct horse battery';

describe('widget setup (browser)', function () {
  this.timeout(120_000);
  // Declared first, so each test's pages close before its server does.
  const browser = useBrowser({ context: 'suite', page: 'suite' });
  // A server (and Slack sandbox) per test: a channel linked to one widget cannot be picked by another.
  const server = useServer({}, startTestServer, 'test');

  const at = (hashPath: string) => `${server.url}/app/#${hashPath}`;

  async function signUpThroughUi(page: Page): Promise<string> {
    const email = uniqueEmail('setup');
    await page.goto(at('/signup'));
    await page.getByLabel('Work email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    // Consent is asked once: the sign-up form does not claim it, the next screen's checkbox records it.
    expect(await page.getByText('By signing up you agree').count()).to.equal(0);
    await page.getByText('Next you read and accept the Terms of Service and Privacy Policy.').waitFor();
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await page.waitForURL(/#\/legal$/);
    await page.getByRole('checkbox', { name: 'I agree to the Terms of Service and Privacy Policy' }).check();
    await page.getByRole('button', { name: 'Continue' }).click();
    // The terms accepted, setup goes on where it starts: step 1 of the new widget, not the dashboard.
    await page.waitForURL(/#\/setup\/[0-9a-f]{24}$/);
    await page.getByRole('heading', { name: 'Connect Parley to your Slack workspace' }).waitFor();
    return email;
  }

  /**
   * A new user as the sign-up above leaves them (terms accepted, on step 1 of their first widget), made through the
   * API: the journey through the forms is the first test's, the others start where it leads.
   */
  async function signedUpAtStepOne(page: Page): Promise<void> {
    const { ceId } = await signedInAdmin(server, page, 'setup');
    await page.goto(at(`/setup/${ceId}`));
    await page.getByRole('heading', { name: 'Connect Parley to your Slack workspace' }).waitFor();
  }

  /** Step 1 (where sign-up leads) → the sandbox's consent page → Allow → back on setup step 2. */
  async function addToSlack(page: Page): Promise<string> {
    await page.getByRole('heading', { name: 'Connect Parley to your Slack workspace' }).waitFor();
    expect(await page.getByRole('progressbar', { name: 'Setup progress' }).getAttribute('aria-valuenow')).to.equal('33');
    await page.getByRole('button', { name: 'Add to Slack' }).click();
    await page.waitForURL(/\/sandbox\/slack\/oauth\/v2\/authorize/);
    await page.locator('#sandbox-oauth-allow').click();
    await page.waitForURL(/\/app\/#\/setup\/[0-9a-f]{24}$/);
    await page.getByRole('heading', { name: 'Choose the Slack channel for this widget' }).waitFor();
    expect(await page.getByRole('progressbar', { name: 'Setup progress' }).getAttribute('aria-valuenow')).to.equal('67');
    return new URL(page.url()).hash.split('/').pop() ?? '';
  }

  async function expectEmbedPage(page: Page, ceId: string) {
    await page.getByRole('heading', { name: 'Setup is finished!' }).waitFor();
    const widget = await server.models.ChatEndpoint.findById(ceId);
    expect(widget?.Step).to.equal(3);
    const snippet = page.getByTestId('embed-snippet');
    expect(await snippet.textContent())
      .to.contain(`${server.url}/widget.js`)
      .and.contain(`data-widget-id="${widget?.Uuid}"`);
    // Every line of code is one line on screen (the box scrolls sideways): no wrapped line starts with "};".
    const shown = await snippet.evaluate((pre) => {
      const lines = (pre.textContent ?? '').replace(/\n$/, '').split('\n').length;
      const lineHeight = Number.parseFloat(getComputedStyle(pre).lineHeight);
      const padding = Number.parseFloat(getComputedStyle(pre).paddingTop) + Number.parseFloat(getComputedStyle(pre).paddingBottom);
      return { lines, rows: Math.round((pre.scrollHeight - padding) / lineHeight) };
    });
    expect(shown.rows).to.equal(shown.lines);
    return widget;
  }

  it('takes a new user from sign-up through Add to Slack and an existing channel to the embed page and an online card', async () => {
    const page = browser.page;
    await signUpThroughUi(page);
    const ceId = await addToSlack(page);

    // The sandbox workspace has general, random and support: only support is offered.
    const rooms = page.getByRole('list', { name: 'Slack channels' });
    await rooms.getByText('support', { exact: true }).waitFor();
    expect(await rooms.getByText('general', { exact: true }).count()).to.equal(0);
    expect(await rooms.getByText('random', { exact: true }).count()).to.equal(0);
    await page.getByRole('button', { name: 'Refresh the channel list' }).click();
    await rooms.getByText('support', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Connect #support' }).click();

    const widget = await expectEmbedPage(page, ceId);
    expect(widget?.RoomName.replace(/^#/, '')).to.equal('support');
    // Parley's bot joined the channel in Slack.
    const support = server.slack.state.data.channels.find((c) => c.name === 'support');
    const installation = server.slack.state.data.installations.find((i) => i.teamId === support?.teamId);
    expect(support?.members).to.include(installation?.botUserId);

    // Another project type and the inline style change the real snippet; Copy confirms.
    await page.getByRole('tab', { name: 'Next.js' }).click();
    // The project types are a tab list: the arrow keys, Home and End move the choice and the focus, wrapping at the ends.
    const types = page.getByRole('tablist', { name: 'Project type' });
    const chosen = async () =>
      types.getByRole('tab', { selected: true }).evaluate((tab) => [tab.textContent, tab === document.activeElement]);
    await page.keyboard.press('ArrowLeft');
    expect(await chosen()).to.deep.equal(['React', true]);
    await page.keyboard.press('End');
    expect(await chosen()).to.deep.equal(['Google Tag Manager', true]);
    await page.keyboard.press('ArrowRight');
    expect(await chosen()).to.deep.equal(['HTML', true]);
    await page.keyboard.press('ArrowRight');
    expect(await chosen()).to.deep.equal(['React', true]);
    await page.getByText('Inline', { exact: true }).click();
    const snippet = await page.getByTestId('embed-snippet').textContent();
    expect(snippet).to.contain("import { useEffect } from 'react';").and.contain('data-style').and.contain('parley-inline');
    await page.getByRole('img', { name: 'Inline placeholder, 400 by 400 pixels' }).waitFor();
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('button', { name: 'Copied!' }).waitFor();

    // The dashboard shows the card online, in the Acme team with its main user.
    await page.getByRole('link', { name: 'Go to the dashboard' }).click();
    const team = page.getByRole('region', { name: 'Slack team Acme' });
    await team.waitFor();
    await team.getByText('Alice', { exact: true }).waitFor();
    const card = team.locator(`[data-widget-id="${ceId}"]`);
    await card.getByRole('link', { name: '#support', exact: true }).waitFor();
    await card.getByRole('img', { name: 'Online' }).waitFor();
    expect(await card.getByText('0/0').count()).to.equal(1);
  });

  it('creates a new Slack channel from the name typed, lowercased and checked against Slack rules', async () => {
    const page = browser.page;
    await signedUpAtStepOne(page);
    const ceId = await addToSlack(page);

    const name = page.getByLabel('Channel name');
    const create = page.getByRole('button', { name: 'Create channel' });
    expect(await create.isDisabled()).to.equal(true);
    // The hint under the field and the error say the same rule; spaces become hyphens as in Slack.
    await page.getByText('Lowercase letters, numbers, hyphens and underscores, at most 80 characters. Spaces become hyphens.').waitFor();
    await name.fill('Website Chat');
    expect(await name.inputValue()).to.equal('website-chat');
    expect(await create.isEnabled()).to.equal(true);
    await name.fill('chat!');
    await page
      .getByText(
        'Slack requires lowercase letters, numbers, hyphens or underscores: no spaces or other punctuation, at most 80 characters.',
      )
      .waitFor();
    expect(await create.isDisabled()).to.equal(true);
    await name.fill('x'.repeat(81));
    expect(await create.isDisabled()).to.equal(true);
    await name.fill('x'.repeat(80));
    expect(await create.isEnabled()).to.equal(true);

    // A name Slack already has is answered clearly and the step stays open.
    await name.fill('support');
    await create.click();
    await page
      .getByRole('alert')
      .filter({ hasText: /taken|exists/i })
      .waitFor();

    await name.fill('Website-Chat_2');
    expect(await name.inputValue()).to.equal('website-chat_2');
    await create.click();
    const widget = await expectEmbedPage(page, ceId);
    expect(widget?.RoomName.replace(/^#/, '')).to.equal('website-chat_2');
    expect(server.slack.state.data.channels.some((c) => c.name === 'website-chat_2')).to.equal(true);
  });

  it('changes the channel after a confirmation and renames it from the embed page', async () => {
    const page = browser.page;
    await signedUpAtStepOne(page);
    const ceId = await addToSlack(page);
    await page.getByRole('button', { name: 'Connect #support' }).click();
    await expectEmbedPage(page, ceId);

    await page.getByRole('button', { name: 'Change channel' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change the channel?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await server.models.ChatEndpoint.findById(ceId))?.Step).to.equal(3);
    await page.getByRole('button', { name: 'Change channel' }).click();
    await dialog.getByRole('button', { name: 'Change channel' }).click();
    await page.getByRole('heading', { name: 'Choose the Slack channel for this widget' }).waitFor();
    expect((await server.models.ChatEndpoint.findById(ceId))?.Step).to.equal(2);

    await page.getByLabel('Channel name').fill('visitors');
    await page.getByRole('button', { name: 'Create channel' }).click();
    await expectEmbedPage(page, ceId);
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByLabel('New channel name').fill('site-visitors');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('#site-visitors', { exact: true }).waitFor();
    expect(server.slack.state.data.channels.some((c) => c.name === 'site-visitors')).to.equal(true);
  });

  it("says 'Cannot fetch Slack channels' when Slack fails, and lists the channels again after Refresh", async () => {
    const page = browser.page;
    await signedUpAtStepOne(page);
    // Both tries of the server's Slack client fail.
    server.slack.state.failNext('conversations.list', 2);
    await addToSlack(page);
    await page.getByText('Cannot fetch Slack channels').waitFor();
    await page.getByRole('button', { name: 'Refresh the channel list' }).click();
    await page.getByRole('button', { name: 'Connect #support' }).waitFor();
    expect(await page.getByText('Cannot fetch Slack channels').count()).to.equal(0);
  });

  it('shows a channel’s topic as Slack shows it: its &amp;, &lt;, &gt; and numeric entities as characters, once', async () => {
    const page = browser.page;
    await signedUpAtStepOne(page);
    const support = server.slack.state.data.channels.find((c) => c.name === 'support');
    if (!support) throw new Error('no #support in the sandbox');
    // As Slack's API sends it: what people typed, with &, < and > escaped; a typed "&lt;b&gt;" is escaped once more.
    support.topic = { value: 'Orders &amp; returns &lt;EU&gt; &#x1F4E6; 9&#8211;5, typed: &amp;lt;b&amp;gt;', creator: '', last_set: 0 };
    await addToSlack(page);
    const room = page.getByRole('list', { name: 'Slack channels' }).getByRole('listitem').filter({ hasText: 'support' });
    await room.waitFor();
    expect(await room.locator('.room__topic').textContent()).to.equal('Orders & returns <EU> 📦 9–5, typed: &lt;b&gt;');
  });

  it("continues a 'Sign up with Slack' user's setup after the terms, at step 2, rather than on the dashboard", async () => {
    const page = browser.page;
    await page.goto(at('/signup?source=e2e'));
    await page.getByRole('link', { name: 'Sign up with Slack', exact: true }).click();
    await page.waitForURL(/\/sandbox\/slack\/oauth\/v2\/authorize/);
    await page.locator('#sandbox-oauth-user').selectOption({ label: 'Carol Chen (@carol)' });
    await page.locator('#sandbox-oauth-allow').click();
    await page.waitForURL(/#\/legal$/);
    await page.getByRole('checkbox', { name: 'I agree to the Terms of Service and Privacy Policy' }).check();
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.waitForURL(/#\/setup\/[0-9a-f]{24}$/);
    await page.getByRole('heading', { name: 'Choose the Slack channel for this widget' }).waitFor();
    await page.getByRole('button', { name: 'Connect #support' }).waitFor();
    expect(await page.getByText('Unfinished widget').count()).to.equal(0);
    // The dashboard still shows the team and its main user.
    await page.goto(at('/'));
    const team = page.getByRole('region', { name: 'Slack team Acme' });
    await team.getByText('Carol', { exact: true }).waitFor();
  });

  it("deletes an unfinished widget from step 2 with 'delete and start over?'", async () => {
    const page = browser.page;
    await signedUpAtStepOne(page);
    const ceId = await addToSlack(page);
    await page.getByRole('button', { name: 'delete and start over?' }).click();
    await page.getByRole('dialog', { name: 'Delete this widget?' }).getByRole('button', { name: 'Delete widget' }).click();
    await page.waitForURL(/#\/$/);
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await page.getByText('Widget deleted.').waitFor();
    expect(await page.getByText('Page Not Found').count()).to.equal(0);
    expect(await server.models.ChatEndpoint.findById(ceId)).to.equal(null);
  });
});
