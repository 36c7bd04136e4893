import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import express from 'express';
import request from 'supertest';
import { PLAN_CATALOG } from '../../server/shared/plans';
import { siteRouter } from '../../server/site';
import { DEFAULT_DOCS_DIR, docsRouter } from '../../server/site/docs';

describe('public pages: /docs and /pricing', () => {
  const app = express().use(siteRouter());

  it('serves every docs/*.md file as a page listed in the sidebar, without a session', async () => {
    const res = await request(app).get('/docs').expect(200).expect('Content-Type', /html/);
    expect(res.text).to.include('<h1 id="parley-documentation">Parley documentation</h1>');
    for (const file of readdirSync(DEFAULT_DOCS_DIR).filter((f) => f.endsWith('.md'))) {
      const name = file.slice(0, -3);
      const href = name === 'index' ? '/docs' : `/docs/${name}`;
      expect(res.text, file).to.include(`href="${href}"`);
      await request(app).get(href).expect(200);
    }
  });

  it('renders the REST API page with its curl examples and section anchors', async () => {
    const res = await request(app).get('/docs/rest-api').expect(200);
    expect(res.text)
      .to.include('id="rest-hooks"')
      .and.include('curl https://parley.example.com/v1/api/me')
      .and.include('aria-current="page"');
  });

  it('writes the examples with the address the docs are served from, not parley.example.com', async () => {
    const served = express().use(siteRouter({ publicUrl: 'https://chat.acme.test/' }));
    for (const page of ['/docs/rest-api', '/docs/install']) {
      const res = await request(served).get(page).expect(200);
      expect(res.text, page).to.not.include('parley.example.com');
    }
    expect((await request(served).get('/docs/rest-api')).text).to.include('curl https://chat.acme.test/v1/api/me');
    expect((await request(served).get('/docs/install')).text).to.include('src="https://chat.acme.test/widget.js"');
  });

  it('answers 404 with the docs frame for unknown pages and names that are not page names', async () => {
    for (const name of ['nope', '..%2Fpackage', 'INDEX', 'a.b']) {
      const res = await request(app).get(`/docs/${name}`).expect(404);
      expect(res.text, name).to.include('Page not found');
    }
  });

  it('picks up a new file and sanitises what the Markdown holds', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'parley-docs-'));
    try {
      writeFileSync(path.join(dir, 'index.md'), '# Home\n');
      writeFileSync(
        path.join(dir, 'extra.md'),
        '# Extra page\n\n<script>alert(1)</script>\n\n[click](javascript:alert(1)) <img src=x onerror=alert(1)>\n',
      );
      const local = express().use(docsRouter(dir));
      const res = await request(local).get('/docs/extra').expect(200);
      expect(res.text).to.include('Extra page');
      expect(res.text).to.not.include('<script>alert').and.not.include('href="javascript:').and.not.include('onerror=alert(1)>');
      expect((await request(local).get('/docs').expect(200)).text).to.include('href="/docs/extra"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('renders every plan of the catalog as a tile, monthly and yearly, and the FAQ under #FAQ', async () => {
    const res = await request(app).get('/pricing/').expect(200);
    await request(app).get('/pricing').expect(200);
    for (const plan of PLAN_CATALOG) expect(res.text).to.include(`<h2>${plan.label}</h2>`);
    expect(res.text.match(/class="tile[ "]/g)).to.have.length(PLAN_CATALOG.length);
    expect(res.text).to.include('$79<small>/month</small>').and.include('Contact us!');
    expect(res.text).to.include('id="FAQ"').and.include('Frequently asked questions');
  });

  it('says on every self-serve tile that the trial has every Business feature, and how the plan is chosen', async () => {
    const res = await request(app).get('/pricing').expect(200);
    const tiles = res.text.match(/<article class="tile[\s\S]*?<\/article>/g) ?? [];
    const tileOf = (label: string) => tiles.filter((tile) => tile.includes(`<h2>${label}</h2>`));
    for (const label of ['Basic', 'Pro', 'Business']) {
      expect(tileOf(label)).to.have.length(2);
      for (const tile of tileOf(label)) {
        expect(tile).to.include('Start 30-day free trial');
        expect(tile).to.include(
          `The 30-day trial has every Business feature. Choose ${label} when you add a card: nothing is charged before the trial ends.`,
        );
      }
    }
    expect(res.text).to.include('free trial with every feature and limit of the Business plan');
  });

  it("shows each plan's help-center limit in its tile, as the API enforces it", async () => {
    const res = await request(app).get('/pricing').expect(200);
    const tiles = res.text.match(/<article class="tile[\s\S]*?<\/article>/g) ?? [];
    const limitOf = (label: string) =>
      tiles.find((tile) => tile.includes(`<h2>${label}</h2>`))?.match(/<li>Help center: ([^<]+)<\/li>/)?.[1];
    expect(['Basic', 'Pro', 'Business', 'Custom'].map(limitOf)).to.deep.equal([
      '25 articles per widget',
      '250 articles per widget',
      'unlimited articles',
      'unlimited articles',
    ]);
    expect(res.text).to.include('Basic holds 25 articles per widget, Pro 250');
  });
});
