import { expect } from 'chai';
import { Types } from 'mongoose';
import { createWidget } from '../../server/commands/createWidget';
import { useStore } from './helpers';

describe('createWidget', () => {
  const store = useStore();

  it('stores a widget of the owner at setup step 1, not linked to Slack, with a widget address of its own', async () => {
    const owner = { accountId: new Types.ObjectId(), userId: new Types.ObjectId() };
    const first = await createWidget(store.models, owner);
    const second = await createWidget(store.models, owner);
    const stored = await store.models.ChatEndpoint.findById(first._id);
    expect(stored?.Step).to.equal(1);
    expect(String(stored?.accountId)).to.equal(String(owner.accountId));
    expect(String(stored?.userId)).to.equal(String(owner.userId));
    expect(stored?.RoomId ?? '').to.equal('');
    expect(first.Uuid).to.be.a('string').and.not.equal(second.Uuid);
  });
});
