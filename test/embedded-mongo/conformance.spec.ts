/**
 * Conformance of the embedded server through the official driver. Runs unchanged against a real MongoDB when
 * MONGODB_URI is set (test/helpers/mongo.ts picks the target), so every expectation is mongod's behaviour.
 */
import { expect } from 'chai';
import { type Db, type Document, MongoBulkWriteError, MongoClient, MongoServerError, ObjectId } from 'mongodb';
import { testMongoUri, uniqueDbName } from '../helpers/mongo';

async function rejection(promise: Promise<unknown>): Promise<MongoServerError> {
  try {
    await promise;
  } catch (err) {
    return err as MongoServerError;
  }
  throw new Error('expected the operation to fail');
}

describe('embedded MongoDB conformance (driver)', () => {
  let client: MongoClient;
  let db: Db;

  before(async () => {
    client = await MongoClient.connect(await testMongoUri());
    db = client.db(uniqueDbName('conformance'));
  });

  after(async () => {
    await db.dropDatabase();
    await client.close();
  });

  describe('handshake and server commands', () => {
    it('reports a writable server that speaks wire version 21 or later', async () => {
      const hello = await db.admin().command({ hello: 1 });
      expect(hello.isWritablePrimary).to.equal(true);
      expect(hello.maxWireVersion).to.be.at.least(21);
      expect(hello.maxBsonObjectSize).to.equal(16 * 1024 * 1024);
      expect(hello.logicalSessionTimeoutMinutes).to.be.a('number');
    });

    it('answers ping and buildInfo', async () => {
      expect((await db.command({ ping: 1 })).ok).to.equal(1);
      const info = await db.admin().command({ buildInfo: 1 });
      expect(info.version).to.match(/^\d+\.\d+/);
      expect(info.versionArray).to.be.an('array');
    });

    it('answers an unknown command with CommandNotFound (59)', async () => {
      const err = await rejection(db.command({ frobnicate: 1 }));
      expect(err.code).to.equal(59);
      expect(err.codeName).to.equal('CommandNotFound');
      expect(err.message).to.include("no such command: 'frobnicate'");
    });

    it('reports the featureCompatibilityVersion through getParameter', async () => {
      const reply = await db.admin().command({ getParameter: 1, featureCompatibilityVersion: 1 });
      expect(reply.featureCompatibilityVersion.version).to.match(/^\d+\.\d+$/);
    });

    it('ends sessions on request', async () => {
      const session = client.startSession();
      await db.collection('sessions').insertOne({ a: 1 }, { session });
      await session.endSession();
      expect((await db.admin().command({ endSessions: [session.id] })).ok).to.equal(1);
    });
  });

  describe('CRUD', () => {
    it('inserts, finds, replaces and deletes a document', async () => {
      const coll = db.collection('crud');
      const { insertedId } = await coll.insertOne({ name: 'Ada', nested: { level: 1 }, tags: ['a', 'b'] });
      expect(insertedId).to.be.instanceOf(ObjectId);
      expect(await coll.findOne({ _id: insertedId })).to.deep.equal({
        _id: insertedId,
        name: 'Ada',
        nested: { level: 1 },
        tags: ['a', 'b'],
      });
      expect(await coll.findOne({ 'nested.level': 1, tags: 'b' })).to.include({ name: 'Ada' });
      const replaced = await coll.replaceOne({ _id: insertedId }, { name: 'Grace' });
      expect(replaced.modifiedCount).to.equal(1);
      expect(await coll.findOne({ _id: insertedId })).to.deep.equal({ _id: insertedId, name: 'Grace' });
      expect((await coll.deleteOne({ _id: insertedId })).deletedCount).to.equal(1);
      expect(await coll.findOne({ _id: insertedId })).to.equal(null);
    });

    it('keeps the client-chosen _id, stored first, and the order of the other fields', async () => {
      const coll = db.collection('order');
      await coll.insertOne({ z: 1, _id: 'custom', a: 2 } as Document);
      const doc = await coll.findOne({ _id: 'custom' } as Document);
      expect(Object.keys(doc!)).to.deep.equal(['_id', 'z', 'a']);
    });

    it('matches with comparison, logical, element, array and regex operators', async () => {
      const coll = db.collection('operators');
      await coll.insertMany([
        { n: 1, s: 'apple', tags: ['red', 'fruit'], sub: [{ k: 'x', v: 1 }] },
        { n: 2, s: 'banana', tags: ['yellow', 'fruit'], sub: [{ k: 'y', v: 2 }] },
        { n: 3, s: 'cherry', tags: ['red'], extra: null },
        { n: 4, s: 'date' },
      ]);
      const names = async (filter: Document) => (await coll.find(filter).sort({ n: 1 }).toArray()).map((d) => d.s);
      expect(await names({ n: { $gt: 1, $lte: 3 } })).to.deep.equal(['banana', 'cherry']);
      expect(await names({ $or: [{ n: 1 }, { s: /^d/ }] })).to.deep.equal(['apple', 'date']);
      expect(await names({ tags: { $all: ['red', 'fruit'] } })).to.deep.equal(['apple']);
      expect(await names({ tags: { $size: 1 } })).to.deep.equal(['cherry']);
      expect(await names({ sub: { $elemMatch: { k: 'y', v: { $gte: 2 } } } })).to.deep.equal(['banana']);
      expect(await names({ extra: { $exists: true } })).to.deep.equal(['cherry']);
      expect(await names({ extra: null })).to.deep.equal(['apple', 'banana', 'cherry', 'date']);
      expect(await names({ n: { $in: [2, 4] } })).to.deep.equal(['banana', 'date']);
      expect(await names({ n: { $nin: [2, 4] }, tags: { $ne: 'fruit' } })).to.deep.equal(['cherry']);
      expect(await names({ s: { $regex: 'AN', $options: 'i' } })).to.deep.equal(['banana']);
      expect(await names({ $expr: { $gt: ['$n', 3] } })).to.deep.equal(['date']);
    });

    it('matches through arrays of subdocuments one level deep, not into nested arrays', async () => {
      const coll = db.collection('array-paths');
      await coll.insertMany([
        { k: 'sub', items: [{ tags: ['a', 'b'], n: [1, 7] }, { tags: ['c'] }] },
        { k: 'nested', a: [[1, 2]] },
        { k: 'flat', a: [1, 2] },
      ]);
      const keys = async (filter: Document) => (await coll.find(filter).sort({ k: 1 }).toArray()).map((d) => d.k);
      expect(await keys({ 'items.tags': 'b' })).to.deep.equal(['sub']);
      expect(await keys({ 'items.n': { $gte: 5 } })).to.deep.equal(['sub']);
      expect(await keys({ 'items.tags': { $nin: ['c'] } })).to.deep.equal(['flat', 'nested']);
      expect(await keys({ a: 1 })).to.deep.equal(['flat']);
      expect(await keys({ a: [1, 2] })).to.deep.equal(['flat', 'nested']);
      expect(await keys({ 'items.tags': { $exists: true } })).to.deep.equal(['sub']);
    });

    it('rejects an unknown query operator with BadValue (2)', async () => {
      const err = await rejection(
        db
          .collection('operators')
          .find({ n: { $bogus: 1 } })
          .toArray(),
      );
      expect(err.code).to.equal(2);
      expect(err.message).to.include('unknown operator: $bogus');
    });

    it('sorts, skips, limits and projects', async () => {
      const coll = db.collection('paging');
      await coll.insertMany(
        Array.from({ length: 30 }, (_, i) => ({ i, group: i % 3, name: `n${i}`, secret: 's', meta: { a: i, b: 'x' } })),
      );
      const page = await coll.find({ group: 1 }).sort({ i: -1 }).skip(2).limit(3).project({ name: 1, 'meta.a': 1, _id: 0 }).toArray();
      expect(page).to.deep.equal([
        { name: 'n22', meta: { a: 22 } },
        { name: 'n19', meta: { a: 19 } },
        { name: 'n16', meta: { a: 16 } },
      ]);
      const excluded = await coll.find({ i: 0 }).project({ secret: 0, meta: 0 }).toArray();
      expect(Object.keys(excluded[0])).to.deep.equal(['_id', 'i', 'group', 'name']);
      const multi = await coll
        .find({ i: { $lt: 4 } })
        .sort({ group: 1, i: -1 })
        .project({ i: 1, _id: 0 })
        .toArray();
      expect(multi.map((d) => d.i)).to.deep.equal([3, 0, 1, 2]);
    });

    it('projects array slices and the first matching element', async () => {
      const coll = db.collection('array-projection');
      await coll.insertOne({
        _id: 'p',
        title: 'T',
        tags: ['a', 'b', 'c'],
        items: [
          { k: 'x', v: 1 },
          { k: 'y', v: 2 },
        ],
      } as Document);
      expect(await coll.findOne({ _id: 'p' } as Document, { projection: { tags: { $slice: 1 } } })).to.deep.equal({
        _id: 'p',
        title: 'T',
        tags: ['a'],
        items: [
          { k: 'x', v: 1 },
          { k: 'y', v: 2 },
        ],
      });
      expect(await coll.findOne({ _id: 'p' } as Document, { projection: { title: 1, tags: { $slice: -2 } } })).to.deep.equal({
        _id: 'p',
        title: 'T',
        tags: ['b', 'c'],
      });
      expect(await coll.findOne({ _id: 'p' } as Document, { projection: { items: { $elemMatch: { k: 'y' } } } })).to.deep.equal({
        _id: 'p',
        items: [{ k: 'y', v: 2 }],
      });
    });

    it('sorts values of different types in BSON order', async () => {
      const coll = db.collection('mixed');
      await coll.insertMany([
        { k: 'b', v: 'text' },
        { k: 'c', v: 5 },
        { k: 'a', v: null },
        { k: 'd', v: new Date(0) },
        { k: 'e', v: true },
        { k: 'f' },
      ]);
      const order = (await coll.find().sort({ v: 1, k: 1 }).toArray()).map((d) => d.k);
      expect(order).to.deep.equal(['a', 'f', 'c', 'b', 'e', 'd']);
    });

    it('sorts arrays by their smallest element ascending and their largest descending', async () => {
      const coll = db.collection('array-sort');
      await coll.insertMany([
        { k: 'a', v: [5, 1] },
        { k: 'b', v: 3 },
        { k: 'c', v: [2, 9] },
      ]);
      expect((await coll.find().sort({ v: 1 }).toArray()).map((d) => d.k)).to.deep.equal(['a', 'c', 'b']);
      expect((await coll.find().sort({ v: -1 }).toArray()).map((d) => d.k)).to.deep.equal(['c', 'a', 'b']);
    });

    it('returns the top documents of a large sorted result with skip and limit', async () => {
      const coll = db.collection('top-k');
      await coll.insertMany(Array.from({ length: 500 }, (_, i) => ({ n: (i * 37) % 500, g: i % 2 })));
      const top = await coll.find({}).sort({ n: -1 }).skip(2).limit(3).toArray();
      expect(top.map((d) => d.n)).to.deep.equal([497, 496, 495]);
      const byTwo = await coll.find({ g: 1 }).sort({ g: 1, n: 1 }).limit(2).toArray();
      expect(byTwo.map((d) => d.n)).to.deep.equal([1, 3]);
    });

    it('counts, estimates and lists distinct values', async () => {
      const coll = db.collection('counting');
      await coll.insertMany([{ c: 'x', t: ['a', 'b'] }, { c: 'y', t: ['b'] }, { c: 'x' }]);
      expect(await coll.countDocuments({ c: 'x' })).to.equal(2);
      expect(await coll.countDocuments({}, { skip: 1, limit: 1 })).to.equal(1);
      expect(await coll.estimatedDocumentCount()).to.equal(3);
      expect((await coll.distinct('t')).sort()).to.deep.equal(['a', 'b']);
      expect(await coll.distinct('c', { t: 'b' })).to.have.members(['x', 'y']);
      expect(await db.collection('nothing-here').countDocuments({})).to.equal(0);
    });
  });

  describe('updates', () => {
    it('applies every update operator', async () => {
      const coll = db.collection('updates');
      const { insertedId: _id } = await coll.insertOne({
        n: 5,
        m: 3,
        lo: 10,
        hi: 10,
        old: 'x',
        gone: 1,
        list: [1, 2, 3, 2],
        set: ['a'],
        stack: [1, 2, 3],
        bits: 5,
        items: [
          { k: 'a', q: 1 },
          { k: 'b', q: 2 },
        ],
      });
      await coll.updateOne(
        { _id },
        {
          $inc: { n: 2 },
          $mul: { m: 2 },
          $min: { lo: 4 },
          $max: { hi: 20 },
          $rename: { old: 'renamed' },
          $unset: { gone: '' },
          $set: { 'deep.path': true },
          $pull: { list: 2 } as Document,
          $addToSet: { set: { $each: ['a', 'b'] } },
          $pop: { stack: -1 },
          $bit: { bits: { and: 4 } },
          $currentDate: { touched: true },
        },
      );
      const doc = await coll.findOne({ _id });
      expect(doc).to.include({ n: 7, m: 6, lo: 4, hi: 20, renamed: 'x', bits: 4 });
      expect(doc).to.not.have.property('gone');
      expect(doc).to.not.have.property('old');
      expect(doc!.deep).to.deep.equal({ path: true });
      expect(doc!.list).to.deep.equal([1, 3]);
      expect(doc!.set).to.deep.equal(['a', 'b']);
      expect(doc!.stack).to.deep.equal([2, 3]);
      expect(doc!.touched).to.be.instanceOf(Date);

      await coll.updateOne({ _id }, { $push: { list: { $each: [9, 0, 5], $sort: 1, $slice: 4 } }, $pullAll: { set: ['a'] } } as Document);
      await coll.updateOne({ _id, 'items.k': 'b' }, { $set: { 'items.$.q': 20 } });
      await coll.updateOne({ _id }, { $inc: { 'items.$[big].q': 100 } }, { arrayFilters: [{ 'big.q': { $gte: 20 } }] });
      await coll.updateOne({ _id }, { $set: { 'items.$[].seen': true } });
      const after = await coll.findOne({ _id });
      expect(after!.list).to.deep.equal([0, 1, 3, 5]);
      expect(after!.set).to.deep.equal(['b']);
      expect(after!.items).to.deep.equal([
        { k: 'a', q: 1, seen: true },
        { k: 'b', q: 120, seen: true },
      ]);
    });

    it('applies $addToSet of plain values as mongod does: a new array, only values not held, numbers by value, an index kept in step', async () => {
      const coll = db.collection('addtoset');
      await coll.createIndex({ g: 1, words: 1 });
      const { insertedId: _id } = await coll.insertOne({ g: 1 });
      await coll.updateOne({ _id }, { $addToSet: { words: { $each: ['b', 'a', 'b'] } }, $inc: { n: 1 } });
      expect((await coll.findOne({ _id }))?.words).to.deep.equal(['b', 'a']);
      const unchanged = await coll.updateOne({ _id }, { $addToSet: { words: 'a' } });
      expect(unchanged.modifiedCount).to.equal(0);
      await coll.updateOne({ _id }, { $addToSet: { words: { $each: [1, 1.0, 'c', true] } } });
      expect((await coll.findOne({ _id }))?.words).to.deep.equal(['b', 'a', 1, 'c', true]);
      expect(await coll.countDocuments({ g: 1, words: 'c' })).to.equal(1);
      expect(await coll.countDocuments({ g: 1, $and: [{ words: 'a' }, { words: 'c' }] })).to.equal(1);
      expect(await coll.countDocuments({ g: 1, words: 'z' })).to.equal(0);
      const err = await rejection(coll.updateOne({ _id }, { $addToSet: { g: 'x' } }));
      expect(err.message).to.match(/array|non-array/i);
    });

    it('applies $set, $inc and $unset as mongod does: new nested objects, unchanged values, arrays and dates', async () => {
      const coll = db.collection('plain-updates');
      const at = new Date('2026-01-01T00:00:00Z');
      const { insertedId: _id } = await coll.insertOne({ a: { b: 1 }, n: 1.5, list: [{ q: 1 }], at, tags: ['x'] });
      const nested = await coll.updateOne({ _id }, { $set: { 'a.c': 'new', 'x.y.z': 3 }, $inc: { n: 1, fresh: 0 } });
      expect(nested.modifiedCount).to.equal(1);
      expect(await coll.findOne({ _id })).to.deep.equal({
        _id,
        a: { b: 1, c: 'new' },
        n: 2.5,
        list: [{ q: 1 }],
        at,
        tags: ['x'],
        x: { y: { z: 3 } },
        fresh: 0,
      });
      // The same values again, a missing field unset: nothing changes, and mongod says so.
      const same = await coll.updateOne({ _id }, { $set: { at: new Date(at), tags: ['x'], 'a.b': 1 }, $unset: { nowhere: '' } });
      expect(same.modifiedCount).to.equal(0);
      // Through an array (index, or the array itself): as before, by mongod's rules.
      await coll.updateOne({ _id }, { $set: { 'list.0.q': 2, 'tags.1': 'y' } });
      const arrays = await coll.findOne({ _id });
      expect(arrays!.list).to.deep.equal([{ q: 2 }]);
      expect(arrays!.tags).to.deep.equal(['x', 'y']);
      const onString = await coll.updateOne({ _id }, { $inc: { 'a.c': 1 } }).catch((e: { code?: number }) => e);
      expect((onString as { code?: number }).code).to.equal(14);
      await coll.updateOne({ _id }, { $unset: { 'a.b': '' }, $set: { at: null } });
      expect(await coll.findOne({ _id }, { projection: { a: 1, at: 1 } })).to.deep.equal({ _id, a: { c: 'new' }, at: null });
    });

    it('reports matched and modified counts, and updates many', async () => {
      const coll = db.collection('counts');
      await coll.insertMany([
        { g: 1, v: 0 },
        { g: 1, v: 0 },
        { g: 2, v: 0 },
      ]);
      const same = await coll.updateOne({ g: 2 }, { $set: { v: 0 } });
      expect(same.matchedCount).to.equal(1);
      expect(same.modifiedCount).to.equal(0);
      const many = await coll.updateMany({ g: 1 }, { $inc: { v: 1 } });
      expect(many.matchedCount).to.equal(2);
      expect(many.modifiedCount).to.equal(2);
      expect(await coll.countDocuments({ v: 1 })).to.equal(2);
    });

    it('upserts with the filter equality fields and $setOnInsert', async () => {
      const coll = db.collection('upserts');
      const first = await coll.updateOne(
        { email: 'a@example.com', 'profile.plan': 'free', age: { $gt: 3 } },
        { $set: { seen: 1 }, $setOnInsert: { createdBy: 'upsert' } },
        { upsert: true },
      );
      expect(first.upsertedCount).to.equal(1);
      const inserted = await coll.findOne({ _id: first.upsertedId! });
      expect(inserted).to.deep.equal({
        _id: first.upsertedId,
        email: 'a@example.com',
        profile: { plan: 'free' },
        seen: 1,
        createdBy: 'upsert',
      });

      const second = await coll.updateOne(
        { email: 'a@example.com' },
        { $set: { seen: 2 }, $setOnInsert: { createdBy: 'again' } },
        { upsert: true },
      );
      expect(second.upsertedCount).to.equal(0);
      expect(second.modifiedCount).to.equal(1);
      expect(await coll.findOne({ email: 'a@example.com' })).to.include({ seen: 2, createdBy: 'upsert' });

      const replaced = await coll.replaceOne({ _id: 'fixed' } as Document, { v: 1 }, { upsert: true });
      expect(replaced.upsertedId).to.equal('fixed');
      expect(await coll.findOne({ _id: 'fixed' } as Document)).to.deep.equal({ _id: 'fixed', v: 1 });
    });

    it('leaves regular expressions and range conditions of the filter out of an upserted document', async () => {
      const coll = db.collection('upsert-seeds');
      const result = await coll.updateOne(
        { name: /^A/, plan: { $in: ['pro'] }, seats: { $gte: 2 } },
        { $set: { seen: true } },
        { upsert: true },
      );
      expect(await coll.findOne({ _id: result.upsertedId! })).to.deep.equal({ _id: result.upsertedId, plan: 'pro', seen: true });
    });

    it('runs pipeline-style updates', async () => {
      const coll = db.collection('pipeline-updates');
      const { insertedId } = await coll.insertOne({ first: 'Ada', last: 'Lovelace', tmp: 1 });
      await coll.updateOne({ _id: insertedId }, [{ $set: { full: { $concat: ['$first', ' ', '$last'] } } }, { $unset: 'tmp' }]);
      expect(await coll.findOne({ _id: insertedId })).to.deep.equal({
        _id: insertedId,
        first: 'Ada',
        last: 'Lovelace',
        full: 'Ada Lovelace',
      });
    });

    it('refuses to change _id with ImmutableField (66)', async () => {
      const coll = db.collection('immutable');
      await coll.insertOne({ _id: 1, v: 1 } as Document);
      const err = await rejection(coll.updateOne({ _id: 1 } as Document, { $set: { _id: 2 } }));
      expect(err.code).to.equal(66);
    });

    it('refuses operators that do not fit the stored value, changing nothing', async () => {
      const coll = db.collection('misfits');
      await coll.insertOne({ _id: 'm', s: 'text', n: 1 } as Document);
      expect((await rejection(coll.updateOne({ _id: 'm' } as Document, { $inc: { s: 1 } }))).code).to.equal(14);
      expect((await rejection(coll.updateOne({ _id: 'm' } as Document, { $push: { s: 'x' } } as Document))).code).to.equal(2);
      expect((await rejection(coll.updateOne({ _id: 'm' } as Document, { $set: { 'n.deeper': 1 } }))).code).to.equal(28);
      expect((await rejection(coll.updateOne({ _id: 'm' } as Document, { $set: { n: 2 }, $inc: { n: 1 } }))).code).to.equal(40);
      expect(await coll.findOne({ _id: 'm' } as Document)).to.deep.equal({ _id: 'm', s: 'text', n: 1 });
    });

    it('rejects an unknown update operator with FailedToParse (9)', async () => {
      const err = await rejection(db.collection('immutable').updateOne({}, { $frob: { a: 1 } } as Document));
      expect(err.code).to.equal(9);
      expect(err.message).to.include('Unknown modifier: $frob');
    });

    it('finds and modifies one document, returning it before or after', async () => {
      const coll = db.collection('fam');
      await coll.insertMany([
        { k: 'a', n: 1 },
        { k: 'a', n: 2 },
        { k: 'b', n: 3 },
      ]);
      const before = await coll.findOneAndUpdate(
        { k: 'a' },
        { $inc: { n: 10 } },
        { sort: { n: -1 }, returnDocument: 'before', projection: { _id: 0 } },
      );
      expect(before).to.deep.equal({ k: 'a', n: 2 });
      const after = await coll.findOneAndUpdate({ k: 'b' }, { $set: { done: true } }, { returnDocument: 'after' });
      expect(after).to.include({ k: 'b', n: 3, done: true });
      const upserted = await coll.findOneAndUpdate({ k: 'c' }, { $set: { n: 0 } }, { upsert: true, returnDocument: 'after' });
      expect(upserted).to.include({ k: 'c', n: 0 });
      const missing = await coll.findOneAndUpdate({ k: 'zzz' }, { $set: { n: 0 } });
      expect(missing).to.equal(null);
      const replaced = await coll.findOneAndReplace({ k: 'c' }, { k: 'c2' }, { returnDocument: 'after' });
      expect(replaced).to.include({ k: 'c2' });
      const removed = await coll.findOneAndDelete({ k: 'a' }, { sort: { n: 1 } });
      expect(removed).to.include({ n: 1 });
      expect(await coll.countDocuments({ k: 'a' })).to.equal(1);
    });
  });

  describe('indexes', () => {
    it('enforces the _id index with a duplicate key error carrying keyPattern and keyValue', async () => {
      const coll = db.collection('dup-id');
      await coll.insertOne({ _id: 'x' } as Document);
      const err = await rejection(coll.insertOne({ _id: 'x' } as Document));
      expect(err.code).to.equal(11000);
      expect(err.message).to.include('E11000 duplicate key error collection:');
      expect(err.message).to.include('index: _id_ dup key');
      expect(err.keyPattern).to.deep.equal({ _id: 1 });
      expect(err.keyValue).to.deep.equal({ _id: 'x' });
    });

    it('enforces unique and compound unique indexes on insert, update and upsert', async () => {
      const coll = db.collection('unique');
      await coll.createIndex({ email: 1 }, { unique: true });
      await coll.createIndex({ account: 1, slug: 1 }, { unique: true, name: 'account_slug' });
      await coll.insertOne({ email: 'a@x', account: 1, slug: 's' });
      await coll.insertOne({ email: 'b@x', account: 2, slug: 's' });

      const onInsert = await rejection(coll.insertOne({ email: 'a@x', account: 3, slug: 't' }));
      expect(onInsert.code).to.equal(11000);
      expect(onInsert.keyPattern).to.deep.equal({ email: 1 });
      expect(onInsert.keyValue).to.deep.equal({ email: 'a@x' });

      const onCompound = await rejection(coll.insertOne({ email: 'c@x', account: 1, slug: 's' }));
      expect(onCompound.message).to.include('index: account_slug dup key');
      expect(onCompound.keyValue).to.deep.equal({ account: 1, slug: 's' });

      const onUpdate = await rejection(coll.updateOne({ email: 'b@x' }, { $set: { email: 'a@x' } }));
      expect(onUpdate.code).to.equal(11000);
      const onUpsert = await rejection(coll.updateOne({ email: 'new@x' }, { $set: { account: 2, slug: 's' } }, { upsert: true }));
      expect(onUpsert.code).to.equal(11000);
      const onFindAndModify = await rejection(coll.findOneAndUpdate({ email: 'b@x' }, { $set: { email: 'a@x' } }));
      expect(onFindAndModify.code).to.equal(11000);
      expect(onFindAndModify.keyValue).to.deep.equal({ email: 'a@x' });
      expect(await coll.countDocuments()).to.equal(2);
    });

    it('treats a missing field as null in a unique index unless it is sparse', async () => {
      const strict = db.collection('unique-null');
      await strict.createIndex({ code: 1 }, { unique: true });
      await strict.insertOne({ name: 'one' });
      const err = await rejection(strict.insertOne({ name: 'two' }));
      expect(err.keyValue).to.deep.equal({ code: null });

      const sparse = db.collection('unique-sparse');
      await sparse.createIndex({ code: 1 }, { unique: true, sparse: true });
      await sparse.insertMany([{ name: 'one' }, { name: 'two' }, { code: 'c' }]);
      expect(await sparse.countDocuments()).to.equal(3);
    });

    it('enforces a partial unique index only on the documents it covers', async () => {
      const coll = db.collection('unique-partial');
      await coll.createIndex({ email: 1 }, { unique: true, partialFilterExpression: { email: { $type: 'string' } } });
      await coll.insertMany([{ name: 'no email' }, { name: 'also none' }, { email: null }, { email: null }, { email: 'a@x' }]);
      const err = await rejection(coll.insertOne({ email: 'a@x' }));
      expect(err.code).to.equal(11000);
      expect(await coll.countDocuments()).to.equal(5);
    });

    it('reports each duplicate of an unordered batch and stops an ordered batch at the first', async () => {
      const coll = db.collection('batches');
      await coll.createIndex({ k: 1 }, { unique: true });
      const unordered = (await rejection(
        coll.insertMany([{ k: 1 }, { k: 1 }, { k: 2 }, { k: 2 }, { k: 3 }], { ordered: false }),
      )) as unknown as MongoBulkWriteError;
      expect(unordered).to.be.instanceOf(MongoBulkWriteError);
      expect(unordered.insertedCount).to.equal(3);
      const errors = ([] as Array<{ index: number; code: number; errInfo?: unknown; errmsg?: string }>).concat(
        unordered.writeErrors as never,
      );
      expect(errors.map((e) => e.index)).to.deep.equal([1, 3]);
      expect(errors.every((e) => e.code === 11000)).to.equal(true);

      const ordered = (await rejection(coll.insertMany([{ k: 10 }, { k: 1 }, { k: 11 }]))) as unknown as MongoBulkWriteError;
      expect(ordered.insertedCount).to.equal(1);
      expect(([] as Array<{ index: number }>).concat(ordered.writeErrors as never).map((e) => e.index)).to.deep.equal([1]);
      expect(await coll.countDocuments({ k: 11 })).to.equal(0);
    });

    it('refuses to build a unique index over existing duplicates', async () => {
      const coll = db.collection('late-unique');
      await coll.insertMany([{ v: 1 }, { v: 1 }]);
      const err = await rejection(coll.createIndex({ v: 1 }, { unique: true }));
      expect(err.code).to.equal(11000);
      expect((await coll.listIndexes().toArray()).map((i) => i.name)).to.deep.equal(['_id_']);
    });

    it('lists, names and drops indexes, and rejects conflicting definitions', async () => {
      const coll = db.collection('index-admin');
      expect(await coll.createIndex({ a: 1, b: -1 })).to.equal('a_1_b_-1');
      expect(await coll.createIndex({ a: 1, b: -1 })).to.equal('a_1_b_-1');
      await coll.createIndex({ at: 1 }, { expireAfterSeconds: 3600 });
      const specs = await coll.listIndexes().toArray();
      expect(specs.map((s) => s.name)).to.deep.equal(['_id_', 'a_1_b_-1', 'at_1']);
      expect(specs[1].key).to.deep.equal({ a: 1, b: -1 });
      expect(specs[2].expireAfterSeconds).to.equal(3600);

      const sameName = await rejection(coll.createIndex({ c: 1 }, { name: 'a_1_b_-1' }));
      expect(sameName.code).to.equal(86);
      const otherName = await rejection(coll.createIndex({ a: 1, b: -1 }, { name: 'another' }));
      expect(otherName.code).to.equal(85);

      await coll.dropIndex('a_1_b_-1');
      expect((await coll.listIndexes().toArray()).map((s) => s.name)).to.deep.equal(['_id_', 'at_1']);
      const missing = await rejection(coll.dropIndex('nope'));
      expect(missing.code).to.equal(27);
      await coll.dropIndexes();
      expect((await coll.listIndexes().toArray()).map((s) => s.name)).to.deep.equal(['_id_']);
    });

    it('answers equality queries on indexed fields, including arrays and compound prefixes', async () => {
      const coll = db.collection('indexed-queries');
      await coll.createIndex({ tags: 1 });
      await coll.createIndex({ account: 1, status: 1, at: -1 });
      await coll.insertMany(
        Array.from({ length: 200 }, (_, i) => ({
          i,
          tags: [`t${i % 5}`, 'all'],
          account: i % 4,
          status: i % 2 ? 'open' : 'closed',
          at: i,
        })),
      );
      expect(await coll.countDocuments({ tags: 't3' })).to.equal(40);
      expect(await coll.countDocuments({ tags: { $in: ['t1', 't2'] } })).to.equal(80);
      expect(await coll.countDocuments({ account: 1 })).to.equal(50);
      expect(await coll.countDocuments({ account: 1, status: 'open' })).to.equal(50);
      expect(await coll.countDocuments({ account: 2, status: 'open' })).to.equal(0);
      expect(await coll.countDocuments({ account: 1, status: 'open', at: { $lt: 10 } })).to.equal(3);
      const doc = await coll.findOne({ account: 3, status: 'open', at: 7 });
      expect(doc).to.include({ i: 7 });
      expect((await coll.deleteMany({ tags: 't0' })).deletedCount).to.equal(40);
      expect(await coll.countDocuments({ tags: 'all' })).to.equal(160);
      await coll.updateMany({ account: 1 }, { $set: { tags: ['moved'] } });
      expect(await coll.countDocuments({ tags: 'moved' })).to.equal(40);
      expect(await coll.countDocuments({ tags: 't1' })).to.equal(30);
      expect(await coll.countDocuments({ account: 1, tags: 't1' })).to.equal(0);
    });

    it('answers date ranges after an equality prefix from a compound index, and keeps them right after writes', async () => {
      const coll = db.collection('ranged');
      await coll.createIndex({ ce: 1, at: 1 });
      const base = Date.UTC(2026, 2, 1);
      const at = (i: number) => new Date(base + i * 60_000);
      await coll.insertMany(Array.from({ length: 300 }, (_, i) => ({ i, ce: i % 3, at: at(i) })));
      await coll.insertOne({ i: -1, ce: 1, at: 'not a date' });
      expect(await coll.countDocuments({ ce: 1, at: { $gte: at(30), $lt: at(90) } })).to.equal(20);
      expect(await coll.countDocuments({ ce: 1, at: { $gt: at(31), $lte: at(91) } })).to.equal(20);
      expect(await coll.countDocuments({ ce: 1, at: { $gte: at(290) } })).to.equal(3);
      expect(await coll.countDocuments({ ce: 1, at: { $lt: at(5) } })).to.equal(2);
      await coll.updateOne({ i: 31 }, { $set: { at: at(1000) } });
      await coll.deleteOne({ i: 34 });
      await coll.insertOne({ i: 1001, ce: 1, at: at(50) });
      expect(await coll.countDocuments({ ce: 1, at: { $gte: at(30), $lt: at(90) } })).to.equal(19);
      const grouped = await coll
        .aggregate([
          { $match: { ce: 2, at: { $gte: at(0), $lt: at(30) } } },
          { $group: { _id: null, n: { $sum: 1 }, top: { $max: '$i' } } },
        ])
        .toArray();
      expect(grouped).to.deep.equal([{ _id: null, n: 10, top: 29 }]);
    });

    it('sorts from an index in either direction, with skip and limit', async () => {
      const coll = db.collection('index-sorted');
      await coll.createIndex({ ce: 1, at: -1 });
      const base = Date.UTC(2026, 2, 1);
      await coll.insertMany(Array.from({ length: 200 }, (_, i) => ({ i, ce: i % 2, at: new Date(base + ((i * 37) % 200) * 1000) })));
      const latest = await coll.find({ ce: 0 }).sort({ at: -1 }).limit(3).toArray();
      const all = (await coll.find({ ce: 0 }).toArray()).sort((a, b) => b.at.getTime() - a.at.getTime());
      expect(latest.map((d) => d.i)).to.deep.equal(all.slice(0, 3).map((d) => d.i));
      const earliest = await coll
        .find({ ce: 0, at: { $gte: new Date(base + 50_000), $lt: new Date(base + 150_000) } })
        .sort({ at: 1 })
        .skip(2)
        .limit(4)
        .toArray();
      const inRange = all.filter((d) => d.at.getTime() >= base + 50_000 && d.at.getTime() < base + 150_000).reverse();
      expect(earliest.map((d) => d.i)).to.deep.equal(inRange.slice(2, 6).map((d) => d.i));
    });

    it('explains an index-backed range with a sort and limit as an index scan without a sort stage', async () => {
      const coll = db.collection('explained-range');
      await coll.createIndex({ ce: 1, discarded: 1, at: 1 }, { name: 'report_1' });
      await coll.insertMany(
        Array.from({ length: 100 }, (_, i) => ({ ce: i % 4, discarded: false, at: new Date(Date.UTC(2026, 0, 1) + i * 3_600_000) })),
      );
      const filter = { ce: 2, discarded: false, at: { $gte: new Date(Date.UTC(2026, 0, 2)), $lt: new Date(Date.UTC(2026, 0, 3)) } };
      const explained = await coll.find(filter).sort({ at: -1 }).limit(5).explain('executionStats');
      const plan = JSON.stringify(explained.queryPlanner.winningPlan);
      expect(plan).to.include('"IXSCAN"');
      expect(plan).to.include('"indexName":"report_1"');
      expect(plan).not.to.include('"stage":"SORT"');
      expect(JSON.stringify(explained)).to.include('"nReturned":5');
      const unsorted = JSON.stringify(
        (
          await coll
            .find({ at: { $gte: new Date(0) } })
            .sort({ at: 1 })
            .explain()
        ).queryPlanner.winningPlan,
      );
      expect(unsorted).to.include('SORT');
    });

    it('explains which index answers a query', async () => {
      const coll = db.collection('explained');
      await coll.createIndex({ email: 1 });
      await coll.insertMany([
        { email: 'a@x', n: 1 },
        { email: 'b@x', n: 2 },
      ]);
      const indexed = JSON.stringify(await coll.find({ email: 'a@x' }).explain('executionStats'));
      expect(indexed).to.include('"IXSCAN"');
      expect(indexed).to.include('"indexName":"email_1"');
      expect(indexed).to.include('"nReturned":1');
      const scanned = JSON.stringify(await coll.find({ n: 2 }).explain());
      expect(scanned).to.include('"COLLSCAN"');
    });

    it('deletes documents whose TTL has expired', async function () {
      // mongod's TTL monitor runs once a minute, so against a real server this can take that long.
      this.timeout(150_000);
      const coll = db.collection('ttl');
      await coll.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 });
      await coll.insertMany([
        { name: 'old', expiresAt: new Date(Date.now() - 60_000) },
        { name: 'future', expiresAt: new Date(Date.now() + 3_600_000) },
        { name: 'no-date', expiresAt: 'not a date' },
      ]);
      const deadline = Date.now() + 140_000;
      while ((await coll.countDocuments({ name: 'old' })) > 0) {
        if (Date.now() > deadline) throw new Error('the expired document was never deleted');
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      expect((await coll.find().sort({ name: 1 }).toArray()).map((d) => d.name)).to.deep.equal(['future', 'no-date']);
    });
  });

  describe('cursors', () => {
    it('returns large results across getMore batches', async () => {
      const coll = db.collection('cursor');
      await coll.insertMany(Array.from({ length: 1000 }, (_, i) => ({ i, pad: 'x'.repeat(100) })));
      const seen = (await coll.find({}, { batchSize: 7 }).sort({ i: 1 }).toArray()).map((d) => d.i);
      expect(seen).to.deep.equal(Array.from({ length: 1000 }, (_, i) => i));
      const aggregated = await coll.aggregate([{ $match: { i: { $gte: 500 } } }], { batchSize: 3 }).toArray();
      expect(aggregated).to.have.length(500);
    });

    it('kills a cursor so that getMore on it fails with CursorNotFound (43)', async () => {
      const reply = await db.command({ find: 'cursor', filter: {}, batchSize: 2 });
      const id = reply.cursor.id;
      expect(Number(id)).to.not.equal(0);
      const more = await db.command({ getMore: id, collection: 'cursor', batchSize: 2 });
      expect(more.cursor.nextBatch).to.have.length(2);
      const killed = await db.command({ killCursors: 'cursor', cursors: [id] });
      expect(killed.cursorsKilled.map(Number)).to.deep.equal([Number(id)]);
      const err = await rejection(db.command({ getMore: id, collection: 'cursor' }));
      expect(err.code).to.equal(43);
    });

    it('opens a cursor with an empty first batch when batchSize is 0', async () => {
      const reply = await db.command({ find: 'cursor', filter: { i: { $lt: 3 } }, batchSize: 0 });
      expect(reply.cursor.firstBatch).to.deep.equal([]);
      const more = await db.command({ getMore: reply.cursor.id, collection: 'cursor' });
      expect(more.cursor.nextBatch.map((d: Document) => d.i)).to.deep.equal([0, 1, 2]);
      expect(Number(more.cursor.id)).to.equal(0);
    });

    it('returns documents in reverse insertion order for {$natural: -1}', async () => {
      const last = await db.collection('cursor').find().sort({ $natural: -1 }).limit(2).toArray();
      expect(last.map((d) => d.i)).to.deep.equal([999, 998]);
    });

    it('returns a single batch and closes the cursor when asked', async () => {
      const reply = await db.command({ find: 'cursor', filter: {}, batchSize: 5, singleBatch: true });
      expect(reply.cursor.firstBatch).to.have.length(5);
      expect(Number(reply.cursor.id)).to.equal(0);
    });
  });

  describe('aggregation', () => {
    before(async () => {
      await db.collection('authors').insertMany([
        { _id: 1, name: 'Ada' },
        { _id: 2, name: 'Grace' },
      ] as Document[]);
      await db.collection('posts').insertMany([
        { author: 1, tags: ['math', 'code'], words: 100, at: new Date('2024-01-05T10:00:00Z') },
        { author: 1, tags: ['code'], words: 300, at: new Date('2024-01-05T18:00:00Z') },
        { author: 2, tags: ['navy'], words: 50, at: new Date('2024-02-01T00:00:00Z') },
      ]);
    });

    it('runs $match, $group, $sort, $project and $count', async () => {
      const totals = await db
        .collection('posts')
        .aggregate([
          { $match: { words: { $gte: 60 } } },
          { $group: { _id: '$author', words: { $sum: '$words' }, posts: { $sum: 1 } } },
          { $sort: { words: -1 } },
          { $project: { _id: 0, author: '$_id', words: 1, posts: 1 } },
        ])
        .toArray();
      expect(totals).to.deep.equal([{ words: 400, posts: 2, author: 1 }]);
      const [counted] = await db
        .collection('posts')
        .aggregate([{ $match: { author: 1 } }, { $count: 'n' }])
        .toArray();
      expect(counted).to.deep.equal({ n: 2 });
    });

    it('joins with $lookup and flattens with $unwind', async () => {
      const rows = await db
        .collection('posts')
        .aggregate([
          { $lookup: { from: 'authors', localField: 'author', foreignField: '_id', as: 'author' } },
          { $unwind: '$author' },
          { $unwind: '$tags' },
          { $group: { _id: '$tags', by: { $addToSet: '$author.name' } } },
          { $sort: { _id: 1 } },
        ])
        .toArray();
      expect(rows).to.deep.equal([
        { _id: 'code', by: ['Ada'] },
        { _id: 'math', by: ['Ada'] },
        { _id: 'navy', by: ['Grace'] },
      ]);
    });

    it('joins with a $lookup sub-pipeline using let variables', async () => {
      const rows = await db
        .collection('authors')
        .aggregate([
          {
            $lookup: {
              from: 'posts',
              let: { id: '$_id' },
              pipeline: [{ $match: { $expr: { $eq: ['$author', '$$id'] } } }, { $count: 'n' }],
              as: 'stats',
            },
          },
          { $project: { _id: 0, name: 1, posts: { $first: '$stats.n' } } },
          { $sort: { name: 1 } },
        ])
        .toArray();
      expect(rows).to.deep.equal([
        { name: 'Ada', posts: 2 },
        { name: 'Grace', posts: 1 },
      ]);
    });

    it('runs $facet, $bucket and $dateToString', async () => {
      const [facets] = await db
        .collection('posts')
        .aggregate([
          {
            $facet: {
              byDay: [{ $group: { _id: { $dateToString: { format: '%Y-%m-%d', date: '$at' } }, n: { $sum: 1 } } }, { $sort: { _id: 1 } }],
              sizes: [{ $bucket: { groupBy: '$words', boundaries: [0, 100, 1000], default: 'other', output: { n: { $sum: 1 } } } }],
              total: [{ $count: 'n' }],
            },
          },
        ])
        .toArray();
      expect(facets.byDay).to.deep.equal([
        { _id: '2024-01-05', n: 2 },
        { _id: '2024-02-01', n: 1 },
      ]);
      expect(facets.sizes).to.deep.equal([
        { _id: 0, n: 1 },
        { _id: 100, n: 2 },
      ]);
      expect(facets.total).to.deep.equal([{ n: 3 }]);
    });

    it('groups with conditions on null and missing fields, date arithmetic and buckets between date boundaries', async () => {
      const day = (d: number, seconds = 0) => new Date(Date.UTC(2024, 2, d) + seconds * 1000);
      const chats = db.collection('group_chats');
      await chats.insertMany([
        { a: 'x', start: day(1), reply: day(1, 60), end: null, n: 2 },
        { a: 'x', start: day(1), reply: null, n: 3, m: 1 },
        { a: 'y', start: day(2), reply: day(2, 30), end: day(2, 600) },
        { start: day(3), reply: day(3, 10), n: 5, m: 'many' },
      ]);
      const answered = { $gt: ['$reply', null] };
      const rows = await chats
        .aggregate([
          { $match: { start: { $gte: day(1) } } },
          {
            $group: {
              _id: { $cond: [answered, { $ifNull: ['$a', ''] }, ''] },
              replied: { $sum: { $cond: [answered, 1, 0] } },
              waitMs: { $sum: { $cond: { if: answered, then: { $subtract: ['$reply', '$start'] }, else: 0 } } },
              ended: { $sum: { $cond: [{ $gt: ['$end', null] }, 1, 0] } },
              nullEnd: { $sum: { $cond: [{ $eq: ['$end', null] }, 1, 0] } },
              msgs: { $sum: { $add: [{ $ifNull: ['$n', 0] }, { $ifNull: [{ $cond: [{ $eq: ['$m', 1] }, 1, null] }, 0] }] } },
              text: { $sum: '$m' },
              late: { $sum: { $cond: [{ $and: [answered, { $gt: [{ $subtract: ['$reply', '$start'] }, 45_000] }] }, 1, 0] } },
              most: { $max: '$n' },
              mean: { $avg: '$n' },
              chats: { $count: {} },
            },
          },
          { $sort: { _id: 1 } },
        ])
        .toArray();
      expect(rows).to.deep.equal([
        // The unanswered chat, and the answered one without an agent; $sum leaves out a string.
        { _id: '', replied: 1, waitMs: 10_000, ended: 0, nullEnd: 0, msgs: 9, text: 1, late: 0, most: 5, mean: 4, chats: 2 },
        { _id: 'x', replied: 1, waitMs: 60_000, ended: 0, nullEnd: 1, msgs: 2, text: 0, late: 1, most: 2, mean: 2, chats: 1 },
        { _id: 'y', replied: 1, waitMs: 30_000, ended: 1, nullEnd: 0, msgs: 0, text: 0, late: 0, most: null, mean: null, chats: 1 },
      ]);
      const buckets = await chats
        .aggregate([
          { $bucket: { groupBy: '$start', boundaries: [day(1), day(2), day(3)], default: 'later', output: { chats: { $sum: 1 } } } },
        ])
        .toArray();
      expect(buckets).to.have.deep.members([
        { _id: day(1), chats: 2 },
        { _id: day(2), chats: 1 },
        // The upper boundary is exclusive.
        { _id: 'later', chats: 1 },
      ]);
      const err = await rejection(
        chats.aggregate([{ $bucket: { groupBy: '$start', boundaries: [day(1), day(2)], output: { chats: { $sum: 1 } } } }]).toArray(),
      );
      expect(err.code).to.equal(40066);
    });

    it('writes results with $out and $merge', async () => {
      await db
        .collection('posts')
        .aggregate([{ $group: { _id: '$author', words: { $sum: '$words' } } }, { $out: 'author_words' }])
        .toArray();
      expect(await db.collection('author_words').find().sort({ _id: 1 }).toArray()).to.deep.equal([
        { _id: 1, words: 400 },
        { _id: 2, words: 50 },
      ]);
      await db
        .collection('authors')
        .aggregate([
          { $project: { _id: 1, name: 1 } },
          { $merge: { into: 'author_words', on: '_id', whenMatched: 'merge', whenNotMatched: 'discard' } },
        ])
        .toArray();
      expect(await db.collection('author_words').find().sort({ _id: 1 }).toArray()).to.deep.equal([
        { _id: 1, words: 400, name: 'Ada' },
        { _id: 2, words: 50, name: 'Grace' },
      ]);
    });

    it('rejects an unknown stage', async () => {
      const err = await rejection(
        db
          .collection('posts')
          .aggregate([{ $teleport: {} }])
          .toArray(),
      );
      expect(err.code).to.equal(40324);
    });
  });

  describe('change streams', () => {
    it('either opens a change stream (replica set) or refuses it with code 40573', async () => {
      const hello = await db.admin().command({ hello: 1 });
      const opened = db.command({ aggregate: 'posts', pipeline: [{ $changeStream: {} }], cursor: {} });
      if (hello.setName || hello.msg === 'isdbgrid') {
        expect((await opened).ok).to.equal(1);
        return;
      }
      expect((await rejection(opened)).code).to.equal(40573);
    });
  });

  describe('bulk writes and collections', () => {
    it('runs a mixed bulkWrite and reports every count', async () => {
      const coll = db.collection('bulk');
      await coll.insertOne({ _id: 'keep', v: 0 } as Document);
      const result = await coll.bulkWrite([
        { insertOne: { document: { _id: 'a', v: 1 } } },
        { insertOne: { document: { _id: 'b', v: 2 } } },
        { updateOne: { filter: { _id: 'a' }, update: { $inc: { v: 10 } } } },
        { updateMany: { filter: { v: { $gte: 0 } }, update: { $set: { seen: true } } } },
        { replaceOne: { filter: { _id: 'b' }, replacement: { v: 20 } } },
        { updateOne: { filter: { _id: 'c' }, update: { $set: { v: 3 } }, upsert: true } },
        { deleteOne: { filter: { _id: 'keep' } } },
      ] as never);
      expect(result.insertedCount).to.equal(2);
      expect(result.matchedCount).to.equal(5);
      expect(result.modifiedCount).to.equal(5);
      expect(result.upsertedCount).to.equal(1);
      expect(result.deletedCount).to.equal(1);
      expect(await coll.find().sort({ _id: 1 }).toArray()).to.deep.equal([
        { _id: 'a', v: 11, seen: true },
        { _id: 'b', v: 20 },
        { _id: 'c', v: 3 },
      ] as Document[]);
    });

    it('creates, lists, renames and drops collections and databases', async () => {
      const other = client.db(uniqueDbName('conformance_other'));
      await other.createCollection('first');
      const exists = await rejection(other.createCollection('first'));
      expect(exists.code).to.equal(48);
      await other.collection('second').insertOne({ v: 1 });
      expect((await other.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name).sort()).to.deep.equal(['first', 'second']);
      expect((await other.listCollections({ name: 'second' }).toArray())[0]).to.include({ name: 'second', type: 'collection' });
      await other.renameCollection('second', 'third');
      expect(await other.collection('third').countDocuments()).to.equal(1);
      expect(await other.collection('second').countDocuments()).to.equal(0);
      const dbs = await client.db('admin').admin().listDatabases();
      expect(dbs.databases.map((d) => d.name)).to.include(other.databaseName);
      expect(await other.collection('first').drop()).to.equal(true);
      expect(await other.dropDatabase()).to.equal(true);
      const after = await client.db('admin').admin().listDatabases();
      expect(after.databases.map((d) => d.name)).to.not.include(other.databaseName);
    });

    it('answers missing namespaces and taken names with mongod error codes', async () => {
      const missing = db.collection('never-created');
      expect((await rejection(missing.listIndexes().toArray())).code).to.equal(26);
      expect((await rejection(missing.dropIndex('x_1'))).code).to.equal(26);
      await db.collection('rename-a').insertOne({ v: 1 });
      await db.collection('rename-b').insertOne({ v: 2 });
      expect((await rejection(db.renameCollection('rename-a', 'rename-b'))).code).to.equal(48);
      expect((await rejection(db.renameCollection('never-created', 'rename-c'))).code).to.equal(26);
      await db.renameCollection('rename-a', 'rename-b', { dropTarget: true });
      expect(
        await db
          .collection('rename-b')
          .find({}, { projection: { _id: 0 } })
          .toArray(),
      ).to.deep.equal([{ v: 1 }]);
    });

    it('reports collection and database statistics', async () => {
      await db.collection('stats').insertMany([{ a: 1 }, { a: 2 }]);
      const coll = await db.command({ collStats: 'stats' });
      expect(coll.count).to.equal(2);
      expect(coll.nindexes).to.equal(1);
      const stats = await db.stats();
      expect(stats.objects).to.be.at.least(2);
      expect(stats.collections).to.be.at.least(1);
    });
  });

  describe('transactions', () => {
    it('either commits a transaction (replica set) or refuses it with an error that says why', async () => {
      const hello = await db.admin().command({ hello: 1 });
      const coll = db.collection('txn');
      await coll.insertOne({ before: true });
      const session = client.startSession();
      try {
        if (hello.setName || hello.msg === 'isdbgrid') {
          await session.withTransaction(async () => {
            await coll.insertOne({ inside: true }, { session });
          });
          expect(await coll.countDocuments({ inside: true })).to.equal(1);
        } else {
          session.startTransaction();
          const err = await rejection(coll.insertOne({ inside: true }, { session }));
          expect(err).to.be.instanceOf(MongoServerError);
          if (!process.env.MONGODB_URI) expect(err.message).to.include('transactions need a replica set; set MONGODB_URI');
          await session.abortTransaction().catch(() => undefined);
          expect(await coll.countDocuments({ inside: true })).to.equal(0);
        }
      } finally {
        await session.endSession();
      }
    });
  });
});
