/**
 * The README's "Try it without Slack", as a newcomer walks it, from a fresh data directory, at desktop and phone
 * sizes: console sign-up and setup, the widget on the demo site, the conversation in the Slack sandbox (reply,
 * /parley help, a header button, App Home) and the outbox. Every page must be free of console errors, failed
 * requests, 404s and raw Slack markup (`:emoji:`, `<!date`, `&lt;`).
 */

import path from 'node:path';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { uniqueEmail } from '../factories';
import { startTestServer, useServer } from '../helpers/app';
import { picture, RESULTS_DIR, useBrowser } from '../helpers/browser';
import { widgetBuilt } from '../helpers/widgetBuild';

const SIZES = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

/** Slack markup a person must never read as such. */
const RAW_MARKUP = [/:[a-z][a-z0-9_+-]*[a-z0-9]:(?!\d)/, /<!date/, /&lt;|&gt;|&amp;/];

describe("README's Try it without Slack (browser, both sizes)", function () {
  this.timeout(180_000);
  const browser = useBrowser();
  const server = useServer({}, startTestServer, 'test');

  before(async function () {
    this.timeout(60_000);
    await widgetBuilt();
  });

  /** Watches a page for what a person would notice as broken. */
  function watch(page: Page, problems: string[]): void {
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error on ${page.url()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error on ${page.url()}: ${error.message}`));
    page.on('requestfailed', (request) => {
      // A page left while its event stream or socket was open cancels them: that is no failure.
      if (/net::ERR_ABORTED/.test(request.failure()?.errorText ?? '')) return;
      problems.push(`request failed: ${request.url()} (${request.failure()?.errorText})`);
    });
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`HTTP ${response.status()} for ${response.url()}`);
    });
  }

  /** The visible text of the page (the widget's shadow root included) holds no raw Slack markup. */
  async function expectNoRawMarkup(page: Page, where: string): Promise<void> {
    const text = await page.evaluate(() => {
      const parts = [document.body.innerText];
      for (const host of document.querySelectorAll('parley-widget')) {
        const root = host.shadowRoot;
        if (!root) continue;
        // Text a person reads: the shadow root's text nodes outside its style sheets.
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          if (!node.parentElement?.closest('style, script')) parts.push(node.textContent ?? '');
        }
      }
      return parts.join('\n');
    });
    for (const pattern of RAW_MARKUP) expect(text, `${where} shows ${pattern}: ${pattern.exec(text)?.[0]}`).to.not.match(pattern);
  }

  async function shot(page: Page, size: string, step: string): Promise<void> {
    const dir = path.join(RESULTS_DIR, 'walkthrough');
    await picture(page, path.join(dir, `${size}-${step}.png`));
  }

  for (const size of SIZES) {
    it(`walks from sign-up to a Slack answer and the outbox at ${size.width}×${size.height}`, async () => {
      const url = server.url;
      const problems: string[] = [];
      const viewport = { width: size.width, height: size.height };
      const console = await browser.newPage({ viewport });
      watch(console, problems);

      // 1. Sign up, accept the terms.
      const email = uniqueEmail('walk');
      await console.goto(`${url}/app/`);
      await console.getByRole('link', { name: 'Start your free trial' }).click();
      await console.getByLabel('Work email').fill(email);
      await console.getByLabel('Password').fill('correct horse battery');
      await console.getByRole('button', { name: 'Sign up', exact: true }).click();
      await console.getByRole('checkbox', { name: 'I agree to the Terms of Service and Privacy Policy' }).check();
      await console.getByRole('button', { name: 'Continue' }).click();

      // 2. Setup step 1 (where the terms lead): Add to Slack, allow on the sandbox's consent page.
      await console.getByRole('button', { name: 'Add to Slack' }).click();
      await console.waitForURL(/\/sandbox\/slack\/oauth\/v2\/authorize/);
      await expectNoRawMarkup(console, 'the consent page');
      await shot(console, size.name, '1-consent');
      await console.locator('#sandbox-oauth-allow').click();

      // 3. Step 2: #support; step 3 shows the embed code.
      await console.getByRole('button', { name: 'Connect #support' }).click();
      await console.getByRole('heading', { name: 'Setup is finished!' }).waitFor();
      await expectNoRawMarkup(console, 'the embed page');
      await shot(console, size.name, '2-embed');
      await console.getByRole('link', { name: 'Go to the dashboard' }).click();
      await console.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
      await console.getByRole('img', { name: 'Online' }).first().waitFor();
      await expectNoRawMarkup(console, 'the dashboard');
      await shot(console, size.name, '3-dashboard');

      // 4. The demo site embeds the widget: write a message.
      const visitor = await browser.newPage({ viewport });
      watch(visitor, problems);
      await visitor.goto(`${server.demoUrl}/`);
      const widget = visitor.locator('parley-widget');
      await widget.locator('.launcher').click();
      const input = widget.getByRole('textbox', { name: 'Message', exact: true });
      await input.fill('Hello! Do you ship to Lisbon & Porto?');
      await input.press('Enter');
      await widget.locator('.msg.visitor:not(.sending)', { hasText: 'Do you ship to Lisbon & Porto?' }).waitFor();
      await expectNoRawMarkup(visitor, 'the widget');
      await shot(visitor, size.name, '4-widget');

      // 5. The Slack sandbox: the conversation is a thread in #support; reply, /parley help, a button, App Home.
      const slack = await browser.newPage({ viewport });
      watch(slack, problems);
      await slack.goto(`${url}/sandbox/slack`);
      await slack.locator('#op-channels a', { hasText: 'support' }).click();
      const parent = slack
        .locator('#op-messages .msg', { hasText: 'Answered by' })
        .or(slack.locator('#op-messages .msg', { hasText: 'Waiting' }));
      await slack.locator('#op-messages [data-act="open-thread"]').first().waitFor();
      await expectNoRawMarkup(slack, 'the sandbox channel');
      await shot(slack, size.name, '5-sandbox-channel');
      await slack.locator('#op-messages [data-act="open-thread"]').first().click();
      // The thread's first reply is the visitor's post, with the visitor's avatar (Slack's icon_url), not the app's.
      const visitorPost = slack
        .locator('#op-thread .msg[data-thread-ts]:not(:first-child)', { hasText: 'Do you ship to Lisbon & Porto?' })
        .first();
      await visitorPost.waitFor();
      const avatar = await visitorPost.locator('img.avatar').getAttribute('src');
      expect(avatar).to.match(/\/avatars\/visitor\/[0-9a-f]{24}\.png$/);
      await slack.fill('#op-thread-text', 'Yes, we ship to both *every Tuesday* :truck:');
      await slack.press('#op-thread-text', 'Enter');
      await widget.locator('.msg.operator', { hasText: 'every Tuesday' }).waitFor();
      await expectNoRawMarkup(visitor, 'the widget after the answer');
      await shot(visitor, size.name, '6-widget-answered');
      await slack.locator('#op-thread .msg', { hasText: 'every Tuesday' }).locator('.emoji').waitFor();
      await expectNoRawMarkup(slack, 'the sandbox thread');
      await shot(slack, size.name, '7-sandbox-thread');

      await slack.locator('#op-thread [data-kind="button"]', { hasText: 'Visitor info' }).first().click();
      await slack.locator('#op-modal .modal').waitFor();
      await expectNoRawMarkup(slack, 'the visitor info modal');
      await shot(slack, size.name, '8-sandbox-modal');
      await slack.locator('#op-modal-close').click();
      await slack.locator('#op-modal .modal').waitFor({ state: 'detached' });
      if (size.name === 'phone') await slack.locator('#op-close-thread').click();

      await slack.fill('#op-text', '/parley help');
      await slack.press('#op-text', 'Enter');
      await slack.locator('#op-ephemerals .ephemeral').first().waitFor();
      await expectNoRawMarkup(slack, 'the /parley help answer');
      await shot(slack, size.name, '9-sandbox-help');

      await slack.locator('#op-home-link').click();
      await slack.locator('#op-home .bk-section').first().waitFor();
      await expectNoRawMarkup(slack, 'App Home');
      await shot(slack, size.name, '10-sandbox-home');

      // 6. The outbox lists the mails (the visitor's transcript here).
      await visitor.bringToFront();
      await widget.getByRole('button', { name: 'Chat options' }).click();
      await widget.getByRole('menuitem', { name: 'End chat' }).click();
      await widget.getByRole('button', { name: 'Yes' }).click();
      await widget.getByLabel('Email address for a transcript').fill('visitor@example.com');
      await widget.getByLabel('Email address for a transcript').press('Enter');
      await widget.getByText('The transcript is on its way to your inbox.').waitFor();
      await console.goto(`${url}/dev/outbox`);
      await console
        .getByText('Transcript of your chat')
        .first()
        .waitFor({ timeout: 30_000 })
        .catch(async () => {
          await console.reload();
          await console.getByText('Transcript of your chat').first().waitFor();
        });
      await expectNoRawMarkup(console, 'the outbox');
      await shot(console, size.name, '11-outbox');

      expect(parent).to.not.equal(undefined);
      expect(problems).to.deep.equal([]);
    });
  }
});
