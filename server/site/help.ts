/**
 * A widget's public help center, rendered on the server (no session, no client code but the widget's own):
 * - /help/<uuid>: the site's name (the widget's title), a search box (a GET form, ?q=), the published articles of
 *   one language and a switcher among the languages that have some; the widget embedded, so a visitor can chat;
 * - /help/<uuid>/<slug>?lang=<language>: an article (articleUrl() in answers/search.ts makes the address;
 *   translations share the slug), with its meta description, canonical link and hreflang alternates;
 * - /help/<uuid>/sitemap.xml: every published article with its alternates, for search engines.
 * The language: ?lang= when it has articles, else the browser's best (matched like conversations/widgetLanguage.ts
 * does), else the help center's main language (the one most of its published articles are written in).
 * Searches and article views are recorded as AnswerEvents for the Answers report.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { match } from '@formatjs/intl-localematcher';
import { type Request, type Response, Router } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import helmet from 'helmet';
import type { Types } from 'mongoose';
import sanitizeHtml from 'sanitize-html';
import { type ArticleSearch, articleUrl } from '../answers/search';
import { browserLanguages, localizeSettings, pickWidgetLocale } from '../conversations/widgetLanguage';
import { escapeHtml } from '../escapeHtml';
import type { Logger } from '../logger';
import type { Models } from '../models';
import type { AnswerEvent } from '../models/AnswerEvent';
import { articleHtml, articlePlain } from '../ownerText';
import type { RateLimiters } from '../rateLimits';
import { ARTICLE_LIMITS, SLUG_PATTERN } from '../shared/articles';
import { directionOf, fill, isWidgetLocale, LOCALE_NAMES, WIDGET_LOCALES, type WidgetLocale } from '../shared/widget-texts';
import { HELP_TEXTS, type HelpTexts } from './helpTexts';
import { htmlDocument } from './layout';

export type HelpDeps = {
  models: Pick<Models, 'ChatEndpoint' | 'Article' | 'AnswerEvent'>;
  /** The search behind the search box (main.ts builds the one every part uses). */
  articleSearch: ArticleSearch;
  /** Parley's public address: canonical links, hreflang alternates and the sitemap are absolute. */
  publicUrl: string;
  logger: Logger;
  /** The deployment's rate limiters: searches are counted per client address (in Redis with several processes). */
  limiters: Pick<RateLimiters, 'counter'>;
  /** Searches a client address may make a minute; more answer 429 with a page saying to wait. */
  searchesPerMinute?: number;
};

/** About what a search engine shows of a page's description. */
const DESCRIPTION_CHARS = 155;
const UUID_MAX_CHARS = 64;
/** Far above what a person types, low enough that a script cannot fill the Answers report. */
const SEARCHES_PER_MINUTE = 30;

type Widget = {
  _id: Types.ObjectId;
  Uuid: string;
  accountId: Types.ObjectId;
  onlineTitle?: string;
  titleColor?: string;
  textOverrides?: unknown;
};
type Listed = { _id: Types.ObjectId; title: string; slug: string; language: string; updatedAt: Date };

/** The stylesheet and the one small script are served here, beside the docs' stylesheet. */
export const HELP_CSS_PATH = '/site/help.css';
export const HELP_JS_PATH = '/site/help.js';

export function helpRouter(deps: HelpDeps): Router {
  const { models, articleSearch, logger } = deps;
  const base = deps.publicUrl.replace(/\/+$/, '');
  const router = Router();
  const searches = deps.limiters.counter('help-search', 60_000);
  const searchesPerMinute = deps.searchesPerMinute ?? SEARCHES_PER_MINUTE;
  const css = readFileSync(path.join(__dirname, 'help.css'), 'utf8');
  // Named .client.js on disk: help.js is this module's own name once compiled (scripts/build-test-processes.ts).
  const js = readFileSync(path.join(__dirname, 'help.client.js'), 'utf8');

  router.get(HELP_CSS_PATH, (_req, res) => {
    res.type('css').set('Cache-Control', 'public, max-age=300').send(css);
  });
  router.get(HELP_JS_PATH, (_req, res) => {
    res.type('js').set('Cache-Control', 'public, max-age=300').send(js);
  });

  // Helmet's policy (app.ts) with two additions: an article may show https images from anywhere, and so may the
  // widget (operators' and team avatars); the widget's WebSocket is at Parley's public address.
  const https = base.startsWith('https:');
  router.use(
    '/help',
    helmet.contentSecurityPolicy({
      directives: {
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        connectSrc: ["'self'", base.replace(/^http/, 'ws')],
        upgradeInsecureRequests: https ? [] : null,
      },
    }),
  );

  const widgetOf = async (uuid: string): Promise<Widget | null> =>
    uuid.length <= UUID_MAX_CHARS
      ? models.ChatEndpoint.findOne({ Uuid: uuid }).select('_id Uuid accountId onlineTitle titleColor textOverrides').lean<Widget>()
      : null;

  const record = (widget: Widget, event: Omit<AnswerEvent, 'accountId' | 'ceId' | 'at'>) => {
    models.AnswerEvent.create({ accountId: widget.accountId, ceId: widget._id, at: new Date(), ...event }).catch((error: unknown) =>
      logger.warn({ err: error, kind: event.kind }, 'a help-center event was not recorded'),
    );
  };

  router.get('/help', (req, res) => notFound(req, res, null));

  // Also /help/<uuid>/: Express's routing ignores a trailing slash.
  router.get('/help/:uuid', async (req, res) => {
    const widget = await widgetOf(req.params.uuid);
    if (!widget) return notFound(req, res, null);
    const published = await models.Article.find({ ceId: widget._id, published: true })
      .select('_id title slug language updatedAt')
      .lean<Listed[]>();
    const articles = published.filter((a) => isWidgetLocale(a.language));
    const languages = languagesOf(articles);
    const locale =
      languages.length === 0 ? pickWidgetLocale(req.acceptsLanguages()) : (chooseLanguage(req, languages) ?? mainLanguage(articles));
    const t = HELP_TEXTS[locale];
    const home = homePath(widget.Uuid, locale);

    // Control characters (a NUL, a line break) are no part of a question.
    const asked = firstString(req.query.q)
      .replace(/\p{Cc}+/gu, ' ')
      .trim();
    let body: string;
    let status = 200;
    if (asked === '') {
      const inLanguage = articles.filter((a) => a.language === locale).sort((a, b) => a.title.localeCompare(b.title, locale));
      body =
        inLanguage.length === 0
          ? `<p>${escapeHtml(t.noArticles)}</p>`
          : `<section aria-labelledby="articles-title"><h2 id="articles-title">${escapeHtml(t.articles)}</h2>
<ul class="hc-list">${inLanguage.map((a) => `<li><a href="${escapeHtml(articlePath(widget.Uuid, a.slug, a.language))}">${escapeHtml(a.title)}</a></li>`).join('')}</ul></section>`;
    } else if (asked.length > ARTICLE_LIMITS.queryChars) {
      body = `<p class="hc-note" role="status">${escapeHtml(fill(t.tooLong, { max: String(ARTICLE_LIMITS.queryChars) }))}</p>
<p><a href="${escapeHtml(home)}">${escapeHtml(t.allArticles)}</a></p>`;
    } else if ((await searches.hit(ipKeyGenerator(req.ip ?? 'unknown'))) > searchesPerMinute) {
      status = 429;
      res.set('Retry-After', '60');
      body = `<p class="hc-note" role="status">${escapeHtml(t.tooMany)}</p>
<p><a href="${escapeHtml(home)}">${escapeHtml(t.allArticles)}</a></p>`;
    } else {
      const hits = await articleSearch.search({ _id: String(widget._id), Uuid: widget.Uuid }, asked, locale);
      if (req.method === 'GET') record(widget, { kind: 'search', query: asked, language: locale, hits: hits.length });
      const heading = `<h2 id="results-title">${fill(escapeHtml(t.results), { query: escapeHtml(asked) })}</h2>`;
      body =
        hits.length === 0
          ? `<section aria-labelledby="results-title">${heading}<p>${escapeHtml(t.noResults)}</p>${stillNeedHelp(t)}
<p><a href="${escapeHtml(home)}">${escapeHtml(t.allArticles)}</a></p></section>`
          : `<section aria-labelledby="results-title">${heading}
<ol class="hc-list hc-results">${hits
              .map(
                (hit) =>
                  `<li><a href="${escapeHtml(articlePath(widget.Uuid, hit.slug, hit.language))}"${hit.language === locale ? '' : ` hreflang="${escapeHtml(hit.language)}" lang="${escapeHtml(hit.language)}"`}>${escapeHtml(hit.title)}</a>${hit.snippet ? `<p class="hc-snippet">${snippetHtml(hit.snippet)}</p>` : ''}</li>`,
              )
              .join('')}</ol>
<p><a href="${escapeHtml(home)}">${escapeHtml(t.allArticles)}</a></p></section>`;
    }

    const siteName = siteNameOf(widget, locale);
    res.set('Cache-Control', 'no-cache').set('Vary', 'Accept-Language');
    res
      .status(status)
      .type('html')
      .send(
        page({
          locale,
          widget,
          siteName,
          title: asked ? `${fill(t.results, { query: asked.slice(0, 60) })} · ${siteName}` : `${t.helpCenter} · ${siteName}`,
          description: `${t.helpCenter} · ${siteName}`,
          canonical: `${base}${home}`,
          alternates:
            languages.length > 1
              ? alternatesOf(
                  languages.map((l) => ({ language: l, href: `${base}${homePath(widget.Uuid, l)}` })),
                  `${base}/help/${encodeURIComponent(widget.Uuid)}`,
                )
              : [],
          noindex: asked !== '',
          switcher: languages.map((l) => ({ locale: l, href: homePath(widget.Uuid, l) })),
          searchInHeader: false,
          main: `<div class="hc-hero"><h1>${escapeHtml(t.heading)}</h1>${searchForm(widget.Uuid, locale, t, asked, 'hero')}</div>
${body}`,
        }),
      );
  });

  router.get('/help/:uuid/sitemap.xml', async (req, res) => {
    const widget = await widgetOf(req.params.uuid);
    if (!widget) {
      res.status(404).type('text/plain').send('Not found');
      return;
    }
    const published = await models.Article.find({ ceId: widget._id, published: true })
      .select('slug language updatedAt')
      .lean<Pick<Listed, 'slug' | 'language' | 'updatedAt'>[]>();
    const articles = published.filter((a) => isWidgetLocale(a.language));
    const bySlug = new Map<string, typeof articles>();
    for (const a of articles) bySlug.set(a.slug, [...(bySlug.get(a.slug) ?? []), a]);
    const urls = [...bySlug.values()].flatMap((translations) => {
      const links = alternatesOf(
        translations.map((a) => ({ language: a.language, href: articleUrl(base, widget.Uuid, a.slug, a.language) })),
        `${base}${articlePath(widget.Uuid, translations[0]?.slug ?? '', null)}`,
      )
        .map((l) => `<xhtml:link rel="alternate" hreflang="${escapeHtml(l.hreflang)}" href="${escapeHtml(l.href)}"/>`)
        .join('');
      return translations.map(
        (a) =>
          `<url><loc>${escapeHtml(articleUrl(base, widget.Uuid, a.slug, a.language))}</loc><lastmod>${new Date(a.updatedAt).toISOString()}</lastmod>${links}</url>`,
      );
    });
    res.set('Cache-Control', 'public, max-age=300');
    res.type('application/xml').send(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">
${urls.join('\n')}
</urlset>
`);
  });

  router.get('/help/:uuid/:slug', async (req, res) => {
    const widget = await widgetOf(req.params.uuid);
    if (!widget) return notFound(req, res, null);
    const slug = req.params.slug;
    if (slug.length > ARTICLE_LIMITS.slugChars || !SLUG_PATTERN.test(slug)) return notFound(req, res, widget);
    const translations = (
      await models.Article.find({ ceId: widget._id, slug, published: true })
        .select('_id title body language slug updatedAt')
        .lean<(Listed & { body: string })[]>()
    ).filter((a) => isWidgetLocale(a.language));
    if (translations.length === 0) return notFound(req, res, widget);
    const languages = languagesOf(translations);
    const asked = firstString(req.query.lang);
    const exact = translations.find((a) => a.language === asked);
    if (!exact) {
      const best = chooseLanguage(req, languages) ?? (await mainLanguageOf(widget, languages));
      // A link to a translation that is gone (or a language never written): the best one there is.
      if (asked !== '') {
        res.redirect(302, articlePath(widget.Uuid, slug, best));
        return;
      }
      return showArticle(req, res, widget, translations, best);
    }
    return showArticle(req, res, widget, translations, exact.language as WidgetLocale);
  });

  /** The main language when the browser names none of `languages`: the help center's, if the article is in it. */
  const mainLanguageOf = async (widget: Widget, languages: WidgetLocale[]): Promise<WidgetLocale> => {
    const [only] = languages;
    if (languages.length === 1 && only) return only;
    const all = await models.Article.find({ ceId: widget._id, published: true }).select('language').lean<{ language: string }[]>();
    const main = mainLanguage(all.filter((a) => isWidgetLocale(a.language)));
    return languages.includes(main) ? main : (languages[0] ?? main);
  };

  function showArticle(req: Request, res: Response, widget: Widget, translations: (Listed & { body: string })[], locale: WidgetLocale) {
    const article = translations.find((a) => a.language === locale);
    if (!article) return notFound(req, res, widget);
    const t = HELP_TEXTS[locale];
    const siteName = siteNameOf(widget, locale);
    const languages = languagesOf(translations);
    const updated = new Date(article.updatedAt);
    const date = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(updated);
    if (req.method === 'GET') record(widget, { kind: 'view', articleId: article._id, language: locale });
    res.set('Cache-Control', 'no-cache').set('Vary', 'Accept-Language');
    res.type('html').send(
      page({
        locale,
        widget,
        siteName,
        title: `${article.title} · ${siteName}`,
        description: metaDescription(articlePlain(article.body)) || article.title,
        canonical: articleUrl(base, widget.Uuid, article.slug, locale),
        alternates: alternatesOf(
          languages.map((l) => ({ language: l, href: articleUrl(base, widget.Uuid, article.slug, l) })),
          `${base}${articlePath(widget.Uuid, article.slug, null)}`,
        ),
        switcher: languages.map((l) => ({ locale: l, href: articlePath(widget.Uuid, article.slug, l) })),
        searchInHeader: true,
        main: `<nav class="hc-crumbs" aria-label="${escapeHtml(t.breadcrumb)}"><a href="${escapeHtml(homePath(widget.Uuid, locale))}">${escapeHtml(t.allArticles)}</a></nav>
<article class="hc-article">
<h1>${escapeHtml(article.title)}</h1>
<p class="hc-meta">${fill(escapeHtml(t.updated), { date: `<time datetime="${updated.toISOString()}">${escapeHtml(date)}</time>` })}</p>
<div class="hc-body">${articleHtml(article.body)}</div>
</article>
${stillNeedHelp(t)}`,
      }),
    );
  }

  function notFound(req: Request, res: Response, widget: Widget | null): void {
    const locale = pickWidgetLocale(req.acceptsLanguages());
    const t = HELP_TEXTS[locale];
    const siteName = widget ? siteNameOf(widget, locale) : t.helpCenter;
    const back = widget ? `<p><a href="${escapeHtml(homePath(widget.Uuid, locale))}">${escapeHtml(t.allArticles)}</a></p>` : '';
    res
      .status(404)
      .set('Cache-Control', 'no-cache')
      .type('html')
      .send(
        page({
          locale,
          widget,
          siteName,
          title: `${t.notFound} · ${siteName}`,
          noindex: true,
          switcher: [],
          searchInHeader: widget !== null,
          main: `<h1>${escapeHtml(t.notFound)}</h1><p>${escapeHtml(t.notFoundText)}</p>${back}`,
        }),
      );
  }

  return router;
}

type PageParts = {
  locale: WidgetLocale;
  /** The widget whose help center this is; null on the page of an unknown one (no widget, no search). */
  widget: Widget | null;
  siteName: string;
  title: string;
  description?: string;
  canonical?: string;
  alternates?: { hreflang: string; href: string }[];
  noindex?: boolean;
  /** The languages the page exists in (shown when there are two or more). */
  switcher: { locale: WidgetLocale; href: string }[];
  /** The search box in the header (article pages); the home page has it in its main part. */
  searchInHeader: boolean;
  /** Trusted HTML: every piece escaped or sanitised by the caller. */
  main: string;
};

function page(p: PageParts): string {
  const t = HELP_TEXTS[p.locale];
  const widget = p.widget;
  const accent = widget?.titleColor && /^#[0-9a-f]{3,8}$/i.test(widget.titleColor) ? widget.titleColor : '#2f6fed';
  const home = widget ? homePath(widget.Uuid, p.locale) : null;
  const name = home
    ? `<a class="hc-name" href="${escapeHtml(home)}">${escapeHtml(p.siteName)}</a>`
    : `<span class="hc-name">${escapeHtml(p.siteName)}</span>`;
  const current = p.switcher.find((s) => s.locale === p.locale);
  const switcher =
    p.switcher.length > 1 && current
      ? `<nav class="hc-langs" aria-label="${escapeHtml(t.language)}"><details><summary><span class="hc-visually-hidden">${escapeHtml(t.language)}: </span>${escapeHtml(LOCALE_NAMES[p.locale])}</summary><ul>${p.switcher
          .map(
            (s) =>
              `<li><a href="${escapeHtml(s.href)}" hreflang="${escapeHtml(s.locale)}" lang="${escapeHtml(s.locale)}"${s.locale === p.locale ? ' aria-current="true"' : ''}>${escapeHtml(LOCALE_NAMES[s.locale])}</a></li>`,
          )
          .join('')}</ul></details></nav>`
      : '';
  // The embed snippet's loader tag (shared/embed.ts), from Parley's own origin; help.js turns "Chat with us" into a
  // button once the widget says it is ready.
  const scripts = widget
    ? `<script src="${HELP_JS_PATH}"></script>
<script async src="/widget.js" data-widget-id="${escapeHtml(widget.Uuid)}" data-style="standard"></script>`
    : '';
  return htmlDocument(
    {
      lang: p.locale,
      dir: directionOf(p.locale),
      title: p.title,
      description: p.description,
      canonical: p.canonical,
      alternates: p.alternates,
      noindex: p.noindex,
      stylesheet: HELP_CSS_PATH,
      bodyStyle: `--hc-accent:${accent}`,
    },
    `<a class="hc-skip" href="#main">${escapeHtml(t.skipToContent)}</a>
<header class="hc-top">
<div class="hc-bar">${name}${switcher}</div>
${p.searchInHeader && widget ? `<div class="hc-bar hc-bar--search">${searchForm(widget.Uuid, p.locale, t, '', 'top')}</div>` : ''}
</header>
<main id="main" class="hc-main">
${p.main}
</main>
${scripts}`,
  );
}

function searchForm(uuid: string, locale: WidgetLocale, t: HelpTexts, value: string, id: string): string {
  return `<form class="hc-search" role="search" action="/help/${escapeHtml(encodeURIComponent(uuid))}" method="get">
<label for="q-${id}">${escapeHtml(t.searchLabel)}</label>
<div class="hc-search__row"><input id="q-${id}" type="search" name="q" value="${escapeHtml(value)}" maxlength="${ARTICLE_LIMITS.queryChars}" autocomplete="off" enterkeyhint="search"><input type="hidden" name="lang" value="${escapeHtml(locale)}"><button type="submit">${escapeHtml(t.searchButton)}</button></div>
</form>`;
}

/** "Still need help? Chat with us": the words are a button opening the widget once it is ready (help.js). */
function stillNeedHelp(t: HelpTexts): string {
  return `<aside class="hc-chat" aria-labelledby="chat-title"><h2 id="chat-title">${escapeHtml(t.stillNeedHelp)}</h2><p><span data-parley-chat>${escapeHtml(t.chatWithUs)}</span></p></aside>`;
}

/** A search's snippet: the search escapes it and marks words with <mark>; nothing else may pass, whichever search made it. */
function snippetHtml(snippet: string): string {
  return sanitizeHtml(snippet, { allowedTags: ['mark'], allowedAttributes: {} });
}

const homePath = (uuid: string, locale: string) => `/help/${encodeURIComponent(uuid)}?lang=${encodeURIComponent(locale)}`;
const articlePath = (uuid: string, slug: string, locale: string | null) =>
  locale === null ? `/help/${encodeURIComponent(uuid)}/${encodeURIComponent(slug)}` : articleUrl('', uuid, slug, locale);

/** Each language's page and, for a browser none of them fits, the page that picks one (x-default). */
function alternatesOf(pages: { language: string; href: string }[], fallback: string): { hreflang: string; href: string }[] {
  return [...pages.map((p) => ({ hreflang: p.language, href: p.href })), { hreflang: 'x-default', href: fallback }];
}

/** The languages present, in the widget's order of languages. */
function languagesOf(articles: { language: string }[]): WidgetLocale[] {
  const present = new Set(articles.map((a) => a.language));
  return WIDGET_LOCALES.filter((l) => present.has(l));
}

/** The language most published articles are written in (ties: the widget's order of languages, English first). */
function mainLanguage(articles: { language: string }[]): WidgetLocale {
  const counts = new Map<string, number>();
  for (const a of articles) counts.set(a.language, (counts.get(a.language) ?? 0) + 1);
  let best: WidgetLocale = WIDGET_LOCALES[0];
  for (const l of WIDGET_LOCALES) if ((counts.get(l) ?? 0) > (counts.get(best) ?? 0)) best = l;
  return best;
}

/** ?lang= when the page exists in it, else the browser's best among `languages`; null when neither names one. */
function chooseLanguage(req: Request, languages: WidgetLocale[]): WidgetLocale | null {
  const asked = firstString(req.query.lang);
  if (isWidgetLocale(asked) && languages.includes(asked)) return asked;
  const tags = browserLanguages(req.acceptsLanguages());
  if (tags.length === 0) return null;
  try {
    // The matcher answers its default (here none of the languages) when nothing fits.
    const best = match(tags, languages, 'und');
    return isWidgetLocale(best) && languages.includes(best) ? best : null;
  } catch {
    return null;
  }
}

/** A query parameter as one string: a repeated or nested one (?q[a]=…) reads as its first plain value, or ''. */
function firstString(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  return '';
}

/** The widget's title in `locale` (the owner's override for it, their own text, or the built-in translation). */
function siteNameOf(widget: Widget, locale: WidgetLocale): string {
  const overrides = widget.textOverrides as Parameters<typeof localizeSettings>[1];
  return localizeSettings({ onlineTitle: widget.onlineTitle ?? '' }, overrides, locale).onlineTitle || HELP_TEXTS[locale].helpCenter;
}

/** About DESCRIPTION_CHARS characters of plain text, cut at a word where there are words, with an ellipsis when cut. */
function metaDescription(plain: string): string {
  const chars = Array.from(plain.replace(/\s+/g, ' ').trim());
  if (chars.length <= DESCRIPTION_CHARS) return chars.join('');
  const cut = chars.slice(0, DESCRIPTION_CHARS - 1).join('');
  const space = cut.lastIndexOf(' ');
  const words = space > DESCRIPTION_CHARS * 0.6 ? cut.slice(0, space) : cut;
  return `${words.replace(/[\s.,;:!?、。，-]+$/u, '')}…`;
}
