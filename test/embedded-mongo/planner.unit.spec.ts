/**
 * The index planner of the embedded server, checked directly: which documents a filter makes it look at.
 * Speed itself is measured by scripts/bench/embedded-mongo.ts; this guards that indexed lookups stay lookups.
 */

import { type Document, ObjectId } from 'bson';
import { expect } from 'chai';
import { Collection } from '../../server/embedded-mongo/collection';

function collectionWith(docs: Document[]): Collection {
  const coll = new Collection('planner', 'things', {});
  coll.addIndex({ name: 'email_1', key: { email: 1 }, unique: true });
  coll.addIndex({ name: 'account_1_status_1_at_-1', key: { account: 1, status: 1, at: -1 } });
  coll.addIndex({ name: 'tags_1', key: { tags: 1 } });
  for (const doc of docs) coll.insert(doc);
  return coll;
}

const docs = Array.from({ length: 1000 }, (_, i) => ({
  _id: new ObjectId(),
  email: `user${i}@example.com`,
  account: `acct${i % 10}`,
  status: i % 2 ? 'open' : 'closed',
  at: new Date(i * 1000),
  tags: [`t${i % 4}`, 'all'],
}));

describe('embedded MongoDB index planner', () => {
  const coll = collectionWith(docs);

  it('answers an equality on a unique field from the index, exactly', () => {
    const found = coll.candidates({ email: 'user42@example.com' });
    expect(found.size).to.equal(1);
    expect(found.exact).to.equal(true);
    expect([...found.docs][0]).to.equal(docs[42]);
  });

  it('answers $in and _id lookups without scanning', () => {
    expect(coll.candidates({ email: { $in: ['user1@example.com', 'user2@example.com', 'nobody'] } }).size).to.equal(2);
    const byId = coll.candidates({ _id: docs[7]._id });
    expect(byId.size).to.equal(1);
    expect(byId.exact).to.equal(true);
  });

  it('uses the longest pinned prefix of a compound index', () => {
    const account = coll.candidates({ account: 'acct3' });
    expect(account.size).to.equal(100);
    expect(account.exact).to.equal(true);
    const accountStatus = coll.candidates({ account: 'acct3', status: 'open' });
    expect(accountStatus.size).to.equal(100);
    const none = coll.candidates({ account: 'acct3', status: 'closed' });
    expect(none.size).to.equal(0);
    const ranged = coll.candidates({ account: 'acct4', status: 'closed', at: { $gte: new Date(500_000) } });
    // The range on the field after the equality prefix narrows the candidates through the ordered view.
    expect(ranged.size).to.equal(50);
    expect(ranged.exact).to.equal(false);
    const bounded = coll.candidates({ account: 'acct4', status: 'closed', at: { $gte: new Date(500_000), $lt: new Date(600_000) } });
    expect(bounded.size).to.equal(10);
    expect(bounded.exact).to.equal(true);
  });

  it('gives an index-backed sort, reading the index backwards for the opposite direction', () => {
    const sorted = coll.candidates({ account: 'acct3', status: 'open' }, [['at', 1]], true);
    expect(sorted.ordered).to.equal(true);
    expect(sorted.direction).to.equal('backward');
    const times = [...sorted.docs].map((d) => (d.at as Date).getTime());
    expect(times).to.deep.equal([...times].sort((a, b) => a - b));
    expect(times).to.have.length(100);
  });

  it('finds array elements through a multikey index', () => {
    expect(coll.candidates({ tags: 't1' }).size).to.equal(250);
    expect(coll.candidates({ tags: 'all' }).size).to.equal(1000);
  });

  it('answers the history search (equality prefix, then one word of a multikey field, more words in $and) from the index', () => {
    const search = collectionWith(docs);
    search.addIndex({ name: 'account_1_status_1_tags_1_at_-1', key: { account: 1, status: 1, tags: 1, at: -1 } });
    const found = search.candidates({ account: 'acct1', status: 'open', $and: [{ tags: 't1' }, { tags: 'all' }] });
    expect(found.index?.name).to.equal('account_1_status_1_tags_1_at_-1');
    // acct1 holds i ≡ 1 (mod 10), all odd (open); t1 is i ≡ 1 (mod 4): i ≡ 1 (mod 20), 50 documents.
    expect(found.size).to.equal(50);
    expect(found.exact).to.equal(false);
  });

  it('keeps a multikey index in step when an array gains and loses elements, by the elements that changed', () => {
    const local = new Collection('planner', 'words', {});
    local.addIndex({ name: 'g_1_words_1_at_-1', key: { g: 1, words: 1, at: -1 } });
    const doc = { _id: 'a', g: 1, words: ['x', 'y'], at: new Date(1) };
    local.insert(doc);
    local.insert({ _id: 'b', g: 1, words: ['y'], at: new Date(2) });
    const grown = { ...doc, words: ['x', 'y', 'z', 'z'] };
    local.replace(doc, grown);
    const ids = (filter: Document) => [...local.candidates(filter).docs].map((d) => d._id).sort();
    expect(ids({ g: 1, words: 'z' })).to.deep.equal(['a']);
    expect(ids({ g: 1, words: 'y' })).to.deep.equal(['a', 'b']);
    const shrunk = { ...grown, words: ['z'] };
    local.replace(grown, shrunk);
    expect(ids({ g: 1, words: 'x' })).to.deep.equal([]);
    expect(ids({ g: 1, words: 'y' })).to.deep.equal(['b']);
    expect(ids({ g: 1, words: 'z' })).to.deep.equal(['a']);
    expect(ids({ g: 1 })).to.deep.equal(['a', 'b']);
    // A change of another field of the index moves every key of the document.
    local.replace(shrunk, { ...shrunk, g: 2, words: ['z', 'w'] });
    expect(ids({ g: 1, words: 'z' })).to.deep.equal([]);
    expect(ids({ g: 2, words: 'w' })).to.deep.equal(['a']);
    expect(ids({ g: 1 })).to.deep.equal(['b']);
  });

  it('scans, and re-checks every document, when no index covers the filter', () => {
    const scan = coll.candidates({ name: 'x' });
    expect(scan.size).to.equal(1000);
    expect(scan.exact).to.equal(false);
  });

  it('keeps the index in step with updates and deletes', () => {
    const local = collectionWith(docs.slice(0, 20));
    const doc = local.getById(docs[5]._id)!;
    local.replace(doc, { ...doc, email: 'changed@example.com', account: 'moved' });
    expect(local.candidates({ email: 'user5@example.com' }).size).to.equal(0);
    expect(local.candidates({ email: 'changed@example.com' }).size).to.equal(1);
    expect(local.candidates({ account: 'moved' }).size).to.equal(1);
    local.remove(local.getById(docs[5]._id)!);
    expect(local.candidates({ account: 'moved' }).size).to.equal(0);
    expect(() => local.insert({ _id: 'dup', email: 'user6@example.com' })).to.throw(/E11000 duplicate key error/);
  });
});
