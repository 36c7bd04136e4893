/**
 * Browser tests drive Debian's Chromium (or CHROMIUM_PATH) through playwright-core, headless, with a fresh
 * profile. `useBrowser()` wires the mocha hooks of a suite: one browser per suite, a new isolated context
 * (cookies, storage) per test, and a full-page screenshot in test-results/ when a test fails.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const RESULTS_DIR = path.resolve(__dirname, '..', '..', 'test-results');

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** How long a step waits for the page (an element, a URL) before the test fails. */
const ACTION_TIMEOUT_MS = 15_000;

export type BrowserSession = {
  browser: Browser;
  close(): Promise<void>;
};

/**
 * Launches headless Chromium. playwright gives every launch a fresh temporary profile (user-data-dir) and
 * deletes it on close; it refuses a --user-data-dir argument, so none is passed.
 */
export async function launchBrowser(): Promise<BrowserSession> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  return {
    browser,
    async close() {
      await browser.close();
    },
  };
}

/** File name for a test's screenshot: its full title, made safe for every file system. */
export function screenshotPath(fullTitle: string): string {
  const safe = fullTitle
    .replace(/[^A-Za-z0-9 ._-]+/g, '-')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 180);
  return path.join(RESULTS_DIR, `${safe}.png`);
}

export type BrowserFixture = {
  /** The page of the running test (a new context each test). */
  readonly page: Page;
  readonly context: BrowserContext;
  /** Opens another isolated context, closed after the test (e.g. a second user). */
  newPage(options?: { viewport?: { width: number; height: number }; locale?: string }): Promise<Page>;
};

/**
 * Call inside a `describe`: launches the browser before the suite, gives every test a fresh page,
 * saves a screenshot of each open page when the test fails, and closes everything afterwards.
 */
export function useBrowser(options: { viewport?: { width: number; height: number } } = {}): BrowserFixture {
  let session: BrowserSession | undefined;
  let context: BrowserContext | undefined;
  let page: Page | undefined;
  const extraContexts: BrowserContext[] = [];
  const viewport = options.viewport ?? { width: 1280, height: 800 };

  before(async function () {
    this.timeout(60_000);
    session = await launchBrowser();
  });

  beforeEach(async () => {
    if (!session) throw new Error('the browser did not start');
    context = await session.browser.newContext({ viewport });
    context.setDefaultTimeout(ACTION_TIMEOUT_MS);
    page = await context.newPage();
  });

  afterEach(async function () {
    const test = this.currentTest;
    if (test?.state === 'failed') {
      mkdirSync(RESULTS_DIR, { recursive: true });
      const pages = [...(context?.pages() ?? []), ...extraContexts.flatMap((c) => c.pages())];
      for (const [index, open] of pages.entries()) {
        const file = screenshotPath(`${test.fullTitle()}${index === 0 ? '' : ` (${index + 1})`}`);
        await open.screenshot({ path: file, fullPage: true }).catch(() => undefined);
      }
    }
    for (const extra of extraContexts.splice(0)) await extra.close().catch(() => undefined);
    await context?.close().catch(() => undefined);
    context = undefined;
    page = undefined;
  });

  after(async () => {
    await session?.close();
    session = undefined;
  });

  return {
    get page() {
      if (!page) throw new Error('no page outside a test');
      return page;
    },
    get context() {
      if (!context) throw new Error('no context outside a test');
      return context;
    },
    async newPage(pageOptions = {}) {
      if (!session) throw new Error('the browser did not start');
      // `locale` sets the browser's language (navigator.languages and Accept-Language), as a visitor's would be.
      const extra = await session.browser.newContext({ viewport: pageOptions.viewport ?? viewport, locale: pageOptions.locale });
      extra.setDefaultTimeout(ACTION_TIMEOUT_MS);
      extraContexts.push(extra);
      return extra.newPage();
    },
  };
}
