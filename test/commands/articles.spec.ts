import { expect } from 'chai';
import {
  type ArticleDeps,
  articleLanguages,
  createArticle,
  deleteArticle,
  importArticles,
  listArticles,
  markdownOfHtml,
  SLUG_TAKEN,
  saveAnswerSynonyms,
  updateArticle,
  widgetLanguageOf,
} from '../../server/commands/articles';
import { NotFoundError, PaymentRequiredError, ValidationError } from '../../server/errors';
import type { ChatEndpointDocument } from '../../server/models/ChatEndpoint';
import { articleHtml } from '../../server/ownerText';
import { ArticleInputSchema } from '../../server/shared/articles';
import { createUserInDb } from '../factories';
import { payingAfterTrial, useStore } from './helpers';

const input = (fields: Record<string, unknown>) => ArticleInputSchema.parse(fields);

describe('articles', () => {
  const store = useStore();
  let ce: ChatEndpointDocument;
  let deps: ArticleDeps & { changed: string[] };

  beforeEach(async () => {
    const { user } = await createUserInDb(store);
    const found = await store.models.ChatEndpoint.findOne({ accountId: user.accountId });
    if (!found) throw new Error('no widget');
    ce = found;
    const changed: string[] = [];
    deps = { models: store.models, articleSearch: { changed: (id) => changed.push(id) }, changed };
  });

  const fail = (promise: Promise<unknown>) =>
    promise.then(
      () => expect.fail('it did not refuse'),
      (e: unknown) => e as Error,
    );

  it('makes a slug from the title, unique per widget and language with a suffix, and tells the search of each write', async () => {
    const first = await createArticle(deps, ce, input({ title: 'Reset your password', language: 'en' }));
    const second = await createArticle(deps, ce, input({ title: 'Reset your password!', language: 'en' }));
    const french = await createArticle(deps, ce, input({ title: 'Reset your password', language: 'fr' }));
    const japanese = await createArticle(deps, ce, input({ title: 'パスワード', language: 'ja' }));
    expect([first.slug, second.slug, french.slug, japanese.slug]).to.deep.equal([
      'reset-your-password',
      'reset-your-password-2',
      'reset-your-password',
      'article',
    ]);
    expect(deps.changed).to.deep.equal([String(ce._id), String(ce._id), String(ce._id), String(ce._id)]);
    expect(await articleLanguages(store.models, ce)).to.deep.equal(['en', 'fr', 'ja']);
  });

  it('refuses a given slug another article of the language has, and keeps a slug on update unless told', async () => {
    const a = await createArticle(deps, ce, input({ title: 'Billing', slug: 'billing' }));
    const error = await fail(createArticle(deps, ce, input({ title: 'Other', slug: 'billing' })));
    expect(error).to.be.instanceOf(ValidationError);
    expect(error.message).to.equal(SLUG_TAKEN);
    const b = await createArticle(deps, ce, input({ title: 'Invoices' }));
    expect((await fail(updateArticle(deps, ce, String(b._id), input({ title: 'Invoices', slug: 'billing' })))).message).to.equal(
      SLUG_TAKEN,
    );
    const renamed = await updateArticle(deps, ce, String(a._id), input({ title: 'Paying us', body: 'By card.', published: true }));
    expect(renamed).to.include({ slug: 'billing', title: 'Paying us', published: true });
    const moved = await updateArticle(deps, ce, String(b._id), input({ title: 'Invoices', slug: 'invoices-and-receipts' }));
    expect(moved.slug).to.equal('invoices-and-receipts');
  });

  it('lists by words of the title or body in any case and by language, last updated first; deletes', async () => {
    const a = await createArticle(deps, ce, input({ title: 'Shipping times', body: 'Parcels take (3) days.' }));
    await createArticle(deps, ce, input({ title: 'Returns', body: 'Send the PARCEL back.' }));
    await createArticle(deps, ce, input({ title: 'Envíos', body: 'parcel', language: 'es' }));
    expect((await listArticles(store.models, ce, { q: 'parcel' })).map((x) => x.title)).to.deep.equal([
      'Envíos',
      'Returns',
      'Shipping times',
    ]);
    expect((await listArticles(store.models, ce, { q: 'parcel', language: 'en' })).map((x) => x.title)).to.deep.equal([
      'Returns',
      'Shipping times',
    ]);
    expect((await listArticles(store.models, ce, { q: '(3)' })).map((x) => x.title)).to.deep.equal(['Shipping times']);
    await deleteArticle(deps, ce, String(a._id));
    expect(await fail(deleteArticle(deps, ce, String(a._id)))).to.be.instanceOf(NotFoundError);
    expect(await store.models.Article.countDocuments({ ceId: ce._id })).to.equal(2);
  });

  it("refuses the Basic plan's 26th article with 402, the limit and the plan that lifts it in words; a trial has Business's", async () => {
    await store.models.Article.insertMany(
      Array.from({ length: 25 }, (_, i) => ({ accountId: ce.accountId, ceId: ce._id, title: `A${i}`, slug: `a${i}`, language: 'en' })),
    );
    await createArticle(deps, ce, input({ title: 'During the trial' }));
    await payingAfterTrial(store.models, ce.accountId, 'basic');
    await store.models.Article.deleteOne({ ceId: ce._id, title: 'During the trial' });
    const error = await fail(createArticle(deps, ce, input({ title: 'One more' })));
    expect(error).to.be.instanceOf(PaymentRequiredError);
    expect((error as PaymentRequiredError).code).to.equal('plan_limit');
    expect(error.message).to.equal('Your Basic plan allows 25 articles per widget. Upgrade to Pro for 250.');
    await payingAfterTrial(store.models, ce.accountId, 'pro');
    await createArticle(deps, ce, input({ title: 'One more' }));
  });

  it('maps file locales to the widget languages', () => {
    expect(['en-us', 'fr', 'pt-br', 'zh-cn', 'de-CH', 'he', 'zh-Hans'].map(widgetLanguageOf)).to.deep.equal([
      'en',
      'fr',
      'pt',
      'zh-Hans',
      'de',
      'he',
      'zh-Hans',
    ]);
    expect(['ru', '', 'xx-not a tag'].map(widgetLanguageOf)).to.deep.equal(['', '', '']);
  });

  it('imports a CSV: a dry run previews and creates nothing, errors name the row, a real import creates all', async () => {
    const csv = 'Title,Body,Language\n"Log in","Use **your** e-mail,\nthen the code.",en\nPrix,Les tarifs,fr\nLog in,Again,en\n';
    const preview = await importArticles(deps, ce, { format: 'csv', content: csv, dryRun: true });
    expect(preview.errors).to.deep.equal([]);
    expect(preview.articles).to.deep.equal([
      { title: 'Log in', language: 'en', slug: 'log-in', published: true, bodyPreview: 'Use your e-mail, then the code.' },
      { title: 'Prix', language: 'fr', slug: 'prix', published: true, bodyPreview: 'Les tarifs' },
      { title: 'Log in', language: 'en', slug: 'log-in-2', published: true, bodyPreview: 'Again' },
    ]);
    expect(await store.models.Article.countDocuments({ ceId: ce._id })).to.equal(0);

    const bad = 'title,body,language\nOk,Fine,en\n,No title,en\nRussian,Text,ru\n';
    const badPreview = await importArticles(deps, ce, { format: 'csv', content: bad, dryRun: true });
    expect(badPreview.errors.map((e) => e.message)).to.deep.equal([
      'Row 3: the title is empty.',
      `Row 4: the language "ru" is not one of the widget's languages (en, es, fr, de, pt, it, nl, ja, zh-Hans, ar, he).`,
    ]);
    const refused = await fail(importArticles(deps, ce, { format: 'csv', content: bad, dryRun: false }));
    expect(refused).to.be.instanceOf(ValidationError);
    expect(refused.message).to.match(/^Row 3: the title is empty\. Row 4: /);
    expect(await store.models.Article.countDocuments({ ceId: ce._id })).to.equal(0);

    await importArticles(deps, ce, { format: 'csv', content: csv, dryRun: false });
    const stored = await store.models.Article.find({ ceId: ce._id }).sort({ slug: 1 }).lean();
    expect(stored.map((a) => [a.slug, a.language, a.published])).to.deep.equal([
      ['log-in', 'en', true],
      ['log-in-2', 'en', true],
      ['prix', 'fr', true],
    ]);
    expect(stored[0]?.body).to.equal('Use **your** e-mail,\nthen the code.');
  });

  it('imports nothing when the file would pass the plan limit (402), and says so per row in the preview', async () => {
    await payingAfterTrial(store.models, ce.accountId, 'basic');
    await store.models.Article.insertMany(
      Array.from({ length: 24 }, (_, i) => ({ accountId: ce.accountId, ceId: ce._id, title: `A${i}`, slug: `a${i}`, language: 'en' })),
    );
    const csv = 'title,body,language\nOne,1,en\nTwo,2,en\n';
    const preview = await importArticles(deps, ce, { format: 'csv', content: csv, dryRun: true });
    expect(preview.articles.map((a) => a.title)).to.deep.equal(['One']);
    expect(preview.errors).to.deep.equal([
      { row: 3, message: "Row 3: over the plan's limit. Your Basic plan allows 25 articles per widget. Upgrade to Pro for 250." },
    ]);
    const error = await fail(importArticles(deps, ce, { format: 'csv', content: csv, dryRun: false }));
    expect(error).to.be.instanceOf(PaymentRequiredError);
    expect(await store.models.Article.countDocuments({ ceId: ce._id })).to.equal(24);
  });

  it('imports a Zendesk export: HTML to Markdown, locales mapped, drafts unpublished, scripts and javascript: links gone', async () => {
    const zendesk = JSON.stringify({
      articles: [
        {
          id: 1,
          title: 'Two-factor login',
          locale: 'en-us',
          draft: false,
          body: '<h2>Lost your phone?</h2><p>Use a <strong>backup code</strong>. <a href="https://help.example/2fa">More</a></p><script>alert(1)</script><p><a href="javascript:alert(2)">Click me</a></p><ul><li>one</li></ul>',
        },
        { id: 2, title: 'Mot de passe', locale: 'fr', draft: true, body: '<p>Réinitialisez-le.</p>' },
        { id: 3, title: 'Senha', locale: 'pt-br', body: '<p>Redefina.</p>' },
        { id: 4, title: '', locale: 'en-us', body: '<p>x</p>' },
      ],
      page: 1,
      next_page: null,
    });
    const preview = await importArticles(deps, ce, { format: 'zendesk', content: zendesk, dryRun: true });
    expect(preview.errors).to.deep.equal([{ row: 4, message: 'Article 4: the title is empty.' }]);
    expect(preview.articles.map((a) => [a.title, a.language, a.published])).to.deep.equal([
      ['Two-factor login', 'en', true],
      ['Mot de passe', 'fr', false],
      ['Senha', 'pt', true],
    ]);
    const withoutBad = JSON.stringify({ articles: (JSON.parse(zendesk) as { articles: unknown[] }).articles.slice(0, 3) });
    await importArticles(deps, ce, { format: 'zendesk', content: withoutBad, dryRun: false });
    const article = await store.models.Article.findOne({ ceId: ce._id, language: 'en' });
    expect(article?.body).to.equal('## Lost your phone?\n\nUse a **backup code**. [More](https://help.example/2fa)\n\nClick me\n\n-   one');
    const html = articleHtml(article?.body ?? '');
    expect(html).to.include('<h2>Lost your phone?</h2>');
    expect(html).to.not.match(/<script|alert|javascript:/i);
    expect(deps.changed.length).to.be.greaterThan(0);
  });

  it('keeps scripts, handlers and javascript: links out of Markdown made from HTML', () => {
    const md = markdownOfHtml(
      '<p onclick="x()">Hi <img src="javascript:alert(1)"> <img src="https://cdn.example/a.png" alt="A"> <a href=" JavaScript:alert(3)">t</a></p><style>p{}</style>',
    );
    expect(md).to.equal('Hi  ![A](https://cdn.example/a.png) t');
  });

  it('says a file it cannot read is not one, in words', async () => {
    const notJson = await importArticles(deps, ce, { format: 'zendesk', content: '<html>', dryRun: true });
    expect(notJson.errors).to.deep.equal([
      { row: 0, message: 'The file is not JSON: choose the export of your Zendesk Help Center articles.' },
    ]);
    const list = await importArticles(deps, ce, {
      format: 'zendesk',
      content: '[{"title":"Hi","body":"<p>x</p>","locale":"de-de"}]',
      dryRun: true,
    });
    expect(list.articles.map((a) => [a.title, a.language])).to.deep.equal([['Hi', 'de']]);
    const noColumns = await importArticles(deps, ce, { format: 'csv', content: 'name,text\na,b\n', dryRun: true });
    expect(noColumns.errors[0]?.message).to.equal('The first row must name the columns: title, body and language.');
  });

  it('stores the synonym groups of the widget and tells the search', async () => {
    expect(await saveAnswerSynonyms(deps, ce, ['pw, password', '2fa, two-factor'])).to.deep.equal(['pw, password', '2fa, two-factor']);
    expect(await saveAnswerSynonyms(deps, ce, ['login, sign in'])).to.deep.equal(['login, sign in']);
    expect(await store.models.AnswerSynonyms.countDocuments({ ceId: ce._id })).to.equal(1);
    expect(deps.changed).to.deep.equal([String(ce._id), String(ce._id)]);
  });
});
