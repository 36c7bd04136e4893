import { expect } from 'chai';
import { Types } from 'mongoose';
import { AutoSendReplies, type SavedRepliesChanged } from '../../server/commands/autoSendReplies';
import { useStore } from './helpers';

describe('autoSendReplies', () => {
  const store = useStore();

  it("answers a widget's automatic replies with trigger phrases (oldest first), each matching whole phrases only", async () => {
    const ceId = new Types.ObjectId();
    const accountId = new Types.ObjectId();
    await store.models.SavedReply.create([
      { accountId, ceId, label: 'Price', response: 'From 9 €', shortcut: 'p', autoSend: true, triggerPhrases: 'price, how much' },
      { accountId, ceId, label: 'Manual', response: 'x', shortcut: 'm', autoSend: false, triggerPhrases: 'price' },
      { accountId, ceId, label: 'No phrases', response: 'x', shortcut: 'n', autoSend: true, triggerPhrases: '' },
      { accountId, ceId, label: 'Hours', response: '9 to 5', shortcut: 'h', autoSend: true, triggerPhrases: 'opening hours' },
    ]);
    const replies = await new AutoSendReplies({ models: store.models, peers: { signal: () => undefined } }).of(ceId);
    expect(replies.map((r) => r.label)).to.deep.equal(['Price', 'Hours']);
    expect(replies[0]?.matches('What is the PRICE?')).to.equal(true);
    expect(replies[0]?.matches('prices are high')).to.equal(false);
    expect(replies[1]?.matches('your opening hours please')).to.equal(true);
  });

  it('keeps them in memory until they change here (other processes are signalled) or there', async () => {
    const ceId = new Types.ObjectId();
    const accountId = new Types.ObjectId();
    const signals: SavedRepliesChanged[] = [];
    const cache = new AutoSendReplies({ models: store.models, peers: { signal: (s) => signals.push(s) } });
    const add = (label: string) =>
      store.models.SavedReply.create({ accountId, ceId, label, response: 'r', shortcut: label, autoSend: true, triggerPhrases: label });
    await add('one');
    expect((await cache.of(ceId)).map((r) => r.label)).to.deep.equal(['one']);
    await add('two');
    expect((await cache.of(ceId)).map((r) => r.label)).to.deep.equal(['one']);
    cache.changed(ceId);
    expect(signals).to.deep.equal([{ kind: 'savedReplies', ceId: String(ceId) }]);
    expect((await cache.of(ceId)).map((r) => r.label)).to.deep.equal(['one', 'two']);
    await add('three');
    cache.forget(ceId);
    expect((await cache.of(ceId)).map((r) => r.label)).to.deep.equal(['one', 'two', 'three']);
    expect(signals).to.have.length(1);
  });
});
