import { expect } from 'chai';
import request from 'supertest';
import { payingOn, signUpUser } from '../factories';
import { useServer } from '../helpers/app';
import { firstWidgetId } from '../slack/helpers';

describe('saved replies API', () => {
  let token: string;
  let ceId: string;
  const server = useServer();
  beforeEach(async () => {
    ({ token } = await signUpUser(server));
    ceId = await firstWidgetId(server, token);
  });

  const path = (id = ceId) => `/v1/chat_endpoints/${id}/saved_replies`;
  const as = (t: string | undefined, req: request.Test) => (t ? req.set('Authorization', `Bearer ${t}`) : req);
  const list = async () => (await as(token, request(server.url).get(path())).expect(200)).body.replies as Record<string, unknown>[];
  const save = (body: Record<string, unknown>, status = 200) => as(token, request(server.url).post(path())).send(body).expect(status);

  it('creates, lists, updates and deletes a reply, keeping the response as typed', async () => {
    const created = await save({
      label: 'Pricing',
      triggerPhrases: 'price, how much',
      response: 'Plans start at 29 € — see <a href="https://x.example/p">pricing</a> & "more"',
      shortcut: 'price',
      autoSend: true,
    });
    expect(created.body).to.include({ label: 'Pricing', shortcut: 'price', autoSend: true, chatEndpointId: ceId });
    expect(created.body.id).to.equal(created.body.Id);
    let replies = await list();
    expect(replies).to.have.length(1);
    expect(replies[0]?.response).to.equal('Plans start at 29 € — see <a href="https://x.example/p">pricing</a> & "more"');
    const stored = await server.models.SavedReply.findById(created.body.id);
    expect(stored?.response).to.not.include('<a');
    expect(stored?.response).to.include('&#x');

    await save({ id: created.body.id, label: 'Prices', response: 'From 29 EUR', shortcut: 'price' });
    replies = await list();
    expect(replies).to.have.length(1);
    expect(replies[0]).to.include({ label: 'Prices', response: 'From 29 EUR', autoSend: false });

    await as(token, request(server.url).delete(`${path()}/${String(created.body.id)}`)).expect(200);
    expect(await list()).to.deep.equal([]);
  });

  it('shows numeric entities stored by older clients as characters', async () => {
    const created = await save({ label: 'Quote', response: 'x' });
    await server.models.SavedReply.updateOne({ _id: created.body.id }, { $set: { response: 'Don&#39;t worry &#8212; we&#x27;re here' } });
    expect((await list())[0]?.response).to.equal("Don't worry — we're here");
  });

  it('answers 400 with a Message when the label or the response is missing', async () => {
    const noLabel = await save({ label: '  ', response: 'Hi' }, 400);
    expect(noLabel.body.Message).to.equal('label: Required.');
    const noResponse = await save({ label: 'Hi' }, 400);
    expect(noResponse.body.Message).to.equal('response: Required.');
    expect(noResponse.body.Error).to.be.a('string');
    expect(await list()).to.deep.equal([]);
  });

  it('answers 400 when the shortcut is already used by another reply of the widget', async () => {
    await save({ label: 'One', response: 'one', shortcut: 'hi' });
    const taken = await save({ label: 'Two', response: 'two', shortcut: 'hi' }, 400);
    expect(taken.body.Message).to.match(/already uses that shortcut/);
    expect(await list()).to.have.length(1);
  });

  it('answers 400 on garbage bodies', async () => {
    await save({ label: 'x', response: 'y', autoSend: 'yes' }, 400);
    await save({ label: 'x', response: 'y', shortcut: 'two words' }, 400);
    const res = await as(token, request(server.url).post(path())).set('content-type', 'application/json').send('[1,2]').expect(400);
    expect(res.body.Message).to.be.a('string');
  });

  it('answers 403 without a session', async () => {
    await request(server.url).get(path()).expect(403);
    await request(server.url).post(path()).send({ label: 'a', response: 'b' }).expect(403);
  });

  it("answers 404 for another account's widget and replies", async () => {
    const other = await signUpUser(server);
    const created = await save({ label: 'Mine', response: 'mine' });
    await as(other.token, request(server.url).get(path())).expect(404);
    await as(other.token, request(server.url).post(path())).send({ label: 'x', response: 'y' }).expect(404);
    const otherCe = await firstWidgetId(server, other.token);
    await as(other.token, request(server.url).post(path(otherCe)))
      .send({ id: created.body.id, label: 'stolen', response: 'y' })
      .expect(404);
    await as(other.token, request(server.url).delete(`${path(otherCe)}/${String(created.body.id)}`)).expect(404);
    expect((await list())[0]).to.include({ label: 'Mine' });
  });

  it('answers 402 with Error plan_feature when the plan has no saved replies', async () => {
    await server.models.Plan.updateOne(
      { stripeId: 'test_no_saved_replies' },
      {
        $set: {
          label: 'No replies',
          duration: 'monthly',
          maxOperators: 1,
          maxChannels: 1,
          convosPerMonth: 10,
          rank: 99,
          savedReplies: false,
        },
      },
      { upsert: true },
    );
    await payingOn(server, 'test_no_saved_replies', { ceId });
    const res = await as(token, request(server.url).get(path())).expect(402);
    expect(res.body).to.deep.equal({ Message: 'Your plan does not have access to saved replies. Please upgrade.', Error: 'plan_feature' });
  });
});
