/**
 * The tag a question group or an article gives the conversations it answers, through the console's API: saved from
 * the widgets' lists (a group's from any widget of the account, an article's from its own widget), refused with a
 * Message otherwise, and cleared when the lists drop it.
 */
import { expect } from 'chai';
import request from 'supertest';
import { payingOn, signUpUser } from '../factories';
import { useServer } from '../helpers/app';
import { firstWidgetId } from '../slack/helpers';

describe('question group and article tags (API)', () => {
  let token: string;
  let ceId: string;
  const server = useServer();
  beforeEach(async () => {
    ({ token } = await signUpUser(server));
    ceId = await firstWidgetId(server, token);
    await payingOn(server, 'parley_business_monthly', { ceId });
  });

  const as = (req: request.Test, t: string | undefined = token) => (t ? req.set('Authorization', `Bearer ${t}`) : req);
  const setTags = (tags: string[], id = ceId) =>
    as(request(server.url).put(`/v1/chat_endpoints/${id}/update_config`))
      .send({ tags })
      .expect(200);
  const tree = JSON.stringify([
    { text: 'Sales or support?', isQ: true, children: [{ text: 'Sales', isQ: false, action: '', children: [] }] },
  ]);
  const saveGroup = (body: Record<string, unknown>, status = 200, t = token) =>
    as(request(server.url).post(`/v1/chat_endpoints/${ceId}/question_groups`), t)
      .send({ label: 'Triage', shortcut: '', prompt: '', auto: false, treeJson: tree, ...body })
      .expect(status);
  const saveArticle = (body: Record<string, unknown>, status = 201) =>
    as(request(server.url).post(`/v1/chat_endpoints/${ceId}/articles`))
      .send({ title: 'Refunds', body: 'Within 30 days.', ...body })
      .expect(status);

  it('saves a question group’s and an article’s tag as the lists keep it, and lists them', async () => {
    await setTags(['billing', 'refund']);
    const group = await saveGroup({ tag: ' #Billing ' });
    expect(group.body.tag).to.equal('billing');
    const groups = (await as(request(server.url).get(`/v1/chat_endpoints/${ceId}/question_groups`)).expect(200)).body.groups;
    expect(groups.map((g: { tag: string }) => g.tag)).to.deep.equal(['billing']);
    // Without a tag: none ('' is how none is kept).
    expect((await saveGroup({ uid: group.body.uid })).body.tag).to.equal('');

    const article = await saveArticle({ tag: 'REFUND' });
    expect(article.body.tag).to.equal('refund');
    const read = await as(request(server.url).get(`/v1/chat_endpoints/${ceId}/articles/${article.body.id}`)).expect(200);
    expect(read.body.tag).to.equal('refund');
    const cleared = await as(request(server.url).put(`/v1/chat_endpoints/${ceId}/articles/${article.body.id}`))
      .send({ title: 'Refunds', body: 'Within 30 days.', tag: '' })
      .expect(200);
    expect(cleared.body.tag).to.equal('');
  });

  it('answers 400 with a Message for a tag no list has, or that is not one tag', async () => {
    await setTags(['billing']);
    expect((await saveGroup({ tag: 'refund' }, 400)).body.Message).to.equal(
      'tag: “refund” is not a tag of any of your widgets: add it in Settings → Behavior → Tags first.',
    );
    expect((await saveGroup({ tag: 'two words' }, 400)).body.Message).to.match(/^tag: “two words” is not one word/);
    expect((await saveGroup({ tag: ['billing'] }, 400)).body.Message).to.match(/^tag: One tag, or empty for none/);
    expect((await saveArticle({ tag: 'refund' }, 400)).body.Message).to.equal(
      "tag: “refund” is not one of this widget's tags: add it in Settings → Behavior → Tags first.",
    );
    expect((await saveArticle({ tag: 42 }, 400)).body.Message).to.match(/^tag: One tag, or empty for none/);
    expect(await server.models.Article.countDocuments({ ceId })).to.equal(0);
  });

  it('clears the tag from the settings when the lists drop it: an article with its widget, a group with the last widget', async () => {
    await setTags(['billing', 'refund']);
    // A second widget of the account lists billing too.
    const ce = await server.models.ChatEndpoint.findById(ceId).lean();
    const second = await server.models.ChatEndpoint.create({
      ...ce,
      _id: undefined,
      Uuid: 'second-widget',
      RoomName: 'sales',
      tags: ['billing'],
    });
    const billingGroup = (await saveGroup({ tag: 'billing' })).body.uid as string;
    const refundGroup = (await saveGroup({ label: 'Money', tag: 'refund' })).body.uid as string;
    const article = (await saveArticle({ tag: 'billing' })).body.id as string;

    await setTags(['refund']);
    const tagOf = async (uid: string) => (await server.models.QuestionGroup.findOne({ uid }))?.tag;
    // The article's widget dropped billing; the group keeps it while the second widget lists it.
    expect((await server.models.Article.findById(article))?.tag).to.equal('');
    expect([await tagOf(billingGroup), await tagOf(refundGroup)]).to.deep.equal(['billing', 'refund']);

    await setTags([], String(second._id));
    await setTags([]);
    expect([await tagOf(billingGroup), await tagOf(refundGroup)]).to.deep.equal(['', '']);
  });

  it('keeps another account’s groups and articles out, and answers 403 without a session', async () => {
    await setTags(['billing']);
    const other = (await signUpUser(server)).token;
    await saveGroup({ tag: 'billing' }, 404, other);
    await saveGroup({ tag: 'billing' }, 403, '');
  });
});
