/**
 * WCAG 2.2 AA in the browser: axe-core (WCAG 2.0, 2.1 and 2.2 A and AA rules) on every console screen, the public
 * docs, pricing and help center pages, and the widget on the demo site closed and open (chat, offline form, end
 * card), each at 1280×800 and 390×844; then the widget's keyboard and screen-reader behaviour: a labelled modal dialog whose
 * focus stays inside while open and goes back to the launcher on Escape, and a polite live message list where a
 * new reply is appended (announced once) and the history is not re-announced.
 * Needs `npm run build` first. Three spec files run it, so the parallel suite runs them side by side:
 * accessibility-desktop.spec.ts and accessibility-phone.spec.ts audit every screen at one size each,
 * accessibility-widget.spec.ts the widget's dialog, offline form, live list and motion; each has its own server and
 * accounts.
 *
 * A size's screens are shown one after the other in one page (`useScreenPage`): the console's screens of one
 * account follow each other inside the single-page app (a change of the URL's hash, as a click on its menu does),
 * so the console's scripts and axe-core are loaded and parsed once per account rather than once per screen; the
 * page loads afresh when the account changes, for the public pages, and after a failed test. Each screen says what
 * shows it is on screen (its own heading or tab), and is audited once that is there, its requests are done and
 * nothing on it is loading. A console screen cost Chromium about 2.6 s of CPU loaded in a new context and 0.6 s
 * reached inside the app, with its audit.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { Types } from 'mongoose';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { signUpUser } from '../factories';
import { useServer } from '../helpers/app';
import { axeViolations, describeViolations } from '../helpers/axe';
import { ACTION_TIMEOUT_MS, animationsSettled, picture, RESULTS_DIR, screenshotPath, sharedBrowser, useBrowser } from '../helpers/browser';
import { seedAnswerEvents } from '../reports/answersSeed';
import { seedReportAccount, ZONE } from '../reports/seed';
import { seedTeamEvents } from '../reports/teamSeed';
import { ACME, ALICE, addGlobex, eventually, firstWidgetId, GINA, GLOBEX, installWidget, setUpWidget } from '../slack/helpers';
import { acceptTerms } from './consoleHelpers';
import { configuredWidget, threadWith, type Widget, waitFor } from './widgetHelpers';

const SIZES = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

/**
 * Every settings tab (and the answers tab's other views) with the heading that shows it is on screen: the tab's
 * title, or for the answers tab's views the view's own heading (they share the tab's title).
 */
const SETTINGS_TABS: { tab: string; h1?: string; h2?: string }[] = [
  { tab: 'behavior', h1: 'Presence and widget behavior' },
  { tab: 'appearance', h1: 'Appearance' },
  { tab: 'op-hours', h1: 'Operating Hours' },
  { tab: 'triggers', h1: 'Triggers' },
  { tab: 'question-groups', h1: 'Question Groups' },
  { tab: 'saved-replies', h1: 'Saved Replies' },
  { tab: 'answers', h2: 'Articles' },
  { tab: 'answers?article=new', h2: 'New article' },
  { tab: 'answers?view=import', h2: 'Import articles' },
  { tab: 'answers?view=synonyms', h2: 'Synonyms' },
  { tab: 'integrations', h1: 'Integrations' },
  { tab: 'install', h1: 'Widget Install (Embed Code)' },
];
const DOCS = ['', 'install', 'integrations', 'reports', 'rest-api', 'self-hosting', 'slack-commands', 'webhooks', 'widget-api'];

type Owner = { token: string; ceId: string };
type Accounts = { full: Owner; fresh: Owner; installed: Owner; reports: Owner };

export type AccessibilityPart = 'desktop' | 'phone' | 'widget';

/** The audits of one part (a size's screens, or the widget's behaviour). */
export function accessibilitySuite(part: AccessibilityPart): void {
  describe(`accessibility (${part}): axe-core on every screen, the widget dialog and its live message list (browser)`, function () {
    this.timeout(120_000);
    const server = useServer();
    let accounts: Accounts;
    /** The widget whose help center is audited (the full account's). */
    let helpUuid = '';

    /** A signed-up owner who accepted the legal documents (the console's screens open without the terms prompt). */
    async function owner(): Promise<Owner> {
      const { token } = await signUpUser(server);
      await acceptTerms(server, token);
      return { token, ceId: await firstWidgetId(server, token) };
    }

    before(async function () {
      this.timeout(60_000);
      const full = await owner();
      await setUpWidget(server, full.token, full.ceId);
      // Business: every settings tab and report is open, so its real content is audited (not only the upgrade note).
      const ce = await server.models.ChatEndpoint.findById(full.ceId);
      await server.models.Account.updateOne({ _id: ce?.accountId }, { $set: { planStripeId: 'parley_business_monthly' } });
      // Its help center's pages: an English article and its Arabic translation (right to left).
      if (ce) helpUuid = ce.Uuid;
      for (const [language, title] of [
        ['en', 'Reset your password'],
        ['ar', 'إعادة تعيين كلمة المرور'],
      ] as const) {
        const body =
          language === 'en' ? 'Choose **Forgot password** on the sign-in page.' : 'اختر **نسيت كلمة المرور** في صفحة تسجيل الدخول.';
        await server.models.Article.create({
          accountId: ce?.accountId,
          ceId: ce?._id,
          title,
          body,
          language,
          slug: 'reset-password',
          published: true,
        });
      }
      const installed = await owner();
      await installWidget(server, installed.token, installed.ceId);
      const reports = await seedReportAccount(server);
      await seedAnswerEvents(server.models, reports.accountId, new Types.ObjectId(reports.ceId));
      await seedTeamEvents(server.models, reports.accountId, new Types.ObjectId(reports.ceId), reports.chatIds);
      accounts = { full, fresh: await owner(), installed, reports: { token: reports.token, ceId: reports.ceId } };
    });

    /**
     * Waits until the page settled (requests done, finite animations over), saves a picture of what was audited
     * (test-results/a11y/<name>.png, see PICTURES) and fails listing every violation.
     */
    async function audit(page: Page, name: string): Promise<void> {
      await page.waitForLoadState('networkidle');
      await auditSettled(page, name);
    }

    /** `audit` of a page whose requests are known to be done (a screen of `useScreenPage`). */
    async function auditSettled(page: Page, name: string): Promise<void> {
      await animationsSettled(page);
      await widgetSettled(page);
      const size = page.viewportSize();
      // Every audited screen's picture, for a person to look at (when pictures are taken: helpers/browser.ts).
      await picture(page, path.join(RESULTS_DIR, 'a11y', `${name.replace(/[^a-z0-9]+/gi, '-')}-${size?.width}.png`), { fullPage: true });
      const violations = await axeViolations(page);
      expect(violations, `axe-core found on ${page.url()}:\n${describeViolations(violations)}`).to.deep.equal([]);
    }

    async function widgetSettled(page: Page): Promise<void> {
      await page.waitForFunction(() => {
        const root = document.querySelector('parley-widget')?.shadowRoot;
        return !root || root.getAnimations().every((a) => a.effect?.getTiming().iterations === Number.POSITIVE_INFINITY);
      });
    }

    async function signIn(page: Page, who: Owner): Promise<void> {
      await page.context().addCookies([{ name: 'auth_token', value: who.token, url: server.url }]);
    }

    type Screen = {
      name: string;
      who?: keyof Accounts;
      path: (a: Accounts) => string;
      ready: (page: Page) => Locator;
      /** What to do on the screen before the audit (choose a range, focus a control). */
      then?: (page: Page) => Promise<void>;
    };

    /** The seeded chats and presence: zone and the range Mar 7–9 2026, through the controls. */
    async function marchInNewYork(page: Page): Promise<void> {
      await page.getByLabel('Time zone').selectOption(ZONE);
      await page.getByLabel('Date range').selectOption('custom');
      await page.getByLabel('From', { exact: true }).fill('2026-03-07');
      await page.getByLabel('To', { exact: true }).fill('2026-03-09');
    }
    /** The page's first heading: enough after a full load (the public pages, and the first screen of an account). */
    const heading = (page: Page) => page.locator('h1').first();
    const h1 = (name: string) => (page: Page) => page.getByRole('heading', { level: 1, name, exact: true });
    const h2 = (name: string) => (page: Page) => page.getByRole('heading', { level: 2, name, exact: true });
    /** A report's view: every view has the heading "Reports", and the view's tab is the current page in their tab bar. */
    const reportTab = (title: string) => (page: Page) =>
      page.getByRole('navigation', { name: 'Reports' }).locator('a[aria-current="page"]', { hasText: new RegExp(`^${title}$`) });
    const REPORT_VIEWS = [
      ['overview', 'Overview'],
      ['history', 'History'],
      ['availability', 'Availability'],
      ['answers', 'Answers'],
      ['team', 'Team'],
    ] as const;
    /**
     * Grouped by account (the screens of one account follow each other, so the page loads once per account), and
     * each with what shows that it, not the screen before it, is on screen.
     */
    const SCREENS: Screen[] = [
      { name: 'sign-in', path: () => '/app/#/login', ready: h1('Welcome back') },
      { name: 'sign-up', path: () => '/app/#/signup', ready: h1('Create your Parley account') },
      { name: 'forgot password', path: () => '/app/#/forgotpwd', ready: h1('Reset your password') },
      { name: 'reset password', path: () => '/app/#/reset_password?token=0123456789abcdef', ready: h1('Choose a new password') },
      {
        name: 'setup step 1 (Add to Slack)',
        who: 'fresh',
        path: (a) => `/app/#/setup/${a.fresh.ceId}`,
        ready: h1('Connect Parley to your Slack workspace'),
      },
      {
        name: 'setup step 2 (channel)',
        who: 'installed',
        path: (a) => `/app/#/setup/${a.installed.ceId}`,
        ready: h1('Choose the Slack channel for this widget'),
      },
      { name: 'setup step 3 (embed code)', who: 'full', path: (a) => `/app/#/setup/${a.full.ceId}`, ready: h1('Setup is finished!') },
      { name: 'dashboard', who: 'full', path: () => '/app/#/', ready: h1('Dashboard') },
      ...SETTINGS_TABS.map(
        ({ tab, h1: title, h2: view }): Screen => ({
          name: `settings: ${tab}`,
          who: 'full',
          path: (a) => `/app/#/settings/${a.full.ceId}/${tab}`,
          ready: view ? h2(view) : h1(title ?? ''),
        }),
      ),
      ...REPORT_VIEWS.map(
        ([view, title]): Screen => ({
          name: `reports: ${view}`,
          who: 'full',
          path: () => `/app/#/reports/${view}`,
          ready: reportTab(title),
        }),
      ),
      { name: 'account', who: 'full', path: () => '/app/#/account', ready: h1('Manage your account') },
      { name: 'support', who: 'full', path: () => '/app/#/support', ready: h1('Support') },
      { name: 'dashboard with chats', who: 'reports', path: () => '/app/#/', ready: h1('Dashboard') },
      // Before the reports that choose New York: the console keeps a chosen time zone from report to report.
      {
        name: 'reports with chats: history, a row focused',
        who: 'reports',
        path: () => '/app/#/reports/history',
        ready: reportTab('History'),
        then: async (page) => {
          await page.locator('.reports__row').first().focus();
        },
      },
      {
        name: 'reports with chats: overview',
        who: 'reports',
        path: () => '/app/#/reports/overview',
        ready: reportTab('Overview'),
        then: marchInNewYork,
      },
      {
        name: 'reports with help-center events: answers',
        who: 'reports',
        path: () => '/app/#/reports/answers',
        ready: reportTab('Answers'),
        then: async (page) => {
          await marchInNewYork(page);
          await page.getByRole('table', { name: 'Articles' }).waitFor();
        },
      },
      {
        name: 'reports with a shared inbox: team',
        who: 'reports',
        path: () => '/app/#/reports/team',
        ready: reportTab('Team'),
        then: async (page) => {
          await marchInNewYork(page);
          await page.getByRole('table', { name: 'Operators' }).waitFor();
          await page
            .getByRole('img', { name: /Conversations per day by tag/ })
            .locator('canvas')
            .waitFor();
        },
      },
      {
        name: 'reports with presence: availability, a day focused',
        who: 'reports',
        path: () => '/app/#/reports/availability',
        ready: reportTab('Availability'),
        then: async (page) => {
          await marchInNewYork(page);
          await page.waitForFunction(() => document.querySelectorAll('.availability__day').length === 3);
          await page.locator('.availability__bar').first().focus();
          await page.keyboard.press('ArrowRight');
          await page.locator('.availability__popover').waitFor();
        },
      },
      ...DOCS.map((doc): Screen => ({ name: `docs: /${doc || 'index'}`, path: () => `/docs/${doc}`, ready: heading })),
      { name: 'pricing', path: () => '/pricing', ready: heading },
      { name: 'help center: home', path: () => `/help/${helpUuid}?lang=en`, ready: heading },
      { name: 'help center: search', path: () => `/help/${helpUuid}?lang=en&q=password`, ready: heading },
      { name: 'help center: article in Arabic', path: () => `/help/${helpUuid}/reset-password?lang=ar`, ready: heading },
    ];

    /**
     * One page for a size's screens, kept from test to test (see the comment at the top): `show(screen)` reaches the
     * screen inside the console when the page shows the console of the same account, loads it otherwise (signed in
     * as the screen's account, or signed out with nothing stored), and waits until the screen is the one on screen;
     * `settled()` waits until the page's requests are done (none in flight for a moment) and nothing on it says it
     * is loading. A failed test's page is pictured, and the next screen loads afresh.
     */
    function useScreenPage(viewport: { width: number; height: number }) {
      let context: BrowserContext | undefined;
      let page: Page | undefined;
      /** Whose console the page shows (null: signed out); undefined when it shows something else. */
      let showing: Screen['who'] | null | undefined;
      /** Whose sign-in cookie the page has (null: none). */
      let signedIn: Screen['who'] | null = null;
      let inFlight = 0;
      let lastRequestAt = 0;
      const QUIET_MS = 150;

      before(async function () {
        this.timeout(60_000);
        context = await (await sharedBrowser()).newContext({ viewport });
        context.setDefaultTimeout(ACTION_TIMEOUT_MS);
        page = await context.newPage();
        const started = () => {
          inFlight += 1;
          lastRequestAt = Date.now();
        };
        const ended = () => {
          inFlight = Math.max(0, inFlight - 1);
          lastRequestAt = Date.now();
        };
        page.on('request', started);
        page.on('requestfinished', ended);
        page.on('requestfailed', ended);
      });

      afterEach(async function () {
        const test = this.currentTest;
        if (test?.state !== 'failed') return;
        showing = undefined;
        mkdirSync(RESULTS_DIR, { recursive: true });
        await page?.screenshot({ path: screenshotPath(test.fullTitle()), fullPage: true }).catch(() => undefined);
      });

      after(async () => {
        await context?.close().catch(() => undefined);
      });

      const opened = (): { context: BrowserContext; page: Page } => {
        if (!context || !page) throw new Error('the page of the screens did not open');
        return { context, page };
      };

      return {
        async show(screen: Screen): Promise<Page> {
          const { context, page } = opened();
          const url = new URL(`${server.url}${screen.path(accounts)}`);
          const inConsole = url.pathname === '/app/';
          const who = screen.who ?? null;
          if (inConsole && showing === who) {
            await page.evaluate((hash) => {
              window.location.hash = hash;
            }, url.hash);
          } else {
            if (signedIn !== who) {
              const at = page.url().startsWith(server.url);
              await context.clearCookies();
              if (at)
                await page.evaluate(() => {
                  localStorage.clear();
                  sessionStorage.clear();
                });
              if (screen.who) await signIn(page, accounts[screen.who]);
              signedIn = who;
            }
            const now = new URL(page.url());
            if (now.origin === url.origin && now.pathname === url.pathname && now.search === url.search) {
              // Only the hash differs: a navigation would stay in the page (and its signed-in console). The address
              // changes without the console seeing it (no hashchange), then the page loads again.
              await page.evaluate((href) => {
                window.history.replaceState(null, '', href);
              }, url.href);
              await page.reload();
            } else {
              await page.goto(url.href);
            }
          }
          showing = inConsole ? who : undefined;
          await screen.ready(page).waitFor();
          return page;
        },
        async settled(): Promise<void> {
          const { page } = opened();
          await eventually(async () => {
            expect(inFlight, 'requests in flight').to.equal(0);
            expect(Date.now() - lastRequestAt, 'time since the last request').to.be.at.least(QUIET_MS);
          }, ACTION_TIMEOUT_MS);
          await page.waitForFunction(() => !document.querySelector('.page-loader, [aria-busy="true"]'));
        },
      };
    }

    for (const size of SIZES.filter((s) => s.name === part)) {
      describe(`at ${size.width}×${size.height}`, () => {
        describe('every screen, one after the other in one page', () => {
          const screens = useScreenPage({ width: size.width, height: size.height });
          for (const screen of SCREENS) {
            it(`${screen.name}: no WCAG A/AA violation`, async () => {
              const page = await screens.show(screen);
              await screen.then?.(page);
              await screens.settled();
              await auditSettled(page, screen.name);
            });
          }
        });

        describe('the widget', () => {
          const browser = useBrowser({ context: 'suite' });

          it('widget closed, open on the chat with a reply, and its end card: no WCAG A/AA violation', async () => {
            const page = browser.page;
            await page.setViewportSize({ width: size.width, height: size.height });
            const widget = await configuredWidget(server);
            const w = await openDemo(page, widget);
            await audit(page, 'widget-closed');

            await w.launcher.click();
            await say(w, 'Do you roast decaf?');
            const thread = await waitFor('the Slack thread', () => threadWith(server, widget.channel, 'Do you roast decaf?'));
            await answer(widget, thread.parent.ts, 'Yes, a Swiss-water decaf.');
            await w.log.locator('.msg.operator', { hasText: 'Swiss-water decaf' }).waitFor();
            await audit(page, 'widget-chat');

            await w.host.getByRole('button', { name: 'Chat options' }).click();
            await w.host.getByRole('menuitem', { name: 'End chat' }).click();
            await w.host.getByText('Are you sure you want to end this chat?').waitFor();
            await audit(page, 'widget-end-confirm');
            await w.host.getByRole('button', { name: 'Yes' }).click();
            await w.host.getByText('This chat has ended.').waitFor();
            await audit(page, 'widget-end-card');
          });

          it('widget help-center states (suggestions while typing, an article opened inside, an automatic answer): no WCAG A/AA violation', async () => {
            const page = browser.page;
            await page.setViewportSize({ width: size.width, height: size.height });
            const widget = await configuredWidget(server);
            const ce = await server.models.ChatEndpoint.findById(widget.ceId);
            await server.models.Article.create({
              accountId: ce?.accountId,
              ceId: widget.ceId,
              language: 'en',
              published: true,
              title: 'Grind size for espresso',
              slug: 'espresso-grind',
              body: '## Espresso\n\nUse a **fine** grind, like table salt.\n\n- 18 g in\n- 36 g out',
            });
            server.parley.articleSearch.changed(widget.ceId);
            const w = await openDemo(page, widget);
            await w.launcher.click();
            await w.input.fill('Which grind size for espresso?');
            const hit = w.host.locator('.answers .hit', { hasText: 'Grind size for espresso' });
            await hit.waitFor();
            await audit(page, 'widget-suggestions');
            await hit.click();
            await w.host.getByRole('region', { name: 'Grind size for espresso' }).waitFor();
            await audit(page, 'widget-article');
            await w.host.getByRole('button', { name: 'Still need help? Send your message' }).click();
            await w.input.press('Enter');
            await w.log.locator('.msg.visitor:not(.sending)', { hasText: 'espresso' }).waitFor();
            await server.parley.relay.dueWork.tick(new Date(Date.now() + 60_000));
            await w.host.getByText('Did this answer your question?').waitFor();
            await audit(page, 'widget-automatic-answer');
          });
        });
      });
    }

    if (part !== 'widget') return;
    const browser = useBrowser({ context: 'suite' });

    it('widget offline form at both sizes: no WCAG A/AA violation', async () => {
      const page = browser.page;
      // A workspace of its own whose only person is away from the start (setting the widget up asks Slack who is
      // active, and the answer is kept a while): the widget is offline without touching the other tests' presence.
      addGlobex(server.slack);
      server.slack.state.setPresence(GINA, 'away');
      const gina = await owner();
      await setUpWidget(server, gina.token, gina.ceId, { team: GLOBEX, user: GINA });
      const ce = await server.models.ChatEndpoint.findById(gina.ceId);
      if (!ce) throw new Error('the widget just set up is gone');
      const w = await openDemo(page, { uuid: ce.Uuid, channel: '', ceId: gina.ceId });
      await w.launcher.click();
      for (const size of SIZES) {
        await page.setViewportSize({ width: size.width, height: size.height });
        await w.host.locator('form.form').waitFor();
        await audit(page, `widget-offline-form-${size.name}`);
      }
    });

    /** Where focus is inside the widget: the shadow root's focused element, described by its class and name. */
    const focused = (page: Page) =>
      page.evaluate(() => {
        const root = document.querySelector('parley-widget')?.shadowRoot;
        const el = root?.activeElement as HTMLElement | null | undefined;
        return {
          inPanel: !!el?.closest('[role="dialog"]'),
          launcher: !!el?.classList.contains('launcher'),
          name: el ? el.getAttribute('aria-label') || el.textContent || el.tagName : null,
        };
      });

    for (const size of SIZES) {
      it(`widget at ${size.width}×${size.height}: a labelled modal dialog that keeps Tab inside, gives focus back to the launcher on Escape, and announces unread replies`, async () => {
        const page = browser.page;
        await page.setViewportSize({ width: size.width, height: size.height });
        const widget = await configuredWidget(server);
        const w = await openDemo(page, widget);
        await w.launcher.click();
        await say(w, 'Is the shop open on Sundays?');
        const dialog = w.host.getByRole('dialog', { name: 'Chat with us' });
        expect(await dialog.getAttribute('aria-modal')).to.equal('true');

        const names = new Set<string | null>();
        for (let i = 0; i < 12; i += 1) {
          await page.keyboard.press('Tab');
          const at = await focused(page);
          expect(at.inPanel, `Tab ${i + 1} left the panel for ${at.name}`).to.equal(true);
          names.add(at.name);
        }
        expect(names).to.include('Send').and.to.include('Minimise chat');
        for (let i = 0; i < 12; i += 1) {
          await page.keyboard.press('Shift+Tab');
          expect((await focused(page)).inPanel, `Shift+Tab ${i + 1} left the panel`).to.equal(true);
        }

        await page.keyboard.press('Escape');
        await w.host.locator('.frame').waitFor({ state: 'hidden' });
        expect((await focused(page)).launcher, 'focus is back on the launcher').to.equal(true);

        const thread = await waitFor('the Slack thread', () => threadWith(server, widget.channel, 'open on Sundays'));
        await answer(widget, thread.parent.ts, 'From ten to four.');
        await w.host.getByRole('status').filter({ hasText: '1 unread message' }).waitFor({ state: 'attached' });
        expect(await w.launcher.getAttribute('aria-label')).to.match(/, 1 unread message$/);
      });
    }

    it('widget: a new reply is added once to the polite live message list, and the history shown after a reload is not announced', async () => {
      const page = browser.page;
      // Every message element added in the widget, with whether its live region was polite at that moment.
      await page.addInitScript(() => {
        const w = window as unknown as { __added: { text: string; live: string | null; list: string | null }[] };
        w.__added = [];
        const attach = Element.prototype.attachShadow;
        Element.prototype.attachShadow = function (init: ShadowRootInit) {
          const root = attach.call(this, init);
          new MutationObserver((records) => {
            for (const record of records)
              for (const node of Array.from(record.addedNodes)) {
                if (!(node instanceof HTMLElement) || !node.matches('li.msg')) continue;
                const region = node.closest('[aria-live]');
                w.__added.push({
                  text: node.textContent ?? '',
                  live: region?.getAttribute('aria-live') ?? null,
                  list: region?.getAttribute('role') ?? null,
                });
              }
          }).observe(root, { childList: true, subtree: true });
          return root;
        };
      });
      const added = () =>
        page.evaluate(() => (window as unknown as { __added: { text: string; live: string | null; list: string | null }[] }).__added);
      const widget = await configuredWidget(server);
      const w = await openDemo(page, widget);
      await w.launcher.click();
      await say(w, 'Can I pick up my order?');
      const thread = await waitFor('the Slack thread', () => threadWith(server, widget.channel, 'pick up my order'));
      await answer(widget, thread.parent.ts, 'Yes, any weekday.');
      await w.log.locator('.msg.operator', { hasText: 'any weekday' }).waitFor();
      const live = (await added()).filter((a) => a.text.includes('any weekday'));
      expect(live, 'the reply, added once to the polite log').to.deep.equal([live[0]]);
      expect(live[0]).to.include({ live: 'polite', list: 'log' });

      await page.reload();
      // The panel was open: it opens again by itself and replays the conversation.
      await w.log.locator('.msg.operator', { hasText: 'any weekday' }).waitFor();
      const history = (await added()).filter((a) => a.text.includes('any weekday') || a.text.includes('pick up my order'));
      expect(history.length, 'history placed after the reload').to.be.greaterThan(0);
      expect(history.map((a) => a.live)).to.deep.equal(history.map(() => 'off'));

      await answer(widget, thread.parent.ts, 'Bring the order number.');
      await w.log.locator('.msg.operator', { hasText: 'Bring the order number' }).waitFor();
      await eventually(async () => {
        expect(await w.log.getAttribute('aria-live')).to.equal('polite');
      });
      const fresh = (await added()).filter((a) => a.text.includes('Bring the order number'));
      expect(fresh).to.have.length(1);
      expect(fresh[0]).to.include({ live: 'polite', list: 'log' });
    });

    it('widget: with reduced motion asked for, nothing in it animates or transitions (a proactive peek, the open panel)', async () => {
      const page = browser.page;
      await page.emulateMedia({ reducedMotion: 'reduce' });
      const peekNow = { uid: 'trg-hi', message: 'Need help choosing a roast?', after: 0, on: [], matchType: 'contains', enabled: true };
      const widget = await configuredWidget(server, {
        triggerJson: JSON.stringify({ minDelay: 0, matchType: 'contains', triggers: [{ ...peekNow, displayStyle: 'peek' }] }),
      });
      const w = await openDemo(page, widget);
      const moving = () =>
        page.evaluate(() => {
          const root = document.querySelector('parley-widget')?.shadowRoot;
          return Array.from(root?.querySelectorAll('*') ?? [])
            .filter((el) => {
              const style = getComputedStyle(el);
              return style.animationName !== 'none' || style.transitionDuration.split(',').some((d) => Number.parseFloat(d) > 0);
            })
            .map((el) => el.getAttribute('class') || el.tagName);
        });
      await w.host.locator('.peek').getByText('Need help choosing a roast?').waitFor();
      expect(await moving()).to.deep.equal([]);
      await audit(page, 'widget-peek');
      await w.launcher.click();
      await w.input.waitFor();
      expect(await moving()).to.deep.equal([]);
    });

    // A declaration, not a const: the size parts use it though their describe returns before this line.
    function widgetOf(page: Page) {
      const host = page.locator('parley-widget');
      return {
        host,
        launcher: host.locator('.launcher'),
        input: host.getByRole('textbox', { name: 'Message', exact: true }),
        log: host.getByRole('log', { name: 'Messages' }),
      };
    }

    async function openDemo(page: Page, widget: Widget): Promise<ReturnType<typeof widgetOf>> {
      await page.goto(`${server.demoUrl}/?widget=${widget.uuid}`);
      const w = widgetOf(page);
      await w.launcher.waitFor();
      return w;
    }

    /**
     * An operator's answer in the conversation's Slack thread, posted in the Slack sandbox as its operator page posts
     * it (without a second browser page to load: the audits are about the widget).
     */
    async function answer(widget: Widget, threadTs: string, text: string): Promise<void> {
      await server.slack.postAsUser({ teamId: ACME, userId: ALICE, channelId: widget.channel, threadTs, text });
    }

    async function say(w: ReturnType<typeof widgetOf>, text: string): Promise<void> {
      await w.input.fill(text);
      await w.input.press('Enter');
      await w.log.locator('.msg.visitor:not(.sending)', { hasText: text }).waitFor();
    }
  });
}
