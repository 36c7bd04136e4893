/**
 * Snapshot reads on the embedded server (server/embedded-mongo/snapshots.ts), through a driver snapshot session as
 * `npm run db:dump` uses them: every find of the session sees the data as it was at the session's first read.
 */
import { expect } from 'chai';
import { type Db, MongoClient, type MongoServerError, Timestamp } from 'mongodb';
import { testMongoUri, uniqueDbName } from '../helpers/mongo';

describe('embedded MongoDB snapshot reads', () => {
  let client: MongoClient;
  let db: Db;

  before(async () => {
    client = await MongoClient.connect(await testMongoUri());
    db = client.db(uniqueDbName('snapshots'));
  });

  after(async () => {
    await db.dropDatabase();
    await client.close();
  });

  it('reads every collection as it was at the first read of the session, whatever is written after', async () => {
    await db.collection('conversations').insertMany([{ _id: 1 }, { _id: 2 }] as never[]);
    await db.collection('messages').insertMany([{ _id: 10, conversation: 1, text: 'first' }] as never[]);
    const session = client.startSession({ snapshot: true });
    try {
      expect(await db.collection('conversations').find({}, { session }).toArray()).to.have.length(2);

      await db.collection('conversations').insertOne({ _id: 3 } as never);
      await db.collection('messages').insertOne({ _id: 11, conversation: 3, text: 'later' } as never);
      await db.collection('messages').updateOne({ _id: 10 } as never, { $set: { text: 'edited' } });
      await db.collection('notes').insertOne({ _id: 1 } as never);

      const messages = await db.collection('messages').find({}, { session, batchSize: 1 }).toArray();
      expect(messages).to.deep.equal([{ _id: 10, conversation: 1, text: 'first' }]);
      expect(await db.collection('messages').find({ text: 'first' }, { session }).sort({ _id: -1 }).toArray()).to.have.length(1);
      expect(await db.collection('notes').find({}, { session }).toArray()).to.deep.equal([]);
      // Outside the session: the data as it is now.
      expect(await db.collection('messages').countDocuments({})).to.equal(2);
    } finally {
      await session.endSession();
    }
  });

  it('answers SnapshotTooOld for a time it does not hold, and refuses aggregate at a snapshot', async () => {
    const err = await db
      .command({ find: 'messages', readConcern: { level: 'snapshot', atClusterTime: new Timestamp({ t: 1, i: 1 }) } })
      .then(() => undefined)
      .catch((e: MongoServerError) => e);
    expect(err?.codeName).to.equal('SnapshotTooOld');

    const session = client.startSession({ snapshot: true });
    try {
      const refused = await db
        .collection('messages')
        .aggregate([{ $match: {} }], { session })
        .toArray()
        .then(() => undefined)
        .catch((e: MongoServerError) => e);
      expect(refused?.message).to.equal('the embedded server answers snapshot reads with find only, not aggregate');
    } finally {
      await session.endSession();
    }
  });
});
