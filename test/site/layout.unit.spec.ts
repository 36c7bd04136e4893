/**
 * The public pages' one document head (server/site/layout.ts htmlDocument): Parley's pages (docs, pricing) and each
 * site's help center write their <head> through it, so a line every page needs (charset, viewport, a search
 * engine's hint) is written once and cannot be missing from one kind of page.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { htmlDocument, renderPage } from '../../server/site/layout';

const SITE = path.join(__dirname, '..', '..', 'server', 'site');

describe('public page head (site/layout.ts)', () => {
  it('is written in layout.ts only: no other page module of server/site writes a doctype or a <head>', () => {
    const writers = readdirSync(SITE)
      .filter((name) => name.endsWith('.ts') && name !== 'layout.ts')
      .filter((name) => /<!doctype|<head>/i.test(readFileSync(path.join(SITE, name), 'utf8')));
    expect(writers).to.deep.equal([]);
  });

  it("writes a help page's language, direction, search lines and accent, every value escaped", () => {
    const html = htmlDocument(
      {
        lang: 'ar',
        dir: 'rtl',
        title: 'Returns & "refunds" <2>',
        description: 'How to send a parcel back',
        canonical: 'https://parley.test/help/u/returns?lang=ar',
        alternates: [{ hreflang: 'en', href: 'https://parley.test/help/u/returns?lang=en&x=1' }],
        noindex: true,
        stylesheet: '/help/help.css',
        bodyStyle: '--hc-accent:#123456',
      },
      '<main id="main">body</main>',
    );
    expect(html).to.match(/^<!doctype html>\n<html lang="ar" dir="rtl">\n<head>\n<meta charset="utf-8">\n<meta name="viewport"/);
    expect(html).to.include('<title>Returns &amp; &quot;refunds&quot; &lt;2&gt;</title>');
    expect(html).to.include('<meta name="description" content="How to send a parcel back">');
    expect(html).to.include('<meta name="robots" content="noindex">');
    expect(html).to.include('<link rel="canonical" href="https://parley.test/help/u/returns?lang=ar">');
    expect(html).to.include('<link rel="alternate" hreflang="en" href="https://parley.test/help/u/returns?lang=en&amp;x=1">');
    expect(html).to.include('<body style="--hc-accent:#123456">\n<main id="main">body</main>\n</body>\n</html>');
    expect(html).to.not.include('rel="icon"');
  });

  it("writes Parley's own pages with the same head: English, left to right, Parley's icon and stylesheet", () => {
    const html = renderPage({ title: 'Docs', section: 'docs', main: '<h1>Docs</h1>' });
    expect(html).to.match(/^<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport"/);
    expect(html).to.include('<title>Docs · Parley</title>');
    expect(html).to.include('<link rel="icon" href="/app/favicon.svg">\n<link rel="stylesheet" href="/site/site.css">\n</head>');
    expect(html).to.include('<a href="/docs" aria-current="page">Docs</a>');
    expect(html).to.not.include('noindex');
  });
});
