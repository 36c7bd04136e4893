/**
 * The Answers tab through the real console (browser): write an article with its live preview (the server's
 * rendering), see it in the list, import a CSV after its preview (a bad file shows its rows' problems and imports
 * nothing), search and filter by language, keep synonyms, delete with confirmation. Screenshots at 1280×800 and
 * 390×844 land in test-results/answers/. Needs `npm run build` first.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { signUpUser } from '../factories';
import { useServer } from '../helpers/app';
import { axeViolations, describeViolations } from '../helpers/axe';
import { picturesAtBothSizes, useBrowser } from '../helpers/browser';
import { firstWidgetId, setUpWidget } from '../slack/helpers';
import { acceptTerms } from './consoleHelpers';
import { waitFor } from './widgetHelpers';

describe('Answers: the help center in the console (browser)', function () {
  this.timeout(120_000);
  const server = useServer();
  const browser = useBrowser();

  /** A new owner (in the trial) signed in in `page`, with a widget linked to a channel. */
  async function owner(page: Page): Promise<{ ceId: string }> {
    const { token } = await signUpUser(server);
    const ceId = await firstWidgetId(server, token);
    await setUpWidget(server, token, ceId);
    await acceptTerms(server, token);
    await page.context().addCookies([{ name: 'auth_token', value: token, url: server.url }]);
    return { ceId };
  }

  /** No WCAG A/AA violation on the screen as it is (the empty screens are in accessibility.ts). */
  async function accessible(page: Page): Promise<void> {
    const violations = await axeViolations(page);
    expect(violations, describeViolations(violations)).to.deep.equal([]);
  }

  const shots = (page: Page, name: string) => picturesAtBothSizes(page, 'answers', name);

  it('writes an article with a live preview, imports a CSV after its preview, searches by language and deletes', async () => {
    const page = browser.page;
    const { ceId } = await owner(page);
    await page.goto(`${server.url}/app/#/settings/${ceId}/answers`);
    await page.getByRole('heading', { name: 'Write your first article' }).waitFor();
    expect(await page.getByRole('link', { name: 'Answers' }).getAttribute('aria-current')).to.equal('page');
    await shots(page, 'answers-empty');

    // Write one: the preview is the server's rendering of the Markdown.
    await page.getByRole('button', { name: 'New article' }).click();
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByText('Enter a title: visitors find the article by it.').waitFor();
    await page.getByLabel('Title').fill('How do I reset my password?');
    await page.getByLabel('Body').fill('## Steps\n\n1. Open **Settings**\n2. Choose *Reset*\n\n<script>alert(1)</script>');
    const preview = page.locator('.answers-editor__rendered');
    await preview.getByRole('heading', { name: 'Steps', level: 2 }).waitFor();
    expect(await preview.locator('strong').innerText()).to.equal('Settings');
    expect(await preview.locator('li').count()).to.equal(2);
    expect(await preview.locator('script').count()).to.equal(0);
    expect(await page.getByLabel('Slug (optional)').getAttribute('placeholder')).to.equal('how-do-i-reset-my-password');
    await accessible(page);
    await shots(page, 'answers-editor');
    await page.getByRole('button', { name: 'Publish' }).click();

    const row = page.getByRole('row', { name: /How do I reset my password\?/ });
    await row.waitFor();
    expect(await row.getByRole('cell').allInnerTexts()).to.include.members(['Published', 'English']);
    expect(await page.getByText('1 article. Your plan has unlimited articles.').count()).to.equal(1);

    // Import: a bad file shows its problems per row and imports nothing; a good one after its preview.
    await page.getByRole('button', { name: 'Import' }).click();
    await page.getByRole('heading', { name: 'Import articles' }).waitFor();
    const fileInput = page.getByLabel('File', { exact: true });
    await fileInput.setInputFiles({
      name: 'bad.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('title,body,language\nShipping,Takes 3 days,en\n,No title,en\nДоставка,Text,ru\n'),
    });
    await page.getByText('Row 3: the title is empty.').waitFor();
    await page.getByText(/Row 4: the language "ru" is not one of the widget's languages/).waitFor();
    expect(await page.getByRole('button', { name: 'Import 1 article' }).isDisabled()).to.equal(true);
    await accessible(page);
    await shots(page, 'answers-import-errors');
    await fileInput.setInputFiles({
      name: 'help.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        'title,body,language\nShipping times,"Parcels take **3** days.",en\nDélais de livraison,Trois jours ouvrés.,fr\n',
      ),
    });
    await page.getByText('2 articles ready to import from help.csv.').waitFor();
    const previewRow = page.getByRole('row', { name: /Délais de livraison/ });
    expect(await previewRow.getByRole('cell').allInnerTexts()).to.deep.equal([
      'Délais de livraison',
      'French (Français)',
      'Published',
      'delais-de-livraison',
      'Trois jours ouvrés.',
    ]);
    expect(await server.models.Article.countDocuments({ ceId })).to.equal(1);
    await accessible(page);
    await shots(page, 'answers-import-preview');
    await page.getByRole('button', { name: 'Import 2 articles' }).click();
    await page.getByText('3 articles. Your plan has unlimited articles.').waitFor();
    expect(await server.models.Article.countDocuments({ ceId })).to.equal(3);

    // Language tabs (only the languages that have articles) and the search.
    const languages = page.getByRole('navigation', { name: 'Languages' });
    await languages.getByRole('button', { name: 'All languages' }).waitFor();
    expect(await languages.getByRole('button').allInnerTexts()).to.deep.equal(['All languages', 'English', 'French (Français)']);
    await languages.getByRole('button', { name: 'French (Français)' }).click();
    await waitFor('only the French article', async () =>
      (await page.locator('.answers__table tbody tr').count()) === 1 ? true : undefined,
    );
    expect(await page.locator('.answers__table tbody tr').innerText()).to.include('Délais de livraison');
    await languages.getByRole('button', { name: 'All languages' }).click();
    const rows = page.locator('.answers__table tbody tr');
    await waitFor('every article', async () => ((await rows.count()) === 3 ? true : undefined));
    await page.getByLabel('Search articles').fill('parcels');
    await page.getByText('1 article with “parcels”').waitFor();
    expect(await rows.innerText()).to.include('Shipping times');
    await page.getByLabel('Search articles').fill('');
    await page.getByRole('row', { name: /Délais de livraison/ }).waitFor();
    await accessible(page);
    await shots(page, 'answers-list');

    // Synonyms, one group a line.
    await page.getByRole('button', { name: 'Synonyms' }).click();
    await page.getByLabel('Words that mean the same, one group per line').fill('pw, password\n\n2fa, two-factor');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await waitFor('the synonyms stored', async () => {
      const doc = await server.models.AnswerSynonyms.findOne({ ceId: (await server.models.ChatEndpoint.findById(ceId))?._id });
      return doc?.groups.length === 2 ? doc.groups : undefined;
    });
    await page.getByRole('button', { name: 'Back to articles' }).click();

    // Delete, after confirming.
    await page.getByRole('button', { name: 'How do I reset my password?' }).click();
    await page.getByRole('heading', { name: 'Edit article' }).waitFor();
    await page.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete article?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('row', { name: /Shipping times/ }).waitFor();
    expect(await page.getByRole('row', { name: /reset my password/ }).count()).to.equal(0);
    expect(await server.models.Article.countDocuments({ ceId })).to.equal(2);
  });
});
