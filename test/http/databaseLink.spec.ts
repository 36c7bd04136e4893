/**
 * Parley says in its log when it loses its database and when the database is back, and meanwhile answers requests
 * that need it with 503 `storage_unavailable` once the driver has waited its server selection timeout for it. The
 * database is a store of its own here, stopped under a running Parley and started again on the same port and data;
 * the driver checks the server every half second (the URI's heartbeatFrequencyMS) rather than every 10 s and waits
 * 2 s for it rather than 30 s (serverSelectionTimeoutMS), so the spec takes seconds.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { loadConfig } from '../../server/config';
import { type EmbeddedMongo, startEmbeddedMongo } from '../../server/embedded-mongo';
import { type Parley, startParley } from '../../server/main';
import { captureLogs } from '../helpers/logs';
import { eventually } from '../slack/helpers';

describe('the database link in the log', function () {
  this.timeout(60_000);
  let dir: string;
  let store: EmbeddedMongo | undefined;
  let parley: Parley | undefined;
  /** How to start the store again should the test fail while it is down (Parley closes against a running one). */
  let restart: (() => Promise<EmbeddedMongo>) | undefined;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'parley-db-link-'));
  });
  after(async () => {
    if (parley && !store && restart) store = await restart();
    await parley?.close();
    await store?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('logs the connection lost when the database goes away and back when it answers again, answers 503 meanwhile, and logs nothing as Parley closes', async () => {
    const dbpath = path.join(dir, 'db');
    store = await startEmbeddedMongo({ port: 0, dbpath });
    const port = Number(new URL(store.uri).port);
    restart = () => startEmbeddedMongo({ port, dbpath });
    const logs = captureLogs({ level: 'info' });
    const env = {
      DATA_DIR: path.join(dir, 'data'),
      MONGODB_URI: `${store.uri}/parley?heartbeatFrequencyMS=500&serverSelectionTimeoutMS=2000`,
    };
    parley = await startParley({ ...loadConfig(env), port: 0 }, { host: '127.0.0.1', logger: logs.logger });
    const said = (text: string) => logs.lines().filter((line) => line.msg === text);
    const LOST = 'database connection lost: each operation waits up to 2 s for it, then fails';
    const BACK = 'database connection back';
    expect(said(LOST)).to.have.length(0);

    await store.stop();
    store = undefined;
    await eventually(async () => expect(said(LOST)).to.have.length(1), 15_000);
    expect(said(LOST)[0]?.level).to.equal('error');
    // A visitor's widget asking for its settings meanwhile: a 503 it retries, not a 500 an owner would report.
    const config = await fetch(`${parley.url}/widget/api/0b6e4f7a-4b7a-4c1e-9d2a-1f0e2d3c4b5a/config`);
    expect(config.status).to.equal(503);
    expect(await config.json()).to.deep.equal({
      Message: 'Parley cannot reach its database right now. Please try again in a minute.',
      Error: 'storage_unavailable',
    });

    store = await restart();
    await eventually(async () => expect(said(BACK)).to.have.length(1), 15_000);
    // And it works again: the plans Parley stored before the outage are read.
    expect(await parley.models.Plan.countDocuments()).to.equal(8);

    await parley.close();
    parley = undefined;
    expect(said(LOST)).to.have.length(1);
  });
});
