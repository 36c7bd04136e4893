/**
 * The help center's public pages on a real server: /help/<uuid> (the articles of a language, the search box and
 * its results), /help/<uuid>/<slug> (an article with its description, canonical link and hreflang alternates)
 * and /help/<uuid>/sitemap.xml; what is not public (drafts, another widget's articles, unknown widgets) is 404;
 * no input answers 5xx; searches and views are recorded for the Answers report.
 */
import { expect } from 'chai';
import express from 'express';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import he from 'he';
import type { Types } from 'mongoose';
import request from 'supertest';
import type { ArticleSearch } from '../../server/answers/search';
import type { AnswerEventKind } from '../../server/models/AnswerEvent';
import { createRateLimiters } from '../../server/rateLimits';
import { helpRouter } from '../../server/site/help';
import { buildConfiguredWidget, createUserInDb, createWidgetInDb } from '../factories';
import { useServer } from '../helpers/app';
import { eventually } from '../slack/helpers';

type Ids = { accountId: Types.ObjectId; ceId: Types.ObjectId; uuid: string };

const LONG_BODY = [
  'If you forgot your password, open the sign-in page and choose **Forgot password**. We send a link to the e-mail',
  'address of your account; it works for one hour. Choose a new password of at least twelve characters & keep it',
  '"somewhere safe". Still locked out? Write to us.',
  '',
  '<script>alert("owned")</script>',
  '',
  '[Open the console](javascript:alert(1)) or [our status page](https://status.example.com).',
  '',
  '<a href="javascript:alert(2)">Raw link</a> <img src="https://img.example.com/x.png" onerror="alert(3)" alt="Sign-in page">',
].join('\n');

describe('help center pages: /help/<widget uuid>, its articles and sitemap', function () {
  this.timeout(30_000);
  const server = useServer();
  let acme: Ids;
  let globex: Ids;
  const articleIds: Record<string, Types.ObjectId> = {};

  async function widget(onlineTitle: string, textOverrides: Record<string, Record<string, string>> = {}): Promise<Ids> {
    const { user } = await createUserInDb(server);
    const ce = await createWidgetInDb(server, user, buildConfiguredWidget({ onlineTitle, textOverrides }));
    return { accountId: ce.accountId, ceId: ce._id, uuid: ce.Uuid };
  }

  async function article(w: Ids, fields: { title: string; body?: string; language: string; slug: string; published: boolean }) {
    const doc = await server.models.Article.create({ accountId: w.accountId, ceId: w.ceId, body: '', ...fields });
    articleIds[`${w.uuid}:${fields.slug}:${fields.language}`] = doc._id;
    return doc;
  }

  before(async () => {
    acme = await widget('Acme Coffee help', { de: { onlineTitle: 'Acme Kaffee Hilfe' } });
    globex = await widget('Globex support');
    await article(acme, { title: 'Reset your password', body: LONG_BODY, language: 'en', slug: 'reset-password', published: true });
    await article(acme, {
      title: 'Passwort zurücksetzen',
      body: 'Öffnen Sie die Anmeldeseite und wählen Sie **Passwort vergessen**.',
      language: 'de',
      slug: 'reset-password',
      published: true,
    });
    await article(acme, {
      title: 'إعادة تعيين كلمة المرور',
      body: 'افتح صفحة تسجيل الدخول واختر **نسيت كلمة المرور**.',
      language: 'ar',
      slug: 'reset-password',
      published: true,
    });
    await article(acme, {
      title: 'Shipping <times> & costs',
      body: 'We ship roasted beans within two days.',
      language: 'en',
      slug: 'shipping',
      published: true,
    });
    await article(acme, {
      title: 'Secret roadmap',
      body: 'Decaf espresso pods next spring.',
      language: 'en',
      slug: 'roadmap',
      published: false,
    });
    await article(acme, { title: 'Feuille de route', body: 'Brouillon.', language: 'fr', slug: 'roadmap', published: false });
    await article(globex, {
      title: 'Globex password policy',
      body: 'Passwords rotate monthly.',
      language: 'en',
      slug: 'password-policy',
      published: true,
    });
    server.parley.articleSearch.changed(String(acme.ceId));
    server.parley.articleSearch.changed(String(globex.ceId));
  });

  const get = (path: string, language = 'en-US,en;q=0.8') => request(server.url).get(path).set('Accept-Language', language);
  const events = (w: Ids, kind: AnswerEventKind) => server.models.AnswerEvent.find({ ceId: w.ceId, kind }).sort({ at: 1 }).lean();
  const attr = (html: string, pattern: RegExp) => he.decode(pattern.exec(html)?.[1] ?? '');

  it('shows the home page: the site name, a GET search form, the published articles of the language and the widget', async () => {
    const res = await get(`/help/${acme.uuid}`).expect(200).expect('Content-Type', /html/);
    const html = res.text;
    expect(html).to.include('<html lang="en" dir="ltr">');
    expect(html).to.match(/<a class="hc-name" href="[^"]+">Acme Coffee help<\/a>/);
    expect(html).to.include('<h1>How can we help?</h1>');
    expect(html).to.match(new RegExp(`<form class="hc-search" role="search" action="/help/${acme.uuid}" method="get">`));
    expect(html)
      .to.match(/<label for="q-hero">Search articles<\/label>/)
      .and.match(/<input id="q-hero" type="search" name="q"/);
    expect(html).to.include(`href="/help/${acme.uuid}/reset-password?lang=en">Reset your password</a>`);
    expect(html).to.include('>Shipping &lt;times&gt; &amp; costs</a>');
    expect(html, 'drafts, other languages and other widgets stay out').to.not.include('Secret roadmap');
    expect(html).to.not.include('Passwort zurücksetzen').and.not.include('Globex');
    // The embed snippet's loader tag, and the one small script that lets "Chat with us" open it.
    expect(html).to.include(`<script async src="/widget.js" data-widget-id="${acme.uuid}" data-style="standard"></script>`);
    expect(html).to.include('<script src="/site/help.js"></script>');
    expect(html.match(/<script/g)).to.have.length(2);
    expect(attr(html, /<link rel="canonical" href="([^"]+)">/)).to.equal(`${server.url}/help/${acme.uuid}?lang=en`);
    // The switcher offers the languages that have published articles, each named in itself; none without one.
    expect(html).to.include(`<a href="/help/${acme.uuid}?lang=de" hreflang="de" lang="de">Deutsch</a>`);
    expect(html).to.include(`<a href="/help/${acme.uuid}?lang=ar" hreflang="ar" lang="ar">العربية</a>`);
    expect(html).to.include('aria-current="true">English</a>');
    expect(html).to.not.include('Français');
  });

  it('picks the language from ?lang=, then the browser, then the help center’s main language, and titles the site in it', async () => {
    const german = (await get(`/help/${acme.uuid}?lang=de`).expect(200)).text;
    expect(german).to.include('<html lang="de" dir="ltr">').and.include('>Acme Kaffee Hilfe</a>').and.include('Passwort zurücksetzen');
    expect(german).to.include('<h1>Wie können wir helfen?</h1>').and.not.include('Reset your password');

    const swiss = (await get(`/help/${acme.uuid}`, 'de-CH,de;q=0.9,en;q=0.5').expect(200)).text;
    expect(swiss).to.include('<html lang="de" dir="ltr">');

    // French has only a draft: a French browser gets the main language (English has the most articles).
    const french = (await get(`/help/${acme.uuid}/`, 'fr-FR,fr;q=0.9').expect(200)).text;
    expect(french).to.include('<html lang="en" dir="ltr">').and.include('Reset your password');
    expect((await get(`/help/${acme.uuid}?lang=fr`, 'de').expect(200)).text).to.include('<html lang="de"');

    const arabic = (await get(`/help/${acme.uuid}?lang=ar`).expect(200)).text;
    expect(arabic).to.include('<html lang="ar" dir="rtl">').and.include('<h1>كيف يمكننا مساعدتك؟</h1>');
  });

  it('searches with ?q=, lists the hits in the language, and records one search event each with its hits', async () => {
    const res = await get(`/help/${acme.uuid}?q=${encodeURIComponent('forgot password')}&lang=en`).expect(200);
    expect(res.text).to.include('<h2 id="results-title">Results for “forgot password”</h2>');
    expect(res.text).to.match(
      new RegExp(`<ol class="hc-list hc-results"><li><a href="/help/${acme.uuid}/reset-password\\?lang=en">Reset your password</a>`),
    );
    expect(res.text).to.include('value="forgot password"').and.include('<meta name="robots" content="noindex">');
    expect(res.text).to.not.include('Globex');

    const none = await get(`/help/${acme.uuid}?q=printers&lang=en`).expect(200);
    expect(none.text).to.include('No articles match your search.');
    expect(none.text).to.include('<h2 id="chat-title">Still need help?</h2><p><span data-parley-chat>Chat with us</span></p>');

    const escaped = await get(`/help/${acme.uuid}?q=${encodeURIComponent('<img src=x onerror=alert(1)>')}&lang=de`).expect(200);
    expect(escaped.text).to.include('„&lt;img src=x onerror=alert(1)&gt;“').and.not.include('<img src=x');

    await eventually(async () => {
      const searches = await events(acme, 'search');
      expect(searches.map((e) => [e.query, e.language, e.hits])).to.deep.equal([
        ['forgot password', 'en', 1],
        ['printers', 'en', 0],
        ['<img src=x onerror=alert(1)>', 'de', 0],
      ]);
      expect(String(searches[0]?.accountId)).to.equal(String(acme.accountId));
    });
    expect(await events(globex, 'search')).to.deep.equal([]);
  });

  it('answers an over-long, repeated, nested or binary query with a page, never 5xx, and records only real searches', async () => {
    const before = (await events(acme, 'search')).length;
    const long = await get(`/help/${acme.uuid}?q=${'x'.repeat(501)}`).expect(200);
    expect(long.text).to.include('A search can be at most 500 characters long.');
    for (const query of [
      `q=${'word '.repeat(2000)}`,
      'q[]=a&q[]=b',
      'q[a][b]=1',
      'q=%00%FF',
      'q=%E0%A4%A',
      'lang[]=de&q=password',
      'lang=../../etc&q=',
      `lang=${'x'.repeat(3000)}`,
    ]) {
      const res = await get(`/help/${acme.uuid}?${query}`);
      expect(res.status, query).to.be.lessThan(500);
    }
    await get(`/help/${acme.uuid}?q=${'%20'.repeat(40)}`).expect(200);
    // Express reads a query string the plain way (q[]= is not q); a control character is dropped, a broken escape kept.
    await eventually(async () => {
      const recorded = (await events(acme, 'search')).slice(before).map((e) => e.query);
      expect(recorded).to.have.members(['\uFFFD', '\uFFFD%A', 'password']);
    });
  });

  it('shows an article with its meta description, canonical link, hreflang alternates and the chat offer, and records the view', async () => {
    const res = await get(`/help/${acme.uuid}/reset-password?lang=en`).expect(200);
    const html = res.text;
    expect(html).to.include('<html lang="en" dir="ltr">').and.include('<h1>Reset your password</h1>');
    expect(html).to.include('<title>Reset your password · Acme Coffee help</title>');
    expect(html).to.include('<strong>Forgot password</strong>');
    const description = attr(html, /<meta name="description" content="([^"]*)">/);
    expect(description).to.match(/^If you forgot your password, open the sign-in page and choose Forgot password\. /);
    expect(description.length).to.be.within(100, 156);
    expect(description).to.match(/…$/);
    expect(html, 'the description is escaped').to.match(/<meta name="description" content="[^"<>]*">/);
    const base = `${server.url}/help/${acme.uuid}/reset-password`;
    expect(attr(html, /<link rel="canonical" href="([^"]+)">/)).to.equal(`${base}?lang=en`);
    const alternates = [...html.matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">/g)].map((m) => [
      m[1],
      he.decode(m[2] ?? ''),
    ]);
    expect(alternates).to.deep.equal([
      ['en', `${base}?lang=en`],
      ['de', `${base}?lang=de`],
      ['ar', `${base}?lang=ar`],
      ['x-default', base],
    ]);
    expect(html).to.include('<h2 id="chat-title">Still need help?</h2><p><span data-parley-chat>Chat with us</span></p>');
    expect(html).to.include(`<a href="/help/${acme.uuid}?lang=en">All articles</a>`);
    expect(html).to.match(/<time datetime="\d{4}-\d\d-\d\dT[^"]+">[A-Z][a-z]+ \d{1,2}, \d{4}<\/time>/);
    await eventually(async () => {
      const views = await events(acme, 'view');
      expect(views.map((v) => [String(v.articleId), v.language])).to.deep.include([
        String(articleIds[`${acme.uuid}:reset-password:en`]),
        'en',
      ]);
    });
  });

  it('never renders a body’s <script> or javascript: link as such, and keeps its https link', async () => {
    const html = (await get(`/help/${acme.uuid}/reset-password?lang=en`).expect(200)).text;
    const body = /<div class="hc-body">([\s\S]*?)<\/div>\n<\/article>/.exec(html)?.[1] ?? '';
    expect(body).to.include('our status page');
    expect(body)
      .to.not.match(/<script/i)
      .and.not.match(/href="javascript:/i)
      .and.not.match(/onerror/i);
    expect(body, 'the script is not even shown as text').to.not.include('alert("owned")');
    expect(body)
      .to.include('href="https://status.example.com"')
      .and.include('<img src="https://img.example.com/x.png" alt="Sign-in page" />');
    expect(body, 'a Markdown link to javascript: stays words').to.include('[Open the console](javascript:alert(1))');
    expect(html.match(/<script/g), 'the page’s own two scripts only').to.have.length(2);
  });

  it('picks an article’s translation from the browser without ?lang, right to left for Arabic, and redirects a missing one', async () => {
    const german = (await get(`/help/${acme.uuid}/reset-password`, 'de-AT,de;q=0.9').expect(200)).text;
    expect(german)
      .to.include('<html lang="de" dir="ltr">')
      .and.include('<h1>Passwort zurücksetzen</h1>')
      .and.include('Brauchen Sie weitere Hilfe?');
    expect(attr(german, /<link rel="canonical" href="([^"]+)">/)).to.match(/reset-password\?lang=de$/);
    const japanese = (await get(`/help/${acme.uuid}/reset-password`, 'ja').expect(200)).text;
    expect(japanese, 'the main language when the browser names none of the translations').to.include('<h1>Reset your password</h1>');

    const arabic = (await get(`/help/${acme.uuid}/reset-password?lang=ar`).expect(200)).text;
    expect(arabic).to.include('<html lang="ar" dir="rtl">').and.include('<h1>إعادة تعيين كلمة المرور</h1>');
    expect(arabic).to.include('<span data-parley-chat>تحدّث معنا</span>');

    const gone = await get(`/help/${acme.uuid}/reset-password?lang=fr`, 'de').expect(302);
    expect(gone.headers.location).to.equal(`/help/${acme.uuid}/reset-password?lang=de`);
  });

  it('answers 404 pages for drafts, another widget’s articles, unknown widgets and slugs, in the browser’s language', async () => {
    for (const path of [
      `/help/${acme.uuid}/roadmap?lang=en`,
      `/help/${acme.uuid}/roadmap`,
      `/help/${acme.uuid}/password-policy?lang=en`,
      `/help/${acme.uuid}/nope`,
      `/help/${acme.uuid}/NOT_A_SLUG`,
      `/help/${acme.uuid}/${'a'.repeat(500)}`,
      `/help/00000000-0000-4000-8000-000000000000`,
      `/help/00000000-0000-4000-8000-000000000000/reset-password?lang=en`,
      `/help/${'x'.repeat(300)}`,
      '/help',
    ]) {
      const res = await get(path).expect(404).expect('Content-Type', /html/);
      expect(res.text, path).to.include('<h1>Page not found</h1>').and.include('<meta name="robots" content="noindex">');
      expect(res.text, path).to.not.include('Secret roadmap').and.not.include('Globex password policy');
    }
    const known = (await get(`/help/${acme.uuid}/nope`, 'de').expect(404)).text;
    expect(known).to.include('<h1>Seite nicht gefunden</h1>').and.include(`href="/help/${acme.uuid}?lang=de">Alle Artikel</a>`);
    expect(known, 'the widget is there to ask').to.include(`data-widget-id="${acme.uuid}"`);
    await get(`/help/${globex.uuid}/password-policy?lang=en`).expect(200);
    await get(`/help/${acme.uuid}/%E0%A4%A`).expect((res) => expect(res.status).to.be.within(400, 499));
  });

  it('lists every published article in a valid sitemap with lastmod and its translations as alternates', async () => {
    const res = await get(`/help/${acme.uuid}/sitemap.xml`)
      .expect(200)
      .expect('Content-Type', /application\/xml/);
    expect(XMLValidator.validate(res.text)).to.equal(true);
    const parsed = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '',
      isArray: (name) => ['url', 'xhtml:link'].includes(name),
    }).parse(res.text) as {
      urlset: {
        xmlns: string;
        'xmlns:xhtml': string;
        url: { loc: string; lastmod: string; 'xhtml:link': { hreflang: string; href: string }[] }[];
      };
    };
    expect(parsed.urlset.xmlns).to.equal('http://www.sitemaps.org/schemas/sitemap/0.9');
    expect(parsed.urlset['xmlns:xhtml']).to.equal('http://www.w3.org/1999/xhtml');
    const base = `${server.url}/help/${acme.uuid}`;
    expect(parsed.urlset.url.map((u) => u.loc).sort()).to.deep.equal(
      [
        `${base}/reset-password?lang=ar`,
        `${base}/reset-password?lang=de`,
        `${base}/reset-password?lang=en`,
        `${base}/shipping?lang=en`,
      ].sort(),
    );
    const german = parsed.urlset.url.find((u) => u.loc.endsWith('reset-password?lang=de'));
    expect(german?.['xhtml:link'].map((l) => [l.hreflang, l.href])).to.deep.equal([
      ['en', `${base}/reset-password?lang=en`],
      ['de', `${base}/reset-password?lang=de`],
      ['ar', `${base}/reset-password?lang=ar`],
      ['x-default', `${base}/reset-password`],
    ]);
    for (const url of parsed.urlset.url) expect(Number.isNaN(Date.parse(url.lastmod)), url.loc).to.equal(false);
    expect(res.text).to.not.include('roadmap').and.not.include('password-policy');
    await get('/help/00000000-0000-4000-8000-000000000000/sitemap.xml').expect(404);
  });

  it('allows https images and the widget’s socket in the pages’ Content-Security-Policy, and no inline script', async () => {
    const res = await get(`/help/${acme.uuid}`).expect(200);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).to.include("script-src 'self'").and.include("img-src 'self' data: blob: https:").and.include("connect-src 'self' ws://");
    expect(csp)
      .to.not.include("'unsafe-inline' 'self'")
      .and.not.match(/script-src[^;]*unsafe-inline/);
    await get('/site/help.js')
      .expect(200)
      .expect('Content-Type', /javascript/);
    await get('/site/help.css').expect(200).expect('Content-Type', /css/);
  });

  it('shows a search’s snippets with their <mark>s and nothing else of its HTML, and stops a client searching too often', async () => {
    const search: ArticleSearch = {
      async search(widget, query, language) {
        return [
          {
            id: 'x',
            title: 'Reset your password',
            snippet: `Choose <mark>${query}</mark> <img src=x onerror=alert(1)><a href="javascript:alert(1)">here</a>`,
            url: '',
            score: 1,
            language: typeof language === 'string' ? language : await language(),
            slug: 'reset-password',
          },
        ].filter(() => widget.Uuid === acme.uuid);
      },
      changed() {},
    };
    const logger = server.parley.logger;
    const limiters = createRateLimiters({ logger });
    const app = express().use(
      helpRouter({ models: server.models, articleSearch: search, publicUrl: server.url, logger, limiters, searchesPerMinute: 2 }),
    );
    const res = await request(app).get(`/help/${acme.uuid}?q=password&lang=en`).expect(200);
    expect(res.text).to.include('<p class="hc-snippet">Choose <mark>password</mark> here</p>');
    await request(app).get(`/help/${acme.uuid}?q=grinder&lang=en`).expect(200);
    const stopped = await request(app).get(`/help/${acme.uuid}?q=espresso&lang=de`).expect(429).expect('Retry-After', '60');
    expect(stopped.text).to.include('Zu viele Suchen in kurzer Zeit.').and.not.include('hc-snippet');
    // Reading articles is not searching: it goes on.
    await request(app).get(`/help/${acme.uuid}?lang=en`).expect(200);
    await eventually(async () => {
      const queries = (await events(acme, 'search')).map((e) => e.query);
      expect(queries).to.include('grinder').and.not.include('espresso');
    });
  });
});
