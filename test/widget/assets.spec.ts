/** The widget's script routes and the demo site, over real HTTP. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import express from 'express';
import request from 'supertest';
import { demoApp } from '../../server/http/demo';
import { widgetAssets } from '../../server/http/widgetAssets';
import { buildConfiguredWidget, createUserInDb, createWidgetInDb } from '../factories';
import { startTestServer, type TestServer } from '../helpers/app';

describe('widget scripts', () => {
  let dir: string;
  let app: express.Express;

  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'parley-widget-assets-'));
    writeFileSync(path.join(dir, 'loader.js'), 'console.log("loader")');
    writeFileSync(path.join(dir, 'panel.ABCD1234.js'), 'console.log("panel")');
    app = express();
    app.use(widgetAssets(dir));
    app.get('/widget/api/:uuid/config', (_req, res) => {
      res.json({ reached: 'the widget API' });
    });
    app.use((_req, res) => {
      res.status(404).send('Not found');
    });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('serves /widget.js to any site with a short cache and an ETag', async () => {
    const res = await request(app).get('/widget.js').set('Origin', 'https://shop.example').expect(200);
    expect(res.headers['content-type']).to.match(/^application\/javascript/);
    expect(res.headers['cache-control']).to.equal('public, max-age=300');
    expect(res.headers['access-control-allow-origin']).to.equal('*');
    expect(res.headers['cross-origin-resource-policy']).to.equal('cross-origin');
    expect(res.text).to.equal('console.log("loader")');
    const again = await request(app)
      .get('/widget.js')
      .set('If-None-Match', res.headers.etag as string);
    expect(again.status).to.equal(304);
  });

  it('serves a content-hashed panel as immutable for a year', async () => {
    const res = await request(app).get('/widget/panel.ABCD1234.js').expect(200);
    expect(res.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
    expect(res.text).to.equal('console.log("panel")');
  });

  it('answers 404 for other names and leaves /widget/api to its router', async () => {
    await request(app).get('/widget/panel.ZZZZ9999.js').expect(404);
    await request(app).get('/widget/..%2Fsecrets.json').expect(404);
    const api = await request(app).get('/widget/api/abc/config').expect(200);
    expect(api.body).to.deep.equal({ reached: 'the widget API' });
  });
});

describe('demo site', () => {
  let server: TestServer;
  before(async function () {
    this.timeout(30_000);
    server = await startTestServer();
  });
  after(async () => server?.close());

  it('explains how to finish setup while no widget is configured', async () => {
    const res = await request(demoApp(server.models, server.url)).get('/').expect(200);
    expect(res.text).to.contain('No widget to show yet').and.not.contain('/widget.js');
  });

  it('embeds the html snippet of the first configured widget, loading the loader from Parley', async () => {
    const { user } = await createUserInDb(server);
    const first = await createWidgetInDb(server, user, buildConfiguredWidget());
    await createWidgetInDb(server, user, buildConfiguredWidget());
    const res = await request(server.demoUrl).get('/').expect(200);
    expect(res.text).to.contain(
      `<script async src="${server.url}/widget.js" data-widget-id="${first.Uuid}" data-style="standard"></script>`,
    );
    expect(res.text).to.contain('window.parley = window.parley || { _q: [] };');
    expect(new URL(server.demoUrl).origin).to.not.equal(new URL(server.url).origin);
  });

  it('embeds a chosen widget in the inline style with its placeholder', async () => {
    const { user } = await createUserInDb(server);
    const widget = await createWidgetInDb(server, user, buildConfiguredWidget());
    const res = await request(server.demoUrl).get('/').query({ widget: widget.Uuid, style: 'inline' }).expect(200);
    expect(res.text).to.contain(`data-widget-id="${widget.Uuid}" data-style="inline"`).and.contain('<div id="parley-inline"');
  });
});
