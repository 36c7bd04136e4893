import { readFile } from 'node:fs/promises';
import path from 'node:path';
import express, { Router } from 'express';

/** esbuild names bundles name-HASH.ext (8 characters of base32): those never change, so they may be cached for good. */
const HASHED_FILE = /-[A-Z0-9]{8}\.[a-z0-9]+$/;

/** The built console under /app: index.html is always revalidated, hashed assets are immutable. */
export function staticConsole(consoleDir: string): Router {
  const router = Router();
  router.use(
    express.static(consoleDir, {
      index: 'index.html',
      redirect: true,
      fallthrough: true,
      setHeaders(res, filePath) {
        res.setHeader('Cache-Control', HASHED_FILE.test(path.basename(filePath)) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    }),
  );
  // Reached only when express.static found no index.html.
  router.get('/', (_req, res) => {
    res.status(503).type('text/plain').send('The console is not built yet: run `npm run build` (npm start does it for you).');
  });
  // Any other page under /app is unknown: answer 404 with the console itself, which shows its own
  // Page Not Found. The base element makes the console's relative asset URLs work at any depth.
  router.get(/^\/[^.]*$/, async (req, res, next) => {
    const html = await readFile(path.join(consoleDir, 'index.html'), 'utf8').catch(() => null);
    if (html === null) return next();
    res
      .status(404)
      .setHeader('Cache-Control', 'no-cache')
      .type('html')
      .send(html.replace('<head>', `<head>\n<base href="${req.baseUrl}/">`));
  });
  return router;
}
