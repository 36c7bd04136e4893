/**
 * /docs/api: Redoc, served by Parley from its own node_modules, renders the OpenAPI document in the browser under
 * the page's Content-Security-Policy (no blocked script, style or worker), on a desktop and a phone.
 */
import { expect } from 'chai';
import request from 'supertest';
import { useServer } from '../helpers/app';
import { picture, screenshotPath, useBrowser } from '../helpers/browser';
import { eventually } from '../relay/helpers';

describe('the API reference page (/docs/api)', () => {
  const server = useServer();
  const browser = useBrowser({ context: 'suite' });

  it('serves the renderer from Parley itself and loads it on this page only', async () => {
    const page = await request(server.url).get('/docs/api').expect(200);
    expect(page.text).to.include('<script src="/docs/assets/redoc.standalone.js"></script>');
    expect(page.text).to.not.match(/<script src="https?:/);
    await request(server.url)
      .get('/docs/assets/redoc.standalone.js')
      .expect(200)
      .expect('content-type', /javascript/);
    const prose = (await request(server.url).get('/docs/rest-api').expect(200)).text;
    expect(prose).to.not.include('redoc');
    expect(prose).to.include('<a href="/docs/api">API reference</a>');
  });

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    it(`renders every operation of the document at ${viewport.width}x${viewport.height} without a blocked resource`, async function () {
      const page = await browser.newPage({ viewport });
      const problems: string[] = [];
      page.on('console', (m) => {
        // Redoc's attribution logo lives on Redocly's CDN: the page's policy blocks it (nothing is fetched from
        // outside) and Redoc then leaves it out by itself.
        if (m.type() === 'error' && !m.text().includes('https://cdn.redoc.ly/')) problems.push(m.text());
      });
      page.on('response', (r) => {
        if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`);
      });
      page.on('pageerror', (e) => problems.push(e.message));
      await page.goto(`${server.url}/docs/api`);
      await page.getByRole('heading', { name: 'Parley API' }).first().waitFor();
      for (const summary of ['Conversations, newest first', 'One conversation with its messages', 'Subscribe a URL to an event']) {
        await eventually(async () => expect(await page.getByText(summary).count(), summary).to.be.greaterThan(0));
      }
      await picture(page, screenshotPath(this.test?.fullTitle() ?? 'api-reference'));
      expect(problems).to.deep.equal([]);
    });
  }
});
