/**
 * The help center in the widget, in Chromium on the demo site: articles suggested while the visitor types their first
 * message, opened inside the panel from the keyboard, back to the composer with the text kept; the automatic answer
 * nobody-answered-yet brings, with its Yes / No; and all of it in Arabic, right to left, on a phone.
 */
import { expect } from 'chai';
import type { Locator, Page } from 'playwright-core';
import { texts as ar } from '../../server/shared/widget-texts/ar';
import { texts as en } from '../../server/shared/widget-texts/en';
import { useServer } from '../helpers/app';
import { useBrowser } from '../helpers/browser';
import { widgetBuilt } from '../helpers/widgetBuild';
import { eventually } from '../slack/helpers';
import { configuredWidget, shot, threadWith, type Widget, waitFor } from './widgetHelpers';

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

describe('help-center answers in the widget (browser)', function () {
  this.timeout(120_000);
  const server = useServer();
  const browser = useBrowser({ context: 'suite' });
  let widget: Widget;

  before(async function () {
    this.timeout(90_000);
    await widgetBuilt();
    widget = await configuredWidget(server);
    const ce = await server.models.ChatEndpoint.findById(widget.ceId);
    if (!ce) throw new Error('no widget');
    const base = { accountId: ce.accountId, ceId: ce._id, published: true };
    await server.models.Article.create([
      {
        ...base,
        language: 'en',
        title: 'Reset your password',
        slug: 'reset-password',
        body: '## Forgot your password?\n\nOpen **Settings**, choose *Password* and follow the reset link we e-mail you.\n\n- The link works for one hour.\n- Check your spam folder.',
      },
      { ...base, language: 'en', title: 'Shipping times', slug: 'shipping', body: 'Parcels leave our warehouse within two days.' },
      {
        ...base,
        language: 'ar',
        title: 'استعادة كلمة المرور',
        slug: 'reset-password',
        body: 'افتح **الإعدادات** واختر كلمة المرور ثم اتبع رابط الاستعادة في بريدك.',
      },
    ]);
    server.parley.articleSearch.changed(String(ce._id));
  });

  const later = (seconds: number) => new Date(Date.now() + seconds * 1000);

  async function open(locale: string, viewport: { width: number; height: number }) {
    const page = await browser.newPage({ locale, viewport });
    const searches: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/articles/search')) searches.push(r.url());
    });
    await page.goto(`${server.demoUrl}/?widget=${widget.uuid}`);
    const host = page.locator('parley-widget');
    await host.locator('.launcher').click();
    return { page, host, searches, input: host.locator('.composer textarea') };
  }

  /** Shift+Tab from the composer until a suggestion has the focus (the attach button sits between them). */
  async function tabBackToSuggestion(page: Page, host: Locator): Promise<void> {
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Shift+Tab');
      if (await host.locator('.answers .hit:focus').count()) return;
    }
    throw new Error('no suggestion took the focus');
  }

  /** Screenshots at both sizes of what the page shows now. */
  async function shots(page: Page, name: string): Promise<void> {
    await shot(page, `${name}-desktop`);
    await page.setViewportSize(PHONE);
    await shot(page, `${name}-phone`);
    await page.setViewportSize(DESKTOP);
  }

  it('suggests articles while the visitor types, opens one from the keyboard, goes back with the text kept, sends; then answers automatically', async () => {
    const { page, host, searches, input } = await open('en-US', DESKTOP);
    await input.focus();
    await page.keyboard.type('How do I reset my password');
    const hit = host.locator('.answers .hit', { hasText: 'Reset your password' });
    await hit.waitFor();
    expect(await host.locator('.answers .hit').count()).to.equal(1);
    expect(await host.locator('.answers [role=status]').textContent()).to.equal(en.ui.suggestionsOne);
    expect(await host.locator('.answers [role=status]').getAttribute('aria-live')).to.equal('polite');
    // After the pause, one search is counted for the report, with exactly record=1.
    await eventually(async () => expect(searches.filter((u) => u.includes('record=1'))).to.have.length(1));
    expect(searches.every((u) => u.includes('lang=en'))).to.equal(true);
    await shots(page, 'answers-suggestions');

    await tabBackToSuggestion(page, host);
    await page.keyboard.press('Enter');
    const article = host.getByRole('region', { name: 'Reset your password' });
    await article.waitFor();
    await article.locator('h3', { hasText: 'Forgot your password?' }).waitFor();
    expect(await article.locator('strong').textContent()).to.equal('Settings');
    expect(await article.getByRole('link', { name: en.ui.fullArticle }).getAttribute('href')).to.match(
      /\/help\/[^/]+\/reset-password\?lang=en$/,
    );
    // Back has the focus: Enter goes back to the composer, the visitor's words still there.
    expect(await host.locator('.article .back:focus').count()).to.equal(1);
    await shots(page, 'answers-article');
    await page.keyboard.press('Enter');
    await article.waitFor({ state: 'detached' });
    expect(await input.inputValue()).to.equal('How do I reset my password');
    expect(await host.locator('.composer textarea:focus').count()).to.equal(1);

    await hit.click();
    await host.getByRole('button', { name: en.ui.stillNeedHelp }).click();
    await article.waitFor({ state: 'detached' });
    expect(await input.inputValue()).to.equal('How do I reset my password');
    await page.keyboard.press('Enter');
    await host.locator('.msg.visitor:not(.sending)', { hasText: 'How do I reset my password' }).waitFor();
    expect(await host.locator('.answers .hit').count()).to.equal(0);
    expect(searches.filter((u) => u.includes('record=1'))).to.have.length(1);

    // Nobody answers within the widget's 45 seconds: the automatic answer comes, with its question.
    const thread = await waitFor('the Slack thread', () => threadWith(server, widget.channel, 'How do I reset my password'));
    await server.parley.relay.dueWork.tick(later(50));
    const card = host.locator('.msg.auto');
    await card.waitFor();
    await card.getByText(en.ui.automaticAnswer).waitFor();
    expect(await card.locator('img').count()).to.equal(0);
    await card.getByRole('button', { name: /Reset your password/ }).waitFor();
    await card.getByText(en.ui.didThisAnswer).waitFor();
    await shots(page, 'answers-automatic');
    await card.getByRole('button', { name: en.ui.yes }).click();
    await card.getByText(en.ui.gladItHelped).waitFor();
    await eventually(async () => {
      const conversation = await server.models.Conversation.findOne({ ceId: widget.ceId }).sort({ _id: -1 });
      expect(conversation?.resolvedByArticleAt).to.be.instanceOf(Date);
      expect(conversation?.firstResponseAt).to.equal(null);
    });
    await waitFor('the thread line', () =>
      server.slack.state.replies(widget.channel, thread.parent.ts).find((m) => m.text.includes('Answered by the article')),
    );
    // A reload shows the answer given, not the question again.
    // (The panel was open: it opens again by itself.)
    await page.reload();
    await host.locator('.msg.auto').getByText(en.ui.gladItHelped).waitFor();
    expect(await host.locator('.msg.auto').getByRole('button', { name: en.ui.yes }).count()).to.equal(0);
    await page.close();
  });

  it('does all of it in Arabic, right to left, on a phone; No keeps the visitor waiting for a person', async () => {
    const { page, host, searches, input } = await open('ar', PHONE);
    expect(await host.locator('.panel').evaluate((el) => getComputedStyle(el).direction)).to.equal('rtl');
    await input.focus();
    await page.keyboard.type('نسيت كلمة المرور');
    const hit = host.locator('.answers .hit', { hasText: 'استعادة كلمة المرور' });
    await hit.waitFor();
    expect(await host.locator('.answers [role=status]').textContent()).to.equal(ar.ui.suggestionsOne);
    expect(searches.every((u) => u.includes('lang=ar'))).to.equal(true);
    await shot(page, 'answers-suggestions-ar-phone');
    await hit.click();
    const article = host.getByRole('region', { name: 'استعادة كلمة المرور' });
    await article.waitFor();
    await host.getByRole('button', { name: ar.ui.back }).waitFor();
    await shot(page, 'answers-article-ar-phone');
    await host.getByRole('button', { name: ar.ui.stillNeedHelp }).click();
    await page.keyboard.press('Enter');
    await host.locator('.msg.visitor:not(.sending)', { hasText: 'نسيت كلمة المرور' }).waitFor();

    await server.parley.relay.dueWork.tick(later(50));
    const card = host.locator('.msg.auto');
    await card.getByText(ar.ui.automaticAnswer).waitFor();
    await card.getByText(ar.ui.didThisAnswer).waitFor();
    // Mirrored: Parley's card starts at the right, as an operator's reply does in Arabic.
    const box = await card.locator('.bubble').boundingBox();
    const frame = await host.locator('.panel').boundingBox();
    if (!box || !frame) throw new Error('the panel is not drawn');
    expect(box.x + box.width / 2).to.be.above(frame.x + frame.width / 2 - 20);
    await shot(page, 'answers-automatic-ar-phone');
    await card.getByRole('button', { name: ar.ui.needPerson }).click();
    await card.getByText(ar.ui.personWillAnswer).waitFor();
    await eventually(async () =>
      expect(await server.models.AnswerEvent.countDocuments({ ceId: widget.ceId, kind: 'helpful', helpful: false })).to.equal(1),
    );
    expect(await server.models.Conversation.countDocuments({ ceId: widget.ceId, status: 'open', resolvedByArticleAt: null })).to.equal(1);
    await page.close();
  });
});
