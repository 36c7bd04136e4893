import { rmSync } from 'node:fs';
import { expect } from 'chai';
import { MongoClient } from 'mongodb';
import request from 'supertest';
import { loadConfig } from '../../server/config';
import { startTestServer } from '../helpers/app';
import { testMongoUri } from '../helpers/mongo';

describe('shutdown behind a load balancer', () => {
  it('reads SHUTDOWN_DRAIN_SECONDS, 0 unless set', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).shutdownDrainMs).to.equal(0);
    expect(loadConfig({ NODE_ENV: 'test', SHUTDOWN_DRAIN_SECONDS: '7' }).shutdownDrainMs).to.equal(7000);
    expect(() => loadConfig({ NODE_ENV: 'test', SHUTDOWN_DRAIN_SECONDS: 'soon' })).to.throw(/SHUTDOWN_DRAIN_SECONDS/);
  });

  it('answers 503 on /health for the drain time while it still serves everything else, then stops', async () => {
    const server = await startTestServer({ shutdownDrainMs: 1000 });
    await request(server.url).get('/health').expect(200);
    // What SIGTERM runs (stopOnSignals in main.ts).
    const closing = server.parley.close();
    const health = await request(server.url).get('/health').expect(503);
    expect(health.body.status).to.equal('stopping');
    // Still serving while the balancer takes it out: a page, the widget's config, anything.
    await request(server.url).get('/app/').expect(200);
    await closing;
    const after = await request(server.url)
      .get('/health')
      .then(() => 'answered')
      .catch(() => 'refused');
    expect(after).to.equal('refused');
    const client = await MongoClient.connect(await testMongoUri());
    await client.db(server.dbName).dropDatabase();
    await client.close();
    rmSync(server.dataDir, { recursive: true, force: true });
  });
});
