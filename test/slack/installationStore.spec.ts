import { expect } from 'chai';
import request from 'supertest';
import { signUpUser } from '../factories';
import { useServer } from '../helpers/app';
import {
  ACME,
  ALICE,
  addGlobex,
  eventEnvelope,
  eventually,
  firstWidgetId,
  GINA,
  GLOBEX,
  GLOBEX_HELP,
  SUPPORT,
  setUpWidget,
  slackSignature,
} from './helpers';

describe('Slack installation store', () => {
  const server = useServer();
  before(async () => {
    addGlobex(server.slack);
  });

  const rooms = async (token: string, ceId: string) =>
    (await request(server.url).get(`/v1/chat_endpoints/${ceId}/rooms`).set('Authorization', `Bearer ${token}`).expect(200)).body.map(
      (r: { Id: string }) => r.Id,
    ) as string[];

  it('keeps one installation per workspace, each with its own bot token, and never mixes them', async () => {
    const acme = await signUpUser(server);
    const acmeCe = await firstWidgetId(server, acme.token);
    await setUpWidget(server, acme.token, acmeCe, { team: ACME, user: ALICE });
    const globex = await signUpUser(server);
    const globexCe = await firstWidgetId(server, globex.token);
    await setUpWidget(server, globex.token, globexCe, { team: GLOBEX, user: GINA, channel: GLOBEX_HELP });

    const stored = await server.models.Installation.find().sort({ teamId: 1 });
    expect(stored.map((i) => i.teamId)).to.deep.equal([ACME, GLOBEX]);
    expect(stored[0]?.botToken).to.equal(server.slack.state.installation(ACME)?.botToken);
    expect(stored[1]?.botToken).to.equal(server.slack.state.installation(GLOBEX)?.botToken);
    expect(stored[0]?.botToken).to.not.equal(stored[1]?.botToken);

    // Each widget sees its own workspace's channels only: the calls went out with the right token.
    expect(await rooms(acme.token, acmeCe))
      .to.include(SUPPORT)
      .and.not.include(GLOBEX_HELP);
    expect(await rooms(globex.token, globexCe))
      .to.include(GLOBEX_HELP)
      .and.not.include(SUPPORT);
    const lists = server.slack.state.calls.filter((c) => c.method === 'conversations.list');
    expect(lists.slice(-2).map((c) => c.teamId)).to.deep.equal([ACME, GLOBEX]);
  });

  it('shares the one installation of a workspace between accounts that add Parley to it', async () => {
    for (let i = 0; i < 2; i++) {
      const user = await signUpUser(server);
      await setUpWidget(server, user.token, await firstWidgetId(server, user.token));
    }
    expect(await server.models.Installation.countDocuments({ teamId: ACME })).to.equal(1);
  });

  it("applies each workspace's events only to that workspace's widgets", async () => {
    const globex = await signUpUser(server);
    const ceId = await firstWidgetId(server, globex.token);
    await setUpWidget(server, globex.token, ceId, { team: GLOBEX, user: GINA });
    const ce = await server.models.ChatEndpoint.findById(ceId);
    // The same channel id reported by another workspace changes nothing here.
    const body = eventEnvelope(ACME, { type: 'channel_rename', channel: { id: ce?.RoomId, name: 'cross-team', created: 1 } });
    await request(server.url)
      .post('/slack/events')
      .type('json')
      .set(slackSignature(server.config.slack.signingSecret, body))
      .send(body)
      .expect(200);
    const own = eventEnvelope(GLOBEX, { type: 'channel_rename', channel: { id: ce?.RoomId, name: 'same-team', created: 1 } });
    await request(server.url)
      .post('/slack/events')
      .type('json')
      .set(slackSignature(server.config.slack.signingSecret, own))
      .send(own)
      .expect(200);
    await eventually(async () => expect((await server.models.ChatEndpoint.findById(ceId))?.RoomName).to.equal('same-team'));
  });

  it('never lets a token leave the server through the API', async () => {
    const user = await signUpUser(server);
    const ceId = await firstWidgetId(server, user.token);
    await setUpWidget(server, user.token, ceId);
    const inst = await server.models.Installation.findOne({ teamId: ACME });
    const me = await request(server.url).get('/v1/users/current').set('Authorization', `Bearer ${user.token}`).expect(200);
    const list = await request(server.url).get('/v1/users/current/chat_endpoints').set('Authorization', `Bearer ${user.token}`).expect(200);
    for (const text of [JSON.stringify(me.body), JSON.stringify(list.body)]) {
      expect(text).to.not.include(inst?.botToken ?? 'xoxb-');
      expect(text).to.not.include('xoxp-');
    }
  });
});
