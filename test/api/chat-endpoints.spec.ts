import { expect } from 'chai';
import request from 'supertest';
import { signUpUser } from '../factories';
import { startTestServer, useServer } from '../helpers/app';
import { ACME, ALICE, firstWidgetId, GENERAL, installWidget, RANDOM, SUPPORT, setUpWidget } from '../slack/helpers';

describe('widget setup API (/v1/chat_endpoints)', () => {
  // Every user here installs into the sandbox's one sample workspace and creates channels in it, some 40 within a
  // minute: far past conversations.create's Tier 2 for one workspace, which real customers (each in their own) never
  // share. This spec is about the setup API's answers, so Slack's pacing is lifted for it.
  const server = useServer({}, (overrides) => startTestServer(overrides, { slackRateLimits: false }));

  const api = (token?: string) => {
    const agent = request(server.url);
    const auth = <T extends request.Test>(t: T) => (token ? t.set('Authorization', `Bearer ${token}`) : t);
    return {
      get: (p: string) => auth(agent.get(`/v1${p}`)),
      post: (p: string) => auth(agent.post(`/v1${p}`)),
      put: (p: string) => auth(agent.put(`/v1${p}`)),
      delete: (p: string) => auth(agent.delete(`/v1${p}`)),
    };
  };
  const widget = async (id: string) => {
    const ce = await server.models.ChatEndpoint.findById(id);
    if (!ce) throw new Error('widget gone');
    return ce;
  };
  /** A signed-up user with their first widget, at the step asked for. */
  const userWithWidget = async (step: 1 | 2 | 3 = 1) => {
    const user = await signUpUser(server);
    const ceId = await firstWidgetId(server, user.token);
    let channel = '';
    if (step === 2) await installWidget(server, user.token, ceId);
    if (step === 3) channel = await setUpWidget(server, user.token, ceId);
    return { ...user, ceId, channel };
  };
  const onPlan = async (token: string, stripeId: string) => {
    const me = await api(token).get('/users/current').expect(200);
    // After the trial subscription's own webhooks, which would say 'trialing' again.
    await server.stripe.settled();
    await server.models.Account.updateOne({ _id: me.body.accountId }, { $set: { subscriptionStatus: 'active', planStripeId: stripeId } });
  };
  const name = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 8)}`;

  describe('POST /chat_endpoints/new', () => {
    it('adds a widget at Step 1 when the plan has room', async () => {
      const { token } = await userWithWidget();
      await onPlan(token, 'parley_pro_monthly');
      const res = await api(token).post('/chat_endpoints/new').expect(200);
      expect(res.body.Id).to.match(/^[0-9a-f]{24}$/);
      expect((await widget(res.body.Id)).Step).to.equal(1);
      const me = await api(token).get('/users/current').expect(200);
      expect(me.body.ces.map((c: { Id: string }) => c.Id)).to.include(res.body.Id);
    });

    it('answers 402 plan_limit when the plan allows no more channels, and adds nothing', async () => {
      const { token } = await userWithWidget();
      await onPlan(token, 'parley_basic_monthly');
      const res = await api(token).post('/chat_endpoints/new').expect(402);
      expect(res.body.Error).to.equal('plan_limit');
      expect(res.body.Message).to.be.a('string').and.not.equal('');
      const me = await api(token).get('/users/current').expect(200);
      expect(me.body.ces).to.have.length(1);
    });

    it('answers 403 without a token', async () => {
      await api().post('/chat_endpoints/new').expect(403);
    });
  });

  describe('POST /chat_endpoints/new/{existingId}', () => {
    it('adds a widget at Step 2 in the same Slack team, reusing the installation', async () => {
      const { token, ceId } = await userWithWidget(3);
      await onPlan(token, 'parley_pro_monthly');
      const res = await api(token).post(`/chat_endpoints/new/${ceId}`).expect(200);
      const created = await widget(res.body.Id);
      const existing = await widget(ceId);
      expect(created.Step).to.equal(2);
      expect(created.slackTeamId).to.equal(ACME);
      expect(created.slackMainUser).to.equal(existing.slackMainUser);
      expect(created.RoomId).to.equal('');
      const rooms = await api(token).get(`/chat_endpoints/${res.body.Id}/rooms`).expect(200);
      expect(rooms.body.map((r: { Id: string }) => r.Id)).to.include(SUPPORT);
    });

    it('answers 400 with the support message when the existing widget is not configured', async () => {
      const { token, ceId } = await userWithWidget(2);
      await onPlan(token, 'parley_pro_monthly');
      const res = await api(token).post(`/chat_endpoints/new/${ceId}`).expect(400);
      expect(res.body.Message).to.equal('error creating new widget, contact support');
    });

    it('answers 402 plan_limit over the plan limit', async () => {
      const { token, ceId } = await userWithWidget(3);
      await onPlan(token, 'parley_basic_monthly');
      const res = await api(token).post(`/chat_endpoints/new/${ceId}`).expect(402);
      expect(res.body.Error).to.equal('plan_limit');
    });

    it("answers 404 for another account's widget", async () => {
      const owner = await userWithWidget(3);
      const other = await userWithWidget();
      await onPlan(other.token, 'parley_pro_monthly');
      await api(other.token).post(`/chat_endpoints/new/${owner.ceId}`).expect(404);
      expect(
        await server.models.ChatEndpoint.countDocuments({ slackTeamId: ACME, accountId: (await widget(other.ceId)).accountId }),
      ).to.equal(0);
    });

    it('answers 403 without a token', async () => {
      const { ceId } = await userWithWidget(3);
      await api().post(`/chat_endpoints/new/${ceId}`).expect(403);
    });
  });

  describe('DELETE /chat_endpoints/{id}', () => {
    it('removes the widget', async () => {
      const { token, ceId } = await userWithWidget(3);
      const res = await api(token).delete(`/chat_endpoints/${ceId}`).expect(200);
      expect(res.body).to.deep.equal({});
      expect(await server.models.ChatEndpoint.findById(ceId)).to.equal(null);
    });

    it("answers 404 for another account's widget and leaves it alone", async () => {
      const owner = await userWithWidget();
      const other = await userWithWidget();
      await api(other.token).delete(`/chat_endpoints/${owner.ceId}`).expect(404);
      expect(await server.models.ChatEndpoint.findById(owner.ceId)).to.not.equal(null);
    });

    it('answers 404 for a malformed id', async () => {
      const { token } = await userWithWidget();
      const res = await api(token).delete('/chat_endpoints/not-an-id').expect(404);
      expect(res.body.Message).to.be.a('string');
    });

    it('answers 403 without a token', async () => {
      const { ceId } = await userWithWidget();
      await api().delete(`/chat_endpoints/${ceId}`).expect(403);
      expect(await server.models.ChatEndpoint.findById(ceId)).to.not.equal(null);
    });
  });

  describe('GET /chat_endpoints/{id}/rooms', () => {
    it('lists the public channels of the team without random and general', async () => {
      const { token, ceId } = await userWithWidget(2);
      const res = await api(token).get(`/chat_endpoints/${ceId}/rooms`).expect(200);
      const ids = res.body.map((r: { Id: string }) => r.Id);
      expect(ids).to.include(SUPPORT);
      expect(ids).to.not.include(GENERAL);
      expect(ids).to.not.include(RANDOM);
      expect(res.body.find((r: { Id: string }) => r.Id === SUPPORT)).to.deep.equal({
        Id: SUPPORT,
        Name: 'support',
        Topic: 'Customer questions',
      });
    });

    it('answers 400 Cannot fetch Slack channels before Parley is added to Slack', async () => {
      const { token, ceId } = await userWithWidget(1);
      const res = await api(token).get(`/chat_endpoints/${ceId}/rooms`).expect(400);
      expect(res.body.Message).to.equal('Cannot fetch Slack channels');
    });

    it('answers 400 Cannot fetch Slack channels when Slack fails', async () => {
      const { token, ceId } = await userWithWidget(2);
      server.slack.state.failNext('conversations.list', 5, 500);
      try {
        const res = await api(token).get(`/chat_endpoints/${ceId}/rooms`).expect(400);
        expect(res.body.Message).to.equal('Cannot fetch Slack channels');
      } finally {
        server.slack.state.clearFaults();
      }
    });

    it("answers 404 for another account's widget", async () => {
      const owner = await userWithWidget(2);
      const other = await userWithWidget(2);
      await api(other.token).get(`/chat_endpoints/${owner.ceId}/rooms`).expect(404);
    });

    it('answers 403 without a token', async () => {
      const { ceId } = await userWithWidget(2);
      await api().get(`/chat_endpoints/${ceId}/rooms`).expect(403);
    });
  });

  describe('POST /chat_endpoints/{id}/channels', () => {
    it('creates the channel in Slack, lowercased, with the main user in it', async () => {
      const { token, ceId } = await userWithWidget(2);
      const wanted = name('Help-Desk');
      const res = await api(token).post(`/chat_endpoints/${ceId}/channels`).send({ channelName: wanted }).expect(200);
      expect(res.body.Name).to.equal(wanted.toLowerCase());
      const channel = server.slack.state.channel(res.body.Id);
      expect(channel?.name).to.equal(wanted.toLowerCase());
      expect(channel?.teamId).to.equal(ACME);
      expect(channel?.members).to.include(ALICE);
    });

    it('accepts 80 characters, the Slack limit', async () => {
      const { token, ceId } = await userWithWidget(2);
      const long = `x${Math.random().toString(36).slice(2, 8)}`.padEnd(80, 'y');
      await api(token).post(`/chat_endpoints/${ceId}/channels`).send({ channelName: long }).expect(200);
    });

    for (const [why, channelName] of [
      ['has spaces', 'help desk'],
      ['has punctuation', 'help.desk!'],
      ['is longer than 80 characters', 'z'.repeat(81)],
      ['is empty', ''],
      ['is not a string', 42],
    ] as const) {
      it(`answers 400 with a Message when the channel name ${why}`, async () => {
        const { token, ceId } = await userWithWidget(2);
        const res = await api(token).post(`/chat_endpoints/${ceId}/channels`).send({ channelName }).expect(400);
        expect(res.body.Message).to.include('80 characters');
      });
    }

    it('answers 400 saying the name is taken when a channel has it already', async () => {
      const { token, ceId } = await userWithWidget(2);
      const res = await api(token).post(`/chat_endpoints/${ceId}/channels`).send({ channelName: 'support' }).expect(400);
      expect(res.body.Error).to.equal('name_taken');
      expect(res.body.Message).to.match(/already exists/);
    });

    it("answers 404 for another account's widget and creates nothing", async () => {
      const owner = await userWithWidget(2);
      const other = await userWithWidget(2);
      const wanted = name('foreign');
      await api(other.token).post(`/chat_endpoints/${owner.ceId}/channels`).send({ channelName: wanted }).expect(404);
      expect(server.slack.state.data.channels.some((c) => c.name === wanted)).to.equal(false);
    });

    it('answers 403 without a token', async () => {
      const { ceId } = await userWithWidget(2);
      await api()
        .post(`/chat_endpoints/${ceId}/channels`)
        .send({ channelName: name('x') })
        .expect(403);
    });
  });

  describe('PUT /chat_endpoints/{id}/connect_ce', () => {
    it('links the channel, has the bot join it, moves to Step 3 and answers the current user', async () => {
      const { token, ceId } = await userWithWidget(2);
      const created = await api(token)
        .post(`/chat_endpoints/${ceId}/channels`)
        .send({ channelName: name('sales') })
        .expect(200);
      const ce = (await api(token).get('/users/current').expect(200)).body.ces[0];
      const res = await api(token)
        .put(`/chat_endpoints/${ceId}/connect_ce`)
        .send({ ...ce, RoomId: created.body.Id, RoomName: 'a name the console made up' })
        .expect(200);
      expect(res.body.email).to.be.a('string');
      const connected = res.body.ces.find((c: { Id: string }) => c.Id === ceId);
      expect(connected).to.include({ Step: 3, RoomId: created.body.Id, RoomName: created.body.Name, online: true });
      const botUser = server.slack.state.installation(ACME)?.botUserId;
      expect(server.slack.state.channel(created.body.Id)?.members).to.include(botUser);
    });

    it('answers 400 when no channel is given', async () => {
      const { token, ceId } = await userWithWidget(2);
      const res = await api(token).put(`/chat_endpoints/${ceId}/connect_ce`).send({ RoomName: 'support' }).expect(400);
      expect(res.body.Message).to.equal('Pick a Slack channel');
      expect((await widget(ceId)).Step).to.equal(2);
    });

    it('answers 400 when the channel does not exist in the team', async () => {
      const { token, ceId } = await userWithWidget(2);
      const res = await api(token).put(`/chat_endpoints/${ceId}/connect_ce`).send({ RoomId: 'C0NOSUCH01' }).expect(400);
      expect(res.body.Error).to.equal('channel_not_found');
      expect((await widget(ceId)).Step).to.equal(2);
    });

    it('answers 400 when another widget already uses the channel', async () => {
      const first = await userWithWidget(3);
      const second = await userWithWidget(2);
      const res = await api(second.token).put(`/chat_endpoints/${second.ceId}/connect_ce`).send({ RoomId: first.channel }).expect(400);
      expect(res.body.Error).to.equal('channel_in_use');
    });

    it('answers 400 at Step 1, before Parley is in Slack', async () => {
      const { token, ceId } = await userWithWidget(1);
      await api(token).put(`/chat_endpoints/${ceId}/connect_ce`).send({ RoomId: SUPPORT }).expect(400);
    });

    it("answers 404 for another account's widget and leaves it alone", async () => {
      const owner = await userWithWidget(2);
      const other = await userWithWidget(2);
      await api(other.token).put(`/chat_endpoints/${owner.ceId}/connect_ce`).send({ RoomId: SUPPORT }).expect(404);
      expect((await widget(owner.ceId)).Step).to.equal(2);
    });

    it('answers 403 without a token', async () => {
      const { ceId } = await userWithWidget(2);
      await api().put(`/chat_endpoints/${ceId}/connect_ce`).send({ RoomId: SUPPORT }).expect(403);
    });
  });

  describe('PUT /chat_endpoints/{id}/change-channel', () => {
    it('sends the widget back to Step 2 without a channel', async () => {
      const { token, ceId } = await userWithWidget(3);
      const res = await api(token).put(`/chat_endpoints/${ceId}/change-channel`).expect(200);
      expect(res.body).to.include({ Id: ceId, Step: 2, RoomId: '', RoomName: '', online: false });
    });

    it('answers 400 at Step 1', async () => {
      const { token, ceId } = await userWithWidget(1);
      const res = await api(token).put(`/chat_endpoints/${ceId}/change-channel`).expect(400);
      expect(res.body.Message).to.be.a('string');
    });

    it("answers 404 for another account's widget and leaves it connected", async () => {
      const owner = await userWithWidget(3);
      const other = await userWithWidget();
      await api(other.token).put(`/chat_endpoints/${owner.ceId}/change-channel`).expect(404);
      expect((await widget(owner.ceId)).Step).to.equal(3);
    });

    it('answers 403 without a token', async () => {
      const { ceId } = await userWithWidget(3);
      await api().put(`/chat_endpoints/${ceId}/change-channel`).expect(403);
    });
  });

  describe('PUT /chat_endpoints/{id}/rename-channel', () => {
    it('renames the Slack channel and answers the updated widget', async () => {
      const { token, ceId, channel } = await userWithWidget(3);
      const wanted = name('renamed');
      const res = await api(token).put(`/chat_endpoints/${ceId}/rename-channel`).send({ roomName: wanted }).expect(200);
      expect(res.body).to.include({ Id: ceId, RoomName: wanted, RoomId: channel });
      expect(server.slack.state.channel(channel)?.name).to.equal(wanted);
    });

    it('answers 400 with a Message when the new name breaks the rules', async () => {
      const { token, ceId, channel } = await userWithWidget(3);
      const before = server.slack.state.channel(channel)?.name;
      const res = await api(token).put(`/chat_endpoints/${ceId}/rename-channel`).send({ roomName: 'Not Allowed!' }).expect(400);
      expect(res.body.Message).to.include('80 characters');
      expect(server.slack.state.channel(channel)?.name).to.equal(before);
    });

    it('answers 400 name_taken when another channel has the name', async () => {
      const { token, ceId } = await userWithWidget(3);
      const res = await api(token).put(`/chat_endpoints/${ceId}/rename-channel`).send({ roomName: 'support' }).expect(400);
      expect(res.body.Error).to.equal('name_taken');
    });

    it("answers 404 for another account's widget and leaves the channel alone", async () => {
      const owner = await userWithWidget(3);
      const other = await userWithWidget(3);
      const before = server.slack.state.channel(owner.channel)?.name;
      await api(other.token)
        .put(`/chat_endpoints/${owner.ceId}/rename-channel`)
        .send({ roomName: name('hijack') })
        .expect(404);
      expect(server.slack.state.channel(owner.channel)?.name).to.equal(before);
    });

    it('answers 403 without a token', async () => {
      const { ceId } = await userWithWidget(3);
      await api()
        .put(`/chat_endpoints/${ceId}/rename-channel`)
        .send({ roomName: name('x') })
        .expect(403);
    });
  });

  describe('GET /chat_endpoints/new/slack_authorize (a widget in another Slack team, made once Slack consents)', () => {
    it('answers the authorize URL without creating a widget', async () => {
      const { token } = await userWithWidget(3);
      await onPlan(token, 'parley_pro_monthly');
      const res = await api(token).get('/chat_endpoints/new/slack_authorize').expect(200);
      const url = new URL(res.body.url);
      expect(`${url.origin}${url.pathname}`).to.equal(server.slack.authorizeUrl);
      expect(url.searchParams.get('state')).to.be.a('string').and.not.equal('');
      const me = await api(token).get('/users/current').expect(200);
      expect(me.body.ces).to.have.length(1);
    });

    it('answers 402 plan_limit when the plan allows no more channels', async () => {
      const { token } = await userWithWidget(3);
      await onPlan(token, 'parley_basic_monthly');
      const res = await api(token).get('/chat_endpoints/new/slack_authorize').expect(402);
      expect(res.body.Error).to.equal('plan_limit');
    });

    it('answers 403 without a token', async () => {
      await api().get('/chat_endpoints/new/slack_authorize').expect(403);
    });
  });

  describe('GET /chat_endpoints/{id}/slack_authorize', () => {
    it("answers the authorize URL with Parley's client id, redirect URL and a state", async () => {
      const { token, ceId } = await userWithWidget(1);
      const res = await api(token).get(`/chat_endpoints/${ceId}/slack_authorize?purpose=install`).expect(200);
      const url = new URL(res.body.url);
      expect(`${url.origin}${url.pathname}`).to.equal(server.slack.authorizeUrl);
      expect(url.searchParams.get('client_id')).to.equal(server.config.slack.clientId);
      expect(url.searchParams.get('redirect_uri')).to.equal(`${server.url}/slack/oauth_redirect`);
      expect(url.searchParams.get('state')).to.be.a('string').and.not.equal('');
    });

    it('asks for just the scopes named for a selective approval', async () => {
      const { token, ceId } = await userWithWidget(3);
      const res = await api(token)
        .get(`/chat_endpoints/${ceId}/slack_authorize?purpose=upgrade&bot=files:read&user=chat:write`)
        .expect(200);
      const url = new URL(res.body.url);
      expect(url.searchParams.get('scope')).to.equal('files:read');
      expect(url.searchParams.get('user_scope')).to.equal('chat:write');
      expect(url.searchParams.get('team')).to.equal(ACME);
    });

    it('answers 400 for an unknown purpose or scope', async () => {
      const { token, ceId } = await userWithWidget(3);
      await api(token).get(`/chat_endpoints/${ceId}/slack_authorize?purpose=steal`).expect(400);
      const res = await api(token).get(`/chat_endpoints/${ceId}/slack_authorize?purpose=upgrade&bot=admin`).expect(400);
      expect(res.body.Message).to.include('Unknown scope');
    });

    it('answers 400 for a main user swap before Parley is in Slack', async () => {
      const { token, ceId } = await userWithWidget(1);
      await api(token).get(`/chat_endpoints/${ceId}/slack_authorize?purpose=swap_user`).expect(400);
    });

    it("answers 404 for another account's widget", async () => {
      const owner = await userWithWidget(1);
      const other = await userWithWidget(1);
      await api(other.token).get(`/chat_endpoints/${owner.ceId}/slack_authorize?purpose=install`).expect(404);
    });

    it('answers 403 without a token', async () => {
      const { ceId } = await userWithWidget(1);
      await api().get(`/chat_endpoints/${ceId}/slack_authorize?purpose=install`).expect(403);
    });
  });
});
