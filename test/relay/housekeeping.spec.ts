import { expect } from 'chai';
import { notifyUnanswered } from '../../server/relay';
import { ACME, ALICE, eventually, type SetUp, say, setUpRelayWidget, useRelayServer, VisitorSocket, webhookTarget } from './helpers';

describe('relay housekeeping', () => {
  let widget: SetUp;
  const server = useRelayServer({ relay: { silentSocketMs: 1500 } });
  beforeEach(async () => {
    widget = await setUpRelayWidget(server);
  });

  /** Sockets in these tests must ping: the server here closes sockets silent for 1.5 s. */
  const keepAlive = (socket: VisitorSocket) => {
    const timer = setInterval(() => socket.send({ t: 'ping' }), 100);
    return () => {
      clearInterval(timer);
      socket.close();
    };
  };

  const threadTs = async () => {
    let ts = '';
    await eventually(async () => {
      ts = (await server.models.Conversation.findOne({ ceId: widget.ceId }))?.threadTs ?? '';
      expect(ts).to.not.equal('');
    });
    return ts;
  };

  it('closes a socket that stopped sending heartbeats, and keeps one that pings', async () => {
    const quiet = await VisitorSocket.hello(server, widget.uuid);
    const talking = await VisitorSocket.hello(server, widget.uuid);
    const pinger = setInterval(() => talking.socket.send({ t: 'ping' }), 100);
    try {
      expect(await quiet.socket.closed(10_000)).to.equal(4000);
      expect(talking.socket.closeCode).to.equal(null);
    } finally {
      clearInterval(pinger);
      talking.socket.close();
    }
  });

  it('greets the visitor with the join message when an operator first answers', async () => {
    await server.models.ChatEndpoint.updateOne(
      { _id: widget.ceId },
      { $set: { sendOpJoinAutoResponse: true, opJoinAutoResponseMessage: '{name} has joined the conversation.' } },
    );
    const { socket } = await VisitorSocket.hello(server, widget.uuid);
    const done = keepAlive(socket);
    await say(socket, 'hi');
    const ts = await threadTs();
    await server.slack.postAsUser({ teamId: ACME, userId: ALICE, channelId: widget.channel, threadTs: ts, text: 'first' });
    await server.slack.postAsUser({ teamId: ACME, userId: ALICE, channelId: widget.channel, threadTs: ts, text: 'second' });
    await socket.next('msg', (f) => f.message.text === 'second');
    const system = await socket.next('msg', (f) => f.message.from === 'system');
    expect(system.message.text).to.equal('Alice has joined the conversation.');
    expect(socket.msgs().filter((f) => f.message.from === 'system')).to.have.length(1);
    done();
  });

  it('calls the no-answer webhook once when nobody answered in time', async () => {
    const hook = await webhookTarget();
    try {
      await server.models.ChatEndpoint.updateOne(
        { _id: widget.ceId },
        { $set: { noAnswerWebhookUrl: hook.url, noAnswerMessageAfterSecs: 120 } },
      );
      const { socket } = await VisitorSocket.hello(server, widget.uuid);
      const done = keepAlive(socket);
      await say(socket, 'anyone?');
      await threadTs();
      expect(await notifyUnanswered(server.parley.relay)).to.equal(0);
      expect(await notifyUnanswered(server.parley.relay, new Date(Date.now() + 3 * 60_000))).to.equal(1);
      expect(await notifyUnanswered(server.parley.relay, new Date(Date.now() + 4 * 60_000))).to.equal(0);
      await eventually(async () => expect(hook.bodies).to.have.length(1));
      expect(hook.bodies[0]).to.deep.include({ event: 'conversation.unanswered' });
      done();
    } finally {
      await hook.close();
    }
  });
});
