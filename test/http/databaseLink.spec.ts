/**
 * Parley says in its log when it loses its database and when the database is back: without it an outage shows only
 * as each operation's buffering timeout. The database is a store of its own here, stopped under a running Parley
 * and started again on the same port and data; the driver checks the server every half second (the URI's
 * heartbeatFrequencyMS) rather than every 10 s, so the spec takes seconds.
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

  it('logs the connection lost when the database goes away and back when it answers again, and nothing as Parley closes', async () => {
    const dbpath = path.join(dir, 'db');
    store = await startEmbeddedMongo({ port: 0, dbpath });
    const port = Number(new URL(store.uri).port);
    restart = () => startEmbeddedMongo({ port, dbpath });
    const logs = captureLogs({ level: 'info' });
    const env = { DATA_DIR: path.join(dir, 'data'), MONGODB_URI: `${store.uri}/parley?heartbeatFrequencyMS=500` };
    parley = await startParley({ ...loadConfig(env), port: 0 }, { host: '127.0.0.1', logger: logs.logger });
    const said = (text: string) => logs.lines().filter((line) => line.msg === text);
    const LOST = 'database connection lost: operations wait until it is back (10 s each at most)';
    const BACK = 'database connection back';
    expect(said(LOST)).to.have.length(0);

    await store.stop();
    store = undefined;
    await eventually(async () => expect(said(LOST)).to.have.length(1), 15_000);
    expect(said(LOST)[0]?.level).to.equal('error');

    store = await restart();
    await eventually(async () => expect(said(BACK)).to.have.length(1), 15_000);
    // And it works again: the plans Parley stored before the outage are read.
    expect(await parley.models.Plan.countDocuments()).to.equal(8);

    await parley.close();
    parley = undefined;
    expect(said(LOST)).to.have.length(1);
  });
});
