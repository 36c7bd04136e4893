import { expect } from 'chai';
import { eventually, say, setUpRelayWidget, useRelayServer, VisitorSocket } from './helpers';

describe('channel broadcast of visitor messages (notifyChannelOnMsg)', () => {
  const server = useRelayServer();

  for (const on of [true, false]) {
    it(`${on ? 'also sends' : 'does not send'} visitor replies to the channel when notifyChannelOnMsg is ${on ? 'on' : 'off'}`, async () => {
      const widget = await setUpRelayWidget(server);
      await server.models.ChatEndpoint.updateOne({ _id: widget.ceId }, { $set: { notifyChannelOnMsg: on } });
      const { socket } = await VisitorSocket.hello(server, widget.uuid, { identity: { name: 'Tom' } });
      try {
        await say(socket, 'First question');
        await eventually(async () => {
          const conversation = await server.models.Conversation.findOne({ ceId: widget.ceId });
          const replies = server.slack.state.replies(widget.channel, conversation?.threadTs ?? '-');
          const mine = replies.find((m) => m.text === 'First question');
          expect(mine).to.not.equal(undefined);
          expect(Boolean(mine?.replyBroadcast)).to.equal(on);
        });
      } finally {
        socket.close();
      }
    });
  }
});
