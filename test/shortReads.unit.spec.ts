/** Reads kept for a short while per owner: shared while young, read again once old or dropped, never kept failed. */
import { expect } from 'chai';
import { shortReads } from '../server/shortReads';

describe('shortReads', () => {
  const counting = () => {
    let reads = 0;
    return {
      read: (value: string) => () => {
        reads += 1;
        return Promise.resolve(value);
      },
      get reads() {
        return reads;
      },
    };
  };

  it('answers a young read without reading again, and reads again once it is older than the time kept', async () => {
    const cache = shortReads<object, string>(40);
    const owner = {};
    const db = counting();
    expect(await cache.get(owner, 'a', db.read('one'))).to.equal('one');
    expect(await cache.get(owner, 'a', db.read('two'))).to.equal('one');
    expect(db.reads).to.equal(1);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await cache.get(owner, 'a', db.read('three'))).to.equal('three');
    expect(db.reads).to.equal(2);
  });

  it('reads again after a write dropped the key, or every key a rule accepts', async () => {
    const cache = shortReads<object, string>(60_000);
    const owner = {};
    const db = counting();
    await cache.get(owner, 'acct1:started', db.read('x'));
    await cache.get(owner, 'acct1:message', db.read('x'));
    await cache.get(owner, 'acct2:started', db.read('x'));
    cache.drop(owner, (key) => key.startsWith('acct1:'));
    await cache.get(owner, 'acct1:started', db.read('y'));
    await cache.get(owner, 'acct1:message', db.read('y'));
    await cache.get(owner, 'acct2:started', db.read('y'));
    expect(db.reads).to.equal(5);
    cache.drop(owner, 'acct2:started');
    expect(await cache.get(owner, 'acct2:started', db.read('z'))).to.equal('z');
  });

  it("keeps each owner's entries apart (two servers' databases in one process)", async () => {
    const cache = shortReads<object, string>(60_000);
    const [first, second] = [{}, {}];
    await cache.get(first, 'k', () => Promise.resolve('first'));
    expect(await cache.get(second, 'k', () => Promise.resolve('second'))).to.equal('second');
    cache.drop(second, 'k');
    expect(await cache.get(first, 'k', () => Promise.resolve('again'))).to.equal('first');
  });

  it('does not keep a failed read: the next ask reads again', async () => {
    const cache = shortReads<object, string>(60_000);
    const owner = {};
    const failed = cache.get(owner, 'k', () => Promise.reject(new Error('database away')));
    await failed.catch(() => undefined);
    expect(await cache.get(owner, 'k', () => Promise.resolve('back'))).to.equal('back');
  });
});
