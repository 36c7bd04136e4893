import { expect } from 'chai';
import { ACME, ALICE, eventually, type SetUp, say, setUpRelayWidget, useRelayServer, VisitorSocket } from './helpers';

describe('relay between a visitor and a Slack thread', () => {
  let widget: SetUp;
  const server = useRelayServer();
  beforeEach(async () => {
    widget = await setUpRelayWidget(server);
  });

  const thread = (channel: string) => {
    const parent = server.slack.state.channelMessages(channel).find((m) => m.botId);
    return parent ? { parent, replies: server.slack.state.replies(channel, parent.ts) } : null;
  };

  it('posts the first visitor message as a thread header and a reply with the visitor name', async () => {
    const { socket, welcome } = await VisitorSocket.hello(server, widget.uuid, {
      identity: { name: 'Vera Visitor', email: 'vera@example.com' },
    });
    expect(welcome.online).to.equal(true);
    expect(welcome.conversation).to.equal(null);
    const ack = await say(socket, 'Hello, do you ship to Norway?');
    expect(ack.seq).to.equal(1);
    await eventually(async () => {
      const t = thread(widget.channel);
      expect(t?.replies.map((r) => r.text)).to.deep.equal(['Hello, do you ship to Norway?']);
    });
    const t = thread(widget.channel);
    expect(JSON.stringify(t?.parent.blocks))
      .to.include('Vera Visitor')
      .and.include('Hello, do you ship to Norway?')
      .and.include('conversation_end');
    expect(t?.replies[0].username).to.equal('Vera Visitor');
    socket.close();
  });

  it('relays an operator reply in the thread to the widget with the operator name and avatar', async () => {
    const { socket } = await VisitorSocket.hello(server, widget.uuid, { identity: { name: 'Olga' } });
    await say(socket, 'Is anyone there?');
    await eventually(async () => expect(thread(widget.channel)?.replies).to.have.length(1));
    const parent = thread(widget.channel)?.parent;
    await server.slack.postAsUser({
      teamId: ACME,
      userId: ALICE,
      channelId: widget.channel,
      threadTs: parent?.ts,
      text: 'Hi Olga, *Alice* here',
    });
    const frame = await socket.next('msg', (f) => f.message.from === 'operator');
    expect(frame.message.text).to.equal('Hi Olga, *Alice* here');
    expect(frame.message.html).to.include('<strong>Alice</strong>');
    expect(frame.message.author?.name).to.equal('Alice');
    expect(frame.message.author?.avatarUrl).to.match(/^data:image\/svg/);
    expect(frame.message.seq).to.equal(2);
    const conversation = await server.models.Conversation.findOne({ ceId: widget.ceId });
    expect(conversation?.firstResponseAt).to.be.an.instanceOf(Date);
    expect(conversation?.agentName).to.equal('Alice');
    await eventually(async () => {
      const header = server.slack.state.message(widget.channel, parent?.ts ?? '');
      expect(JSON.stringify(header?.blocks)).to.include('Answered by Alice');
    });
    socket.close();
  });
});
