/**
 * /docs: the documentation site, rendered on the server from every docs/*.md file in the repository
 * (markdown-it, raw HTML off, then sanitize-html), so adding a page is adding a file. /docs is docs/index.md,
 * /docs/<name> is docs/<name>.md; the sidebar lists every page by its first heading.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { Router } from 'express';
import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';
import { escapeHtml } from '../escapeHtml';
import { renderPage } from './layout';

export const DEFAULT_DOCS_DIR = path.resolve(__dirname, '..', '..', 'docs');

/** Pages in reading order; any other file follows, alphabetically. */
const ORDER = ['index', 'install', 'widget-api', 'slack-commands', 'email-replies', 'webhooks', 'rest-api', 'integrations', 'self-hosting'];
const PAGE_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

export const slugify = (text: string) =>
  text
    .toLowerCase()
    .replace(/<[^>]*>/g, '')
    .replace(/[^a-z0-9\s-]/g, '')
    .trim()
    .replace(/\s+/g, '-');

function markdown() {
  const md = new MarkdownIt({ html: false, linkify: true, typographer: false });
  // Headings get ids, so pages can link to sections (#rest-hooks).
  md.renderer.rules.heading_open = (tokens, idx, options, _env, self) => {
    const inline = tokens[idx + 1];
    const id = slugify(inline?.content ?? '');
    if (id) tokens[idx]?.attrSet('id', id);
    return self.renderToken(tokens, idx, options);
  };
  return md;
}

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, 'h1', 'h2', 'img'],
  allowedAttributes: {
    a: ['href', 'title'],
    img: ['src', 'alt', 'title'],
    code: ['class'],
    h1: ['id'],
    h2: ['id'],
    h3: ['id'],
    h4: ['id'],
    h5: ['id'],
    h6: ['id'],
    th: ['style'],
    td: ['style'],
    pre: ['tabindex'],
    table: ['tabindex'],
  },
  // Code blocks and tables scroll sideways on a narrow screen: focusable, so a keyboard can scroll them too.
  transformTags: {
    pre: sanitizeHtml.simpleTransform('pre', { tabindex: '0' }),
    table: sanitizeHtml.simpleTransform('table', { tabindex: '0' }),
  },
  allowedStyles: { '*': { 'text-align': [/^(left|right|center)$/] } },
  allowedSchemes: ['http', 'https', 'mailto'],
};

type Page = { name: string; title: string; html: string };

/** The address the docs' examples are written with; each page shows the address it is served from instead. */
export const EXAMPLE_HOST = 'https://parley.example.com';

/** Reads and renders the pages, again only when a file changed (so new files show up without a restart). */
function pageStore(dir: string, publicUrl: string | undefined) {
  const md = markdown();
  const cache = new Map<string, { mtimeMs: number; page: Page }>();
  const load = async (name: string): Promise<Page | null> => {
    const file = path.join(dir, `${name}.md`);
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) return null;
    const hit = cache.get(name);
    if (hit && hit.mtimeMs === info.mtimeMs) return hit.page;
    const written = await readFile(file, 'utf8');
    const source = publicUrl ? written.replaceAll(EXAMPLE_HOST, publicUrl.replace(/\/+$/, '')) : written;
    const title = /^#\s+(.+)$/m.exec(source)?.[1]?.trim() ?? name;
    const page = { name, title, html: sanitizeHtml(md.render(source), SANITIZE) };
    cache.set(name, { mtimeMs: info.mtimeMs, page });
    return page;
  };
  const list = async (): Promise<Page[]> => {
    const names = (await readdir(dir).catch(() => []))
      .filter((f) => f.endsWith('.md'))
      .map((f) => f.slice(0, -3))
      .filter((n) => PAGE_NAME.test(n));
    const rank = (n: string) => (ORDER.includes(n) ? ORDER.indexOf(n) : ORDER.length);
    names.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
    const pages = await Promise.all(names.map(load));
    return pages.filter((p): p is Page => p !== null);
  };
  return { load, list };
}

export function docsRouter(dir: string = DEFAULT_DOCS_DIR, publicUrl?: string): Router {
  const router = Router();
  const store = pageStore(dir, publicUrl);

  const show = async (name: string, res: import('express').Response) => {
    const page = PAGE_NAME.test(name) ? await store.load(name) : null;
    const pages = await store.list();
    const sidebar = `<h2>Documentation</h2><ul>${pages
      .map(
        (p) =>
          `<li><a href="${p.name === 'index' ? '/docs' : `/docs/${p.name}`}"${p.name === name ? ' aria-current="page"' : ''}>${escapeHtml(p.title)}</a></li>`,
      )
      .join('')}<li><a href="/docs/api">API reference</a></li></ul>`;
    if (!page) {
      res
        .status(404)
        .type('html')
        .send(
          renderPage({
            title: 'Page not found',
            section: 'docs',
            sidebar,
            main: '<article class="doc"><h1>Page not found</h1><p>This documentation page does not exist. Pick one on the left.</p></article>',
          }),
        );
      return;
    }
    res.type('html').send(renderPage({ title: page.title, section: 'docs', sidebar, main: `<article class="doc">${page.html}</article>` }));
  };

  router.get(['/docs', '/docs/'], (_req, res) => show('index', res));
  router.get('/docs/:page', (req, res) => show(String(req.params.page).replace(/\.md$/, ''), res));
  return router;
}
