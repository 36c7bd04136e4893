import { expect } from 'chai';
import { Types } from 'mongoose';
import { createArticleSearch } from '../../server/answers/search';
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
    await deleteWidget(
      { models: store.models, autoReplies: { changed: (id) => changed.push(String(id)) }, articleSearch: { changed: () => undefined } },
      gone,
    );
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
    await deleteWidget(
      { models: store.models, autoReplies: { changed: () => undefined }, articleSearch: { changed: () => undefined } },
      gone,
    );
    expect(await helpCenterCounts(gone._id)).to.deep.equal([0, 0, 0]);
    expect(await helpCenterCounts(kept._id)).to.deep.equal([1, 1, 1]);
  });

  it('clears from the account’s question groups the tags only the deleted widget listed', async () => {
    const owner = { accountId: new Types.ObjectId(), userId: new Types.ObjectId() };
    const gone = await createWidget(store.models, owner);
    const kept = await createWidget(store.models, owner);
    await store.models.ChatEndpoint.updateOne({ _id: gone._id }, { $set: { tags: ['billing', 'refund'] } });
    await store.models.ChatEndpoint.updateOne({ _id: kept._id }, { $set: { tags: ['billing'] } });
    const group = (uid: string, tag: string) => store.models.QuestionGroup.create({ accountId: owner.accountId, uid, label: uid, tag });
    await Promise.all([group('qgBilling01', 'billing'), group('qgRefund01', 'refund')]);
    await deleteWidget(
      { models: store.models, autoReplies: { changed: () => undefined }, articleSearch: { changed: () => undefined } },
      gone,
    );
    const tags = await store.models.QuestionGroup.find({ accountId: owner.accountId }).sort({ uid: 1 }).lean();
    expect(tags.map((g) => [g.uid, g.tag])).to.deep.equal([
      ['qgBilling01', 'billing'],
      ['qgRefund01', ''],
    ]);
  });

  it("never deletes another account's widget of the same id, nor its help center", async () => {
    const owner = { accountId: new Types.ObjectId(), userId: new Types.ObjectId() };
    const widget = await createWidget(store.models, owner);
    await helpCenter(widget);
    const forged = store.models.ChatEndpoint.hydrate({ ...widget.toObject(), accountId: new Types.ObjectId() });
    await deleteWidget(
      { models: store.models, autoReplies: { changed: () => undefined }, articleSearch: { changed: () => undefined } },
      forged,
    );
    expect(await store.models.ChatEndpoint.exists({ _id: widget._id })).to.not.equal(null);
    expect(await helpCenterCounts(widget._id)).to.deep.equal([1, 1, 1]);
  });

  it('makes the widget’s articles unsearchable at once: the help center search forgets them, not only when its index is evicted', async () => {
    const owner = { accountId: new Types.ObjectId(), userId: new Types.ObjectId() };
    const gone = await createWidget(store.models, owner);
    await store.models.Article.create({
      accountId: gone.accountId,
      ceId: gone._id,
      title: 'Returning a parcel',
      slug: 'returning-a-parcel',
      body: 'Parcels can be returned within 30 days with the label in the box.',
      published: true,
    });
    // A long freshness window: what the search sees after the delete is what deleteWidget told it, not a re-read.
    const articleSearch = createArticleSearch({ models: store.models, baseUrl: 'https://parley.test', freshnessMs: 60_000 });
    const widget = { _id: gone._id, Uuid: gone.Uuid };
    expect((await articleSearch.search(widget, 'return a parcel', 'en')).map((h) => h.title)).to.deep.equal(['Returning a parcel']);
    await deleteWidget({ models: store.models, autoReplies: { changed: () => undefined }, articleSearch }, gone);
    expect(await articleSearch.search(widget, 'return a parcel', 'en')).to.deep.equal([]);
  });
});
