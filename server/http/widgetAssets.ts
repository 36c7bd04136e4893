/**
 * The visitor widget's scripts, built by scripts/build.ts into dist/web/widget:
 *   GET /widget.js              the loader; its URL is fixed in every embed snippet, so a short cache and an ETag
 *   GET /widget/panel.<hash>.js the chat panel; the name changes with the content, so it is cached for a year
 *   GET /widget/screenshot.<hash>.js the screenshot script the panel loads when a visitor allows one; cached the same
 *   GET /widget/panel-file      the panel's current file name, for the console's live preview of a widget
 * Both are loaded by pages of other origins: mounted before helmet, with CORS and a cross-origin resource policy.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { type Response, Router } from 'express';

export const DEFAULT_WIDGET_DIR = path.resolve(__dirname, '..', '..', 'dist', 'web', 'widget');

const LOADER_MAX_AGE_S = 300;
const HASHED_NAME = /^(panel|screenshot)\.[A-Za-z0-9]{6,}\.js$/;
/** What `build --watch` writes: not hashed, so never cached. */
const DEV_NAME = /^(panel|screenshot)\.js$/;
const PANEL_NAME = /^panel[.]/;

type Cached = { mtimeMs: number; body: Buffer; etag: string };

export function widgetAssets(dir: string = DEFAULT_WIDGET_DIR): Router {
  const router = Router();
  const cache = new Map<string, Cached>();

  /** Reads a built file, reusing the copy in memory while its modification time is unchanged. */
  async function load(name: string): Promise<Cached | undefined> {
    const file = path.join(dir, name);
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) return undefined;
    const kept = cache.get(name);
    if (kept && kept.mtimeMs === info.mtimeMs) return kept;
    const body = await readFile(file);
    const entry = { mtimeMs: info.mtimeMs, body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
    cache.set(name, entry);
    return entry;
  }

  function common(res: Response): void {
    res.set({
      'Content-Type': 'application/javascript; charset=utf-8',
      'Access-Control-Allow-Origin': '*',
      'Cross-Origin-Resource-Policy': 'cross-origin',
      'X-Content-Type-Options': 'nosniff',
    });
  }

  router.get('/widget.js', async (req, res, next) => {
    try {
      const loader = await load('loader.js');
      if (!loader) {
        res.status(503).type('text/plain').send('The widget is not built yet: run npm run build.');
        return;
      }
      common(res);
      res.set({ 'Cache-Control': `public, max-age=${LOADER_MAX_AGE_S}`, ETag: loader.etag });
      if (req.headers['if-none-match'] === loader.etag) {
        res.status(304).end();
        return;
      }
      res.send(loader.body);
    } catch (error) {
      next(error);
    }
  });

  router.get('/widget/panel-file', async (_req, res, next) => {
    try {
      const names = (await readdir(dir).catch(() => [] as string[])).filter(
        (n) => PANEL_NAME.test(n) && (HASHED_NAME.test(n) || DEV_NAME.test(n)),
      );
      const dated = await Promise.all(names.map(async (name) => ({ name, mtimeMs: (await stat(path.join(dir, name))).mtimeMs })));
      const newest = dated.sort((a, b) => b.mtimeMs - a.mtimeMs)[0];
      if (!newest) {
        res.status(503).type('text/plain').send('The widget is not built yet: run npm run build.');
        return;
      }
      res.set('Cache-Control', 'no-cache').json({ file: `/widget/${newest.name}` });
    } catch (error) {
      next(error);
    }
  });

  router.get('/widget/:name', async (req, res, next) => {
    const { name } = req.params;
    const hashed = HASHED_NAME.test(name);
    if (!hashed && !DEV_NAME.test(name)) {
      next();
      return;
    }
    try {
      const asset = await load(name);
      if (!asset) {
        next();
        return;
      }
      common(res);
      res.set({ 'Cache-Control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache', ETag: asset.etag });
      if (req.headers['if-none-match'] === asset.etag) {
        res.status(304).end();
        return;
      }
      res.send(asset.body);
    } catch (error) {
      next(error);
    }
  });

  return router;
}
