/**
 * Parley's public pages, served without a session: /docs (from docs/*.md), /docs/api (the API reference),
 * /pricing, and their stylesheet.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Router } from 'express';
import { apiReferenceRouter } from './apiReference';
import { DEFAULT_DOCS_DIR, docsRouter } from './docs';
import { pricingRouter } from './pricing';

/**
 * `publicUrl`: Parley's own address, written into the docs' examples in place of `https://parley.example.com`
 * so a reader can copy them as they are.
 */
export function siteRouter(options: { docsDir?: string; publicUrl?: string } = {}): Router {
  const router = Router();
  const css = readFileSync(path.join(__dirname, 'site.css'), 'utf8');
  router.get('/site/site.css', (_req, res) => {
    res.type('css').set('Cache-Control', 'public, max-age=300').send(css);
  });
  // Before the Markdown pages: /docs/api is the API reference, not a docs/*.md file.
  router.use(apiReferenceRouter());
  router.use(docsRouter(options.docsDir ?? DEFAULT_DOCS_DIR, options.publicUrl));
  router.use(pricingRouter());
  return router;
}
