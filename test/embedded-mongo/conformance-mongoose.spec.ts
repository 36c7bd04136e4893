/**
 * Conformance through mongoose, the way Parley's models use the database. Runs unchanged against a real MongoDB
 * when MONGODB_URI is set.
 */
import { expect } from 'chai';
import mongoose, { type Connection, Schema } from 'mongoose';
import { testMongoUri, uniqueDbName } from '../helpers/mongo';

interface Account {
  name: string;
  slug: string;
  plan: string;
  seats: number;
  tags: string[];
  owner?: mongoose.Types.ObjectId;
  settings: { color: string; greeting?: string };
  createdAt: Date;
  updatedAt: Date;
}

interface Person {
  email: string;
  name: string;
}

interface Conversation {
  account: mongoose.Types.ObjectId;
  visitor: string;
  messages: Array<{ from: string; text: string; at: Date }>;
  status: 'open' | 'closed';
  closedAt?: Date;
}

describe('embedded MongoDB conformance (mongoose)', () => {
  let conn: Connection;
  let AccountModel: mongoose.Model<Account>;
  let PersonModel: mongoose.Model<Person>;
  let ConversationModel: mongoose.Model<Conversation>;

  before(async () => {
    conn = await mongoose.createConnection(await testMongoUri(), { dbName: uniqueDbName('mongoose') }).asPromise();
    PersonModel = conn.model<Person>(
      'Person',
      new Schema<Person>({
        email: { type: String, required: true, unique: true },
        name: String,
      }),
    );
    AccountModel = conn.model<Account>(
      'Account',
      new Schema<Account>(
        {
          name: { type: String, required: true },
          slug: { type: String, required: true, unique: true },
          plan: { type: String, default: 'free', index: true },
          seats: { type: Number, default: 1 },
          tags: [String],
          owner: { type: Schema.Types.ObjectId, ref: 'Person' },
          settings: { color: { type: String, default: '#000' }, greeting: String },
        },
        { timestamps: true },
      ),
    );
    ConversationModel = conn.model<Conversation>(
      'Conversation',
      new Schema<Conversation>({
        account: { type: Schema.Types.ObjectId, ref: 'Account', required: true, index: true },
        visitor: String,
        messages: [{ from: String, text: String, at: { type: Date, default: () => new Date() } }],
        status: { type: String, enum: ['open', 'closed'], default: 'open' },
        closedAt: Date,
      }),
    );
    await Promise.all([PersonModel.init(), AccountModel.init(), ConversationModel.init()]);
  });

  after(async () => {
    await conn.dropDatabase();
    await conn.close();
  });

  it('creates documents with defaults and timestamps, and reads them back', async () => {
    const account = await AccountModel.create({ name: 'Acme', slug: 'acme' });
    expect(account.createdAt).to.be.instanceOf(Date);
    expect(account.updatedAt.getTime()).to.equal(account.createdAt.getTime());
    const found = await AccountModel.findOne({ slug: 'acme' }).lean();
    expect(found).to.include({ name: 'Acme', plan: 'free', seats: 1 });
    expect(found!.settings).to.deep.equal({ color: '#000' });
    expect(found!.createdAt).to.be.instanceOf(Date);
  });

  it('turns a unique violation into a duplicate key error with keyValue', async () => {
    await PersonModel.create({ email: 'ada@example.com', name: 'Ada' });
    let error: (Error & { code?: number; keyValue?: unknown; keyPattern?: unknown }) | undefined;
    try {
      await PersonModel.create({ email: 'ada@example.com', name: 'Impostor' });
    } catch (err) {
      error = err as typeof error;
    }
    expect(error?.code).to.equal(11000);
    expect(error?.keyValue).to.deep.equal({ email: 'ada@example.com' });
    expect(error?.keyPattern).to.deep.equal({ email: 1 });
    expect(await PersonModel.countDocuments({ email: 'ada@example.com' })).to.equal(1);
  });

  it('saves modified documents with the operators mongoose emits, versioning arrays', async () => {
    const account = await AccountModel.create({ name: 'Globex', slug: 'globex', tags: ['a', 'b', 'c'] });
    account.tags.push('d');
    account.seats = 5;
    account.settings.greeting = 'Hi';
    await account.save();
    (account.tags as unknown as mongoose.Types.Array<string>).pull('a');
    await account.save();
    const reloaded = await AccountModel.findById(account._id).lean();
    expect(reloaded!.tags).to.deep.equal(['b', 'c', 'd']);
    expect(reloaded!.seats).to.equal(5);
    expect(reloaded!.settings.greeting).to.equal('Hi');
    expect((reloaded as unknown as { __v: number }).__v).to.equal(2);
    expect(reloaded!.updatedAt.getTime()).to.be.at.least(reloaded!.createdAt.getTime());

    await AccountModel.updateOne(
      { _id: account._id },
      { $inc: { seats: 2 }, $addToSet: { tags: 'b' }, $unset: { 'settings.greeting': 1 } },
    );
    const after = await AccountModel.findById(account._id).lean();
    expect(after!.seats).to.equal(7);
    expect(after!.tags).to.deep.equal(['b', 'c', 'd']);
    expect(after!.settings).to.deep.equal({ color: '#000' });
  });

  it('upserts with findOneAndUpdate and sets createdAt only on insert', async () => {
    const first = await AccountModel.findOneAndUpdate(
      { slug: 'initech' },
      { $set: { name: 'Initech' } },
      { upsert: true, returnDocument: 'after', setDefaultsOnInsert: true },
    ).lean();
    expect(first).to.include({ slug: 'initech', name: 'Initech', plan: 'free' });
    const createdAt = first!.createdAt.getTime();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await AccountModel.findOneAndUpdate(
      { slug: 'initech' },
      { name: 'Initech 2' },
      { upsert: true, returnDocument: 'after' },
    ).lean();
    expect(second!.name).to.equal('Initech 2');
    expect(second!.createdAt.getTime()).to.equal(createdAt);
    expect(second!.updatedAt.getTime()).to.be.greaterThan(createdAt);
  });

  it('populates references', async () => {
    const owner = await PersonModel.create({ email: 'grace@example.com', name: 'Grace' });
    const account = await AccountModel.create({ name: 'Hooli', slug: 'hooli', owner: owner._id });
    await ConversationModel.create([
      { account: account._id, visitor: 'v1', messages: [{ from: 'visitor', text: 'hello' }] },
      { account: account._id, visitor: 'v2' },
    ]);
    const conversations = await ConversationModel.find({ account: account._id })
      .sort({ visitor: 1 })
      .populate<{ account: Account & { owner: Person } }>({ path: 'account', populate: { path: 'owner' } })
      .lean();
    expect(conversations).to.have.length(2);
    expect(conversations[0].account.name).to.equal('Hooli');
    expect(conversations[0].account.owner.name).to.equal('Grace');
    expect(conversations[0].messages[0]).to.include({ from: 'visitor', text: 'hello' });
  });

  it('pushes into subdocument arrays and updates array elements by position', async () => {
    const account = await AccountModel.create({ name: 'Umbrella', slug: 'umbrella' });
    const conversation = await ConversationModel.create({ account: account._id, visitor: 'v', messages: [] });
    await ConversationModel.updateOne({ _id: conversation._id }, { $push: { messages: { from: 'agent', text: 'one' } } });
    await ConversationModel.updateOne(
      { _id: conversation._id },
      { $push: { messages: { $each: [{ from: 'visitor', text: 'two' }], $position: 0 } } },
    );
    await ConversationModel.updateOne({ _id: conversation._id, 'messages.text': 'one' }, { $set: { 'messages.$.text': 'uno' } });
    const reloaded = await ConversationModel.findById(conversation._id).lean();
    expect(reloaded!.messages.map((m) => m.text)).to.deep.equal(['two', 'uno']);
    expect(reloaded!.messages[0].at).to.be.instanceOf(Date);
  });

  it('counts, estimates, checks existence, sorts, skips, limits and selects', async () => {
    const account = await AccountModel.create({ name: 'Stark', slug: 'stark' });
    await ConversationModel.insertMany(
      Array.from({ length: 25 }, (_, i) => ({
        account: account._id,
        visitor: `visitor-${String(i).padStart(2, '0')}`,
        status: i % 5 === 0 ? 'closed' : 'open',
      })),
    );
    expect(await ConversationModel.countDocuments({ account: account._id, status: 'closed' })).to.equal(5);
    expect(await ConversationModel.estimatedDocumentCount()).to.be.at.least(25);
    expect(await ConversationModel.exists({ account: account._id, visitor: 'visitor-03' })).to.not.equal(null);
    expect(await ConversationModel.exists({ visitor: 'nobody' })).to.equal(null);
    const page = await ConversationModel.find({ account: account._id })
      .sort({ visitor: -1 })
      .skip(5)
      .limit(3)
      .select('visitor -_id')
      .lean();
    expect(page).to.deep.equal([{ visitor: 'visitor-19' }, { visitor: 'visitor-18' }, { visitor: 'visitor-17' }]);
    expect((await ConversationModel.distinct('status', { account: account._id })).sort()).to.deep.equal(['closed', 'open']);
  });

  it('aggregates through the model', async () => {
    const account = await AccountModel.create({ name: 'Wayne', slug: 'wayne' });
    await ConversationModel.insertMany([
      { account: account._id, visitor: 'a', status: 'open' },
      { account: account._id, visitor: 'b', status: 'closed', closedAt: new Date('2024-03-01T12:00:00Z') },
      { account: account._id, visitor: 'c', status: 'closed', closedAt: new Date('2024-03-01T15:00:00Z') },
    ]);
    const byStatus = await ConversationModel.aggregate<{ _id: string; n: number }>([
      { $match: { account: account._id } },
      { $group: { _id: '$status', n: { $sum: 1 } } },
      { $sort: { _id: 1 } },
    ]);
    expect(byStatus).to.deep.equal([
      { _id: 'closed', n: 2 },
      { _id: 'open', n: 1 },
    ]);
    const byDay = await ConversationModel.aggregate([
      { $match: { account: account._id, closedAt: { $exists: true } } },
      { $group: { _id: { $dateToString: { format: '%Y-%m-%d', date: '$closedAt' } }, n: { $sum: 1 } } },
    ]);
    expect(byDay).to.deep.equal([{ _id: '2024-03-01', n: 2 }]);
  });

  it('runs Model.bulkWrite', async () => {
    const result = await PersonModel.bulkWrite([
      { insertOne: { document: { email: 'bulk1@example.com', name: 'One' } } },
      { insertOne: { document: { email: 'bulk2@example.com', name: 'Two' } } },
      { updateOne: { filter: { email: 'bulk1@example.com' }, update: { $set: { name: 'Uno' } } } },
      { updateOne: { filter: { email: 'bulk3@example.com' }, update: { $set: { name: 'Three' } }, upsert: true } },
      { deleteOne: { filter: { email: 'bulk2@example.com' } } },
    ]);
    expect(result.insertedCount).to.equal(2);
    expect(result.modifiedCount).to.equal(1);
    expect(result.upsertedCount).to.equal(1);
    expect(result.deletedCount).to.equal(1);
    expect((await PersonModel.find({ email: /^bulk/ }).sort({ email: 1 }).lean()).map((p) => p.name)).to.deep.equal(['Uno', 'Three']);
  });

  it('deletes documents one by one and in bulk', async () => {
    const account = await AccountModel.create({ name: 'Soylent', slug: 'soylent' });
    await account.deleteOne();
    expect(await AccountModel.findById(account._id)).to.equal(null);
    await PersonModel.insertMany([{ email: 'del1@example.com' }, { email: 'del2@example.com' }]);
    expect((await PersonModel.deleteMany({ email: /^del/ })).deletedCount).to.equal(2);
  });

  it('syncs indexes with the schema, dropping the ones the schema no longer declares', async () => {
    const collection = conn.collection('tickets');
    await collection.createIndex({ legacy: 1 });
    const Ticket = conn.model(
      'Ticket',
      new Schema({ number: { type: Number, unique: true }, subject: { type: String, index: true } }),
      'tickets',
    );
    const dropped = await Ticket.syncIndexes();
    expect(dropped).to.deep.equal(['legacy_1']);
    const names = (await collection.listIndexes().toArray()).map((i) => i.name).sort();
    expect(names).to.deep.equal(['_id_', 'number_1', 'subject_1']);
    expect(await Ticket.syncIndexes()).to.deep.equal([]);
  });

  it('expires documents through a schema TTL (expires)', async function () {
    this.timeout(150_000);
    const Token = conn.model('Token', new Schema({ value: String, createdAt: { type: Date, expires: 1 } }));
    await Token.init();
    await Token.create([
      { value: 'stale', createdAt: new Date(Date.now() - 60_000) },
      { value: 'fresh', createdAt: new Date(Date.now() + 3_600_000) },
    ]);
    const deadline = Date.now() + 140_000;
    while (await Token.exists({ value: 'stale' })) {
      if (Date.now() > deadline) throw new Error('the expired token was never deleted');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(await Token.exists({ value: 'fresh' })).to.not.equal(null);
  });
});
