/**
 * useBrowser({ context: 'suite' }): the tests of a describe block share one browser context, and what a site kept
 * of one test's visit (cookies, local storage, IndexedDB) is gone in the next test, on every origin it reached, while
 * the HTTP cache stays (an immutable script is fetched once for the whole block).
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { useBrowser } from './browser';

/** What the page finds of an earlier visit, as JSON in its title once read. */
const PAGE = `<!doctype html><html><head><title>reading</title><script src="/bundle.js"></script></head><body><script>
(async () => {
  const databases = (await indexedDB.databases()).map((db) => db.name);
  document.title = JSON.stringify({ local: localStorage.getItem('mark'), cookie: document.cookie, databases });
})();
</script></body></html>`;

describe("useBrowser({ context: 'suite' }) (browser)", function () {
  this.timeout(60_000);
  const browser = useBrowser({ context: 'suite' });
  let server: Server;
  let port = 0;
  let bundleRequests = 0;

  before(async () => {
    server = createServer((req, res) => {
      if (req.url === '/bundle.js') {
        bundleRequests += 1;
        res.writeHead(200, { 'Content-Type': 'text/javascript', 'Cache-Control': 'public, max-age=31536000, immutable' });
        res.end('window.bundleLoaded = true;');
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/html', 'Cache-Control': 'no-cache' });
      res.end(PAGE);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** Opens the page at `host` and answers what it found of an earlier visit. */
  const visit = async (host: string) => {
    const page = browser.page;
    await page.goto(`http://${host}:${port}/page`);
    await page.waitForFunction(() => document.title.startsWith('{'));
    return JSON.parse(await page.title()) as { local: string | null; cookie: string; databases: string[] };
  };

  /** Leaves a mark of every kind on the page's origin. */
  const mark = () =>
    browser.page.evaluate(async () => {
      localStorage.setItem('mark', 'left');
      document.cookie = 'mark=left; max-age=3600';
      await new Promise((resolve) => {
        const request = indexedDB.open('mark');
        request.onsuccess = () => {
          request.result.close();
          resolve(undefined);
        };
      });
    });

  it('leaves cookies, local storage and IndexedDB on two origins', async () => {
    for (const host of ['127.0.0.1', 'localhost']) {
      expect(await visit(host)).to.deep.equal({ local: null, cookie: '', databases: [] });
      await mark();
      expect(await visit(host)).to.deep.equal({ local: 'left', cookie: 'mark=left', databases: ['mark'] });
    }
  });

  it('finds none of them in the next test, with the script still from the cache', async () => {
    for (const host of ['127.0.0.1', 'localhost']) {
      expect(await visit(host)).to.deep.equal({ local: null, cookie: '', databases: [] });
    }
    // Once per origin, in the first test: the next test's pages took it from the shared context's cache.
    expect(bundleRequests).to.equal(2);
  });
});
