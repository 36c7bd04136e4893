import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Binary, Decimal128, type Document, EJSON, Long, ObjectId } from 'bson';
import { expect } from 'chai';
import {
  type DataImage,
  LOCK_FILE,
  openStorage,
  SNAPSHOT_FILE,
  type Storage,
  type StorageOptions,
  type WriteOp,
} from '../../server/embedded-mongo/storage';
import { ImageBuilder } from '../../server/embedded-mongo/storage/image';

const tempDirs: string[] = [];

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-durability-'));
  tempDirs.push(dir);
  return dir;
}

/**
 * The dbpath as a process killed right now would leave it (acknowledged bytes are in the files). The lock is
 * left out: here its owner, this process, is still alive.
 */
function crashCopy(dir: string): string {
  const copy = tempDir();
  for (const name of fs.readdirSync(dir)) {
    if (name !== LOCK_FILE) fs.copyFileSync(path.join(dir, name), path.join(copy, name));
  }
  return copy;
}

function journalFiles(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .filter((n) => n.startsWith('journal.'))
    .sort();
}

/** Offsets of every frame in a journal segment, and where its data ends. */
function framesOf(file: string): { starts: number[]; end: number } {
  const buf = fs.readFileSync(file);
  const starts: number[] = [];
  let pos = 8;
  while (pos + 8 <= buf.length && buf.readUInt32LE(pos) !== 0) {
    starts.push(pos);
    pos += 8 + buf.readUInt32LE(pos);
  }
  return { starts, end: pos };
}

interface Opened {
  storage: Storage;
  image: DataImage;
  logs: string[];
  /** The live state, kept the way the engine keeps it, for background snapshots. */
  live: ImageBuilder;
  write: (ops: WriteOp[]) => Promise<void>;
}

async function open(dir: string, options: StorageOptions = {}): Promise<Opened> {
  const logs: string[] = [];
  const storage = openStorage(dir, (msg) => logs.push(msg), options);
  const image = await storage.load();
  const live = new ImageBuilder();
  for (const [db, colls] of image) {
    for (const [coll, state] of colls) {
      live.addCollection(db, coll, state.options, state.indexes);
      live.addDocuments(db, coll, state.docs);
    }
  }
  storage.attach(() => live.toImage());
  const write = (ops: WriteOp[]): Promise<void> => {
    for (const op of ops) live.apply(op);
    return storage.append(ops);
  };
  return { storage, image, logs, live, write };
}

function docs(image: DataImage, db: string, coll: string): Document[] {
  const state = image.get(db)?.get(coll);
  if (!state) return [];
  return [...state.docs].sort((a, b) => String(a._id).localeCompare(String(b._id)));
}

/** Canonical extended JSON: equal exactly when BSON types and values are equal. */
function canonical(value: unknown): unknown {
  return EJSON.serialize(value, { relaxed: false });
}

interface User extends Document {
  _id: string;
  name: string;
  n: number;
}

function user(n: number): User {
  return { _id: `u${String(n).padStart(5, '0')}`, name: `User ${n}`, n };
}

async function waitForLog(logs: string[], pattern: RegExp): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (logs.some((l) => pattern.test(l))) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no log line matched ${pattern}; got ${JSON.stringify(logs)}`);
}

describe('embedded MongoDB storage', () => {
  after(() => {
    for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps every kind of write, with its BSON types, across a close and reopen', async () => {
    const dir = tempDir();
    const rich = {
      _id: new ObjectId(),
      at: new Date('2026-01-02T03:04:05.678Z'),
      bin: new Binary(Buffer.from([1, 2, 3]), 0),
      price: Decimal128.fromString('12.3400'),
      big: Long.fromString('9007199254740993'),
      nested: { list: [1, 'two', { three: null }] },
    };
    const first = await open(dir);
    await first.write([
      { op: 'createCollection', db: 'app', coll: 'users', options: { validator: { name: { $type: 'string' } } } },
      { op: 'createIndex', db: 'app', coll: 'users', spec: { name: 'email_1', key: { email: 1 }, unique: true } },
      { op: 'createIndex', db: 'app', coll: 'users', spec: { name: 'n_1', key: { n: 1 } } },
    ]);
    await first.write([
      { op: 'insert', db: 'app', coll: 'users', doc: { _id: 1, email: 'a@x.io', n: 1 } },
      { op: 'insert', db: 'app', coll: 'users', doc: { _id: 2, email: 'b@x.io', n: 2 } },
      { op: 'insert', db: 'app', coll: 'users', doc: { _id: 3, email: 'c@x.io', n: 3 } },
    ]);
    await first.write([{ op: 'replace', db: 'app', coll: 'users', doc: { _id: 2, email: 'b@x.io', n: 20 } }]);
    await first.write([{ op: 'delete', db: 'app', coll: 'users', id: 3 }]);
    await first.write([{ op: 'dropIndex', db: 'app', coll: 'users', name: 'n_1' }]);
    await first.write([{ op: 'insert', db: 'app', coll: 'types', doc: rich }]);
    await first.write([
      { op: 'createCollection', db: 'app', coll: 'draft', options: {} },
      { op: 'insert', db: 'app', coll: 'draft', doc: { _id: 'd1' } },
      { op: 'renameCollection', db: 'app', from: 'draft', toDb: 'archive', to: 'final' },
    ]);
    await first.write([
      { op: 'createCollection', db: 'app', coll: 'gone', options: {} },
      { op: 'dropCollection', db: 'app', coll: 'gone' },
      { op: 'insert', db: 'scratch', coll: 'x', doc: { _id: 1 } },
      { op: 'dropDatabase', db: 'scratch' },
    ]);
    await first.storage.close();

    const { storage, image } = await open(dir);
    await storage.close();
    expect([...image.keys()].sort()).to.deep.equal(['app', 'archive']);
    expect([...image.get('app')!.keys()].sort()).to.deep.equal(['types', 'users']);
    const users = image.get('app')!.get('users')!;
    expect(users.options).to.deep.equal({ validator: { name: { $type: 'string' } } });
    expect(users.indexes).to.deep.equal([{ name: 'email_1', key: { email: 1 }, unique: true }]);
    expect(docs(image, 'app', 'users')).to.deep.equal([
      { _id: 1, email: 'a@x.io', n: 1 },
      { _id: 2, email: 'b@x.io', n: 20 },
    ]);
    expect(canonical(docs(image, 'app', 'types'))).to.deep.equal(canonical([rich]));
    expect(docs(image, 'archive', 'final')).to.deep.equal([{ _id: 'd1' }]);
  });

  it('keeps a document of the largest size MongoDB allows, in the journal and in the snapshot', async () => {
    const dir = tempDir();
    const big = { _id: 'big', blob: new Binary(Buffer.alloc(16 * 1024 * 1024 - 100, 7), 0) };
    const opened = await open(dir);
    await opened.write([{ op: 'insert', db: 'app', coll: 'files', doc: big }]);
    const fromJournal = await open(crashCopy(dir));
    await fromJournal.storage.close();
    await opened.storage.close();
    const fromSnapshot = await open(dir);
    await fromSnapshot.storage.close();
    for (const image of [fromJournal.image, fromSnapshot.image]) {
      const [doc] = docs(image, 'app', 'files');
      expect(Buffer.from((doc.blob as Binary).buffer).equals(Buffer.from(big.blob.buffer))).to.equal(true);
    }
  });

  it('keeps every acknowledged write when the process dies without closing', async () => {
    const dir = tempDir();
    const { storage, write } = await open(dir);
    for (let i = 0; i < 20; i++) await write([{ op: 'insert', db: 'app', coll: 'users', doc: user(i) }]);
    const copy = crashCopy(dir);
    await storage.close();

    const reopened = await open(copy);
    await reopened.storage.close();
    expect(docs(reopened.image, 'app', 'users')).to.deep.equal(Array.from({ length: 20 }, (_, i) => user(i)));
  });

  it('drops a torn last write, keeps the ones before it and goes on writing after it', async () => {
    const dir = tempDir();
    const { storage, write } = await open(dir);
    for (let i = 0; i < 3; i++) await write([{ op: 'insert', db: 'app', coll: 'users', doc: user(i) }]);
    const copy = crashCopy(dir);
    await storage.close();

    const [segment] = journalFiles(copy);
    const { end } = framesOf(path.join(copy, segment));
    fs.truncateSync(path.join(copy, segment), end - 5);

    const reopened = await open(copy);
    expect(docs(reopened.image, 'app', 'users')).to.deep.equal([user(0), user(1)]);
    expect(reopened.logs.join('\n')).to.match(/dropped the torn last journal write/);
    await reopened.write([{ op: 'insert', db: 'app', coll: 'users', doc: user(9) }]);
    const afterTorn = crashCopy(copy);
    await reopened.storage.close();

    const final = await open(afterTorn);
    await final.storage.close();
    expect(docs(final.image, 'app', 'users')).to.deep.equal([user(0), user(1), user(9)]);
  });

  it('drops a last write whose checksum does not match', async () => {
    const dir = tempDir();
    const { storage, write } = await open(dir);
    for (let i = 0; i < 3; i++) await write([{ op: 'insert', db: 'app', coll: 'users', doc: user(i) }]);
    const copy = crashCopy(dir);
    await storage.close();

    const file = path.join(copy, journalFiles(copy)[0]);
    const { starts } = framesOf(file);
    const bytes = fs.readFileSync(file);
    bytes[starts.at(-1)! + 20] ^= 0xff;
    fs.writeFileSync(file, bytes);

    const reopened = await open(copy);
    await reopened.storage.close();
    expect(docs(reopened.image, 'app', 'users')).to.deep.equal([user(0), user(1)]);
    expect(reopened.logs.join('\n')).to.match(/checksum mismatch/);
  });

  it('refuses to start when a write in the middle of the journal is damaged', async () => {
    const dir = tempDir();
    const { storage, write } = await open(dir);
    for (let i = 0; i < 3; i++) await write([{ op: 'insert', db: 'app', coll: 'users', doc: user(i) }]);
    const copy = crashCopy(dir);
    await storage.close();
    const file = path.join(copy, journalFiles(copy)[0]);
    const bytes = fs.readFileSync(file);
    bytes[framesOf(file).starts[0] + 20] ^= 0xff;
    fs.writeFileSync(file, bytes);

    for (let attempt = 0; attempt < 2; attempt++) {
      let error: unknown;
      await openStorage(copy)
        .load()
        .catch((err: unknown) => (error = err));
      expect(String(error)).to.match(/is damaged \(checksum mismatch at offset \d+, followed by intact records\); refusing to start/);
    }
  });

  it('refuses to start on a damaged snapshot', async () => {
    const dir = tempDir();
    const { storage, write } = await open(dir);
    await write([{ op: 'insert', db: 'app', coll: 'users', doc: user(1) }]);
    await storage.close();
    const file = path.join(dir, SNAPSHOT_FILE);
    const bytes = fs.readFileSync(file);
    bytes[bytes.length - 30] ^= 0xff;
    fs.writeFileSync(file, bytes);

    let error: unknown;
    await openStorage(dir)
      .load()
      .catch((err: unknown) => (error = err));
    expect(String(error)).to.match(/snapshot\.bson is damaged/);
  });

  it('compacts the journal into a snapshot in the background, keeping every write and dropping old segments', async () => {
    const dir = tempDir();
    const opened = await open(dir, { compactBytes: 64 * 1024 });
    const expected = new Map<string, Document>();
    for (let round = 0; round < 10; round++) {
      const pending: Promise<void>[] = [];
      for (let i = 0; i < 100; i++) {
        const doc: Document = { ...user(round * 100 + i), payload: 'x'.repeat(200) };
        expected.set(doc._id, doc);
        pending.push(opened.write([{ op: 'insert', db: 'app', coll: 'users', doc }]));
      }
      const replaced: Document = { ...user(round * 100), payload: 'replaced' };
      expected.set(replaced._id, replaced);
      pending.push(opened.write([{ op: 'replace', db: 'app', coll: 'users', doc: replaced }]));
      expected.delete(user(round * 100 + 1)._id);
      pending.push(opened.write([{ op: 'delete', db: 'app', coll: 'users', id: user(round * 100 + 1)._id }]));
      await Promise.all(pending);
    }
    // The log line comes after the old segments are deleted: it is the event to wait for.
    await waitForLog(opened.logs, /compacted \d+ documents into a/);
    // The last writes may have started another compaction; a copy taken while it renames files is no crash image.
    await opened.storage.settled();
    expect(fs.existsSync(path.join(dir, SNAPSHOT_FILE))).to.equal(true);
    expect(journalFiles(dir)).to.not.include('journal.000000000001');
    const expectedDocs = [...expected.values()].sort((a, b) => String(a._id).localeCompare(String(b._id)));

    const crashed = await open(crashCopy(dir));
    await crashed.storage.close();
    expect(docs(crashed.image, 'app', 'users')).to.deep.equal(expectedDocs);

    await opened.storage.close();
    const reopened = await open(dir);
    await reopened.storage.close();
    expect(docs(reopened.image, 'app', 'users')).to.deep.equal(expectedDocs);
  });

  it('stays consistent when it died after writing a snapshot but before removing the old journal', async () => {
    const dir = tempDir();
    const opened = await open(dir);
    for (let i = 0; i < 5; i++) await opened.write([{ op: 'insert', db: 'app', coll: 'users', doc: user(i) }]);
    await opened.write([{ op: 'delete', db: 'app', coll: 'users', id: user(0)._id }]);
    const beforeSnapshot = crashCopy(dir);
    await opened.storage.close();
    fs.copyFileSync(path.join(dir, SNAPSHOT_FILE), path.join(beforeSnapshot, SNAPSHOT_FILE));
    fs.writeFileSync(path.join(beforeSnapshot, 'snapshot.bson.tmp'), 'half a snapshot');

    const reopened = await open(beforeSnapshot);
    await reopened.storage.close();
    expect(docs(reopened.image, 'app', 'users')).to.deep.equal([user(1), user(2), user(3), user(4)]);
    expect(journalFiles(beforeSnapshot)).to.not.include('journal.000000000001');
    expect(fs.existsSync(path.join(beforeSnapshot, 'snapshot.bson.tmp'))).to.equal(false);
  });

  it('makes every one of many concurrent appends durable', async () => {
    const dir = tempDir();
    const { storage, write } = await open(dir);
    await Promise.all(Array.from({ length: 500 }, (_, i) => write([{ op: 'insert', db: 'app', coll: 'users', doc: user(i) }])));
    const copy = crashCopy(dir);
    await storage.close();

    const reopened = await open(copy);
    await reopened.storage.close();
    expect(docs(reopened.image, 'app', 'users')).to.have.length(500);
    expect(docs(reopened.image, 'app', 'users')[499]).to.deep.equal(user(499));
  });

  it('refuses to open a dbpath another storage holds, and opens it once that one is closed', async () => {
    const dir = tempDir();
    const first = await open(dir);
    let error: unknown;
    await openStorage(dir)
      .load()
      .catch((err: unknown) => (error = err));
    expect(String(error)).to.match(/is already in use by this process \(lock file .*mongod\.lock\)/);
    await first.storage.close();

    const second = await open(dir);
    await second.storage.close();
  });

  it('refuses to open a dbpath another process holds, naming that process', async () => {
    const dir = tempDir();
    const storageModule = path.resolve(__dirname, '../../server/embedded-mongo/storage');
    const holder = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `require(${JSON.stringify(storageModule)}).openStorage(${JSON.stringify(dir)}).load()` +
          `.then(() => { console.log('holding'); setInterval(() => {}, 1000); })`,
      ],
      { cwd: path.resolve(__dirname, '../..') },
    );
    try {
      await new Promise<void>((resolve, reject) => {
        holder.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('holding') && resolve());
        holder.on('exit', (code) => reject(new Error(`holder exited with ${code}`)));
      });
      let error: unknown;
      await openStorage(dir)
        .load()
        .catch((err: unknown) => (error = err));
      expect(String(error)).to.match(new RegExp(`is already in use by process ${holder.pid} `));
    } finally {
      holder.kill('SIGKILL');
    }
    await new Promise((r) => holder.once('exit', r));
    const opened = await open(dir);
    await opened.storage.close();
  });

  it('takes over a lock whose pid now belongs to another program or to this process', async () => {
    const dir = tempDir();
    const lock = path.join(dir, LOCK_FILE);
    fs.writeFileSync(lock, JSON.stringify({ pid: process.ppid, started: '1', host: os.hostname(), bootId: '' }));
    const first = await open(dir);
    await first.storage.close();
    fs.writeFileSync(lock, JSON.stringify({ pid: process.pid, started: '1', host: os.hostname(), bootId: '' }));
    const second = await open(dir);
    await second.storage.close();
  });

  it('takes over the lock left by a process that died', async () => {
    const dir = tempDir();
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    fs.writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify({ pid: Number(dead.stdout), host: os.hostname(), bootId: '' }));
    const opened = await open(dir);
    await opened.write([{ op: 'insert', db: 'app', coll: 'users', doc: user(1) }]);
    await opened.storage.close();
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).to.equal(false);
  });

  it('keeps nothing on disk without a dbpath', async () => {
    const storage = openStorage(undefined);
    expect((await storage.load()).size).to.equal(0);
    await storage.append([{ op: 'insert', db: 'app', coll: 'users', doc: user(1) }]);
    await storage.close();
  });
});
