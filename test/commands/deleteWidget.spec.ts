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

  /** An article, the synonym groups and a help-center event of a widget. */
  async function helpCenter(ce: { _id: Types.ObjectId; accountId: Types.ObjectId }) {
    const own = { accountId: ce.accountId, ceId: ce._id };
    const article = await store.models.Article.create({ ...own, title: 'Returns', slug: 'returns', body: 'Within 30 days.' });
    await store.models.AnswerSynonyms.create({ ...own, groups: ['return, refund'] });
    await store.models.AnswerEvent.create({ ...own, kind: 'view', articleId: article._id });
  }
  const helpCenterCounts = async (ceId: Types.ObjectId) => [
    await store.models.Article.countDocuments({ ceId }),
    await store.models.AnswerSynonyms.countDocuments({ ceId }),
    await store.models.AnswerEvent.countDocuments({ ceId }),
  ];

  it('deletes the widget’s articles, synonym groups and help-center events, and no other widget’s', async () => {
    const owner = { accountId: new Types.ObjectId(), userId: new Types.ObjectId() };
    const gone = await createWidget(store.models, owner);
    const kept = await createWidget(store.models, owner);
    await helpCenter(gone);
    await helpCenter(kept);
    await deleteWidget({ models: store.models, autoReplies: { changed: () => undefined } }, gone);
    expect(await helpCenterCounts(gone._id)).to.deep.equal([0, 0, 0]);
    expect(await helpCenterCounts(kept._id)).to.deep.equal([1, 1, 1]);
  });

  it("never deletes another account's widget of the same id, nor its help center", async () => {
    const owner = { accountId: new Types.ObjectId(), userId: new Types.ObjectId() };
    const widget = await createWidget(store.models, owner);
    await helpCenter(widget);
    const forged = store.models.ChatEndpoint.hydrate({ ...widget.toObject(), accountId: new Types.ObjectId() });
    await deleteWidget({ models: store.models, autoReplies: { changed: () => undefined } }, forged);
    expect(await store.models.ChatEndpoint.exists({ _id: widget._id })).to.not.equal(null);
    expect(await helpCenterCounts(widget._id)).to.deep.equal([1, 1, 1]);
  });
});
