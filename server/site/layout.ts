/**
 * The frame of Parley's public pages (docs, pricing): the console's header look (logo, Docs, FAQs, and a
 * link into the console), a sidebar when the page has one, and the console's colours and type. Server-rendered
 * HTML with one stylesheet and no script (but the API reference's renderer), so it works without a session and
 * without JavaScript.
 */
import { escapeHtml } from '../escapeHtml';

const LOGO = `<svg width="30" height="30" viewBox="0 0 32 32" aria-hidden="true" focusable="false"><rect width="32" height="32" rx="8" fill="#4f46e5"/><path d="M9 10.5A3.5 3.5 0 0 1 12.5 7h7A3.5 3.5 0 0 1 23 10.5v5a3.5 3.5 0 0 1-3.5 3.5H15l-4.2 3.4c-.6.5-1.8.1-1.8-.8V10.5z" fill="#fff"/><circle cx="13" cy="13" r="1.4" fill="#4f46e5"/><circle cx="16" cy="13" r="1.4" fill="#4f46e5"/><circle cx="19" cy="13" r="1.4" fill="#4f46e5"/></svg>`;

export type PageFrame = {
  title: string;
  /** Which header link is current. */
  section: 'docs' | 'pricing';
  /** Trusted HTML (rendered and sanitised by the caller). */
  main: string;
  /** Trusted HTML of the sidebar, if the page has one. */
  sidebar?: string;
  /** Scripts (same-origin paths) the page loads: only /docs/api has one, its renderer. */
  scripts?: string[];
  /** The page spans the whole width (the API reference lays out its own columns). */
  wide?: boolean;
};

/**
 * The one head of every public page, Parley's (docs, pricing) and a site's help center alike: the document's
 * language and direction, charset, viewport, title, the search engines' lines when given, and one stylesheet.
 */
export type DocumentHead = {
  lang: string;
  dir?: 'ltr' | 'rtl';
  title: string;
  description?: string;
  canonical?: string;
  alternates?: { hreflang: string; href: string }[];
  noindex?: boolean;
  icon?: string;
  stylesheet: string;
  /** Custom properties on <body> (already checked by the caller: the help center's accent colour). */
  bodyStyle?: string;
};

/** A whole HTML document: `head` as DocumentHead says, and `body` (trusted HTML, escaped by the caller). */
export function htmlDocument(head: DocumentHead, body: string): string {
  const lines = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(head.title)}</title>`,
    head.description ? `<meta name="description" content="${escapeHtml(head.description)}">` : '',
    head.noindex ? '<meta name="robots" content="noindex">' : '',
    head.canonical ? `<link rel="canonical" href="${escapeHtml(head.canonical)}">` : '',
    ...(head.alternates ?? []).map((a) => `<link rel="alternate" hreflang="${escapeHtml(a.hreflang)}" href="${escapeHtml(a.href)}">`),
    head.icon ? `<link rel="icon" href="${escapeHtml(head.icon)}">` : '',
    `<link rel="stylesheet" href="${escapeHtml(head.stylesheet)}">`,
  ].filter((line) => line !== '');
  const dir = head.dir ? ` dir="${head.dir}"` : '';
  const style = head.bodyStyle ? ` style="${escapeHtml(head.bodyStyle)}"` : '';
  return `<!doctype html>
<html lang="${escapeHtml(head.lang)}"${dir}>
<head>
${lines.join('\n')}
</head>
<body${style}>
${body}
</body>
</html>`;
}

export function renderPage(frame: PageFrame): string {
  const current = (section: PageFrame['section']) => (frame.section === section ? ' aria-current="page"' : '');
  return htmlDocument(
    { lang: 'en', title: `${frame.title} · Parley`, icon: '/app/favicon.svg', stylesheet: '/site/site.css' },
    `<a class="skip-link" href="#main">Skip to content</a>
<header class="topbar">
  <a class="topbar__logo" href="/app/" aria-label="Parley console">${LOGO}<span class="logo__word">Parley</span></a>
  <nav class="topbar__links" aria-label="Help">
    <a href="/docs"${current('docs')}>Docs</a>
    <a href="/pricing/#FAQ">FAQs</a>
    <a href="/pricing"${current('pricing')}>Pricing</a>
  </nav>
  <a class="btn btn--primary topbar__cta" href="/app/">Open console</a>
</header>
<div class="page${frame.sidebar ? ' page--with-sidebar' : ''}${frame.wide ? ' page--wide' : ''}">
${frame.sidebar ? `<nav class="sidebar" aria-label="Documentation">${frame.sidebar}</nav>` : ''}
<main id="main" class="content">
${frame.main}
</main>
</div>
${(frame.scripts ?? []).map((src) => `<script src="${escapeHtml(src)}"></script>`).join('\n')}`,
  );
}
