/**
 * The tag a question group or an article gives the conversations it answers, set through the real console (browser):
 * the Tag select of the question group editor offers the account's widgets' tags, the article editor's the widget's;
 * each saves its choice and shows it again after a reload; without tags the select says where to add them. No WCAG
 * A/AA violation; screenshots at 1280×800 and 390×844 in test-results/pick-tags/.
 */
import path from 'node:path';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { payingOn, signUpUser } from '../factories';
import { useServer } from '../helpers/app';
import { axeViolations, describeViolations } from '../helpers/axe';
import { picture, RESULTS_DIR, useBrowser } from '../helpers/browser';
import { firstWidgetId, setUpWidget } from '../slack/helpers';
import { acceptTerms } from './consoleHelpers';

describe('question group and article tags (browser)', function () {
  this.timeout(120_000);
  const server = useServer();
  const browser = useBrowser({ context: 'suite' });

  /** A new owner on Business signed in in `page`, with a widget linked to a channel and the tags given. */
  async function owner(page: Page, tags: string[]): Promise<{ ceId: string; setTags: (tags: string[]) => Promise<Response> }> {
    const { token } = await signUpUser(server);
    const ceId = await firstWidgetId(server, token);
    await setUpWidget(server, token, ceId);
    await acceptTerms(server, token);
    await payingOn(server, 'parley_business_monthly', { ceId });
    const setTags = (list: string[]) =>
      fetch(`${server.url}/v1/chat_endpoints/${ceId}/update_config`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ tags: list }),
      });
    await setTags(tags);
    await page.context().addCookies([{ name: 'auth_token', value: token, url: server.url }]);
    return { ceId, setTags };
  }

  async function accessible(page: Page): Promise<void> {
    const violations = await axeViolations(page);
    expect(violations, describeViolations(violations)).to.deep.equal([]);
  }

  async function shots(page: Page, name: string, at: ReturnType<Page['locator']>): Promise<void> {
    const dir = path.join(RESULTS_DIR, 'pick-tags');
    await at.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await picture(page, path.join(dir, `${name}-1280.png`));
    await page.setViewportSize({ width: 390, height: 844 });
    await at.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await accessible(page);
    await picture(page, path.join(dir, `${name}-390.png`));
    await page.setViewportSize({ width: 1280, height: 800 });
  }

  it('gives a question group a tag of the widgets’ and keeps it', async () => {
    const page = browser.page;
    await page.setViewportSize({ width: 1280, height: 800 });
    const { ceId } = await owner(page, ['billing', 'sales']);
    await page.goto(`${server.url}/app/#/settings/${ceId}/question-groups`);
    await page.getByRole('button', { name: 'New Question Group' }).click();
    const editor = page.locator('.qg-editor');
    await editor.getByLabel('Label').fill('Triage');
    await editor.getByLabel('Question', { exact: true }).fill('Sales or support?');
    const answers = editor.getByLabel('Answer', { exact: true });
    await answers.nth(0).fill('Sales');
    await answers.nth(1).fill('Support');
    const tag = editor.getByLabel('Tag the conversation');
    expect(await tag.locator('option').allTextContents()).to.deep.equal(['No tag', 'billing', 'sales']);
    await tag.selectOption('sales');
    await accessible(page);
    await shots(page, 'question-group', tag);
    await editor.getByRole('button', { name: 'Save Changes' }).click();
    await editor.getByRole('status').getByText('Saved').waitFor();
    expect((await server.models.QuestionGroup.findOne({ label: 'Triage' }))?.tag).to.equal('sales');
    await page.reload();
    await page.locator('.qg-card', { hasText: 'Triage' }).click();
    expect(await page.locator('.qg-editor').getByLabel('Tag the conversation').inputValue()).to.equal('sales');
  });

  it('gives an article a tag of its widget’s, loses it with the list, and says where tags come from when the widget has none', async () => {
    const page = browser.page;
    await page.setViewportSize({ width: 1280, height: 800 });
    const { ceId, setTags } = await owner(page, ['refund']);
    await page.goto(`${server.url}/app/#/settings/${ceId}/answers`);
    await page.getByRole('button', { name: 'New article' }).click();
    await page.getByLabel('Title').fill('How do refunds work?');
    await page.getByLabel('Body').fill('Within **30 days**.');
    const tag = page.getByLabel('Tag the conversation');
    await tag.selectOption('refund');
    await accessible(page);
    await shots(page, 'article', tag);
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('button', { name: 'New article' }).waitFor();
    const article = await server.models.Article.findOne({ ceId });
    expect(article?.tag).to.equal('refund');

    // The widget's list drops the tag: the article loses it, and a new article has no tag to offer.
    expect((await setTags([])).status).to.equal(200);
    expect((await server.models.Article.findById(article?._id))?.tag).to.equal('');
    await page.reload();
    await page.getByRole('button', { name: 'New article' }).click();
    const none = page.getByLabel('Tag the conversation');
    expect(await none.isDisabled()).to.equal(true);
    await page.getByText('Add tags in Settings → Behavior → Tags first.').waitFor();
  });
});
