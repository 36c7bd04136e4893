/**
 * A damaged frame in the middle of a journal segment or of the snapshot: the store refuses to start, naming the
 * file, the offset and what to do; `npm run db -- --repair` keeps every intact record before and after, says how
 * much was lost, and leaves the damaged files beside the repaired ones.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { MongoClient } from 'mongodb';
import { type EmbeddedMongo, startEmbeddedMongo } from '../../server/embedded-mongo';
import { LOCK_FILE, SNAPSHOT_FILE } from '../../server/embedded-mongo/storage';

const ROOT = path.resolve(__dirname, '..', '..');
const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-repair-'));
  dirs.push(dir);
  return dir;
};

/** Offsets of the frames of a journal segment or snapshot (both start with an 8-byte magic). */
function frameStarts(file: string): number[] {
  const buf = fs.readFileSync(file);
  const starts: number[] = [];
  for (let pos = 8; pos + 8 <= buf.length && buf.readUInt32LE(pos) !== 0; pos += 8 + buf.readUInt32LE(pos)) starts.push(pos);
  return starts;
}

/** Flips one byte inside the payload of the frame at `start` (its checksum no longer holds). */
function damage(file: string, start: number): void {
  const buf = fs.readFileSync(file);
  buf[start + 8 + 20] ^= 0xff;
  fs.writeFileSync(file, buf);
}

/** Runs `npm run db -- --repair --dbpath dir` as a user would (the CLI through tsx). */
function repairCli(dir: string) {
  return spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/embedded-mongo/cli.ts'), '--repair', '--dbpath', dir], {
    cwd: ROOT,
    encoding: 'utf8',
  });
}

describe('a damaged embedded MongoDB data file', function () {
  this.timeout(120_000);
  let store: EmbeddedMongo | undefined;
  let client: MongoClient | undefined;
  afterEach(async () => {
    await client?.close();
    await store?.stop();
    client = undefined;
    store = undefined;
  });
  after(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  async function open(dbpath: string) {
    store = await startEmbeddedMongo({ port: 0, dbpath, log: () => undefined });
    client = new MongoClient(store.uri);
    await client.connect();
    return client.db('app').collection<{ _id: number; text?: string }>('lines');
  }
  async function close() {
    await client?.close();
    await store?.stop();
    client = undefined;
    store = undefined;
  }

  it('refuses to start on a journal damaged in its middle, and --repair keeps every record before and after', async () => {
    const live = tempDir();
    const lines = await open(live);
    for (let i = 1; i <= 20; i++) await lines.insertOne({ _id: i, text: `line ${i}` });
    // The dbpath as a crash leaves it: every write in the journal, no snapshot yet.
    const copy = tempDir();
    for (const name of fs.readdirSync(live)) if (name !== LOCK_FILE) fs.copyFileSync(path.join(live, name), path.join(copy, name));
    await close();
    const segment = fs.readdirSync(copy).find((n) => n.startsWith('journal.')) as string;
    const starts = frameStarts(path.join(copy, segment));
    expect(starts.length).to.be.at.least(20);
    const damaged = starts[starts.length - 10];
    damage(path.join(copy, segment), damaged);

    const refused = await startEmbeddedMongo({ port: 0, dbpath: copy, log: () => undefined }).then(
      (s) => s.stop().then(() => null),
      (err: Error) => err,
    );
    expect(refused?.message)
      .to.include(path.join(copy, segment))
      .and.include(`checksum mismatch at offset ${damaged}`)
      .and.include(`npm run db -- --repair --dbpath ${copy}`);

    const run = repairCli(copy);
    expect(run.status, run.stderr).to.equal(0);
    expect(run.stdout)
      .to.match(/kept \d+ documents in 1 collections/)
      .and.include('1 damaged frame');
    const aside = fs.readdirSync(copy).find((n) => n.startsWith('damaged-')) as string;
    expect(fs.readdirSync(path.join(copy, aside))).to.include(segment);

    const repaired = await open(copy);
    const ids = (await repaired.find().sort({ _id: 1 }).toArray()).map((d) => d._id);
    // Exactly one write (the damaged frame's) is gone; everything before and after it is kept.
    expect(ids).to.have.length(19);
    expect(ids[0]).to.equal(1);
    expect(ids.at(-1)).to.equal(20);
    await repaired.insertOne({ _id: 21 });
    expect(await repaired.countDocuments()).to.equal(20);
  });

  it('refuses to start on a snapshot damaged in its middle, and --repair keeps the other frames and the indexes, counting what was lost', async () => {
    const dir = tempDir();
    let lines = await open(dir);
    await lines.createIndex({ text: 1 }, { name: 'by_text' });
    const pad = 'x'.repeat(1000);
    for (let batch = 0; batch < 4; batch++) {
      await lines.insertMany(Array.from({ length: 1000 }, (_, i) => ({ _id: batch * 1000 + i, text: `${pad}${batch * 1000 + i}` })));
    }
    await close(); // a clean stop writes the snapshot
    const snapshot = path.join(dir, SNAPSHOT_FILE);
    const starts = frameStarts(snapshot);
    expect(starts.length).to.be.at.least(6);
    const middle = starts[Math.floor(starts.length / 2)];
    damage(snapshot, middle);

    const refused = await startEmbeddedMongo({ port: 0, dbpath: dir, log: () => undefined }).then(
      (s) => s.stop().then(() => null),
      (err: Error) => err,
    );
    expect(refused?.message).to.include(snapshot).and.include(`at offset ${middle}`).and.include('--repair');

    const run = repairCli(dir);
    expect(run.status, run.stderr).to.equal(0);
    const lost = Number(/(\d+) snapshot documents? lost/.exec(run.stdout)?.[1]);
    expect(lost).to.be.greaterThan(0).and.lessThan(4000);

    lines = await open(dir);
    expect(await lines.countDocuments()).to.equal(4000 - lost);
    expect((await lines.indexes()).map((i) => i.name)).to.include('by_text');
    expect(await lines.findOne({ _id: 0 })).to.not.equal(null);
    expect(await lines.findOne({ _id: 3999 })).to.not.equal(null);
  });
});
