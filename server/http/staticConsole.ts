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
        res.setHeader(
          'Cache-Control',
          HASHED_FILE.test(path.basename(filePath)) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    }),
  );
  // Reached only when express.static found no index.html.
  router.get('/', (_req, res) => {
    res
      .status(503)
      .type('text/plain')
      .send('The console is not built yet: run `npm run build` (npm start does it for you).');
  });
  return router;
}
