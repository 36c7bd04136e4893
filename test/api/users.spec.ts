import { expect } from 'chai';
import { Types } from 'mongoose';
import request from 'supertest';
import type { ChatEndpointWithStats, CurrentUser } from '../../server/shared';
import { NEVER_SIGNED_IN, TERMS_VERSION } from '../../server/shared';
import { buildConfiguredWidget, createUserInDb, createWidgetInDb, signUpUser } from '../factories';
import { useServer } from '../helpers/app';

describe('the signed-in user (/v1/users/...)', () => {
  const server = useServer();

  const get = (path: string, token: string) => request(server.url).get(path).set('Authorization', `Bearer ${token}`);
  const post = (path: string, token: string) => request(server.url).post(path).set('Authorization', `Bearer ${token}`);

  describe('GET /users/current', () => {
    it('answers the user with the account, its plan, the plan catalog and the widgets', async () => {
      const { token, email } = await signUpUser(server);
      const me: CurrentUser = (await get('/v1/users/current', token).expect(200)).body;
      expect(me).to.have.keys('Id', 'email', 'admin', 'accountId', 'ActiveTOSPP', 'showNPSRating', 'lastSignedInAt', 'account', 'ces');
      expect(me.email).to.equal(email);
      expect(me.accountId).to.equal(me.account.Id);
      expect(me.account.apiKey, 'no key until an admin generates one').to.equal('');
      const labels = me.account.availablePlans.map((p) => `${p.label}/${p.duration}`);
      expect(labels).to.deep.equal([
        'Basic/monthly',
        'Pro/monthly',
        'Business/monthly',
        'Custom/monthly',
        'Basic/yearly',
        'Pro/yearly',
        'Business/yearly',
        'Custom/yearly',
      ]);
      expect(me.ces[0]).to.include({ onlineTitle: 'Questions? Chat with us!', widgetAlignment: 'bottomRight', status: 'offline' });
    });

    it('hides the API keys from users who are not admins', async () => {
      const { token } = await createUserInDb(server, { admin: false });
      const me: CurrentUser = (await get('/v1/users/current', token).expect(200)).body;
      expect(me.admin).to.equal(false);
      expect(me.account.apiKey).to.equal('');
      expect(me.account.zapierApiKey).to.equal('');
    });

    it("shows a never-signed-in user's lastSignedInAt as the '0000' date", async () => {
      const { token } = await createUserInDb(server, { lastSignedInAt: null });
      const me: CurrentUser = (await get('/v1/users/current', token).expect(200)).body;
      expect(me.lastSignedInAt).to.equal(NEVER_SIGNED_IN);
      expect(me.lastSignedInAt.startsWith('0000')).to.equal(true);
    });
  });

  describe('POST /users/legal_confirmation/{document}/{version}', () => {
    it('sets ActiveTOSPP when the terms are accepted at the current version', async () => {
      const { token } = await signUpUser(server);
      const res = await post(`/v1/users/legal_confirmation/terms/${TERMS_VERSION}`, token).expect(200);
      expect(res.body.ActiveTOSPP).to.equal(TERMS_VERSION);
      const me = await get('/v1/users/current', token).expect(200);
      expect(me.body.ActiveTOSPP).to.equal(TERMS_VERSION);
    });

    it('records the privacy policy without touching ActiveTOSPP', async () => {
      const { token, email } = await signUpUser(server);
      const res = await post(`/v1/users/legal_confirmation/privacy-policy/${TERMS_VERSION}`, token).expect(200);
      expect(res.body.ActiveTOSPP).to.equal('');
      const stored = await server.models.User.findOne({ email }).lean();
      expect(stored?.privacyPolicyVersion).to.equal(TERMS_VERSION);
    });

    it('answers 400 with a Message for an unknown document, and records nothing', async () => {
      const { token, email } = await signUpUser(server);
      const res = await post(`/v1/users/legal_confirmation/cookies/${TERMS_VERSION}`, token).expect(400);
      expect(res.body.Message).to.contain('Unknown document');
      const stored = await server.models.User.findOne({ email }).lean();
      expect(stored?.ActiveTOSPP).to.equal('');
    });

    it('answers 400 with a Message for another version of the terms, and records nothing', async () => {
      const { token, email } = await signUpUser(server);
      const res = await post('/v1/users/legal_confirmation/terms/01JAN2019', token).expect(400);
      expect(res.body.Message).to.contain('01JAN2019');
      const stored = await server.models.User.findOne({ email }).lean();
      expect(stored?.ActiveTOSPP).to.equal('');
    });
  });

  describe('GET /users/rate/{value}', () => {
    it('shows the prompt to a user of two weeks, and hides it once a rating is saved', async () => {
      const { token, user } = await createUserInDb(server, { createdAt: new Date(Date.now() - 20 * 86_400_000) });
      expect((await get('/v1/users/current', token).expect(200)).body.showNPSRating).to.equal(true);
      const res = await get('/v1/users/rate/9', token).expect(200);
      expect(res.body.showNPSRating).to.equal(false);
      const stored = await server.models.User.findById(user._id).lean();
      expect(stored?.npsRating).to.equal(9);
    });

    it('records -1 when the prompt is dismissed, and hides it', async () => {
      const { token, user } = await createUserInDb(server, { createdAt: new Date(Date.now() - 20 * 86_400_000) });
      const res = await get('/v1/users/rate/-1', token).expect(200);
      expect(res.body.showNPSRating).to.equal(false);
      expect((await server.models.User.findById(user._id).lean())?.npsRating).to.equal(-1);
    });

    it('accepts both ends of the scale, 0 and 10', async () => {
      const { token } = await signUpUser(server);
      await get('/v1/users/rate/0', token).expect(200);
      await get('/v1/users/rate/10', token).expect(200);
    });

    for (const bad of ['11', '-2', '5.5', 'abc', '1e1', '%20', '007', '07', '-0', '+5']) {
      it(`answers 400 with a Message for the value ${JSON.stringify(bad)} and saves nothing`, async () => {
        const { token, user } = await createUserInDb(server);
        const res = await get(`/v1/users/rate/${bad}`, token);
        expect(res.status).to.equal(400);
        expect(res.body.Message).to.be.a('string').and.not.empty;
        expect((await server.models.User.findById(user._id).lean())?.npsRating).to.equal(null);
      });
    }
  });

  describe('GET /users/current/chat_endpoints', () => {
    it("lists the widgets of the caller's account with zeroed statistics over 30 days", async () => {
      const { token } = await signUpUser(server);
      const list: ChatEndpointWithStats[] = (await get('/v1/users/current/chat_endpoints', token).expect(200)).body;
      expect(list).to.have.length(1);
      expect(list[0]?.Id).to.match(/^[0-9a-f]{24}$/);
      expect(list[0]?.chatStats).to.include({ last24h: 0, total: 0, avg30d: 0 });
      expect(list[0]?.chatStats.dailyCounts30d).to.have.length(30);
      expect(list[0]?.chatStats.dailyCounts30d.every((d) => d.chats === 0)).to.equal(true);
    });

    it('counts the conversations of each widget', async () => {
      const { token, user } = await createUserInDb(server);
      const [ce] = await server.models.ChatEndpoint.find({ accountId: user.accountId });
      const now = Date.now();
      const daysAgo = [1 / 1440, 3, 90];
      await server.models.Conversation.insertMany(
        daysAgo.map((days, i) => ({
          accountId: user.accountId,
          ceId: ce?._id,
          number: i + 1,
          visitorId: new Types.ObjectId(),
          startedAt: new Date(now - days * 86_400_000),
        })),
      );
      const [listed]: ChatEndpointWithStats[] = (await get('/v1/users/current/chat_endpoints', token).expect(200)).body;
      expect(listed?.chatStats).to.include({ last24h: 1, total: 3, avg30d: 0.1 });
      expect(listed?.chatStats.dailyCounts30d.at(-1)?.chats).to.equal(1);
    });

    it("never lists another account's widgets", async () => {
      const mine = await signUpUser(server);
      const theirs = await signUpUser(server);
      const theirList: ChatEndpointWithStats[] = (await get('/v1/users/current/chat_endpoints', theirs.token).expect(200)).body;
      const myList: ChatEndpointWithStats[] = (await get('/v1/users/current/chat_endpoints', mine.token).expect(200)).body;
      expect(myList.map((ce) => ce.Id)).to.not.include(theirList[0]?.Id);
      const me: CurrentUser = (await get('/v1/users/current', mine.token).expect(200)).body;
      expect(me.ces.map((ce) => ce.Id)).to.deep.equal(myList.map((ce) => ce.Id));
    });

    it('lists every widget of the account in creation order, configured or not', async () => {
      const { token, user } = await createUserInDb(server);
      const configured = await createWidgetInDb(server, user, buildConfiguredWidget({ RoomName: 'sales' }));
      const list: ChatEndpointWithStats[] = (await get('/v1/users/current/chat_endpoints', token).expect(200)).body;
      expect(list.map((ce) => ce.Step)).to.deep.equal([1, 3]);
      expect(list[1]).to.include({ Id: configured.id as string, RoomName: 'sales' });
      expect(list[0]!.Id < list[1]!.Id).to.equal(true);
    });

    it('shows users of one account the same widgets', async () => {
      const owner = await createUserInDb(server);
      const colleague = await createUserInDb(server, { admin: false, account: owner.account });
      const ownerList: ChatEndpointWithStats[] = (await get('/v1/users/current/chat_endpoints', owner.token).expect(200)).body;
      const colleagueList: ChatEndpointWithStats[] = (await get('/v1/users/current/chat_endpoints', colleague.token).expect(200)).body;
      expect(colleagueList.map((ce) => ce.Id)).to.deep.equal(ownerList.map((ce) => ce.Id));
    });
  });
});
