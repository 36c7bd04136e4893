import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { loadConfig } from '../../server/config';
import { startParley } from '../../server/main';
import { buildUser } from '../factories';

describe('startParley on a fresh machine (embedded database, generated secrets)', function () {
  this.timeout(60_000);
  let dataDir: string;
  before(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'parley-start-'));
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('serves the API, and after a restart the same user and session still work', async () => {
    const config = { ...loadConfig({ DATA_DIR: dataDir }), port: 0 };
    const input = buildUser();

    const first = await startParley(config, { host: '127.0.0.1' });
    let token: string;
    try {
      expect(first.url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
      await request(first.url).get('/').expect(302).expect('Location', '/app/');
      token = (await request(first.url).post('/v1/p/users').send(input).expect(200)).body.token;
      expect(await first.models.Plan.countDocuments()).to.equal(8);
    } finally {
      await first.close();
    }

    const second = await startParley({ ...loadConfig({ DATA_DIR: dataDir }), port: 0 }, { host: '127.0.0.1' });
    try {
      const me = await request(second.url).get('/v1/users/current').set('Authorization', `Bearer ${token}`).expect(200);
      expect(me.body.email).to.equal(input.email);
      await request(second.url).post('/v1/p/sessions').send(input).expect(200);
      expect(await second.models.Plan.countDocuments()).to.equal(8);
    } finally {
      await second.close();
    }
  });
});
