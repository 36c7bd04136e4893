import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { loadConfig } from '../../server/config';
import { type Parley, startParley } from '../../server/main';
import { slackClient } from '../../server/slack/client';
import { testMongoUri, uniqueDbName } from '../helpers/mongo';
import { CLIENT_ID, CLIENT_SECRET, type SandboxFixture, SIGNING_SECRET, startSandbox } from '../sandbox/slack/helpers';
import { ALICE, BROWSER, callback, consent, eventually } from './helpers';

describe('Parley with Slack credentials (a Slack-compatible server at SLACK_API_URL)', () => {
  let slack: SandboxFixture;
  let parley: Parley;
  let dataDir: string;

  before(async () => {
    // The sandbox as a separate server, like `npm run sandbox:slack`, standing in for slack.com.
    slack = await startSandbox();
    dataDir = mkdtempSync(path.join(tmpdir(), 'parley-test-data-'));
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      SLACK_CLIENT_ID: CLIENT_ID,
      SLACK_CLIENT_SECRET: CLIENT_SECRET,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: slack.sandbox.apiUrl,
      SLACK_OAUTH_URL: slack.sandbox.authorizeUrl,
    });
    parley = await startParley(
      { ...config, port: 0, mongodbUri: await testMongoUri() },
      { host: '127.0.0.1', dbName: uniqueDbName('slackext') },
    );
    const events = `${parley.url}/slack/events`;
    slack.sandbox.setAppUrls({ eventsUrl: events, interactivityUrl: events, commandsUrl: events });
  });
  after(async () => {
    await parley.connection.dropDatabase();
    await parley.close();
    await slack.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs no sandbox of its own', async () => {
    expect(parley.config.slack.sandbox).to.equal(false);
    expect(parley.slackSandbox).to.equal(undefined);
    await request(parley.url).get('/sandbox/slack').expect(404);
  });

  it('signs up with Slack through the configured authorize page and Web API, and receives its events', async () => {
    const start = await request(parley.url).get('/slack/oauth/signup').set('Cookie', BROWSER).expect(302);
    expect(String(start.headers.location).startsWith(slack.sandbox.authorizeUrl)).to.equal(true);
    const back = await consent(String(start.headers.location), { user: ALICE });
    const res = await callback(parley, back).expect(302);
    const token = new URL(String(res.headers.location), parley.url).searchParams.get('auth_token') ?? '';
    const me = await request(parley.url).get('/v1/users/current').set('Authorization', `Bearer ${token}`).expect(200);
    expect(me.body.email).to.equal('alice@acme.test');
    const ceId = me.body.ces[0].Id as string;

    const created = await request(parley.url)
      .post(`/v1/chat_endpoints/${ceId}/channels`)
      .set('Authorization', `Bearer ${token}`)
      .send({ channelName: 'web-chat' })
      .expect(200);
    await request(parley.url)
      .put(`/v1/chat_endpoints/${ceId}/connect_ce`)
      .set('Authorization', `Bearer ${token}`)
      .send({ RoomId: created.body.Id })
      .expect(200);

    const alice = slackClient(slack.sandbox.apiUrl, slack.sandbox.state.installation('T0ACME0001')?.userTokens[ALICE]?.token);
    await alice.conversations.rename({ channel: created.body.Id, name: 'web-chat-renamed' });
    await eventually(async () => expect((await parley.models.ChatEndpoint.findById(ceId))?.RoomName).to.equal('web-chat-renamed'));
  });
});
