import { expect } from 'chai';
import request from 'supertest';
import { startTestServer, type TestServer } from '../helpers/app';
import { signUpUser } from '../factories';
import { ACME, ALICE, BOB, GINA, GLOBEX, addGlobex, eventually, firstWidgetId, installWidget, setUpWidget } from './helpers';

describe('Slack App Home', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    addGlobex(server.slack);
  });
  after(async () => {
    await server.close();
  });

  const homeText = async (teamId: string, userId: string) => {
    let text = '';
    await eventually(async () => {
      const view = server.slack.state.homeView(teamId, userId);
      expect(view).to.not.equal(undefined);
      text = JSON.stringify(view?.definition.blocks);
    });
    return text;
  };

  it('tells a workspace without a linked widget how to set one up', async () => {
    const user = await signUpUser(server);
    await installWidget(server, user.token, await firstWidgetId(server, user.token), { team: GLOBEX, user: GINA });
    await server.slack.openAppHome({ teamId: GLOBEX, userId: GINA });
    const text = await homeText(GLOBEX, GINA);
    expect(text).to.include('No website chat is linked');
    expect(text).to.include(`${server.url}/app/`);
  });

  it("lists the workspace's configured widgets with their state and a link to their settings", async () => {
    const user = await signUpUser(server);
    const ceId = await firstWidgetId(server, user.token);
    const channel = await setUpWidget(server, user.token, ceId);
    await request(server.url).put(`/v1/chat_endpoints/${ceId}/rename-channel`).set('Authorization', `Bearer ${user.token}`).send({ roomName: 'website-chat' }).expect(200);
    await server.models.ChatEndpoint.updateOne({ _id: ceId }, { $set: { off: true } });
    const result = await server.slack.openAppHome({ teamId: ACME, userId: BOB });
    expect(result.ok).to.equal(true);
    const text = await homeText(ACME, BOB);
    expect(text).to.include(`<#${channel}>`);
    expect(text).to.include('website-chat');
    expect(text).to.include('turned off in Parley');
    expect(text).to.include(`#/settings/${ceId}/behavior`);
    expect(server.slack.state.homeView(ACME, ALICE)).to.equal(undefined);
  });
});
