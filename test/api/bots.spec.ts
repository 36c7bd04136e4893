import { expect } from 'chai';
import request from 'supertest';
import { payingOn, signUpUser } from '../factories';
import { useServer } from '../helpers/app';
import { ACME, ALICE, firstWidgetId, setUpWidget } from '../slack/helpers';

const HELPER_BOT = 'U0HELPER01';

describe('bots and users API', () => {
  let token: string;
  let ceId: string;
  const server = useServer();
  beforeEach(async () => {
    ({ token } = await signUpUser(server));
    ceId = await firstWidgetId(server, token);
    await setUpWidget(server, token, ceId);
    await payingOn(server, 'parley_pro_monthly', { ceId });
  });

  const base = (id = ceId) => `/v1/chat_endpoints/${id}`;
  const as = (t: string | undefined, req: request.Test) => (t ? req.set('Authorization', `Bearer ${t}`) : req);
  const get = (path: string, status = 200, t: string | null = token) =>
    as(t ?? undefined, request(server.url).get(`${base()}/${path}`)).expect(status);
  const add = (body: Record<string, unknown>, status = 200) =>
    as(token, request(server.url).post(`${base()}/bot`))
      .send(body)
      .expect(status);
  const remove = (body: Record<string, unknown>, status = 200) =>
    as(token, request(server.url).delete(`${base()}/bot`))
      .send(body)
      .expect(status);

  it("lists the workspace's bots first, then people, without Slackbot and Parley itself", async () => {
    const users = (await get('users')).body as { id: string; name: string; is_bot: boolean; profile: { bot_id?: string } }[];
    expect(users[0]).to.include({ id: HELPER_BOT, name: 'helperbot', is_bot: true });
    expect(users[0]?.profile.bot_id).to.match(/^B/);
    expect(users.map((u) => u.id)).to.include(ALICE);
    const parley = server.slack.state.installation(ACME)?.botUserId;
    expect(users.map((u) => u.id)).to.not.include(parley);
    expect(users.filter((u) => u.is_bot)).to.have.length(1);
  });

  it('adds a bot and a person, lists them with names read from Slack, and removes one', async () => {
    const bot = await add({ userID: HELPER_BOT, name: 'whatever the form said', botID: '' });
    expect(bot.body).to.include({ userID: HELPER_BOT, name: 'helperbot' });
    expect(bot.body.botID).to.match(/^B/);
    await add({ userID: ALICE, name: 'alice', botID: '' });
    await add({ userID: ALICE, name: 'alice', botID: '' });
    let list = (await get('bot_users')).body as { ID: string; userID: string; botID: string }[];
    expect(list.map((b) => [b.userID, b.botID === ''])).to.deep.equal([
      [HELPER_BOT, false],
      [ALICE, true],
    ]);
    await remove({ ID: list[1]?.ID, name: 'alice' });
    list = (await get('bot_users')).body;
    expect(list.map((b) => b.userID)).to.deep.equal([HELPER_BOT]);
  });

  it('answers 400 with a Message for unknown Slack users, Parley itself and malformed bodies', async () => {
    expect((await add({ userID: 'U0NOBODY99', name: 'x' }, 400)).body.Message).to.equal('This Slack user does not exist (any more).');
    const parley = server.slack.state.installation(ACME)?.botUserId;
    expect((await add({ userID: parley, name: 'Parley' }, 400)).body.Message).to.equal('Parley is already in every conversation.');
    expect((await add({ name: 'x' }, 400)).body.Message).to.equal('userID: Required.');
    expect((await add({ userID: 'not an id' }, 400)).body.Message).to.equal('userID: Not a Slack id.');
    expect((await remove({}, 400)).body.Message).to.equal('ID: Required.');
    expect((await remove({ ID: 'zzz' }, 400)).body.Message).to.equal('ID: Not a bot user of this widget.');
    await remove({ ID: '0123456789abcdef01234567' }, 404);
    expect((await get('bot_users')).body).to.deep.equal([]);
  });

  it('answers 400 with Code missing_scope when the installation lacks users:read', async () => {
    const inst = server.slack.state.installation(ACME);
    if (!inst) throw new Error('Parley is not installed in the sandbox');
    const granted = inst.botScopes;
    inst.botScopes = granted.filter((s) => s !== 'users:read');
    try {
      const res = await get('users', 400);
      expect(res.body).to.include({ Code: 'missing_scope', Error: 'missing_scope' });
      expect(res.body.Message).to.match(/users:read/);
      expect((await add({ userID: HELPER_BOT }, 400)).body.Code).to.equal('missing_scope');
    } finally {
      inst.botScopes = granted;
    }
  });

  it('answers 403 without a session', async () => {
    await get('users', 403, null);
    await get('bot_users', 403, null);
    await request(server.url).post(`${base()}/bot`).send({ userID: HELPER_BOT }).expect(403);
    await request(server.url).delete(`${base()}/bot`).send({ ID: '0123456789abcdef01234567' }).expect(403);
  });

  it("answers 404 for another account's widget and bot users", async () => {
    const mine = await add({ userID: HELPER_BOT });
    const other = await signUpUser(server);
    await get('users', 404, other.token);
    await get('bot_users', 404, other.token);
    await as(other.token, request(server.url).post(`${base()}/bot`))
      .send({ userID: HELPER_BOT })
      .expect(404);
    const otherCe = await firstWidgetId(server, other.token);
    await payingOn(server, 'parley_pro_monthly', { ceId: otherCe });
    await as(other.token, request(server.url).delete(`${base(otherCe)}/bot`))
      .send({ ID: mine.body.ID })
      .expect(404);
    expect((await get('bot_users')).body).to.have.length(1);
  });

  it('answers 402 with Error plan_feature when the plan has no bots', async () => {
    const ce = await server.models.ChatEndpoint.findById(ceId);
    // After the trial subscription's own webhooks, which would say 'trialing' again.
    await server.stripe.settled();
    await server.models.Account.updateOne(
      { _id: ce?.accountId },
      { $set: { subscriptionStatus: 'active', planStripeId: 'parley_basic_monthly' } },
    );
    const res = await get('bot_users', 402);
    expect(res.body).to.deep.equal({ Message: 'Your plan does not have access to bots. Please upgrade.', Error: 'plan_feature' });
    await get('users', 402);
    await add({ userID: HELPER_BOT }, 402);
  });
});
