/**
 * What an owner trips on in the console (issue 20, items 15, 17, 20, 21, 23 and 24), through the real UI: inline
 * checks of web addresses, titles and overlapping hours with the API saying the same in words, the tab bar and
 * its plan badges, one sticky Save on Appearance and a preview that matches the live widget, question groups, a
 * new Slack team for an account whose only widget is unfinished, and the small points of item 24. Screenshots
 * of every screen at 1280×800 and 390×844 land in test-results/console-polish/.
 */
import path from 'node:path';
import { expect } from 'chai';
import type { Locator, Page } from 'playwright-core';
import { signUpUser } from '../factories';
import { useServer } from '../helpers/app';
import { picture, picturesAtBothSizes, RESULTS_DIR, useBrowser } from '../helpers/browser';
import { firstWidgetId, setUpWidget } from '../slack/helpers';
import { acceptTerms } from './consoleHelpers';

describe('console polish of issue 20 (browser)', function () {
  this.timeout(120_000);
  const server = useServer();
  const browser = useBrowser({ context: 'suite', page: 'suite' });

  type Owner = { ceId: string; uuid: string; token: string };

  /** A new owner (in the trial by default, which has Business's features; with `plan`, paying for that plan after it) signed in in `page`, with a widget linked to a new channel. */
  async function owner(page: Page, plan?: string): Promise<Owner> {
    const { token } = await signUpUser(server);
    const ceId = await firstWidgetId(server, token);
    await setUpWidget(server, token, ceId);
    await acceptTerms(server, token);
    const ce = await server.models.ChatEndpoint.findById(ceId);
    if (!ce) throw new Error('widget gone');
    if (plan) await server.models.Account.updateOne({ _id: ce.accountId }, { $set: { subscriptionStatus: 'active', planStripeId: plan } });
    await page.context().addCookies([{ name: 'auth_token', value: token, url: server.url }]);
    return { ceId, uuid: ce.Uuid, token };
  }

  const at = (hashPath: string) => `${server.url}/app/#${hashPath}`;
  const tab = (o: Owner, name: string) => at(`/settings/${o.ceId}/${name}`);
  const updateConfig = (o: Owner, body: Record<string, unknown>) =>
    fetch(`${server.url}/v1/chat_endpoints/${o.ceId}/update_config`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${o.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as { Message?: string } }));

  /** Screenshots of the page at 1280×800 and 390×844 (then back to 1280×800), with `focus` (if any) centred in both. */
  const shots = (page: Page, name: string, focus?: Locator) =>
    picturesAtBothSizes(page, 'console-polish', name, focus && (() => focus.evaluate((el) => el.scrollIntoView({ block: 'center' }))));

  it('17: locked tabs name the plan that unlocks them, and every tab stays on screen at 1280 and 390 px', async () => {
    const page = browser.page;
    const o = await owner(page, 'parley_basic_monthly');
    await page.goto(tab(o, 'behavior'));
    const tabs = page.getByRole('navigation', { name: 'Settings' }).getByRole('link');
    await tabs.first().waitFor();
    expect(await tabs.allInnerTexts()).to.not.include.members(['TriggersBASIC']);
    expect(await page.getByText('BASIC', { exact: true }).count()).to.equal(0);
    await page.getByRole('link', { name: 'Triggers (needs Pro)' }).waitFor();
    await page.getByRole('link', { name: 'Question Groups (needs Business)' }).waitFor();
    await page.getByRole('link', { name: 'Integrations (needs Pro)' }).waitFor();
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 1280 ? 800 : 844 });
      const boxes = await tabs.evaluateAll((links) => links.map((l) => l.getBoundingClientRect().right));
      expect(boxes).to.have.length(9);
      for (const right of boxes) expect(right, `a tab ends off-screen at ${width} px`).to.be.at.most(width);
      await page.getByRole('link', { name: 'Embed Code' }).click({ trial: true });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await shots(page, 'tabs');
  });

  it('15: a bad webhook URL is flagged under its field as typed, and the API says which setting in words', async () => {
    const page = browser.page;
    const o = await owner(page);
    await page.goto(tab(o, 'behavior'));
    const field = page.getByLabel('Offline message webhook URL');
    await field.fill('hooks.example.com/parley');
    const message = 'Enter a full web address starting with https://, like https://example.com/parley-hook.';
    await page.locator('.field--invalid', { has: field }).getByText(message).waitFor();
    expect(await field.getAttribute('aria-invalid')).to.equal('true');
    expect(await page.getByRole('button', { name: 'Save Changes' }).isDisabled()).to.equal(true);
    await page.getByText('Fix the fields marked above to save').waitFor();
    await shots(page, 'behavior-webhook-error', field);
    await field.fill('https://hooks.example.com/parley');
    expect(await page.getByText(message).count()).to.equal(0);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByRole('button', { name: 'Saved' }).waitFor();
    expect((await server.models.ChatEndpoint.findById(o.ceId))?.offlineMessageWebhookURL).to.equal('https://hooks.example.com/parley');

    const res = await updateConfig(o, { offlineMessageWebhookURL: 'not a url' });
    expect(res.status).to.equal(400);
    expect(res.body.Message).to.equal(`Offline message webhook URL: ${message}`);
    expect((await updateConfig(o, { transcriptRecipient: 'nobody' })).body.Message).to.equal(
      'Transcript recipient: Enter one e-mail address, like team@example.com.',
    );
  });

  it('23: Appearance has one sticky Save, requires a title of at most 50 characters, and previews the live placeholder', async () => {
    const page = browser.page;
    const o = await owner(page);
    await page.goto(tab(o, 'appearance'));
    const preview = page.frameLocator('iframe[title="Widget preview"]');
    await preview.getByRole('heading', { name: 'Questions? Chat with us!' }).waitFor();
    expect(await page.getByRole('button', { name: 'Save Changes' }).count()).to.equal(1);

    // The one Save stays in view wherever the owner is on the page.
    const save = page.getByRole('button', { name: 'Save Changes' });
    const title = page.getByLabel('Title', { exact: true }).first();
    await title.fill('Talk to the roasters');
    const inView = async () => {
      const box = await save.boundingBox();
      return box !== null && box.y >= 0 && box.y + box.height <= 800;
    };
    await page.evaluate(() => window.scrollTo(0, 0));
    expect(await inView(), 'Save at the top of the page').to.equal(true);
    await page.getByLabel('Acceptance text').scrollIntoViewIfNeeded();
    expect(await inView(), 'Save further down').to.equal(true);

    // An empty title is refused where it is typed; a 4,000-character one is cut to what the header shows.
    await title.fill('');
    await page.getByText('Enter a title: visitors see it at the top of the widget.').waitFor();
    expect(await save.isDisabled()).to.equal(true);
    await shots(page, 'appearance-title-error', title);
    await title.fill('x'.repeat(4000));
    expect((await title.inputValue()).length).to.equal(50);
    const fifty = 'Questions about beans, roasts or your order? Ask!!';
    expect(fifty).to.have.length(50);
    await title.fill(fifty);
    await save.click();
    await page.getByRole('button', { name: 'Saved' }).waitFor();
    expect((await server.models.ChatEndpoint.findById(o.ceId))?.onlineTitle).to.equal(fifty);
    // The widget's header shows all of it.
    const heading = preview.getByRole('heading', { name: fifty });
    expect(await heading.evaluate((h) => h.scrollHeight <= h.clientHeight && h.scrollWidth <= h.clientWidth)).to.equal(true);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shots(page, 'appearance');

    expect((await updateConfig(o, { onlineTitle: '  ' })).body.Message).to.equal(
      'Online title: Enter a title: visitors see it at the top of the widget.',
    );
    expect((await updateConfig(o, { offlineTitle: 'x'.repeat(4000) })).body.Message).to.equal(
      "Offline title: Use at most 50 characters: the widget's header shows no more.",
    );

    // The preview's message placeholder is the live widget's, on the same screen.
    const previewPlaceholder = await preview.getByRole('textbox', { name: 'Message', exact: true }).getAttribute('placeholder');
    const site = await browser.newPage();
    await site.goto(`${server.demoUrl}/?widget=${o.uuid}`);
    const host = site.locator('parley-widget');
    // The collapsed chip shows the whole title too.
    const label = host.locator('.launcher .label');
    expect(await label.innerText()).to.equal(fifty);
    expect(await label.evaluate((el) => el.scrollWidth <= el.clientWidth)).to.equal(true);
    await picture(site, path.join(RESULTS_DIR, 'console-polish', 'site-chip-1280.png'));
    await host.locator('.launcher').click();
    const live = await host.getByRole('textbox', { name: 'Message', exact: true }).getAttribute('placeholder');
    expect(previewPlaceholder).to.equal(live);
    expect(live).to.equal('Type your message and press Enter…');
  });

  it('20: an account whose only widget is unfinished adds a new Slack team to that widget, without an upsell', async () => {
    const page = browser.page;
    const { token } = await signUpUser(server);
    const ceId = await firstWidgetId(server, token);
    await acceptTerms(server, token);
    await page.context().addCookies([{ name: 'auth_token', value: token, url: server.url }]);
    await page.goto(at('/'));
    await page.getByRole('heading', { name: 'Unfinished widget' }).waitFor();
    await shots(page, 'dashboard-unfinished');
    await page.getByRole('button', { name: 'Add a channel to a new Slack Team' }).click();
    await page.waitForURL(/\/sandbox\/slack\/oauth\/v2\/authorize/);
    expect(page.url()).to.not.include('please-upgrade');
    await page.locator('#sandbox-oauth-allow').click();
    await page.waitForURL(new RegExp(`#/setup/${ceId}`));
    await page.getByRole('button', { name: 'Connect #support' }).waitFor();
    const ce = await server.models.ChatEndpoint.findById(ceId);
    expect(await server.models.ChatEndpoint.countDocuments({ accountId: ce?.accountId })).to.equal(1);
    expect(ce?.Step).to.equal(2);
  });

  it("21: answers offer 'Chat in #room' with one #, and a new answer starts with a Then so the group saves as made", async () => {
    const page = browser.page;
    const o = await owner(page, 'parley_business_monthly');
    const ce = await server.models.ChatEndpoint.findById(o.ceId);
    await page.goto(tab(o, 'question-groups'));
    await page.getByRole('button', { name: 'New Question Group' }).click();
    const editor = page.locator('.qg-editor');
    const then = editor.getByLabel('Then');
    expect(await then.count()).to.equal(2);
    for (const select of await then.all()) {
      expect(await select.inputValue()).to.equal('');
      expect(await select.locator('option:checked').innerText()).to.equal('End the questions');
    }
    const options = await then.first().locator('option').allInnerTexts();
    expect(options).to.include(`Chat in #${ce?.RoomName}`);
    expect(options.some((t) => t.includes('##'))).to.equal(false);
    await editor.getByLabel('Label').fill('Triage');
    await editor.getByLabel('Question', { exact: true }).fill('Sales or support?');
    await editor.getByLabel('Answer', { exact: true }).nth(0).fill('Sales');
    await editor.getByLabel('Answer', { exact: true }).nth(1).fill('Support');
    await shots(page, 'question-groups');
    await editor.getByRole('button', { name: 'Save Changes' }).click();
    await editor.getByRole('status').getByText('Saved').waitFor();
    const group = await server.models.QuestionGroup.findOne({ label: 'Triage' });
    const tree = JSON.parse(group?.treeJson ?? '[]') as { children: { action?: string }[] }[];
    expect(tree[0]?.children.map((a) => a.action)).to.deep.equal(['', '']);
  });

  it('24: the widget status dot is a round dot, not a sliver', async () => {
    const page = browser.page;
    const o = await owner(page);
    await page.goto(tab(o, 'behavior'));
    const dot = page.locator('.status-toggle .status-dot');
    const box = await dot.boundingBox();
    expect(box?.width).to.equal(10);
    expect(box?.height).to.equal(10);
    await shots(page, 'behavior');
  });

  it('24: overlapping hours of one day are refused as typed and by the API', async () => {
    const page = browser.page;
    const o = await owner(page);
    await page.goto(tab(o, 'op-hours'));
    await page.getByRole('button', { name: 'Setup chat schedule' }).click();
    await page.getByRole('button', { name: 'Add hours on Tuesday' }).click();
    await page.getByLabel('Tuesday start 2').selectOption('1000');
    const overlap = 'Operating hours overlap on Tuesday: 09:00–17:00 and 10:00–10:15. Join them into one or change one.';
    await page.getByRole('alert').getByText(overlap).waitFor();
    expect(await page.locator('#save-op-hours').isDisabled()).to.equal(true);
    await shots(page, 'op-hours-overlap', page.getByLabel('Tuesday start 2'));
    const res = await updateConfig(o, {
      operatingHours: [
        { weekday: 2, start: 900, end: 1700 },
        { weekday: 2, start: 1000, end: 1015 },
      ],
    });
    expect(res.status).to.equal(400);
    expect(res.body.Message).to.equal(overlap);
    // Pairs that only touch are fine.
    const touching = [
      { weekday: 2, start: 900, end: 1200 },
      { weekday: 2, start: 1200, end: 1700 },
    ];
    expect((await updateConfig(o, { operatingHours: touching })).status).to.equal(200);
  });

  it('24: a saved reply without label or response says what is missing in words', async () => {
    const page = browser.page;
    const o = await owner(page);
    await page.goto(tab(o, 'saved-replies'));
    await page
      .getByRole('button', { name: /Add your first saved reply|Create new reply/ })
      .first()
      .click();
    const dialog = page.getByRole('dialog', { name: 'Create New Saved Reply' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Enter a label: operators find the reply by it.').waitFor();
    await dialog.getByText('Enter the response: it is what the visitor receives.').waitFor();
    await shots(page, 'saved-reply-errors');
  });

  it("24: Plan Usage draws 'Channels 1 of 1' as a full bar, not a red one; GDPR's error clears on new input", async () => {
    const page = browser.page;
    await owner(page, 'parley_basic_monthly');
    await page.goto(at('/account'));
    const channels = page.locator('.usage', { hasText: 'Channels' });
    await channels.getByText('1 of 1').waitFor();
    expect(await channels.evaluate((el) => el.classList.contains('usage--danger'))).to.equal(false);
    const color = await channels.locator('.usage__bar').evaluate((el) => getComputedStyle(el).backgroundColor);
    const red = await page.evaluate(() => {
      const probe = document.createElement('div');
      probe.style.color = 'var(--c-danger)';
      document.body.append(probe);
      const value = getComputedStyle(probe).color;
      probe.remove();
      return value;
    });
    expect(color).to.not.equal(red);
    await shots(page, 'account-usage', channels);

    const erase = page.getByRole('button', { name: 'Erase visitor' });
    await erase.scrollIntoViewIfNeeded();
    await erase.click();
    const block = page.locator('.gdpr-block', { hasText: 'Erase a visitor' });
    await block.getByRole('alert').waitFor();
    await page.getByLabel('Visitor e-mail or visitor id').fill('e');
    await block.getByRole('alert').waitFor({ state: 'detached' });
  });

  it("24: sign-up offers 'Sign up with Slack', not 'team chat'", async () => {
    const page = browser.page;
    await page.goto(at('/signup'));
    await page.getByRole('link', { name: 'Sign up with Slack', exact: true }).waitFor();
    expect(await page.getByText('team chat').count()).to.equal(0);
    await shots(page, 'signup');
  });

  it('24: the Stripe sandbox pages name their icon, so no browser asks for a /favicon.ico that is not there', async () => {
    const page = browser.page;
    const missing: string[] = [];
    page.on('response', (res) => {
      if (res.status() === 404) missing.push(res.url());
    });
    await page.goto(`${server.url}/sandbox/stripe`);
    await page.getByText('Stripe sandbox').first().waitFor();
    await page.waitForLoadState('networkidle');
    expect(missing).to.deep.equal([]);
    // A browser with a visible tab (headless Chromium asks for none) fetches the page's icon: without a
    // <link rel="icon"> it asks the host for /favicon.ico, which Parley does not serve.
    expect((await fetch(`${server.url}/favicon.ico`)).status).to.equal(404);
    const icons = await page.locator('link[rel="icon"]').evaluateAll((links) => links.map((l) => (l as HTMLLinkElement).href));
    expect(icons).to.have.length(1);
    expect(await page.evaluate(async (href) => (await fetch(href)).ok, icons[0] ?? '')).to.equal(true);
  });
});
