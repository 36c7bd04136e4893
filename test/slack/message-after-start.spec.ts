import { expect } from 'chai';
import { FAST_RELAY, startRelayServer, startTestServer, type TestServer } from '../helpers/app';
import { ACME, ALICE, eventually, say, setUpRelayWidget, VisitorSocket } from '../relay/helpers';

/**
 * The Slack listeners are built with the relay they hand replies to (main.ts passes it in): there is no moment
 * after start at which a thread reply is acknowledged to Slack and then dropped for want of a relay.
 */
describe('a thread reply Slack delivers right after Parley starts', () => {
  let server: TestServer;
  before(async () => {
    server = await startRelayServer();
  });
  after(async () => {
    await server.slack.close();
    await server.slack.settled();
    await server.close();
  });

  it('reaches the visitor even when it is the first thing the restarted server hears', async () => {
    const widget = await setUpRelayWidget(server);
    const { socket, welcome } = await VisitorSocket.hello(server, widget.uuid, { identity: { name: 'Tom' } });
    await say(socket, 'Is anyone there?');
    let threadTs = '';
    await eventually(async () => {
      threadTs = (await server.models.Conversation.findOne({ ceId: widget.ceId }))?.threadTs ?? '';
      expect(threadTs).to.not.equal('');
    });
    socket.close();
    await server.close({ keepData: true });

    server = await startTestServer({ relay: FAST_RELAY }, { restartOf: server });
    await server.slack.postAsUser({ teamId: ACME, userId: ALICE, channelId: widget.channel, threadTs, text: 'Yes, how can I help?' });

    const { socket: back } = await VisitorSocket.hello(server, widget.uuid, { visitorToken: welcome.visitorToken, lastSeq: 1 });
    try {
      const reply = await back.next('msg', (f) => f.message.from === 'operator', 20_000);
      expect(reply.message.text).to.equal('Yes, how can I help?');
    } finally {
      back.close();
    }
  });
});
