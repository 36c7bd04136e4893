/** mongodump's file names and the BSON stream reader of server/backup/format.ts. */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import * as BSON from 'bson';
import { expect } from 'chai';
import { bsonDocuments, collectionFileBase, metadataJson, parseMetadata, queryEscape, queryUnescape } from '../../server/backup/format';

async function all(chunks: Buffer[]): Promise<BSON.Document[]> {
  const out: BSON.Document[] = [];
  for await (const raw of bsonDocuments(Readable.from(chunks), 'x.bson')) out.push(BSON.deserialize(raw));
  return out;
}

describe('mongodump format', () => {
  it("names files as Go's url.QueryEscape does, and reads them back", () => {
    expect(queryEscape('messages')).to.equal('messages');
    expect(queryEscape('orders/2026 q1')).to.equal('orders%2F2026+q1');
    expect(queryEscape("a*b(c)!'~_-.")).to.equal('a%2Ab%28c%29%21%27~_-.');
    expect(queryEscape('café')).to.equal('caf%C3%A9');
    for (const name of ['orders/2026 q1', 'café', 'a+b%c', 'system.js']) expect(queryUnescape(queryEscape(name))).to.equal(name);
    expect(queryUnescape('bad%zz')).to.equal(undefined);
  });

  it('cuts a name whose escaped form passes 238 bytes and appends %24 and its SHA-1', () => {
    const name = 'é'.repeat(100);
    const base = collectionFileBase(name);
    expect(base).to.equal(`${queryEscape(name).slice(0, 208)}%24${createHash('sha1').update(name).digest('base64url')}`);
    expect(base.length).to.equal(238);
  });

  it('writes metadata in canonical Extended JSON with mongodump’s keys, leaving out empty options', () => {
    const text = metadataJson({
      options: {},
      indexes: [{ v: new BSON.Int32(2), key: { _id: new BSON.Int32(1) }, name: '_id_' }],
      uuid: 'ab'.repeat(16),
      collectionName: 'messages',
      type: 'collection',
    });
    expect(text).to.equal(
      `{"indexes":[{"v":{"$numberInt":"2"},"key":{"_id":{"$numberInt":"1"}},"name":"_id_"}],"uuid":"${'ab'.repeat(16)}","collectionName":"messages","type":"collection"}`,
    );
    expect(parseMetadata(text, 'm.json').indexes[0].v).to.deep.equal(new BSON.Int32(2));
    expect(() => parseMetadata('[1]', 'm.json')).to.throw('m.json is not a metadata document');
  });

  it('reads documents back to back whatever the chunk boundaries', async () => {
    const docs = [{ _id: 1, text: 'a'.repeat(300) }, { _id: 2 }, { _id: 3, nested: { list: [1, 2, 3] } }];
    const bytes = Buffer.concat(docs.map((d) => BSON.serialize(d)));
    expect(await all([bytes])).to.deep.equal(docs);
    expect(await all([...bytes].map((b) => Buffer.from([b])))).to.deep.equal(docs);
    expect(await all([bytes.subarray(0, 7), bytes.subarray(7, 320), bytes.subarray(320)])).to.deep.equal(docs);
    expect(await all([])).to.deep.equal([]);
  });

  it('names the byte where a file stops making sense', async () => {
    const one = Buffer.from(BSON.serialize({ _id: 1 }));
    const bad = Buffer.from(one);
    bad.writeInt32LE(2, 0);
    await all([one, bad]).then(
      () => expect.fail('no error'),
      (err: Error) => expect(err.message).to.equal(`x.bson: no BSON document at byte ${one.length} (size 2)`),
    );
    await all([one, one.subarray(0, 6)]).then(
      () => expect.fail('no error'),
      (err: Error) => expect(err.message).to.equal(`x.bson: ends inside a BSON document at byte ${one.length}`),
    );
  });
});
