import { expect } from 'chai';
import { Types } from 'mongoose';
import { createWidget } from '../../server/commands/createWidget';
import { deleteWidget } from '../../server/commands/deleteWidget';
import { useStore } from './helpers';

describe('deleteWidget', () => {
  const store = useStore();

  it('removes the widget, leaves its team installation and the other widgets, and stops its automatic replies', async () => {
    const owner = { accountId: new Types.ObjectId(), userId: new Types.ObjectId() };
    const gone = await createWidget(store.models, owner);
    const kept = await createWidget(store.models, owner);
    await store.models.Installation.create({ teamId: 'T0DELETE01', botToken: 'xoxb-1', installedAt: new Date() });
    const changed: string[] = [];
    await deleteWidget({ models: store.models, autoReplies: { changed: (id) => changed.push(String(id)) } }, gone);
    expect(await store.models.ChatEndpoint.exists({ _id: gone._id })).to.equal(null);
    expect(await store.models.ChatEndpoint.exists({ _id: kept._id })).to.not.equal(null);
    expect(await store.models.Installation.exists({ teamId: 'T0DELETE01' })).to.not.equal(null);
    expect(changed).to.deep.equal([String(gone._id)]);
  });

  it("never deletes another account's widget of the same id", async () => {
    const owner = { accountId: new Types.ObjectId(), userId: new Types.ObjectId() };
    const widget = await createWidget(store.models, owner);
    const forged = store.models.ChatEndpoint.hydrate({ ...widget.toObject(), accountId: new Types.ObjectId() });
    await deleteWidget({ models: store.models, autoReplies: { changed: () => undefined } }, forged);
    expect(await store.models.ChatEndpoint.exists({ _id: widget._id })).to.not.equal(null);
  });
});
