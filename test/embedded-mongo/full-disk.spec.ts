/**
 * A disk that refuses writes (ENOSPC, EIO), injected through the file system the journal writes with: the store
 * refuses writes with mongod's error and applies none of them, keeps serving reads, takes writes again by itself
 * once the disk does, and loses no acknowledged write across a restart.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { MongoClient, MongoServerError } from 'mongodb';
import { type EmbeddedMongo, startEmbeddedMongo } from '../../server/embedded-mongo';
import type { FileSystem } from '../../server/embedded-mongo/storage';
import { faultyFileSystem } from '../helpers/faultyFs';
import { eventually } from '../slack/helpers';

describe('embedded MongoDB on a disk that refuses writes', function () {
  this.timeout(60_000);
  let dbpath: string;
  let store: EmbeddedMongo | undefined;
  let client: MongoClient | undefined;
  const logs: string[] = [];

  beforeEach(() => {
    dbpath = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-full-disk-'));
    logs.length = 0;
  });
  afterEach(async () => {
    await client?.close();
    await store?.stop();
    client = undefined;
    store = undefined;
    fs.rmSync(dbpath, { recursive: true, force: true });
  });

  async function start(fileSystem?: FileSystem) {
    store = await startEmbeddedMongo({ port: 0, dbpath, fs: fileSystem, retryWritesMs: 100, log: (m) => logs.push(m) });
    client = new MongoClient(store.uri, { retryWrites: false });
    await client.connect();
    return client.db('app').collection<{ _id: number; n?: number }>('things');
  }

  for (const code of ['ENOSPC', 'EIO'] as const) {
    it(`refuses writes with mongod's error on ${code}, applies none of them, serves reads, and takes writes again once the disk does`, async () => {
      const disk = faultyFileSystem();
      let things = await start(disk.fs);
      await things.insertMany([{ _id: 1 }, { _id: 2 }]);

      disk.fail(code);
      const refused = await things.insertOne({ _id: 3 }).catch((err: unknown) => err);
      expect(refused).to.be.an.instanceOf(MongoServerError);
      expect((refused as MongoServerError).code).to.equal(code === 'ENOSPC' ? 14031 : 1);
      // Nothing of the refused write is visible, now or later; what was acknowledged still reads.
      await eventually(async () => expect((await things.find().toArray()).map((d) => d._id)).to.deep.equal([1, 2]));
      // Later writes are refused before they touch anything: an update, a delete, an index.
      for (const write of [
        () => things.updateOne({ _id: 1 }, { $set: { n: 1 } }),
        () => things.deleteOne({ _id: 2 }),
        () => things.createIndex({ n: 1 }),
      ]) {
        const err = await write().catch((e: unknown) => e);
        expect(err, 'write while the disk refuses').to.be.an.instanceOf(MongoServerError);
      }
      expect(await things.findOne({ _id: 1 })).to.deep.equal({ _id: 1 });
      expect(await things.countDocuments()).to.equal(2);
      expect(store?.writeProblem()?.code).to.equal(code);
      expect(logs.filter((l) => l.includes('writes refused'))).to.have.length(1);

      disk.fail(null);
      await eventually(async () => expect(store?.writeProblem()).to.equal(null));
      await things.insertOne({ _id: 4 });
      await things.updateOne({ _id: 1 }, { $set: { n: 1 } });

      // A restart finds every acknowledged write and none of the refused ones.
      await client?.close();
      await store?.stop();
      things = await start();
      expect(await things.find().sort({ _id: 1 }).toArray()).to.deep.equal([{ _id: 1, n: 1 }, { _id: 2 }, { _id: 4 }]);
    });
  }

  it('keeps every write acknowledged before the disk filled up under a burst, and none of those refused', async () => {
    const disk = faultyFileSystem();
    let things = await start(disk.fs);
    const acknowledged: number[] = [];
    const writes = Array.from({ length: 300 }, (_, i) => i + 1).map(async (id) => {
      try {
        await things.insertOne({ _id: id });
        acknowledged.push(id);
        // The disk fills up while the rest of the burst is in flight.
        if (acknowledged.length === 100) disk.fail('ENOSPC');
      } catch (err) {
        expect((err as MongoServerError).code).to.equal(14031);
      }
    });
    await Promise.all(writes);
    expect(acknowledged.length).to.be.greaterThan(0).and.lessThan(300);
    await eventually(async () =>
      expect((await things.find().toArray()).map((d) => d._id).sort((a, b) => a - b)).to.deep.equal(acknowledged.sort((a, b) => a - b)),
    );
    disk.fail(null);
    await eventually(async () => expect(store?.writeProblem()).to.equal(null));
    await client?.close();
    await store?.stop();
    things = await start();
    expect((await things.find().toArray()).map((d) => d._id).sort((a, b) => a - b)).to.deep.equal(acknowledged.sort((a, b) => a - b));
  });
});
