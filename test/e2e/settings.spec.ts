/**
 * The per-widget settings console through the real UI (browser), and what a visitor then sees on the demo site
 * (another origin): the frame and its tabs, Behavior (saved and reloaded, the on/off toggle, hide when offline),
 * Appearance (live preview before saving, title colour and texts, alignment, the privacy acceptance gate) and
 * Operating hours (saved, then turning the widget off at the scheduled time on a clock the test moves).
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { TERMS_VERSION } from '../../server/shared/constants';
import { startTestServer, useServer } from '../helpers/app';
import { useBrowser } from '../helpers/browser';
import { configuredWidget, type Widget } from './widgetHelpers';

class TestClock {
  /** Monday 2026-11-23 10:00 UTC. */
  at = new Date('2026-11-23T10:00:00Z');
  now(): Date {
    return new Date(this.at);
  }
}

describe('settings console (browser)', function () {
  this.timeout(120_000);
  let widget: Widget;
  let token: string;
  const clock = new TestClock();
  const server = useServer({ relay: { scheduleCheckMs: 3_600_000 } }, (overrides) => startTestServer(overrides, { clock }));
  const browser = useBrowser({ context: 'suite', page: 'suite' });

  before(async function () {
    this.timeout(60_000);
    widget = await configuredWidget(server);
    const ce = await server.models.ChatEndpoint.findById(widget.ceId);
    const user = await server.models.User.findOne({ accountId: ce?.accountId });
    await server.models.User.updateOne({ _id: user?._id }, { $set: { ActiveTOSPP: TERMS_VERSION } });
    const res = await fetch(`${server.url}/v1/p/sessions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: user?.email, password: 'correct horse battery' }),
    });
    token = ((await res.json()) as { token: string }).token;
  });

  const settings = async (page: Page, tab: string, ceId = widget.ceId) => {
    await page.context().addCookies([{ name: 'auth_token', value: token, url: server.url }]);
    await page.goto(`${server.url}/app/#/settings/${ceId}/${tab}`);
  };
  const saved = async () => {
    const ce = await server.models.ChatEndpoint.findById(widget.ceId);
    if (!ce) throw new Error('widget gone');
    return ce;
  };
  /** The widget on the demo site, opened. */
  const openDemo = async (page: Page) => {
    await page.goto(`${server.demoUrl}/?widget=${widget.uuid}`);
    const host = page.locator('parley-widget');
    await host.locator('.launcher').click();
    await host.locator('.frame').waitFor();
    return host;
  };

  it('shows the tab bar with the unlocking plan on the features the plan lacks, and the page-not-found page for an unknown widget', async () => {
    const page = browser.page;
    // Paying for Basic after the trial (during it every tab is open).
    const ce = await server.models.ChatEndpoint.findById(widget.ceId);
    await server.models.Account.updateOne({ _id: ce?.accountId }, { $set: { subscriptionStatus: 'active' } });
    await settings(page, 'behavior');
    await page.getByRole('heading', { name: 'Presence and widget behavior' }).waitFor();
    const tabs = page.getByRole('navigation', { name: 'Settings' });
    expect(await tabs.getByRole('link').allTextContents()).to.deep.equal([
      'Behavior',
      'Appearance',
      'Operating Hours',
      'TriggersPro',
      'Question GroupsBusiness',
      'Saved Replies',
      'Answers',
      'IntegrationsPro',
      'Embed Code',
    ]);
    await tabs.getByRole('link', { name: 'Embed Code' }).click();
    await page.getByRole('heading', { name: 'Widget Install (Embed Code)' }).waitFor();
    await page.getByText(widget.uuid, { exact: false }).first().waitFor();
    await page.goto(`${server.url}/app/#/settings/0123456789abcdef01234567/behavior`);
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
  });

  it('saves behavior (Saving..., Saved, back to Save Changes), keeps it after a reload, and refuses an invalid filter', async () => {
    const page = browser.page;
    await settings(page, 'behavior');
    await page.getByRole('textbox', { name: 'Agent label' }).fill('Bean team');
    await page.getByLabel('Hide on pages').fill('/checkout /admin/(');
    await page.getByText('Invalid filter: /admin/(').waitFor();
    expect(await page.getByRole('button', { name: 'Save Changes' }).isDisabled()).to.equal(true);
    await page.getByLabel('Hide on pages').fill('/checkout');
    await page.getByLabel('Only show in these countries').fill('us, ca');
    await page.getByLabel('Never show in these countries').fill('fr');
    expect(await page.getByLabel('Only show in these countries').inputValue()).to.equal('');
    await page.getByLabel('Never show in these countries').fill('');
    await page.getByLabel('Manual: online until turned off').check();
    await page.getByLabel('Remind in the thread after').selectOption('90');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByRole('button', { name: 'Saved' }).waitFor();
    await page.getByRole('button', { name: 'Save Changes' }).waitFor({ timeout: 10_000 });
    const ce = await saved();
    expect({
      agentLabel: ce.agentLabel,
      blacklistedUrls: ce.blacklistedUrls,
      manualMode: ce.manualMode,
      responseRemindersFreq: ce.responseRemindersFreq,
    }).to.deep.equal({
      agentLabel: 'Bean team',
      blacklistedUrls: '/checkout',
      manualMode: true,
      responseRemindersFreq: 90,
    });
    await page.reload();
    expect(await page.getByRole('textbox', { name: 'Agent label' }).inputValue()).to.equal('Bean team');
    expect(await page.getByLabel('Manual: online until turned off').isChecked()).to.equal(true);
    expect(await page.getByLabel('Remind in the thread after').inputValue()).to.equal('90');
  });

  it('changes the look in the live preview before saving; after saving the widget on the site shows the title, colour, left alignment and privacy gate', async () => {
    const page = browser.page;
    await settings(page, 'appearance');
    const preview = page.frameLocator('iframe[title="Widget preview"]');
    await preview.getByRole('heading', { name: 'Questions? Chat with us!' }).waitFor();
    await page.getByLabel('Title', { exact: true }).first().fill('Talk to the roasters');
    await page.getByLabel('Title colour (hex)').fill('#AA3300');
    await preview.getByRole('heading', { name: 'Talk to the roasters' }).waitFor();
    expect(await saved().then((ce) => ce.onlineTitle)).to.not.equal('Talk to the roasters');
    await page.locator('#save-appearance').click();
    await page.locator('#save-appearance', { hasText: 'Saved' }).waitFor();

    // Leaving with unsaved changes asks first.
    await page.getByLabel('Bottom Left').check();
    await page.getByRole('link', { name: 'Behavior' }).click();
    await page.getByRole('dialog', { name: 'Leave without saving?' }).getByRole('button', { name: 'Cancel' }).click();
    await page.locator('#save-appearance').click();
    await page.locator('#save-appearance', { hasText: 'Saved' }).waitFor();

    await page.getByRole('group', { name: 'Require acceptance' }).getByLabel('Yes').check();
    await page.getByLabel('Acceptance text').fill('ok');
    await page.getByText('Must be at least three characters for Acceptance text to be displayed.').waitFor();
    expect(await page.locator('#save-appearance').isDisabled()).to.equal(true);
    await page.getByLabel('Acceptance text').fill('I agree that Acme Beans keeps this chat.');
    await page.locator('#save-appearance').click();
    await page.locator('#save-appearance', { hasText: 'Saved' }).waitFor();

    await page.reload();
    expect(await page.getByLabel('Title', { exact: true }).first().inputValue()).to.equal('Talk to the roasters');
    expect(await page.getByLabel('Bottom Left').isChecked()).to.equal(true);

    const site = await browser.newPage();
    const host = await openDemo(site);
    await host.getByText('I agree that Acme Beans keeps this chat.').waitFor();
    await host.getByRole('heading', { name: 'Talk to the roasters' }).waitFor();
    const head = await host.locator('header.head').evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(head).to.equal('rgb(170, 51, 0)');
    const box = await host.locator('.frame').boundingBox();
    expect(box?.x ?? 999).to.be.below(100);
  });

  it('turns the widget off (offline texts on the site), then hides it when hide-when-offline is on', async () => {
    const page = browser.page;
    await settings(page, 'behavior');
    await page.getByRole('button', { name: 'Turn widget off' }).click();
    await page.getByRole('button', { name: 'Turn widget on' }).waitFor();
    expect((await saved()).off).to.equal(true);
    const site = await browser.newPage();
    const host = await openDemo(site);
    await host.getByRole('heading', { name: (await saved()).offlineTitle }).waitFor();

    await page.getByLabel('Hide the widget when offline').check();
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByRole('button', { name: 'Saved' }).waitFor();
    // A new visitor (the widget's config may be cached by the browser for a little while).
    const later = await browser.newPage();
    await later.goto(`${server.demoUrl}/?widget=${widget.uuid}`);
    await later.waitForFunction(() => (window as unknown as { parley?: { isOnline?: unknown } }).parley?.isOnline !== undefined);
    await later.locator('parley-widget .launcher').waitFor({ state: 'hidden' });
    expect(await later.evaluate(() => (window as unknown as { parley: { isOnline(): boolean } }).parley.isOnline())).to.equal(false);
    await page.getByRole('button', { name: 'Turn widget on' }).click();
    await page.getByRole('button', { name: 'Turn widget off' }).waitFor();
  });

  it('saves operating hours, keeps them after a reload, and the schedule turns the widget off at the scheduled time', async () => {
    const page = browser.page;
    await settings(page, 'op-hours');
    await page.getByRole('button', { name: 'Setup chat schedule' }).click();
    await page.getByLabel('Time zone').selectOption('Europe/Paris');
    // Monday 09:00–17:00 in Paris; copy it to every day.
    await page.getByLabel('Monday start 1').selectOption('900');
    await page.getByLabel('Monday end 1').selectOption('1700');
    await page.getByRole('button', { name: 'copy to all days' }).click();
    await page.getByRole('button', { name: 'Delete Sunday hours 1' }).click();
    await page.locator('#save-op-hours').click();
    await page.locator('#save-op-hours', { hasText: 'Saved' }).waitFor();
    const ce = await saved();
    expect(ce.onOffSchedule).to.equal(true);
    expect(ce.tz).to.equal('Europe/Paris');
    expect(ce.operatingHours.map((h) => [h.weekday, h.start, h.end])).to.deep.equal([1, 2, 3, 4, 5, 6].map((d) => [d, 900, 1700]));
    await page.reload();
    expect(await page.getByLabel('Monday end 1').inputValue()).to.equal('1700');
    expect(await page.getByText('Closed').count()).to.equal(1);

    const site = await browser.newPage();
    const host = await openDemo(site);
    await host.getByRole('heading', { name: 'Talk to the roasters' }).waitFor();
    clock.at = new Date('2026-11-23T16:30:00Z'); // 17:30 in Paris
    await server.parley.relay.schedule.check();
    // The widget hides when offline (set above): the closing time takes it off the site.
    await host.locator('.frame').waitFor({ state: 'hidden' });
    await host.locator('.launcher').waitFor({ state: 'hidden' });
  });
});
