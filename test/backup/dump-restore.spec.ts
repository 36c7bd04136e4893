/**
 * `npm run db:dump` / `npm run db:restore` (server/backup): a Parley database dumped from the embedded store
 * comes back whole in a fresh one, its files are mongodump's layout, a mongodump-shaped folder loads, and a dump
 * taken while the relay writes is one point in time.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import * as BSON from 'bson';
import { expect } from 'chai';
import { type Db, MongoClient } from 'mongodb';
import { dump } from '../../server/backup/dump';
import { restore } from '../../server/backup/restore';
import { type EmbeddedMongo, startEmbeddedMongo } from '../../server/embedded-mongo';
import { startRelayServer, type TestServer, useRelayServer } from '../helpers/app';
import { testMongoUri } from '../helpers/mongo';
import { eventually, say, setUpRelayWidget, VisitorSocket } from '../relay/helpers';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '..', '..');

/** Runs one of the package's scripts as `npm run` does (tsx), returning what it printed. */
async function script(name: 'db-dump' | 'db-restore', args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts', `${name}.ts`), ...args], { cwd: ROOT });
}

/** Every collection's documents (by _id) and indexes, as canonical Extended JSON: equal text means equal BSON types too. */
async function contents(db: Db): Promise<Record<string, { docs: string; indexes: string }>> {
  const out: Record<string, { docs: string; indexes: string }> = {};
  for (const { name } of await db.listCollections({}, { nameOnly: true }).toArray()) {
    const docs = await db.collection(name).find({}, { promoteValues: false }).sort({ _id: 1 }).toArray();
    const indexes = await db.collection(name).listIndexes().toArray();
    out[name] = {
      docs: BSON.EJSON.stringify(docs, { relaxed: false }),
      indexes: BSON.EJSON.stringify(
        indexes.sort((a, b) => String(a.name).localeCompare(String(b.name))),
        { relaxed: false },
      ),
    };
  }
  return out;
}

/** Parses a .bson file the way mongorestore reads one: documents back to back, each starting with its int32 size. */
function documentsIn(buf: Buffer): BSON.Document[] {
  const docs: BSON.Document[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const size = buf.readInt32LE(pos);
    expect(size, `document size at byte ${pos}`).to.be.within(5, buf.length - pos);
    docs.push(BSON.deserialize(buf.subarray(pos, pos + size)));
    pos += size;
  }
  return docs;
}

describe('db:dump and db:restore', () => {
  const tmp: string[] = [];
  const tempDir = (prefix: string) => {
    const dir = mkdtempSync(path.join(tmpdir(), `parley-${prefix}-`));
    tmp.push(dir);
    return dir;
  };
  const fresh: EmbeddedMongo[] = [];
  const freshStore = async () => {
    const store = await startEmbeddedMongo({ port: 0, log: () => {} });
    fresh.push(store);
    return store;
  };
  const clients: MongoClient[] = [];
  const connect = async (uri: string) => {
    const client = await new MongoClient(uri).connect();
    clients.push(client);
    return client;
  };
  after(async () => {
    for (const client of clients) await client.close();
    for (const store of fresh) await store.stop();
    for (const dir of tmp) rmSync(dir, { recursive: true, force: true });
  });

  describe('a seeded account, Parley stopped', () => {
    let dbName: string;
    let source: MongoClient;
    let stopped: TestServer | undefined;

    before(async function () {
      this.timeout(60_000);
      const server = await startRelayServer();
      stopped = server;
      dbName = server.dbName;
      const widget = await setUpRelayWidget(server);
      for (const name of ['Ann', 'Bob', 'Cyd']) {
        const { socket } = await VisitorSocket.hello(server, widget.uuid, {
          identity: { name, email: `${name.toLowerCase()}@example.org` },
        });
        await say(socket, `Hello, I am ${name}`);
        await say(socket, 'Do you ship to Lyon?');
        socket.close();
      }
      await eventually(async () => expect(await server.models.OutboxJob.countDocuments({})).to.equal(0));
      await server.slack.close();
      await server.slack.settled();
      // Stopped, so nothing writes between the dump and the comparison.
      await server.close({ keepData: true });
      source = await connect(await testMongoUri());
    });

    after(async () => {
      await source?.db(dbName).dropDatabase();
      if (stopped) rmSync(stopped.dataDir, { recursive: true, force: true });
    });

    it('restores into a fresh embedded store with identical documents and indexes (through the scripts)', async function () {
      this.timeout(60_000);
      const out = tempDir('dump');
      const dumped = await script('db-dump', ['--uri', `${await testMongoUri()}/${dbName}`, '--out', out]);
      expect(dumped.stdout).to.match(/^dumped \d+ collections, \d[\d,]* documents, [\d.]+ (B|KB|MB) in [\d.]+ s \(one point in time\)\n$/);

      const target = await freshStore();
      const restored = await script('db-restore', ['--uri', `${target.uri}/${dbName}`, '--dir', out]);
      expect(restored.stdout).to.match(/^restored \d+ collections, \d[\d,]* documents, .* in [\d.]+ s, \d+ indexes built\n$/);

      const before = await contents(source.db(dbName));
      const after = await contents((await connect(target.uri)).db(dbName));
      expect(Object.keys(after).sort()).to.deep.equal(Object.keys(before).sort());
      expect(before.messages.docs).to.include('Do you ship to Lyon?');
      for (const name of Object.keys(before)) {
        expect(after[name].docs, `${name} documents`).to.equal(before[name].docs);
        expect(after[name].indexes, `${name} indexes`).to.equal(before[name].indexes);
      }
    });

    it("writes mongodump's layout: BSON documents back to back and metadata JSON with indexes", async () => {
      const out = tempDir('layout');
      const summary = await dump({ client: source, db: dbName, out });
      const dir = path.join(out, dbName);
      const files = readdirSync(dir);
      expect(files).to.include.members(['messages.bson', 'messages.metadata.json', 'conversations.bson', 'visitors.metadata.json']);
      let documents = 0;
      for (const file of files.filter((f) => f.endsWith('.bson'))) {
        const name = file.slice(0, -'.bson'.length);
        const docs = documentsIn(readFileSync(path.join(dir, file)));
        expect(docs.length, name).to.equal(await source.db(dbName).collection(name).countDocuments({}));
        documents += docs.length;

        const meta = JSON.parse(readFileSync(path.join(dir, `${name}.metadata.json`), 'utf8'));
        expect(meta.collectionName).to.equal(name);
        expect(meta.type).to.equal('collection');
        expect(meta.uuid).to.match(/^[0-9a-f]{32}$/);
        // Canonical Extended JSON, as mongodump writes it.
        expect(meta.indexes[0]).to.deep.equal({ v: { $numberInt: '2' }, key: { _id: { $numberInt: '1' } }, name: '_id_' });
        const names = (await source.db(dbName).collection(name).listIndexes().toArray()).map((i) => i.name);
        expect(meta.indexes.map((i: { name: string }) => i.name)).to.have.members(names);
      }
      expect(documents).to.equal(summary.documents);
      expect(JSON.parse(readFileSync(path.join(dir, 'prelude.json'), 'utf8'))).to.have.keys('ServerVersion', 'ToolVersion');
    });

    it('gzips every file with --gzip, and restores from them', async function () {
      this.timeout(60_000);
      const out = tempDir('gzip');
      await script('db-dump', ['--uri', `${await testMongoUri()}/${dbName}`, '--out', out, '--gzip']);
      const dir = path.join(out, dbName);
      const files = readdirSync(dir);
      expect(files.every((f) => f.endsWith('.gz'))).to.equal(true);
      const messages = documentsIn(gunzipSync(readFileSync(path.join(dir, 'messages.bson.gz'))));
      expect(messages.map((m) => m.text)).to.include('Do you ship to Lyon?');
      expect(JSON.parse(gunzipSync(readFileSync(path.join(dir, 'messages.metadata.json.gz'))).toString()).indexes).to.be.an('array');

      const target = await freshStore();
      await script('db-restore', ['--uri', target.uri, '--dir', out]);
      const restored = (await connect(target.uri)).db(dbName);
      expect(await restored.collection('messages').countDocuments({})).to.equal(messages.length);
    });
  });

  it("restores a folder in mongodump's shape: escaped names, relaxed metadata with ns, a prelude, and --drop", async () => {
    const out = tempDir('mongodump');
    const dir = path.join(out, 'shop');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(out, 'prelude.json'), JSON.stringify({ ServerVersion: '7.0.14', ToolVersion: '100.10.0' }));
    const orders = [
      { _id: 1, item: 'tea', qty: new BSON.Int32(3), price: new BSON.Double(4), at: new Date('2026-01-02T03:04:05Z') },
      { _id: 2, item: 'cake', qty: new BSON.Int32(1), price: new BSON.Double(2.5), at: new Date('2026-01-03T03:04:05Z') },
    ];
    // "orders/2026 q1" as mongodump names its files.
    writeFileSync(path.join(dir, 'orders%2F2026+q1.bson'), Buffer.concat(orders.map((o) => BSON.serialize(o))));
    writeFileSync(
      path.join(dir, 'orders%2F2026+q1.metadata.json'),
      JSON.stringify({
        options: {},
        indexes: [
          { v: 2, key: { _id: 1 }, name: '_id_', ns: 'shop.orders/2026 q1' },
          { v: 2, key: { item: 1, at: -1 }, name: 'item_1_at_-1', ns: 'shop.orders/2026 q1' },
        ],
        uuid: '0123456789abcdef0123456789abcdef',
        collectionName: 'orders/2026 q1',
        type: 'collection',
      }),
    );
    const target = await freshStore();
    const client = await connect(target.uri);
    await client.db('shop').collection<{ _id: number; item: string }>('orders/2026 q1').insertOne({ _id: 3, item: 'stale' });

    const summary = await restore({ client, dir: out, drop: true });
    expect(summary).to.include({ databases: 1, collections: 1, documents: 2, duplicates: 0, indexes: 1 });
    const coll = client.db('shop').collection('orders/2026 q1');
    expect(await coll.find({}, { promoteValues: false }).sort({ _id: 1 }).toArray()).to.deep.equal(
      orders.map((o) => ({ ...o, _id: new BSON.Int32(o._id) })),
    );
    expect((await coll.listIndexes().toArray()).map((i) => i.name)).to.have.members(['_id_', 'item_1_at_-1']);

    // Without --drop, documents already there are kept and counted.
    const again = await restore({ client, dir: path.join(out, 'shop') });
    expect(again).to.include({ documents: 2, duplicates: 2 });
  });

  it('stops on a .bson file that ends inside a document, naming the file and the byte', async () => {
    const out = tempDir('torn');
    mkdirSync(path.join(out, 'shop'));
    const whole = BSON.serialize({ _id: 1, text: 'whole' });
    writeFileSync(path.join(out, 'shop', 'notes.bson'), Buffer.concat([whole, BSON.serialize({ _id: 2, text: 'cut' }).subarray(0, 10)]));
    const target = await freshStore();
    const client = await connect(target.uri);
    let error: Error | undefined;
    await restore({ client, dir: out }).catch((err: Error) => {
      error = err;
    });
    expect(error?.message).to.equal(`${path.join(out, 'shop', 'notes.bson')}: ends inside a BSON document at byte ${whole.length}`);
  });

  describe('under relay load', () => {
    const server = useRelayServer({ relay: { socketsPerIpPerMinute: 100_000, visitorMsgsPerMinute: 100_000, framesPer10s: 100_000 } });

    it('takes one point in time: every message has its conversation and every conversation its visitor', async function () {
      this.timeout(120_000);
      const widget = await setUpRelayWidget(server);
      let loading = true;
      let conversationsStarted = 0;
      const worker = async (w: number) => {
        for (let i = 0; loading; i++) {
          const { socket } = await VisitorSocket.hello(server, widget.uuid, { identity: { name: `Visitor ${w}-${i}` } });
          try {
            // The dump shares the machine with the four workers (and, in npm test, with other spec files): an ack may
            // wait while it reads. What this test holds is the dump's point in time, not the relay's speed.
            await say(socket, `Question ${i} from worker ${w}`, undefined, 30_000);
            conversationsStarted++;
            await say(socket, 'And a second line', undefined, 30_000);
          } finally {
            socket.close();
          }
        }
      };
      const workers = [0, 1, 2, 3].map(worker);
      try {
        await eventually(async () => expect(conversationsStarted).to.be.at.least(20));
        const out = tempDir('load');
        const atStart = conversationsStarted;
        // One document per reply: the dump takes many round trips while conversations and messages keep coming.
        const parley = await connect(await testMongoUri());
        const summary = await dump({ client: parley, db: server.dbName, out, batchSize: 1 });
        expect(conversationsStarted, 'conversations started while the dump ran').to.be.above(atStart);

        const target = await freshStore();
        const client = await connect(target.uri);
        await restore({ client, dir: out });
        const db = client.db(server.dbName);
        const conversations = await db.collection('conversations').find({}).toArray();
        const visitors = new Set((await db.collection('visitors').find({}).toArray()).map((v) => String(v._id)));
        const conversationIds = new Set(conversations.map((c) => String(c._id)));
        const messages = await db.collection('messages').find({}).toArray();
        expect(messages.length).to.be.above(0);
        const orphanMessages = messages.filter((m) => !conversationIds.has(String(m.conversationId))).map((m) => m.text);
        const orphanConversations = conversations.filter((c) => !visitors.has(String(c.visitorId))).map((c) => String(c._id));
        expect(orphanMessages, 'messages without their conversation').to.deep.equal([]);
        expect(orphanConversations, 'conversations without their visitor').to.deep.equal([]);
        expect(summary.pointInTime).to.equal(true);
      } finally {
        loading = false;
        await Promise.all(workers);
      }
    });
  });
});
