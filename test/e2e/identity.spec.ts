/**
 * Verified identity in Chromium: the Install tab's identity secret (made by an admin, shown once, regenerated,
 * with the server-side snippets), and the widget on the demo site (another origin): two browsers of one verified
 * user share one history, a wrong hash never links, requireVerifiedIdentity drops the identity and says so in the
 * console, and reset() starts a fresh visitor. Screenshots of the Install tab land in test-results/settings/.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { userHashOf } from '../../server/conversations/identity';
import { findVisitorByToken } from '../../server/conversations/visitors';
import { signUpUser } from '../factories';
import { useServer } from '../helpers/app';
import { picturesAtBothSizes, useBrowser } from '../helpers/browser';
import { widgetBuilt } from '../helpers/widgetBuild';
import { ACME, ALICE, firstWidgetId, setUpWidget } from '../slack/helpers';
import { acceptTerms } from './consoleHelpers';
import { configuredWidget, threadWith, type Widget, waitFor } from './widgetHelpers';

type Win = Window & { parley: Record<string, (...args: unknown[]) => unknown> & { _q?: unknown[] } };
type Claim = { userId: string; name?: string; email?: string; userHash?: string };

describe('verified identity (browser)', function () {
  this.timeout(120_000);
  const server = useServer();
  const browser = useBrowser({ context: 'suite' });

  before(async function () {
    this.timeout(60_000);
    await widgetBuilt();
  });

  const widgetOf = (page: Page) => page.locator('parley-widget');

  /** Opens the demo site with the widget, the site having called identify() before the loader ran. */
  async function visit(page: Page, widget: Widget, claim?: Claim): Promise<void> {
    if (claim) {
      await page.addInitScript((c: Claim) => {
        const w = window as unknown as Win;
        w.parley = { _q: [['identify', [c.userId, { name: c.name, email: c.email, userHash: c.userHash }]]] } as unknown as Win['parley'];
      }, claim);
    }
    await page.goto(`${server.demoUrl}/?widget=${widget.uuid}`);
  }

  async function say(page: Page, text: string): Promise<void> {
    const w = widgetOf(page);
    if (!(await w.getByRole('textbox', { name: 'Message', exact: true }).isVisible())) await w.locator('.launcher').click();
    await w.getByRole('textbox', { name: 'Message', exact: true }).fill(text);
    await w.getByRole('textbox', { name: 'Message', exact: true }).press('Enter');
    await w.locator('.msg.visitor:not(.sending)', { hasText: text }).waitFor();
  }

  /** The visitor token the widget keeps in this page's localStorage. */
  async function storedToken(page: Page): Promise<string> {
    return page.evaluate(() => {
      for (let i = 0; i < localStorage.length; i += 1) {
        const key = localStorage.key(i) ?? '';
        const value = JSON.parse(localStorage.getItem(key) ?? '{}') as { token?: string };
        if (value.token) return value.token;
      }
      return '';
    });
  }

  async function secretOf(widget: Widget): Promise<string> {
    const ce = await server.models.ChatEndpoint.findById(widget.ceId);
    if (!ce) throw new Error('widget gone');
    const secret = 'a'.repeat(8) + Math.random().toString(16).slice(2);
    await server.models.ChatEndpoint.updateOne({ _id: ce._id }, { $set: { identitySecret: secret, identitySecretCreatedAt: new Date() } });
    return secret;
  }

  it('shows a verified user the same conversation on a second browser, live both ways', async () => {
    const widget = await configuredWidget(server);
    const secret = await secretOf(widget);
    const claim = { userId: 'u-7001', name: 'Vera Verified', email: 'vera@example.com', userHash: userHashOf(secret, 'u-7001') };
    const laptop = browser.page;
    await visit(laptop, widget, claim);
    await say(laptop, 'Asked on my laptop');
    const thread = await waitFor('the Slack thread', () => threadWith(server, widget.channel, 'Asked on my laptop'));
    expect(JSON.stringify(thread.parent.blocks)).to.include('verified');

    const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await visit(phone, widget, claim);
    await widgetOf(phone).locator('.launcher').click();
    await widgetOf(phone).locator('.msg.visitor', { hasText: 'Asked on my laptop' }).waitFor();
    await server.slack.postAsUser({
      teamId: ACME,
      userId: ALICE,
      channelId: widget.channel,
      threadTs: thread.parent.ts,
      text: 'Answer for Vera',
    });
    await widgetOf(phone).getByText('Answer for Vera').waitFor();
    await widgetOf(laptop).getByText('Answer for Vera').waitFor();
    await say(phone, 'Thanks, from my phone');
    await widgetOf(laptop).locator('.msg.visitor', { hasText: 'Thanks, from my phone' }).waitFor();
    const phoneVisitor = await findVisitorByToken(server.models.Visitor, await storedToken(phone));
    const laptopVisitor = await findVisitorByToken(server.models.Visitor, await storedToken(laptop));
    expect(String(phoneVisitor?._id)).to.equal(String(laptopVisitor?._id));
  });

  it('never links a browser whose hash is wrong to the verified user', async () => {
    const widget = await configuredWidget(server);
    const secret = await secretOf(widget);
    const owner = browser.page;
    await visit(owner, widget, { userId: 'u-7002', name: 'Olga Owner', userHash: userHashOf(secret, 'u-7002') });
    await say(owner, 'My private question');
    const intruder = await browser.newPage();
    await visit(intruder, widget, { userId: 'u-7002', name: 'Olga Owner', userHash: userHashOf('guessed-secret', 'u-7002') });
    await say(intruder, 'Trying to read Olga');
    expect(await widgetOf(intruder).getByText('My private question').count()).to.equal(0);
    const thread = await waitFor('the intruder thread', () => threadWith(server, widget.channel, 'Trying to read Olga'));
    // Marked unverified in the header (the widget has an identity secret), never as verified.
    const header = JSON.stringify(thread.parent.blocks);
    expect(header).to.include('unverified');
    expect(header).to.not.match(/(?<!un)verified/);
    expect(thread.replies.map((r) => r.text).join('\n')).to.not.include('My private question');
    const intruderVisitor = await findVisitorByToken(server.models.Visitor, await storedToken(intruder));
    expect(intruderVisitor?.verifiedUserId).to.equal('');
  });

  it('with requireVerifiedIdentity drops an unsigned identity and warns in the console', async () => {
    const widget = await configuredWidget(server, { requireVerifiedIdentity: true });
    await secretOf(widget);
    const page = browser.page;
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    await visit(page, widget, { userId: 'u-7003', name: 'Claimed Carl', email: 'carl@example.com' });
    await say(page, 'Who am I?');
    await waitFor('the console warning', () => warnings.find((w) => w.includes('verified identity')));
    expect(warnings.join('\n')).to.include('[parley]').and.include('userHash');
    const visitor = await findVisitorByToken(server.models.Visitor, await storedToken(page));
    expect(visitor).to.include({ name: '', email: '', identUserId: '' });
    const thread = await waitFor('the thread', () => threadWith(server, widget.channel, 'Who am I?'));
    expect(JSON.stringify(thread.parent.blocks)).to.not.include('Claimed Carl');
    // The visitor chats on as a guest: no error is shown to them.
    expect(await widgetOf(page).locator('.banner:not([hidden])').count()).to.equal(0);
  });

  it('starts a fresh visitor after reset(), with no trace of the previous one', async () => {
    const widget = await configuredWidget(server);
    const secret = await secretOf(widget);
    const page = browser.page;
    // Signed in on this page only: a reload is the next person's visit, without identify().
    await visit(page, widget);
    await page.waitForFunction(() => (window as unknown as { parley: { _loaded?: boolean } }).parley._loaded === true);
    const hash = userHashOf(secret, 'u-7004');
    await page.evaluate((userHash) => (window as unknown as Win).parley.identify('u-7004', { name: 'Shared Sam', userHash }), hash);
    await say(page, 'Sam was here');
    await waitFor('Sam verified', async () =>
      (await findVisitorByToken(server.models.Visitor, await storedToken(page)))?.verifiedUserId === 'u-7004' ? true : undefined,
    );
    const before = await storedToken(page);
    await page.evaluate(() => (window as unknown as Win).parley.reset());
    await page.waitForFunction(() => !document.querySelector('parley-widget')?.shadowRoot?.textContent?.includes('Sam was here'));
    await say(page, 'Next person here');
    const after = await waitFor('a new token', async () => {
      const token = await storedToken(page);
      return token && token !== before ? token : undefined;
    });
    const fresh = await findVisitorByToken(server.models.Visitor, after);
    const old = await findVisitorByToken(server.models.Visitor, before);
    expect(String(fresh?._id)).to.not.equal(String(old?._id));
    expect(fresh).to.include({ name: '', identUserId: '', verifiedUserId: '' });
    await page.reload();
    await widgetOf(page).locator('.msg.visitor', { hasText: 'Next person here' }).waitFor();
    expect(await widgetOf(page).getByText('Sam was here').count()).to.equal(0);
  });

  /** Screenshots at 1280×800 and 390×844, scrolled to the top of `target` (the Verified identity card). */
  const shots = (page: Page, name: string, target: ReturnType<Page['locator']>) =>
    // Below the console's fixed top bar.
    picturesAtBothSizes(page, 'settings', name, () =>
      target.evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 76)),
    );

  it('lets an admin make the identity secret on the Install tab, shows it once, and regenerates it after asking', async () => {
    const { token } = await signUpUser(server);
    const ceId = await firstWidgetId(server, token);
    await setUpWidget(server, token, ceId);
    await acceptTerms(server, token);
    const page = browser.page;
    await page.context().addCookies([{ name: 'auth_token', value: token, url: server.url }]);
    await page.goto(`${server.url}/app/#/settings/${ceId}/install`);
    const card = page.locator('section', { has: page.getByRole('heading', { name: 'Verified identity' }) });
    await card.getByText('This widget has no identity secret yet.').waitFor();
    for (const language of ['Python', 'Ruby', 'PHP', 'Go', 'Node.js']) {
      await card.getByRole('tab', { name: language }).click();
      expect(await card.getByTestId('identity-snippet').innerText()).to.include('PARLEY_IDENTITY_SECRET');
    }
    await card.getByRole('button', { name: 'Create identity secret' }).click();
    const shown = (await card.getByTestId('identity-secret').innerText()).trim();
    expect(shown).to.match(/^[0-9a-f]{64}$/);
    expect((await server.models.ChatEndpoint.findById(ceId))?.identitySecret).to.equal(shown);
    await card.getByText('Copy the secret now').waitFor();
    await shots(page, 'install-identity-secret', card);

    await page.reload();
    await card.getByText(/Identity secret made on .+\. It was shown once/).waitFor();
    expect(await card.getByTestId('identity-secret').count()).to.equal(0);
    expect(await page.content()).to.not.include(shown);
    await shots(page, 'install-identity', card);

    await card.getByRole('button', { name: 'Regenerate secret' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('The current secret stops working at once').waitFor();
    await dialog.getByRole('button', { name: 'Regenerate secret' }).click();
    const renewed = (await card.getByTestId('identity-secret').innerText()).trim();
    expect(renewed)
      .to.match(/^[0-9a-f]{64}$/)
      .and.not.equal(shown);
    expect((await server.models.ChatEndpoint.findById(ceId))?.identitySecret).to.equal(renewed);

    await page.goto(`${server.url}/app/#/settings/${ceId}/behavior`);
    await page.getByLabel('Accept only verified identities').check();
    await page.getByRole('button', { name: 'Save Changes' }).first().click();
    await page.getByRole('button', { name: 'Saved' }).first().waitFor();
    expect((await server.models.ChatEndpoint.findById(ceId))?.requireVerifiedIdentity).to.equal(true);
  });
});
