/**
 * Wire-protocol conformance below the driver: legacy handshake, OP_MSG sections, checksums, moreToCome,
 * oversized and malformed input, many connections. Runs against a real MongoDB too when MONGODB_URI is set.
 */

import { BSON, type Document } from 'bson';
import { expect } from 'chai';
import { MongoClient } from 'mongodb';
import { testMongoUri, uniqueDbName } from '../helpers/mongo';
import { CHECKSUM_PRESENT, MORE_TO_COME, OP_MSG, OP_REPLY, opMsg, opQuery, WireConnection } from './wire-client';

describe('embedded MongoDB wire protocol', () => {
  let uri: string;
  let dbName: string;
  let client: MongoClient;
  const connections: WireConnection[] = [];

  async function connect(): Promise<WireConnection> {
    const conn = await WireConnection.open(uri);
    connections.push(conn);
    return conn;
  }

  before(async () => {
    uri = await testMongoUri();
    dbName = uniqueDbName('wire');
    client = await MongoClient.connect(uri);
  });

  afterEach(() => {
    for (const conn of connections.splice(0)) conn.close();
  });

  after(async () => {
    await client.db(dbName).dropDatabase();
    await client.close();
  });

  it('answers the legacy OP_QUERY isMaster handshake with an OP_REPLY', async () => {
    const conn = await connect();
    const { bytes, requestId } = opQuery('admin.$cmd', { isMaster: 1, helloOk: true, client: { application: { name: 'wire-test' } } });
    conn.send(bytes);
    const reply = await conn.next();
    expect(reply?.opCode).to.equal(OP_REPLY);
    expect(reply?.responseTo).to.equal(requestId);
    expect(reply?.doc.ismaster).to.equal(true);
    expect(reply?.doc.helloOk).to.equal(true);
    expect(reply?.doc.maxWireVersion).to.be.at.least(21);
    expect(reply?.doc.ok).to.equal(1);
  });

  it("counts operations in serverStatus's opcounters as mongod does", async () => {
    const admin = client.db('admin');
    const before = (await admin.command({ serverStatus: 1 })).opcounters as Record<string, number>;
    const coll = client.db(dbName).collection<{ _id: number; seen?: boolean }>('counted');
    await coll.insertMany([{ _id: 1 }, { _id: 2 }, { _id: 3 }]);
    await coll.find({}).toArray();
    await coll.updateOne({ _id: 1 }, { $set: { seen: true } });
    await coll.deleteOne({ _id: 2 });
    const after = (await admin.command({ serverStatus: 1 })).opcounters as Record<string, number>;
    expect(after.insert - before.insert).to.be.at.least(3);
    expect(after.query - before.query).to.be.at.least(1);
    expect(after.update - before.update).to.be.at.least(1);
    expect(after.delete - before.delete).to.be.at.least(1);
  });

  it('answers OP_MSG hello with an OP_MSG reply', async () => {
    const conn = await connect();
    const { bytes, requestId } = opMsg({ hello: 1, $db: 'admin' });
    conn.send(bytes);
    const reply = await conn.next();
    expect(reply?.opCode).to.equal(OP_MSG);
    expect(reply?.responseTo).to.equal(requestId);
    expect(reply?.doc.isWritablePrimary).to.equal(true);
  });

  it('accepts documents sent as a kind-1 document sequence', async () => {
    const conn = await connect();
    const reply = await conn.command(
      { insert: 'sequences', $db: dbName },
      { sequences: { documents: [{ _id: 1 }, { _id: 2 }, { _id: 3 }] } },
    );
    expect(reply?.doc).to.deep.include({ n: 3, ok: 1 });
    expect(await client.db(dbName).collection('sequences').countDocuments()).to.equal(3);
  });

  it('verifies and accepts a message that carries a CRC-32C checksum', async () => {
    const conn = await connect();
    const reply = await conn.command({ ping: 1, $db: 'admin' }, { flags: CHECKSUM_PRESENT });
    expect(reply?.doc.ok).to.equal(1);
  });

  it('sends no reply for moreToCome, for endSessions and for writes alike', async () => {
    const conn = await connect();
    const session = { id: new BSON.UUID().toBinary() };
    conn.send(opMsg({ endSessions: [session], $db: 'admin' }, { flags: MORE_TO_COME }).bytes);
    conn.send(
      opMsg({ insert: 'silent', documents: [{ _id: 'quiet' }], writeConcern: { w: 0 }, $db: dbName }, { flags: MORE_TO_COME }).bytes,
    );
    const ping = opMsg({ ping: 1, $db: 'admin' });
    conn.send(ping.bytes);
    const reply = await conn.next();
    expect(reply?.responseTo).to.equal(ping.requestId);
    const found = await client
      .db(dbName)
      .collection('silent')
      .findOne({ _id: 'quiet' } as Document);
    expect(found).to.deep.equal({ _id: 'quiet' });
  });

  it('refuses a document over 16 MB with a write error and keeps serving the connection', async function () {
    this.timeout(60_000);
    const conn = await connect();
    const big = { _id: 'big', blob: 'x'.repeat(16 * 1024 * 1024) };
    const reply = await conn.command({ insert: 'limits', $db: dbName }, { sequences: { documents: [big] } });
    expect(reply?.doc.ok).to.equal(1);
    expect(reply?.doc.n).to.equal(0);
    expect(reply?.doc.writeErrors).to.have.length(1);
    expect(reply?.doc.writeErrors[0].index).to.equal(0);
    expect(reply?.doc.writeErrors[0].errmsg).to.match(/too large/);
    expect((await conn.command({ ping: 1, $db: 'admin' }))?.doc.ok).to.equal(1);
  });

  it('neither crashes nor hangs on malformed BSON', async () => {
    const conn = await connect();
    const good = Buffer.from(BSON.serialize({ ping: 1, $db: 'admin' }));
    const broken = Buffer.from(good);
    broken.writeInt32LE(good.length + 100, 0);
    conn.send(opMsg({}, { rawBody: broken }).bytes);
    const reply = await conn.next(5000);
    if (reply) expect(reply.doc.ok).to.equal(0);
    else expect(conn.closed).to.equal(true);
    const fresh = await connect();
    expect((await fresh.command({ ping: 1, $db: 'admin' }))?.doc.ok).to.equal(1);
  });

  it('answers a command with an invalid database name with InvalidNamespace (73)', async () => {
    const conn = await connect();
    const reply = await conn.command({ find: 'x', $db: 'bad.name' });
    expect(reply?.doc.ok).to.equal(0);
    expect(reply?.doc.code).to.equal(73);
  });

  it('serves 200 concurrent connections', async function () {
    this.timeout(60_000);
    const conns = await Promise.all(Array.from({ length: 200 }, () => connect()));
    const replies = await Promise.all(conns.map((conn, i) => conn.command({ insert: 'many', documents: [{ _id: i }], $db: dbName })));
    expect(replies.every((r) => r?.doc.ok === 1 && r.doc.n === 1)).to.equal(true);
    expect(await client.db(dbName).collection('many').countDocuments()).to.equal(200);
  });
});
