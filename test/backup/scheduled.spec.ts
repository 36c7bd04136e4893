/**
 * BACKUP_DIR + BACKUP_EVERY_HOURS + BACKUP_KEEP: Parley writes gzipped dumps of its database itself, keeps the
 * newest BACKUP_KEEP, and /health reports the newest one's age.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { expect } from 'chai';
import request from 'supertest';
import { backupName, listBackups } from '../../server/backup/schedule';
import { startTestServer, type TestServer } from '../helpers/app';
import { eventually } from '../relay/helpers';

describe('scheduled backups', () => {
  let dir: string;
  let server: TestServer | undefined;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'parley-backups-'));
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes a dump every BACKUP_EVERY_HOURS, keeps the newest BACKUP_KEEP, and /health gives the age of the newest', async () => {
    // One backup every 0.36 s, two kept.
    server = await startTestServer({ backup: { dir, everyHours: 0.0001, keep: 2 } });
    const seen = new Set<string>();
    await eventually(async () => {
      for (const b of await listBackups(dir)) seen.add(b.name);
      expect(seen.size).to.be.at.least(4);
    });
    // A finished dump is in place a moment before the oldest beyond BACKUP_KEEP is removed: look between the two.
    let kept: Awaited<ReturnType<typeof listBackups>> = [];
    await eventually(async () => {
      kept = await listBackups(dir);
      expect(kept.length).to.be.within(1, 2);
      expect(readdirSync(dir).filter((name) => !name.endsWith('.partial'))).to.have.length(kept.length);
    });

    const files = readdirSync(path.join(dir, kept[0].name, server.dbName));
    expect(files).to.include.members(['users.bson.gz', 'users.metadata.json.gz', 'accounts.bson.gz', 'prelude.json.gz']);
    const meta = JSON.parse(gunzipSync(readFileSync(path.join(dir, kept[0].name, server.dbName, 'users.metadata.json.gz'))).toString());
    expect(meta.collectionName).to.equal('users');

    const health = await request(server.url).get('/health').expect(200);
    expect(health.body.backup.ageSeconds).to.be.a('number').within(0, 60);
    expect(Date.parse(health.body.backup.lastAt)).to.be.at.least(kept[kept.length - 1].at.getTime());
  });

  it('after a restart, waits for the next one due and reports the age of the one already there', async () => {
    const earlier = new Date(Date.now() - 3_600_000);
    mkdirSync(path.join(dir, backupName(earlier)));
    // A backup a stopped process left unfinished.
    mkdirSync(path.join(dir, `${backupName(new Date(Date.now() - 60_000))}.partial`));
    server = await startTestServer({ backup: { dir, everyHours: 24, keep: 7 } });

    const health = await request(server.url).get('/health').expect(200);
    expect(health.body.backup).to.deep.include({ lastAt: earlier.toISOString() });
    expect(health.body.backup.ageSeconds).to.be.within(3_595, 3_700);
    expect(readdirSync(dir)).to.deep.equal([backupName(earlier)]);
  });

  it('reports no backup key on /health when BACKUP_DIR is not set', async () => {
    server = await startTestServer();
    const health = await request(server.url).get('/health').expect(200);
    expect(health.body).to.not.have.property('backup');
  });
});
