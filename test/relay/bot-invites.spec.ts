import { expect } from 'chai';
import request from 'supertest';
import { payingOn } from '../factories';
import { BOB, eventually, type SetUp, say, setUpRelayWidget, useRelayServer, VisitorSocket } from './helpers';

const HELPER_BOT = 'U0HELPER01';

describe('bots and users added to new conversations', () => {
  let widget: SetUp;
  const server = useRelayServer();
  beforeEach(async () => {
    widget = await setUpRelayWidget(server);
    const ce = await widget.widget();
    await payingOn(server, 'parley_pro_monthly', { accountId: ce.accountId });
  });

  const addBot = (userID: string) =>
    request(server.url)
      .post(`/v1/chat_endpoints/${widget.ceId}/bot`)
      .set('Authorization', `Bearer ${widget.token}`)
      .send({ userID })
      .expect(200);
  const threadOf = (channel: string) => {
    const parent = server.slack.state.channelMessages(channel).find((m) => m.botId);
    return parent ? server.slack.state.replies(channel, parent.ts) : [];
  };

  it('invites the chosen bot into the channel and mentions the bot and people in each new thread', async () => {
    await addBot(HELPER_BOT);
    await addBot(BOB);
    expect(server.slack.state.channel(widget.channel)?.members).to.not.include(HELPER_BOT);
    const { socket } = await VisitorSocket.hello(server, widget.uuid, { identity: { name: 'Vera' } });
    await say(socket, 'Hello, is a bot around?');
    await eventually(async () => {
      expect(threadOf(widget.channel).map((r) => r.text)).to.include(`Added <@${HELPER_BOT}>, <@${BOB}> to this conversation.`);
    });
    expect(server.slack.state.channel(widget.channel)?.members).to.include(HELPER_BOT);
    const invites = server.slack.state.callsOf('conversations.invite').filter((c) => c.args.channel === widget.channel);
    expect(invites.map((c) => [c.args.users, c.ok, c.tokenType])).to.deep.include([HELPER_BOT, true, 'bot']);
    socket.close();
  });

  it('leaves out someone who is no longer in the Slack workspace and still adds the others', async () => {
    await addBot(HELPER_BOT);
    const ce = await widget.widget();
    await server.models.BotUser.create({ accountId: ce.accountId, ceId: ce._id, userID: 'U0GONE0001', name: 'gone' });
    const { socket } = await VisitorSocket.hello(server, widget.uuid, { identity: { name: 'Xena' } });
    await say(socket, 'Anyone?');
    await eventually(async () =>
      expect(threadOf(widget.channel).map((r) => r.text)).to.include(`Added <@${HELPER_BOT}> to this conversation.`),
    );
    const refused = server.slack.state.callsOf('conversations.invite').find((c) => c.args.users === 'U0GONE0001');
    expect(refused?.error).to.equal('user_not_found');
    socket.close();
  });

  it('opens threads without invitations when nobody was chosen', async () => {
    const { socket } = await VisitorSocket.hello(server, widget.uuid, { identity: { name: 'Walt' } });
    await say(socket, 'Just me');
    await eventually(async () => expect(threadOf(widget.channel).map((r) => r.text)).to.deep.equal(['Just me']));
    expect(server.slack.state.callsOf('conversations.invite').filter((c) => c.args.channel === widget.channel)).to.deep.equal([]);
    socket.close();
  });
});
