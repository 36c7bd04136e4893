import { expect } from 'chai';
import { Types } from 'mongoose';
import { type ArticleSearch, createArticleSearch } from '../../server/answers/search';
import { useStore } from '../commands/helpers';

describe('the help center search', () => {
  const store = useStore();
  const accountId = new Types.ObjectId();
  let search: ArticleSearch;
  before(() => {
    search = createArticleSearch({ models: store.models, baseUrl: 'https://parley.example' });
  });

  /** A widget of its own for each test, with these articles (published unless said otherwise). */
  async function widgetWith(
    articles: { title: string; body?: string; language?: string; slug?: string; published?: boolean }[],
  ): Promise<{ _id: Types.ObjectId; Uuid: string }> {
    const widget = { _id: new Types.ObjectId(), Uuid: `uuid-${new Types.ObjectId()}` };
    await store.models.Article.insertMany(
      articles.map((a, i) => ({
        accountId,
        ceId: widget._id,
        title: a.title,
        body: a.body ?? '',
        language: a.language ?? 'en',
        slug: a.slug ?? `article-${i}`,
        published: a.published ?? true,
      })),
    );
    return widget;
  }

  const helpCenter = [
    { slug: 'reset', title: 'Reset a forgotten password', body: 'Open the sign-in page and choose Forgot password. We email you a link.' },
    { slug: 'invoices', title: 'Download invoices', body: 'Invoices are in Billing. Each payment has a PDF invoice.' },
    { slug: 'export', title: 'Export your notes', body: 'Choose Export in the notebook menu, then PDF or Markdown.' },
    { slug: 'cancel', title: 'Cancel your subscription', body: 'Cancel at any time in Billing; you are not charged again.' },
  ];

  it('finds articles by the stems of English words, best first, with a link naming the language', async () => {
    const widget = await widgetWith(helpCenter);
    const hits = await search.search(widget, 'exporting my notebooks', 'en');
    expect(hits[0]).to.include({ slug: 'export', title: 'Export your notes', language: 'en' });
    expect(hits[0]?.url).to.equal(`https://parley.example/help/${widget.Uuid}/export?lang=en`);
    expect(hits[0]?.score).to.be.above(0);
  });

  it('stems French, German and Japanese words in articles of those languages', async () => {
    const widget = await widgetWith([
      { slug: 'annuler', language: 'fr', title: 'Annuler votre abonnement', body: 'Vous pouvez annuler à tout moment.' },
      { slug: 'factures', language: 'fr', title: 'Vos factures', body: 'Chaque paiement donne une facture.' },
      { slug: 'loeschen', language: 'de', title: 'Konto löschen', body: 'So löschen Sie Ihr Konto und Ihre Notizen.' },
      { slug: 'sync', language: 'de', title: 'Synchronisierung', body: 'Notizen werden zwischen Geräten synchronisiert.' },
      { slug: 'password-ja', language: 'ja', title: 'パスワードの再設定', body: 'ログイン画面でパスワードを忘れた場合を選びます。' },
      { slug: 'invoice-ja', language: 'ja', title: '請求書のダウンロード', body: '請求書はお支払いごとに発行されます。' },
    ]);
    expect((await search.search(widget, 'annulation abonnements', 'fr'))[0]?.slug).to.equal('annuler');
    expect((await search.search(widget, 'wie lösche ich mein Konten', 'de'))[0]?.slug).to.equal('loeschen');
    expect((await search.search(widget, 'パスワードを忘れました', 'ja'))[0]?.slug).to.equal('password-ja');
    expect((await search.search(widget, '請求書はどこ', 'ja'))[0]?.slug).to.equal('invoice-ja');
  });

  it('tolerates typos and missing accents', async () => {
    const widget = await widgetWith([
      ...helpCenter,
      { slug: 'resilier', language: 'fr', title: 'Résilier votre abonnement', body: 'Résiliation en deux clics.' },
    ]);
    expect((await search.search(widget, 'how do i reset my passwrod', 'en'))[0]?.slug).to.equal('reset');
    expect((await search.search(widget, 'subscribtion', 'en'))[0]?.slug).to.equal('cancel');
    expect((await search.search(widget, 'resilier', 'fr'))[0]?.slug).to.equal('resilier');
  });

  it('ranks an article with the words in its title above one with them in its body', async () => {
    const widget = await widgetWith([
      { slug: 'body', title: 'Billing questions', body: 'You can change the language of the notifications here.' },
      { slug: 'title', title: 'Notifications', body: 'Choose what we send you.' },
    ]);
    expect((await search.search(widget, 'notifications', 'en')).map((h) => h.slug)).to.deep.equal(['title', 'body']);
  });

  it('answers nothing to an unrelated question, an empty one or one of stop words only', async () => {
    const widget = await widgetWith(helpCenter);
    expect(await search.search(widget, 'do you sell printers', 'en')).to.deep.equal([]);
    expect(await search.search(widget, '   ', 'en')).to.deep.equal([]);
    expect(await search.search(widget, 'how do i', 'en')).to.deep.equal([]);
  });

  it('never finds drafts', async () => {
    const widget = await widgetWith([{ slug: 'draft', title: 'Refund policy', body: 'Refunds within 14 days.', published: false }]);
    expect(await search.search(widget, 'refund', 'en')).to.deep.equal([]);
  });

  it("searches the help center's main language when the visitor's has no article", async () => {
    const widget = await widgetWith([
      ...helpCenter,
      { slug: 'export-fr', language: 'fr', title: 'Exporter vos notes', body: 'Choisissez Exporter.' },
    ]);
    // Spanish has no article: English has most.
    const hits = await search.search(widget, 'export notes', 'es');
    expect(hits[0]).to.include({ slug: 'export', language: 'en' });
    // French has one: the French visitor gets it, never the English one.
    expect((await search.search(widget, 'exporter notes', 'fr')).map((h) => h.slug)).to.deep.equal(['export-fr']);
  });

  it("asks for the visitor's language only when the help center is in more than one", async () => {
    let asked = 0;
    const french = async () => {
      asked += 1;
      return 'fr';
    };
    const english = await widgetWith(helpCenter);
    expect((await search.search(english, 'export notes', french))[0]).to.include({ slug: 'export', language: 'en' });
    expect(await search.search(await widgetWith([]), 'export notes', french)).to.deep.equal([]);
    expect(asked).to.equal(0);
    const both = await widgetWith([
      ...helpCenter,
      { slug: 'export-fr', language: 'fr', title: 'Exporter vos notes', body: 'Choisissez Exporter.' },
    ]);
    expect((await search.search(both, 'exporter notes', french)).map((h) => h.slug)).to.deep.equal(['export-fr']);
    expect(asked).to.equal(1);
  });

  it('marks the matched words in an escaped snippet', async () => {
    const widget = await widgetWith([
      {
        slug: 'x',
        title: 'Embed code',
        body: 'Paste `<script src="https://x.example/w.js"></script>` before the closing body tag. <script>alert(1)</script>',
      },
    ]);
    const [hit] = await search.search(widget, 'paste embed code', 'en');
    expect(hit?.snippet).to.include('<mark>Paste</mark>');
    expect(hit?.snippet).not.to.include('<script');
    expect(hit?.snippet).to.include('&lt;script src=&quot;https://x.example/w.js&quot;&gt;&lt;/script&gt;');
  });

  it("reads the owner's synonyms, and sees a change of them at once after changed()", async () => {
    const widget = await widgetWith([{ slug: 'seats', title: 'Add seats', body: 'Each member takes a seat.' }]);
    expect(await search.search(widget, 'licence', 'en')).to.deep.equal([]);
    await store.models.AnswerSynonyms.create({ accountId, ceId: widget._id, groups: ['seat, licence, license'] });
    search.changed(String(widget._id));
    expect((await search.search(widget, 'licence', 'en'))[0]?.slug).to.equal('seats');
  });

  it('knows general support words (pw, 2fa, log in)', async () => {
    const widget = await widgetWith([
      { slug: 'reset', title: 'Reset a forgotten password', body: 'Use the sign-in page.' },
      { slug: '2fa', title: 'Two-factor authentication', body: 'Protect your account with a code.' },
    ]);
    expect((await search.search(widget, 'i cant log in forgot my pw', 'en'))[0]?.slug).to.equal('reset');
    expect((await search.search(widget, 'turn on 2fa', 'en'))[0]?.slug).to.equal('2fa');
  });

  it("learns the visitors' words of conversations an article answered, in that widget only, not from erased ones", async () => {
    const widget = await widgetWith([
      { slug: 'reset', title: 'Reset a forgotten password', body: 'Use the sign-in page.' },
      { slug: 'export', title: 'Export your notes', body: 'Choose Export.' },
    ]);
    const other = await widgetWith([{ slug: 'reset', title: 'Reset a forgotten password', body: 'Use the sign-in page.' }]);
    const reset = await store.models.Article.findOne({ ceId: widget._id, slug: 'reset' }).orFail();
    const otherReset = await store.models.Article.findOne({ ceId: other._id, slug: 'reset' }).orFail();
    const answered = async (ceId: Types.ObjectId, articleId: Types.ObjectId, line: string) => {
      const conversationId = new Types.ObjectId();
      await store.models.Message.create({ conversationId, seq: 1, kind: 'msg', from: 'visitor', text: line, html: line });
      await store.models.AnswerEvent.create({ accountId, ceId, kind: 'resolved', articleId, conversationId });
      return conversationId;
    };
    expect(await search.search(widget, 'locked out', 'en')).to.deep.equal([]);
    await answered(widget._id, reset._id, 'Hi, I am locked out of my workspace');
    const erased = await answered(widget._id, reset._id, 'the kiosk tablet shows gibberish');
    await answered(other._id, otherReset._id, 'my smartcard reader blinks');
    await store.models.Message.deleteMany({ conversationId: erased });
    search.changed(String(widget._id));
    search.changed(String(other._id));
    expect((await search.search(widget, 'locked out', 'en'))[0]?.slug).to.equal('reset');
    expect(await search.search(widget, 'kiosk tablet gibberish', 'en')).to.deep.equal([]);
    expect(await search.search(widget, 'smartcard reader', 'en')).to.deep.equal([]);
    expect((await search.search(other, 'smartcard reader', 'en'))[0]?.slug).to.equal('reset');
  });

  it("never finds another widget's article", async () => {
    const mine = await widgetWith([{ slug: 'export', title: 'Export your notes' }]);
    await widgetWith([{ slug: 'refunds', title: 'Refund policy', body: 'Refunds within 14 days.' }]);
    expect(await search.search(mine, 'refund policy', 'en')).to.deep.equal([]);
  });

  it('sees an article written meanwhile once changed() is called, and at most 5 hits', async () => {
    const widget = await widgetWith([{ slug: 'one', title: 'Export notes as PDF' }]);
    expect(await search.search(widget, 'export notes', 'en')).to.have.length(1);
    await store.models.Article.insertMany(
      Array.from({ length: 7 }, (_, i) => ({
        accountId,
        ceId: widget._id,
        title: `Export notes ${i}`,
        slug: `n${i}`,
        language: 'en',
        published: true,
      })),
    );
    search.changed(String(widget._id));
    expect(await search.search(widget, 'export notes', 'en')).to.have.length(5);
  });
});
