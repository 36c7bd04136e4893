/**
 * The help center's public pages in Chromium, at 1280×800 and 390×844: the home page, a search reached with the
 * keyboard, an article and its Arabic translation (right to left) are free of WCAG A/AA violations (axe, the
 * widget's launcher included); the widget starts under the pages' Content-Security-Policy (no violation
 * reported) and "Chat with us" opens it; without JavaScript the search and the articles work all the same.
 * Screenshots land in test-results/help/.
 */
import path from 'node:path';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { useServer } from '../helpers/app';
import { axeViolations, describeViolations } from '../helpers/axe';
import { picture, RESULTS_DIR, useBrowser } from '../helpers/browser';
import { widgetBuilt } from '../helpers/widgetBuild';
import { configuredWidget, type Widget } from './widgetHelpers';

const SIZES = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

const BODY = `Open the sign-in page and choose **Forgot password**. We mail you a link that works for one hour.

## If the mail does not come

1. Look in your spam folder.
2. Check that the address is the one of your account.
3. Ask for a new link: only the last one works.

> Links in older mails stop working as soon as you ask for a new one.

Still stuck? See [our status page](https://status.example.com) or write to us.`;

describe('help center pages in the browser: accessible at both sizes, with the widget working under their CSP', function () {
  this.timeout(120_000);
  const server = useServer();
  const browser = useBrowser({ context: 'suite' });
  let widget: Widget;

  before(async function () {
    this.timeout(60_000);
    await widgetBuilt();
    widget = await configuredWidget(server, { onlineTitle: 'Northwind Coffee' });
    const ce = await server.models.ChatEndpoint.findById(widget.ceId);
    if (!ce) throw new Error('the widget just set up is gone');
    const article = (fields: { title: string; body: string; language: string; slug: string }) =>
      server.models.Article.create({ accountId: ce.accountId, ceId: ce._id, published: true, ...fields });
    await article({ title: 'Reset your password', body: BODY, language: 'en', slug: 'reset-password' });
    await article({
      title: 'Shipping times and costs',
      body: 'We ship roasted beans within two working days.',
      language: 'en',
      slug: 'shipping',
    });
    await article({
      title: 'Grind size for each brewer',
      body: 'Fine for espresso, coarse for a French press.',
      language: 'en',
      slug: 'grind-size',
    });
    await article({
      title: 'إعادة تعيين كلمة المرور',
      body: 'افتح صفحة تسجيل الدخول واختر **نسيت كلمة المرور**. نرسل إليك رابطًا صالحًا لمدة ساعة.\n\n1. تحقق من مجلد الرسائل غير المرغوب فيها.\n2. اطلب رابطًا جديدًا.',
      language: 'ar',
      slug: 'reset-password',
    });
    server.parley.articleSearch.changed(widget.ceId);
  });

  /** Content-Security-Policy violations and uncaught errors the page reports. */
  function watch(page: Page): string[] {
    const problems: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error' && /Content.Security.Policy|Refused to/i.test(msg.text())) problems.push(msg.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    return problems;
  }

  /** The page once settled (the widget's launcher drawn), pictured, and audited. */
  async function audit(page: Page, name: string): Promise<void> {
    await page.locator('parley-widget .launcher').waitFor();
    await page.waitForLoadState('networkidle');
    await page.waitForFunction(() => {
      const root = document.querySelector('parley-widget')?.shadowRoot;
      return !root || root.getAnimations().every((a) => a.effect?.getTiming().iterations === Number.POSITIVE_INFINITY);
    });
    const dir = path.join(RESULTS_DIR, 'help');
    await picture(page, path.join(dir, `${name}-${page.viewportSize()?.width}.png`), { fullPage: true });
    const violations = await axeViolations(page);
    expect(violations, `axe-core found on ${page.url()}:\n${describeViolations(violations)}`).to.deep.equal([]);
  }

  for (const size of SIZES) {
    it(`at ${size.width}×${size.height}: home, a search from the keyboard, an article and its Arabic translation, the chat opened from it`, async () => {
      const page = browser.page;
      await page.setViewportSize({ width: size.width, height: size.height });
      const problems = watch(page);

      await page.goto(`${server.url}/help/${widget.uuid}?lang=en`);
      await page.getByRole('heading', { level: 1, name: 'How can we help?' }).waitFor();
      await audit(page, 'home');

      // Keyboard: the skip link first, then the search box is the next stop in the main part.
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal('Skip to content');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name)).to.equal('q');
      await page.keyboard.type('password');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 2, name: 'Results for “password”' }).waitFor();
      expect(new URL(page.url()).searchParams.get('q')).to.equal('password');
      await audit(page, 'search');

      await page.getByRole('link', { name: 'Reset your password' }).click();
      await page.getByRole('heading', { level: 1, name: 'Reset your password' }).waitFor();
      const chat = page.getByRole('button', { name: 'Chat with us' });
      await chat.waitFor();
      await audit(page, 'article');
      await chat.click();
      await page.locator('parley-widget').getByRole('dialog').waitFor();
      await page.keyboard.press('Escape');

      await page.goto(`${server.url}/help/${widget.uuid}/reset-password?lang=ar`);
      await page.getByRole('heading', { level: 1, name: 'إعادة تعيين كلمة المرور' }).waitFor();
      expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).to.deep.equal(['ar', 'rtl']);
      await page.getByRole('button', { name: 'تحدّث معنا' }).waitFor();
      await audit(page, 'article-ar');
      // The language switcher opened: a plain list of links, each language named in itself.
      await page.locator('.hc-langs summary').click();
      await page.getByRole('link', { name: 'English' }).waitFor();
      await audit(page, 'article-ar-languages');

      await page.goto(`${server.url}/help/${widget.uuid}/no-such-article`);
      await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
      await audit(page, 'not-found');

      expect(problems, 'no Content-Security-Policy violation or script error').to.deep.equal([]);
    });
  }

  it('works without JavaScript: the search form answers, an article reads, and "Chat with us" stays words', async () => {
    const chromium = browser.context.browser();
    if (!chromium) throw new Error('no browser');
    const context = await chromium.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    try {
      const page = await context.newPage();
      await page.goto(`${server.url}/help/${widget.uuid}?lang=en`);
      await page.getByLabel('Search articles').fill('shipping');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.getByRole('heading', { level: 2, name: 'Results for “shipping”' }).waitFor();
      await page.getByRole('link', { name: 'Shipping times and costs' }).click();
      await page.getByRole('heading', { level: 1, name: 'Shipping times and costs' }).waitFor();
      await page.getByText('Chat with us', { exact: true }).waitFor();
      expect(await page.getByRole('button', { name: 'Chat with us' }).count()).to.equal(0);
      expect(await page.locator('parley-widget').count()).to.equal(0);
    } finally {
      await context.close();
    }
  });
});
