/**
 * Browser tests drive Debian's Chromium headless shell (or CHROMIUM_PATH) through playwright-core, with a fresh
 * profile. `useBrowser()` wires the mocha hooks of a suite: a new isolated context (cookies, storage, cache) per
 * test in the process's one browser, and a full-page screenshot in test-results/ when a test fails.
 *
 * One Chromium per test process (`sharedBrowser()`), launched by the first suite that needs it: a launch costs about
 * 0.7 s of CPU and the suite has dozens of browser suites. The root hooks close it after a run in one process
 * (helpers/runEnd.ts); a worker of the parallel run keeps it for its next spec files, and playwright kills it (and
 * removes its profile) when the worker exits at the end of the run.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { atRunEnd } from './runEnd';

/**
 * The headless shell (Debian's chromium-headless-shell: Blink without the browser's UI) rather than /usr/bin/chromium
 * in its headless mode: the same pages cost Chromium about half the CPU (widget-api 62 → 31 CPU-s alone, sign-in 42 →
 * 29). CHROMIUM_PATH=/usr/bin/chromium runs them in the full browser.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium-headless-shell';
export const RESULTS_DIR = path.resolve(__dirname, '..', '..', 'test-results');

/**
 * `--in-process-gpu` (the compositor in the browser process rather than a GPU process of its own) and
 * `--disable-site-isolation-trials` (fewer renderer processes: signin.spec's 20 tests start 21 rather than 36) take
 * about an eighth off the browser specs' CPU. Measured on the 2-core machine, eight browser spec files and four others
 * in `mocha --parallel --jobs 3`, four runs each way taking turns: the browser files' CPU 206–234 → 178–219 CPU-s
 * (means 219 → 193), the four others' 41–56 CPU-s either way, the run's wall 148–166 → 135–156 s. What a page can do
 * is the same either way: the same-origin policy is Blink's own, not the process boundary's (Safari and Chrome on
 * most phones keep sites in shared processes).
 *
 * `--renderer-process-limit=1`: a context's pages share the renderer process it already has, rather than a new one for
 * each page and for each navigation typed in (`goto`). A renderer that starts, loads the console's login screen and ends
 * cost Chromium 0.68–0.80 s of CPU; the same load in a renderer that stays (its V8 keeps the console's compiled
 * bundles) 0.26–0.28 s, and a new page joining a running renderer 0.39 s (ten loads each way, 2-core machine, quiet).
 * Contexts still have a renderer each: Chromium never shares one between them.
 */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--in-process-gpu',
  '--disable-site-isolation-trials',
  '--renderer-process-limit=1',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Pictures of screens for a person to look at (the guide's desktop and phone pictures of every screen built), as
 * opposed to a failed test's pictures, which are always taken. Taken when specs run in one process (`npx mocha
 * test/e2e/x.spec.ts`, `npm test -- test/e2e/x.spec.ts`) or with PARLEY_PICTURES=1; the parallel suite (`npm test`)
 * skips them, and PARLEY_PICTURES=0 skips them anywhere (to measure a file's CPU as the suite spends it). Nobody looks
 * at the suite's 240 or so pictures, and each costs Chromium 0.05–0.17 s of CPU (0.2–0.8 s a full page): measured on
 * the 2-core machine, the console's login, a docs page and the demo site at 1280×800 and 390×844.
 */
export const PICTURES =
  process.env.PARLEY_PICTURES === '1' || (process.env.MOCHA_WORKER_ID === undefined && process.env.PARLEY_PICTURES !== '0');

/** Saves a picture of what the page shows to `file` (its folder made), when pictures are taken (PICTURES). */
export async function picture(page: Page, file: string, options: { fullPage?: boolean } = {}): Promise<void> {
  if (!PICTURES) return;
  mkdirSync(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file, fullPage: options.fullPage });
}

/** Waits until no animation of the page runs but endless ones (a spinner); a transition (the sidebar sliding) ends. */
export async function animationsSettled(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
  );
}

/** The sizes every screen is looked at in: a desktop window and a phone. */
const PICTURE_SIZES = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

/**
 * Pictures of what the page shows at each of PICTURE_SIZES, as `<dir>/<name>-<width>.png` (dir under test-results),
 * back at the desktop size afterwards; nothing at all when pictures are not taken. At each size the page settles first
 * (no animation running but endless ones: the console's side navigation slides away on a phone), then `prepare` runs
 * (scrolling what the picture is of into view) and the page settles again.
 */
export async function picturesAtBothSizes(page: Page, dir: string, name: string, prepare?: () => Promise<unknown>): Promise<void> {
  if (!PICTURES) return;
  const settle = () => animationsSettled(page);
  for (const size of PICTURE_SIZES) {
    if (page.viewportSize()?.width !== size.width) await page.setViewportSize(size);
    await settle();
    if (prepare) {
      await prepare();
      await settle();
    }
    await picture(page, path.join(RESULTS_DIR, dir, `${name}-${size.width}.png`));
  }
  await page.setViewportSize(PICTURE_SIZES[0]);
}

/** How long a step waits for the page (an element, a URL) before the test fails. */
export const ACTION_TIMEOUT_MS = 15_000;

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

let shared: Promise<Browser> | undefined;

/** The process's browser, launched on first use; launched again if it died (a crash must not fail the next suites). */
export function sharedBrowser(): Promise<Browser> {
  if (shared) return shared;
  const launching = launchBrowser().then((session) => session.browser);
  shared = launching;
  atRunEnd(closeSharedBrowser);
  const forget = () => {
    if (shared === launching) shared = undefined;
  };
  launching.then((browser) => browser.on('disconnected', forget), forget);
  return launching;
}

/** Closes the process's browser if one was launched (the end of a run in one process). */
export async function closeSharedBrowser(): Promise<void> {
  const launching = shared;
  shared = undefined;
  const browser = await launching?.catch(() => undefined);
  await browser?.close();
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
  /** The page of the running test (new each test, unless its block shares a context or a page: see useBrowser). */
  readonly page: Page;
  readonly context: BrowserContext;
  /** Opens another isolated context, closed after the test (e.g. a second user). */
  newPage(options?: { viewport?: { width: number; height: number }; locale?: string }): Promise<Page>;
};

/**
 * Call inside a `describe`: makes sure the process's browser runs before the suite, gives every test a fresh
 * context and page, saves a screenshot of each open page when the test fails, and closes the test's contexts
 * afterwards.
 *
 * `context: 'suite'`: the tests of the describe block share one context, each with a new page in it, and after each
 * test its pages are closed and what a site keeps of a visit is wiped (cookies, local storage, IndexedDB, service
 * workers of every origin the test reached; permissions). The HTTP cache stays, so the console's immutable bundles
 * are fetched once per block. A blank page of the harness's own stays open in the shared context, so the context's
 * renderer (see CHROMIUM_ARGS) outlives each test's pages, and the next test's page joins it warm. A first page in a new
 * context cost Chromium about 0.5 s of CPU more than a new page in a running one (measured on the 2-core machine,
 * Chromium 156): about 5 % of the CPU of the sign-in and billing specs, measured side by side with a context per
 * test. A test that changes the context itself (its clock, routes, init scripts, offline mode, headers) opens its
 * page with `newPage()`, a context of its own, or its block keeps a context each. After a failed test the shared
 * context is closed and the next test gets a new one.
 *
 * `page: 'suite'` (with `context: 'suite'`): the tests also share the block's first page. After a passed test the page
 * goes to about:blank and is put back as a new one would be: its listeners (`page.on`) and routes removed, its
 * viewport and emulated media reset; its other pages are closed and the site data wiped as above. A new page costs
 * Chromium 1.6–1.9 s of CPU against 0.8–1.1 s for the same page sent to about:blank and on (ten loads of the console's
 * login screen each way, measured on the 2-core machine at load 1). Only for blocks whose tests add no init script or
 * exposed function to `browser.page` (nothing takes those back) and do not go back past their own first page.
 */
export function useBrowser(
  options: { viewport?: { width: number; height: number }; context?: 'test' | 'suite'; page?: 'test' | 'suite' } = {},
): BrowserFixture {
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let page: Page | undefined;
  const extraContexts: BrowserContext[] = [];
  const viewport = options.viewport ?? { width: 1280, height: 800 };
  const shared = options.context === 'suite';
  const sharedPage = shared && options.page === 'suite';
  /** The block's page, kept from the last passed test (page: 'suite'). */
  let kept: Page | undefined;
  /** The shared context's blank page that keeps its renderer running between tests (not the tests'). */
  let keeper: Page | undefined;
  /** The origins the shared context's pages reached during the running test, to wipe after it. */
  const origins = new Set<string>();

  before(async function () {
    this.timeout(60_000);
    browser = await sharedBrowser();
  });

  beforeEach(async () => {
    // A browser that died in an earlier test (or file) is launched again rather than failing every test after it.
    if (!browser?.isConnected()) browser = await sharedBrowser();
    if (!shared || !context) {
      context = await browser.newContext({ viewport });
      context.setDefaultTimeout(ACTION_TIMEOUT_MS);
      if (shared) {
        keeper = await context.newPage();
        context.on('request', (request) => {
          const { origin } = new URL(request.url());
          if (origin.startsWith('http')) origins.add(origin);
        });
      }
    }
    page = kept && !kept.isClosed() ? kept : await context.newPage();
    kept = undefined;
    if (shared && origins.size > 0) await forgetOrigins(page, origins);
  });

  afterEach(async function () {
    const test = this.currentTest;
    if (test?.state === 'failed') {
      mkdirSync(RESULTS_DIR, { recursive: true });
      const pages = [...(context?.pages() ?? []), ...extraContexts.flatMap((c) => c.pages())].filter((p) => p !== keeper);
      for (const [index, open] of pages.entries()) {
        const file = screenshotPath(`${test.fullTitle()}${index === 0 ? '' : ` (${index + 1})`}`);
        await open.screenshot({ path: file, fullPage: true }).catch(() => undefined);
      }
    }
    for (const extra of extraContexts.splice(0)) await extra.close().catch(() => undefined);
    const used = page;
    page = undefined;
    // The shared context is kept for the next test, emptied; after a failure (or a failed emptying) it is replaced.
    if (shared && context && test?.state !== 'failed') {
      kept = sharedPage && used && (await putBack(used, viewport)) ? used : undefined;
      if (await emptied(context, [kept, keeper])) return;
      kept = undefined;
    }
    await context?.close().catch(() => undefined);
    context = undefined;
    origins.clear();
  });

  after(async () => {
    await context?.close().catch(() => undefined);
    context = undefined;
    browser = undefined;
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
      if (!browser) throw new Error('the browser did not start');
      // `locale` sets the browser's language (navigator.languages and Accept-Language), as a visitor's would be.
      const extra = await browser.newContext({ viewport: pageOptions.viewport ?? viewport, locale: pageOptions.locale });
      extra.setDefaultTimeout(ACTION_TIMEOUT_MS);
      extraContexts.push(extra);
      return extra.newPage();
    },
  };
}

/** What a site keeps in the browser besides cookies (cleared with the context's), by the DevTools protocol's names. */
const SITE_STORAGE = 'local_storage,indexeddb,service_workers,cache_storage,file_systems,websql,storage_buckets';

/**
 * Closes the context's pages but those in `keep`, and clears its cookies and permissions; what the pages' sites stored
 * otherwise is cleared from the next test's first page (forgetOrigins), once these pages are gone. False when that
 * failed.
 */
async function emptied(context: BrowserContext, keep: (Page | undefined)[]): Promise<boolean> {
  try {
    for (const open of context.pages()) if (!keep.includes(open)) await open.close();
    await context.clearCookies();
    await context.clearPermissions();
    return true;
  } catch {
    return false;
  }
}

/** Puts a test's page back as a new one would be (see `page: 'suite'`); false when that failed. */
async function putBack(page: Page, viewport: { width: number; height: number }): Promise<boolean> {
  try {
    page.removeAllListeners();
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await page.goto('about:blank');
    await page.setViewportSize(viewport);
    await page.emulateMedia({ media: null, colorScheme: null, reducedMotion: null, forcedColors: null });
    return true;
  } catch {
    return false;
  }
}

/** Clears what `origins` (then emptied) stored in the page's context: its local storage, IndexedDB, workers, caches. */
async function forgetOrigins(page: Page, origins: Set<string>): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  for (const origin of origins) await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: SITE_STORAGE });
  origins.clear();
  await cdp.detach();
}
