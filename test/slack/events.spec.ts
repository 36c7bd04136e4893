import { expect } from 'chai';
import request from 'supertest';
import { slackClient } from '../../server/slack/client';
import { signUpUser } from '../factories';
import { useServer } from '../helpers/app';
import {
  ACME,
  ALICE,
  authorizeUrlFor,
  callback,
  consent,
  eventEnvelope,
  eventually,
  firstWidgetId,
  installWidget,
  setUpWidget,
  slackSignature,
} from './helpers';

describe('Slack events at /slack/events', () => {
  const server = useServer();

  const widget = async (id: string) => {
    const ce = await server.models.ChatEndpoint.findById(id);
    if (!ce) throw new Error('widget gone');
    return ce;
  };
  const configured = async () => {
    const user = await signUpUser(server);
    const ceId = await firstWidgetId(server, user.token);
    const channel = await setUpWidget(server, user.token, ceId);
    return { ...user, ceId, channel };
  };
  const renameEvent = (channel: string, name: string) =>
    eventEnvelope(ACME, { type: 'channel_rename', channel: { id: channel, name, created: 1 }, event_ts: '1.000001' });

  describe('request signing', () => {
    it('answers 401 and processes nothing when the signature is wrong', async () => {
      const { ceId, channel } = await configured();
      const body = renameEvent(channel, 'renamed-by-a-forger');
      await request(server.url)
        .post('/slack/events')
        .type('json')
        .set(slackSignature('not-the-signing-secret', body))
        .send(body)
        .expect(401);
      expect((await widget(ceId)).RoomName).to.not.equal('renamed-by-a-forger');
    });

    it('answers 401 and processes nothing when the timestamp is older than five minutes, even correctly signed', async () => {
      const { ceId, channel } = await configured();
      const body = renameEvent(channel, 'replayed-rename');
      const tenMinutesAgo = Math.floor(Date.now() / 1000) - 600;
      await request(server.url)
        .post('/slack/events')
        .type('json')
        .set(slackSignature(server.config.slack.signingSecret, body, tenMinutesAgo))
        .send(body)
        .expect(401);
      expect((await widget(ceId)).RoomName).to.not.equal('replayed-rename');
    });

    it('answers 401 and processes nothing when the timestamp is more than five minutes in the future, even correctly signed', async () => {
      const { ceId, channel } = await configured();
      const body = renameEvent(channel, 'rename-from-the-future');
      const tenMinutesAhead = Math.floor(Date.now() / 1000) + 600;
      await request(server.url)
        .post('/slack/events')
        .type('json')
        .set(slackSignature(server.config.slack.signingSecret, body, tenMinutesAhead))
        .send(body)
        .expect(401);
      expect((await widget(ceId)).RoomName).to.not.equal('rename-from-the-future');
    });

    it('answers 401 to an unsigned request', async () => {
      await request(server.url).post('/slack/events').type('json').send(renameEvent('C0SUPPORT1', 'x')).expect(401);
    });

    it('accepts a correctly signed event and acts on it', async () => {
      const { ceId, channel } = await configured();
      const body = renameEvent(channel, 'properly-signed');
      await request(server.url)
        .post('/slack/events')
        .type('json')
        .set(slackSignature(server.config.slack.signingSecret, body))
        .send(body)
        .expect(200);
      await eventually(async () => expect((await widget(ceId)).RoomName).to.equal('properly-signed'));
    });

    it('answers the URL verification challenge the sandbox sends', async () => {
      const result = await server.slack.verifyEventsUrl();
      expect(result.challengeEchoed).to.equal(true);
    });
  });

  describe('channel changes in Slack', () => {
    it('follows a rename of the linked channel', async () => {
      const { ceId, channel } = await configured();
      const inst = server.slack.state.installation(ACME);
      const alice = slackClient(server.slack.apiUrl, inst?.userTokens[ALICE]?.token);
      await alice.conversations.rename({ channel, name: 'renamed-in-slack' });
      await eventually(async () => expect((await widget(ceId)).RoomName).to.equal('renamed-in-slack'));
    });

    it('sends the widget back to Step 2 with no channel when the channel is archived', async () => {
      const { ceId, channel } = await configured();
      const alice = slackClient(server.slack.apiUrl, server.slack.state.installation(ACME)?.userTokens[ALICE]?.token);
      await alice.conversations.archive({ channel });
      await eventually(async () => {
        const ce = await widget(ceId);
        expect(ce.Step).to.equal(2);
        expect(ce.RoomId).to.equal('');
        expect(ce.RoomName).to.equal('');
      });
    });
  });

  describe('/parley', () => {
    it('answers the help text only to the person who typed it', async () => {
      await configured();
      const result = await server.slack.sendSlashCommand({
        teamId: ACME,
        userId: ALICE,
        channelId: 'C0SUPPORT1',
        command: '/parley',
        text: 'help',
      });
      expect(result.status).to.equal(200);
      expect(result.json).to.deep.include({ response_type: 'ephemeral' });
      expect(JSON.stringify(result.json)).to.include('/parley help');
    });
  });

  describe('uninstall and token revocation', () => {
    it('marks the installation revoked and every widget of the team offline when the app is uninstalled, deleting nothing', async () => {
      const first = await configured();
      const second = await configured();
      const bot = slackClient(server.slack.apiUrl, server.slack.state.installation(ACME)?.botToken);
      await bot.apps.uninstall({ client_id: server.config.slack.clientId, client_secret: server.config.slack.clientSecret });
      await eventually(async () => {
        const inst = await server.models.Installation.findOne({ teamId: ACME });
        expect(inst?.revokedAt).to.be.instanceOf(Date);
      });
      for (const { token, ceId } of [first, second]) {
        const me = await request(server.url).get('/v1/users/current').set('Authorization', `Bearer ${token}`).expect(200);
        const ce = me.body.ces.find((c: { Id: string }) => c.Id === ceId);
        expect(ce).to.include({ Step: 3, online: false, installationRevoked: true, status: 'offline' });
      }
      const rooms = await request(server.url)
        .get(`/v1/chat_endpoints/${first.ceId}/rooms`)
        .set('Authorization', `Bearer ${first.token}`)
        .expect(400);
      expect(rooms.body.Message).to.equal('Cannot fetch Slack channels');

      // Adding Parley to Slack again brings the team's widgets back.
      await installWidget(server, first.token, first.ceId);
      const after = await request(server.url).get('/v1/users/current').set('Authorization', `Bearer ${second.token}`).expect(200);
      expect(after.body.ces.find((c: { Id: string }) => c.Id === second.ceId)).to.include({ online: true, installationRevoked: false });
    });

    it('drops the main user scopes when their token is revoked, and the permissions page asks for them again', async () => {
      const { token, ceId } = await configured();
      const userToken = server.slack.state.installation(ACME)?.userTokens[ALICE]?.token;
      await slackClient(server.slack.apiUrl, userToken).auth.revoke();
      await eventually(async () => expect((await widget(ceId)).Scope).to.equal(''));
      const perms = await request(server.url)
        .get(`/v1/chat_endpoints/${ceId}/permissions`)
        .set('Authorization', `Bearer ${token}`)
        .expect(200);
      expect(perms.body.missing).to.deep.include({ scope: 'channels:history', type: 'user' });
      expect(perms.body.allGood).to.equal(false);
      // The widget itself keeps working on the bot token.
      expect((await widget(ceId)).installationRevoked).to.equal(false);
      // Approving again restores the user token.
      await callback(server, await consent(await authorizeUrlFor(server, token, ceId, 'upgrade'))).expect(302);
      const again = await request(server.url)
        .get(`/v1/chat_endpoints/${ceId}/permissions`)
        .set('Authorization', `Bearer ${token}`)
        .expect(200);
      expect(again.body.allGood).to.equal(true);
    });
  });
});
