/**
 * The widget's public JS API and the settings that shape what a visitor sees, in Chromium on the demo site
 * (another origin), with the real relay and Slack sandbox: the queue stub, events, lazy loading, privacy consent
 * and pre-chat details, the end of a chat with a rating, tabs sharing one conversation, blacklisted pages and
 * the launcher's looks.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { useServer } from '../helpers/app';
import { useBrowser } from '../helpers/browser';
import { widgetBuilt } from '../helpers/widgetBuild';
import { ACME, ALICE } from '../slack/helpers';
import { animationsDone, configuredWidget, shot, threadWith, type Widget, waitFor } from './widgetHelpers';

type Win = Window & { parley: Record<string, (...args: unknown[]) => unknown>; __events: string[] };

describe('visitor widget API and settings (browser)', function () {
  this.timeout(120_000);
  const server = useServer();
  const browser = useBrowser();

  before(async function () {
    this.timeout(60_000);
    await widgetBuilt();
  });

  const widgetOf = (page: Page) => page.locator('parley-widget');

  /** Records the widget's `ready` events in `window.__events`, from the page's first script on. */
  const recordReady = (page: Page) =>
    page.addInitScript(() => {
      const w = window as unknown as Win;
      w.__events = [];
      document.addEventListener('parley.ready', () => w.__events.push('ready'));
    });

  async function openDemo(page: Page, widget: Widget, query = ''): Promise<void> {
    await page.goto(`${server.demoUrl}/?widget=${widget.uuid}${query}`);
  }

  it('replays calls queued before the loader ran and reports events to listeners and as DOM events', async () => {
    const widget = await configuredWidget(server);
    const page = browser.page;
    // What a site does before /widget.js arrives: the snippet's stub queues the calls.
    await page.addInitScript(() => {
      const w = window as unknown as Win & { parley: { _q: unknown[] } };
      w.__events = [];
      w.parley = { _q: [] } as unknown as Win['parley'] & { _q: unknown[] };
      const q = (w.parley as unknown as { _q: unknown[] })._q;
      q.push(['on', ['ready', () => w.__events.push('ready')]]);
      q.push(['on', ['firstMessageSent', () => w.__events.push('firstMessageSent')]]);
      q.push(['identify', ['user-42', { name: 'Jane Roe', email: 'jane@example.com', plan: 'pro' }]]);
      for (const name of ['expanded', 'collapsed', 'messageReceived']) {
        document.addEventListener(`parley.${name}`, () => w.__events.push(`dom:${name}`));
      }
    });
    await openDemo(page, widget);
    await page.waitForFunction(() => (window as unknown as Win).__events.includes('ready'));
    expect(await page.evaluate(() => (window as unknown as Win).parley.isShown())).to.equal(true);
    expect(await page.evaluate(() => (window as unknown as Win).parley.isOnline())).to.equal(true);

    await page.evaluate(() => (window as unknown as Win).parley.open());
    await widgetOf(page).getByRole('textbox', { name: 'Message', exact: true }).waitFor();
    await page.evaluate(() => (window as unknown as Win).parley.send('Sent through the API'));
    await widgetOf(page).locator('.msg.visitor:not(.sending)', { hasText: 'Sent through the API' }).waitFor();
    const thread = await waitFor('the Slack thread', () => threadWith(server, widget.channel, 'Sent through the API'));

    const visitor = await waitFor('the identified visitor', () => server.models.Visitor.findOne({ identUserId: 'user-42' }).exec());
    expect(visitor.identTraits).to.include({ plan: 'pro' });

    await server.slack.postAsUser({
      teamId: ACME,
      userId: ALICE,
      channelId: widget.channel,
      threadTs: thread.parent.ts,
      text: 'Hello Jane!',
    });
    await widgetOf(page).getByText('Hello Jane!').waitFor();
    await page.evaluate(() => (window as unknown as Win).parley.hide());
    expect(await page.evaluate(() => (window as unknown as Win).parley.isShown())).to.equal(false);
    expect(await widgetOf(page).isVisible()).to.equal(false);
    const events = await page.evaluate(() => (window as unknown as Win).__events);
    expect(events).to.include.members(['ready', 'dom:expanded', 'firstMessageSent', 'dom:messageReceived', 'dom:collapsed']);
    expect(events.filter((e) => e === 'firstMessageSent')).to.have.length(1);
  });

  it('loads no panel and opens no socket until the visitor shows interest', async () => {
    const widget = await configuredWidget(server);
    const page = browser.page;
    const panelRequests: string[] = [];
    const sockets: string[] = [];
    page.on('request', (req) => {
      if (/\/widget\/panel\.[^/]+\.js$/.test(req.url())) panelRequests.push(req.url());
    });
    page.on('websocket', (ws) => sockets.push(ws.url()));
    await openDemo(page, widget);
    const launcher = widgetOf(page).locator('.launcher');
    await launcher.waitFor();
    await page.waitForLoadState('networkidle');
    expect(panelRequests).to.have.length(0);
    expect(sockets).to.have.length(0);

    await launcher.hover();
    await waitFor('the panel script', () => (panelRequests.length > 0 ? true : undefined));
    expect(sockets).to.have.length(0);
    await launcher.click();
    await waitFor('the socket', () => (sockets.length > 0 ? true : undefined));
    expect(sockets[0]).to.equal(`${server.url.replace(/^http/, 'ws')}/ws`);
  });

  it('asks for privacy acceptance and the visitor details first when the widget requires them', async () => {
    const widget = await configuredWidget(server, {
      requireAcceptance: true,
      acceptanceText: 'I agree that Northwind stores my messages.',
      displayPrivacyPolicy: true,
      privacyPolicyLinkURL: 'https://northwind.example/privacy',
      privacyPolicyLinkText: 'Our privacy policy',
      requireInfo: true,
      requireInfoGreeting: 'Who are we talking to?',
    });
    const page = browser.page;
    await openDemo(page, widget);
    const w = widgetOf(page);
    await w.locator('.launcher').click();
    await w.getByText('I agree that Northwind stores my messages.').waitFor();
    await animationsDone(page);
    await shot(page, 'privacy-consent');
    expect(await w.getByRole('link', { name: 'Our privacy policy' }).first().getAttribute('href')).to.equal(
      'https://northwind.example/privacy',
    );
    expect(await w.getByRole('textbox', { name: 'Message', exact: true }).count()).to.equal(0);
    await w.getByRole('button', { name: 'Accept' }).click();

    await w.getByText('Who are we talking to?').waitFor();
    await shot(page, 'pre-chat-details');
    await w.getByLabel('Name').fill('Sam Visitor');
    await w.getByLabel('Email').fill('sam@example.com');
    await w.getByRole('button', { name: 'Start chat' }).click();
    await w.getByRole('textbox', { name: 'Message', exact: true }).fill('Hello after the forms');
    await w.getByRole('textbox', { name: 'Message', exact: true }).press('Enter');
    await w.locator('.msg.visitor:not(.sending)', { hasText: 'Hello after the forms' }).waitFor();
    const visitor = await waitFor('the visitor with details', () => server.models.Visitor.findOne({ email: 'sam@example.com' }).exec());
    expect(visitor.name).to.equal('Sam Visitor');
    expect(visitor.acceptedPrivacyAt).to.be.instanceOf(Date);
  });

  it('ends the chat from the menu after confirmation and records the rating and feedback', async () => {
    const widget = await configuredWidget(server);
    const page = browser.page;
    await page.addInitScript(() => {
      const w = window as unknown as Win;
      w.__events = [];
      document.addEventListener('parley.conversationEnded', () => w.__events.push('conversationEnded'));
    });
    await openDemo(page, widget);
    const w = widgetOf(page);
    await w.locator('.launcher').click();
    await w.getByRole('textbox', { name: 'Message', exact: true }).fill('Quick question');
    await w.getByRole('textbox', { name: 'Message', exact: true }).press('Enter');
    await w.locator('.msg.visitor:not(.sending)', { hasText: 'Quick question' }).waitFor();

    await w.getByRole('button', { name: 'Chat options' }).click();
    await w.getByRole('menuitem', { name: 'End chat' }).click();
    await w.getByText('Are you sure you want to end this chat?').waitFor();
    await w.getByRole('button', { name: 'Yes' }).click();
    await w.getByText('This chat has ended.').waitFor();
    await w.getByRole('button', { name: 'Good' }).click();
    await w.getByRole('textbox', { name: 'Feedback' }).fill('Fast and friendly');
    await shot(page, 'chat-ended-rating');
    await w.getByRole('button', { name: 'Send' }).first().click();
    await w.getByText('Thanks for your feedback!').waitFor();

    // The rating is stored on the click and the feedback with Send (the thank-you shows without waiting for it).
    const conversation = await waitFor('the rating and its feedback', () =>
      server.models.Conversation.findOne({ rating: 'up', feedback: { $ne: '' } }).exec(),
    );
    expect(conversation.status).to.equal('ended');
    expect(conversation.feedback).to.equal('Fast and friendly');
    expect(await page.evaluate(() => (window as unknown as Win).__events)).to.deep.equal(['conversationEnded']);
  });

  it('records a thumbs-up on the click and the feedback apart; a reload keeps the automatic response and the end card', async () => {
    const widget = await configuredWidget(server);
    const page = browser.page;
    await openDemo(page, widget);
    const w = widgetOf(page);
    const autoResponse = w.getByText('Thanks for reaching out! Someone will be with you shortly.');
    await w.locator('.launcher').click();
    await w.getByRole('textbox', { name: 'Message', exact: true }).fill('Is the shop open on Sunday?');
    await w.getByRole('textbox', { name: 'Message', exact: true }).press('Enter');
    await w.locator('.msg.visitor:not(.sending)', { hasText: 'Is the shop open on Sunday?' }).waitFor();
    await autoResponse.waitFor();

    // The conversation is ongoing: the panel opens again by itself, with the automatic response below the question.
    await page.reload();
    await w.locator('.msg.visitor', { hasText: 'Is the shop open on Sunday?' }).waitFor();
    await autoResponse.waitFor();
    expect(await autoResponse.count()).to.equal(1);

    await w.getByRole('button', { name: 'Chat options' }).click();
    await w.getByRole('menuitem', { name: 'End chat' }).click();
    await w.getByRole('button', { name: 'Yes' }).click();
    await w.getByText('How would you rate this chat?').waitFor();

    // Left before rating: the card is still there after a reload.
    await page.reload();
    await w.locator('.launcher').click();
    await w.getByText('How would you rate this chat?').waitFor();
    await w.getByText('Email address for a transcript').waitFor();
    await autoResponse.waitFor();

    // The thumb alone is the rating: no Send needed.
    await w.getByRole('button', { name: 'Good' }).click();
    const rated = await waitFor('the rating', () => server.models.Conversation.findOne({ ceId: widget.ceId, rating: 'up' }).lean().exec());
    expect(rated.feedback).to.equal('');
    await w.getByRole('textbox', { name: 'Feedback' }).fill('Quick answer, thanks');
    await w.getByRole('button', { name: 'Send' }).first().click();
    await w.getByText('Thanks for your feedback!').waitFor();
    await waitFor('the feedback', () =>
      server.models.Conversation.findOne({ ceId: widget.ceId, rating: 'up', feedback: 'Quick answer, thanks' }).lean().exec(),
    );

    // Rated: after a reload the card thanks instead of asking again, and still offers the transcript.
    await page.reload();
    await w.locator('.launcher').click();
    await w.getByText('Thanks for your feedback!').waitFor();
    await w.getByText('Email address for a transcript').waitFor();
    expect(await w.getByRole('button', { name: 'Good' }).count()).to.equal(0);
    await shot(page, 'chat-ended-after-reload-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'chat-ended-after-reload-390');
  });

  it('shares one conversation between tabs and page loads of the same visitor', async () => {
    const widget = await configuredWidget(server);
    const first = browser.page;
    await openDemo(first, widget);
    await widgetOf(first).locator('.launcher').click();
    await widgetOf(first).getByRole('textbox', { name: 'Message', exact: true }).fill('Message from the first tab');
    await widgetOf(first).getByRole('textbox', { name: 'Message', exact: true }).press('Enter');
    const thread = await waitFor('the Slack thread', () => threadWith(server, widget.channel, 'Message from the first tab'));

    // Same browser profile, another tab: the ongoing conversation comes back open, with its history.
    const second = await browser.context.newPage();
    await openDemo(second, widget);
    await widgetOf(second).getByText('Message from the first tab').waitFor();
    await widgetOf(second).getByRole('button', { name: 'Minimise chat' }).click();
    await server.slack.postAsUser({
      teamId: ACME,
      userId: ALICE,
      channelId: widget.channel,
      threadTs: thread.parent.ts,
      text: 'Reply seen in both tabs',
    });
    await widgetOf(first).getByText('Reply seen in both tabs').waitFor();
    // Minimised, the second tab shows the reply as an unread badge.
    await widgetOf(second).locator('.badge', { hasText: '1' }).waitFor();
    await widgetOf(second).locator('.launcher').click();
    await widgetOf(second).getByText('Reply seen in both tabs').waitFor();
    expect(await widgetOf(second).locator('.msg', { hasText: 'Message from the first tab' }).count()).to.equal(1);
  });

  it('peeks with a proactive trigger on matching pages and records it on the conversation the visitor starts', async () => {
    const triggers = {
      minDelay: 60,
      matchType: 'contains',
      triggers: [
        {
          uid: 'trg-beans',
          message: 'Need help choosing a roast?',
          after: 1,
          on: ['widget='],
          matchType: 'contains',
          enabled: true,
          displayStyle: 'peek',
        },
        {
          uid: 'trg-never',
          message: 'Only on the checkout page',
          after: 0,
          on: ['/checkout'],
          matchType: 'startsWith',
          enabled: true,
          displayStyle: 'peek',
        },
      ],
    };
    const widget = await configuredWidget(server, { triggerJson: JSON.stringify(triggers) });
    const page = browser.page;
    // A clock the test can move on: after the reload below, the trigger's timer is run at once instead of waited for.
    await page.clock.install();
    await recordReady(page);
    await openDemo(page, widget);
    const w = widgetOf(page);
    const peek = w.locator('.peek');
    await peek.getByText('Need help choosing a roast?').waitFor();
    await animationsDone(page);
    await shot(page, 'trigger-peek');
    expect(await w.getByText('Only on the checkout page').count()).to.equal(0);
    await peek.getByText('Need help choosing a roast?').click();
    await w.getByRole('textbox', { name: 'Message', exact: true }).fill('Something fruity please');
    await w.getByRole('textbox', { name: 'Message', exact: true }).press('Enter');
    await w.locator('.msg.visitor:not(.sending)', { hasText: 'Something fruity please' }).waitFor();
    expect(await w.locator('.msg.operator', { hasText: 'Need help choosing a roast?' }).count()).to.equal(1);
    const conversation = await waitFor('the conversation', () => server.models.Conversation.findOne({ triggerUid: 'trg-beans' }).exec());
    expect(conversation.status).to.equal('open');

    // A visitor already chatting (and within minDelay of the last one) is not approached again.
    await page.reload();
    await page.waitForFunction(() => (window as unknown as Win).__events.includes('ready'));
    await page.clock.runFor(2_000);
    expect(await w.locator('.peek').count()).to.equal(0);
  });

  it('sends a file the visitor attaches to the Slack thread, and refuses attachments when uploads are off', async () => {
    const widget = await configuredWidget(server);
    const page = browser.page;
    await openDemo(page, widget);
    const w = widgetOf(page);
    await w.locator('.launcher').click();
    await w.getByRole('textbox', { name: 'Message', exact: true }).fill('I will send you a photo of the grinder');
    await w.getByRole('textbox', { name: 'Message', exact: true }).press('Enter');
    await w.locator('.msg.visitor:not(.sending)', { hasText: 'photo of the grinder' }).waitFor();
    const attach = w.getByRole('button', { name: 'Attach a file' });
    expect(await attach.isEnabled()).to.equal(true);
    await w
      .locator('input[type=file]')
      .setInputFiles({ name: 'grinder-settings.txt', mimeType: 'text/plain', buffer: Buffer.from('burr setting 14') });
    await w.locator('.msg.visitor .files a', { hasText: 'grinder-settings.txt' }).waitFor();
    await waitFor('the file in Slack', () => server.slack.state.data.files.find((f) => JSON.stringify(f).includes('grinder-settings.txt')));

    await server.models.ChatEndpoint.updateOne({ Uuid: widget.uuid }, { $set: { enableFileUploads: false } });
    const other = await browser.newPage();
    await openDemo(other, widget);
    await widgetOf(other).locator('.launcher').click();
    await widgetOf(other).getByRole('textbox', { name: 'Message', exact: true }).waitFor();
    expect(await widgetOf(other).getByRole('button', { name: 'Attach a file' }).count()).to.equal(0);
  });

  it('offers to leave an e-mail when nobody answers in time and stores it on the visitor', async () => {
    const widget = await configuredWidget(server, {
      noAnswerMessageAfterSecs: 1,
      noAnswerWithoutEmail: 'Sorry, everyone is busy. Leave your e-mail?',
    });
    const page = browser.page;
    await openDemo(page, widget);
    const w = widgetOf(page);
    await w.locator('.launcher').click();
    await w.getByRole('textbox', { name: 'Message', exact: true }).fill('Anyone there?');
    await w.getByRole('textbox', { name: 'Message', exact: true }).press('Enter');
    const late = w.locator('.card', { hasText: 'Sorry, everyone is busy. Leave your e-mail?' });
    await late.waitFor();
    await late.getByRole('textbox', { name: 'Email' }).fill('late@example.com');
    await late.getByRole('button', { name: 'Send' }).click();
    await late.getByText('late@example.com').waitFor();
    await waitFor('the e-mail on the visitor', () => server.models.Visitor.findOne({ email: 'late@example.com' }).exec());
  });

  it('tells the visitor clearly when every operator is busy (maxConcurrentConvos) and keeps their message to retry', async () => {
    const widget = await configuredWidget(server, { maxConcurrentConvos: 1 });
    const first = browser.page;
    await openDemo(first, widget);
    await widgetOf(first).locator('.launcher').click();
    await widgetOf(first).getByRole('textbox', { name: 'Message', exact: true }).fill('I was here first');
    await widgetOf(first).getByRole('textbox', { name: 'Message', exact: true }).press('Enter');
    await widgetOf(first).locator('.msg.visitor:not(.sending)', { hasText: 'I was here first' }).waitFor();

    const second = await browser.newPage();
    await openDemo(second, widget);
    const w = widgetOf(second);
    await w.locator('.launcher').click();
    await w.getByRole('textbox', { name: 'Message', exact: true }).fill('Me too, please');
    await w.getByRole('textbox', { name: 'Message', exact: true }).press('Enter');
    await w.getByRole('alert').getByText('All our team members are busy right now.', { exact: false }).waitFor();
    const refused = w.locator('.msg.visitor.failed', { hasText: 'Me too, please' });
    await refused.waitFor();
    expect(await refused.getByRole('button', { name: 'Retry' }).count()).to.equal(1);
    expect(await w.getByRole('button', { name: 'Chat options' }).isVisible()).to.equal(false);
    await animationsDone(second);
    await shot(second, 'busy-refusal');
  });

  it('asks again for its settings when Parley fails or cannot be reached (a deploy), and shows the launcher once Parley answers', async () => {
    const widget = await configuredWidget(server);
    const page = browser.page;
    // A clock the test moves on: the loader's next tries come 5 and 15 s after the first.
    await page.clock.install();
    await recordReady(page);
    // What the visitor's browser meets during a deploy: the load balancer's 503, then no answer at all, then Parley.
    let asked = 0;
    await page.route(/\/widget\/api\/[^/]+\/config\?/, async (route) => {
      asked += 1;
      if (asked === 1) await route.fulfill({ status: 503, headers: { 'Access-Control-Allow-Origin': '*' }, body: '' });
      else if (asked === 2) await route.abort('connectionrefused');
      else await route.continue();
    });
    /** Moves the page's clock on a second at a time until `done`; the seconds it took. */
    const secondsUntil = async (what: string, done: () => Promise<boolean> | boolean): Promise<number> => {
      for (let second = 0; second <= 30; second++) {
        // The page's next step (a fetch, its answer) takes real time.
        await page.waitForTimeout(100);
        if (await done()) return second;
        await page.clock.runFor(1_000);
      }
      throw new Error(`no ${what} within 30 s`);
    };
    await openDemo(page, widget);
    await waitFor('the first ask', async () => asked === 1 || null);
    // Not at once: the next try waits 5 s (counted from the failure, which may come a little after the ask).
    expect(await secondsUntil('second ask', () => asked === 2)).to.be.at.least(4);
    expect(await widgetOf(page).locator('.launcher').count()).to.equal(0);
    expect(await secondsUntil('ready', () => page.evaluate(() => (window as unknown as Win).__events.includes('ready')))).to.be.at.least(9);
    await widgetOf(page).locator('.launcher').waitFor();
    expect(asked).to.equal(3);
    expect(await page.evaluate(() => (window as unknown as Win).parley.isShown())).to.equal(true);
  });

  it('leaves the host page unharmed when the widget does not exist, and does not ask again', async () => {
    const page = browser.page;
    await page.clock.install();
    let asked = 0;
    page.on('request', (request) => {
      if (request.url().includes('/widget/api/no-such-widget/config')) asked += 1;
    });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    // Another site, served from loopback for this test (Chromium keeps pages it made up away from loopback scripts).
    const html = `<!doctype html><title>Shop</title><h1>Shop</h1>
<script>window.parley = window.parley || { _q: [] };['identify','show','hide','open','send','configure','reset','on'].forEach(function (m) { window.parley[m] = window.parley[m] || function () { window.parley._q.push([m, [].slice.call(arguments)]); }; });
window.parley.open(); window.parley.send('hello?');</script>
<script async src="${server.url}/widget.js" data-widget-id="no-such-widget" data-style="standard"></script>`;
    const site = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end(html));
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', () => resolve()));
    const shop = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
    try {
      await page.goto(shop);
      // The loader replaces the snippet's stub with the real API (marked _loaded) before it asks for the configuration.
      await page.waitForFunction(() => (window as unknown as { parley: { _loaded?: boolean } }).parley._loaded === true);
      await page.waitForLoadState('networkidle');
      expect(await page.evaluate(() => (window as unknown as Win).parley.isShown())).to.equal(false);
      expect(await page.locator('parley-widget').count()).to.equal(0);
      expect(await page.getByRole('heading', { name: 'Shop' }).isVisible()).to.equal(true);
      expect(errors).to.deep.equal([]);
      // A refusal (404: no such widget) is final: a minute on, it was asked once.
      await page.clock.runFor(60_000);
      await page.waitForLoadState('networkidle');
      expect(asked).to.equal(1);
    } finally {
      await new Promise<void>((resolve) => site.close(() => resolve()));
    }
  });

  it('stays away from pages matching blacklistedUrls', async () => {
    const widget = await configuredWidget(server, { blacklistedUrls: 'style=sidebar\n/checkout' });
    const page = browser.page;
    await recordReady(page);
    await openDemo(page, widget, '&style=sidebar');
    await page.waitForFunction(() => (window as unknown as Win).__events.includes('ready'));
    expect(await widgetOf(page).locator('.launcher').isVisible()).to.equal(false);
    expect(await page.evaluate(() => (window as unknown as Win).parley.isShown())).to.equal(false);
  });

  it('draws the launcher as configured: a round button bottom left, a tab for the sidebar style, an inline box', async () => {
    const widget = await configuredWidget(server, { collapsedMode: 'button', widgetAlignment: 'bottomLeft', titleColor: '#0f766e' });
    const page = browser.page;
    await openDemo(page, widget);
    const launcher = widgetOf(page).locator('.launcher');
    await launcher.waitFor();
    const box = await launcher.boundingBox();
    expect(box?.x).to.be.below(100);
    expect(box?.width).to.equal(box?.height);
    await shot(page, 'launcher-button-left');
    expect(await launcher.evaluate((el) => getComputedStyle(el).backgroundColor)).to.equal('rgb(15, 118, 110)');
    // The demo page sets button { text-transform: uppercase }: the shadow root keeps it out.
    expect(
      await page
        .locator('main button')
        .first()
        .evaluate((el) => getComputedStyle(el).textTransform),
    ).to.equal('uppercase');
    expect(await launcher.evaluate((el) => getComputedStyle(el).textTransform)).to.equal('none');

    // The browser caches the configuration for 30 s: the new settings are read by fresh profiles.
    await server.models.ChatEndpoint.updateOne(
      { Uuid: widget.uuid },
      { $set: { collapsedMode: 'default', widgetAlignment: 'bottomRight' } },
    );
    const sidebar = await browser.newPage();
    await openDemo(sidebar, widget, '&style=sidebar');
    const tab = widgetOf(sidebar).locator('.launcher');
    await tab.waitFor();
    expect(await tab.getAttribute('class')).to.contain('tab');
    await tab.click();
    await widgetOf(sidebar).getByRole('textbox', { name: 'Message', exact: true }).waitFor();
    await animationsDone(sidebar);
    const frame = await widgetOf(sidebar).locator('.frame').boundingBox();
    await shot(sidebar, 'sidebar-open');
    expect(frame?.height).to.equal(800);
    expect((frame?.x ?? 0) + (frame?.width ?? 0)).to.equal(1280);

    const inlinePage = await browser.newPage();
    await openDemo(inlinePage, widget, '&style=inline');
    const inline = inlinePage.locator('#parley-inline');
    await inline.getByRole('textbox', { name: 'Message', exact: true }).waitFor();
    await inlinePage.locator('#parley-inline').scrollIntoViewIfNeeded();
    await shot(inlinePage, 'inline');
    const inBox = await inline.boundingBox();
    const panelBox = await inline.locator('.panel').boundingBox();
    expect(panelBox?.width).to.equal(inBox?.width);
  });
});
