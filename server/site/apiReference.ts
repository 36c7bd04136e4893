/**
 * /docs/api: the public API's reference, rendered in the browser by Redoc from GET /v1/api/openapi.json. Redoc's
 * standalone bundle is served from node_modules by Parley itself (no CDN) and loaded on this page only, under a
 * policy that allows what it needs and nothing more: its inline styles and its search worker (a blob: URL).
 */
import path from 'node:path';
import { Router } from 'express';
import { renderPage } from './layout';

const REDOC_BUNDLE = require.resolve('redoc/bundles/redoc.standalone.js');
export const REDOC_PATH = '/docs/assets/redoc.standalone.js';

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "worker-src 'self' blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'self'",
].join('; ');

export function apiReferenceRouter(): Router {
  const router = Router();
  router.get(REDOC_PATH, (_req, res) => {
    res
      .set('Cache-Control', 'public, max-age=86400')
      .type('js')
      .sendFile(path.basename(REDOC_BUNDLE), { root: path.dirname(REDOC_BUNDLE) });
  });
  router.get(['/docs/api', '/docs/api/'], (_req, res) => {
    res
      .set('Content-Security-Policy', CSP)
      .type('html')
      .send(
        renderPage({
          title: 'API reference',
          section: 'docs',
          wide: true,
          main: [
            '<noscript><p class="doc">The API reference needs JavaScript. Its source is <a href="/v1/api/openapi.json">/v1/api/openapi.json</a> (OpenAPI 3.1); <a href="/docs/rest-api">REST API and REST hooks</a> describes it in prose.</p></noscript>',
            '<redoc spec-url="/v1/api/openapi.json" scroll-y-offset=".topbar"></redoc>',
          ].join(''),
          scripts: [REDOC_PATH],
        }),
      );
  });
  return router;
}
