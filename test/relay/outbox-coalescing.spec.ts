/**
 * Visitor lines that wait for their Slack thread (a backlog, a paused worker, a rate limit) reach it as one post
 * holding them in order, through the real relay and the Slack sandbox.
 */
import { expect } from 'chai';
import { ACME, ALICE, eventually, type SetUp, say, setUpRelayWidget, useRelayServer, VisitorSocket } from './helpers';

describe('visitor lines waiting for Slack', () => {
  const server = useRelayServer();
  let widget: SetUp;
  beforeEach(async () => {
    widget = await setUpRelayWidget(server);
  });

  const threadOf = async () => {
    let ts = '';
    await eventually(async () => {
      ts = (await server.models.Conversation.findOne({ ceId: widget.ceId }))?.threadTs ?? '';
      expect(ts).to.not.equal('');
    });
    return ts;
  };
  const replies = (threadTs: string) => server.slack.state.replies(widget.channel, threadTs).map((m) => m.text);

  it('header updates waiting in a row make one chat.update, and the line queued behind them follows', async () => {
    const { socket } = await VisitorSocket.hello(server, widget.uuid);
    await say(socket, 'hello?');
    const threadTs = await threadOf();
    await eventually(async () => expect(replies(threadTs)).to.deep.equal(['hello?']));
    const conversation = await server.models.Conversation.findOne({ ceId: widget.ceId });
    if (!conversation) throw new Error('no conversation');
    const { outbox } = server.parley.relay;
    await outbox.stop();
    const updatesBefore = server.slack.state.callsOf('chat.update').length;
    const id = String(conversation._id);
    for (let i = 0; i < 8; i++)
      await outbox.enqueue('slack.updateHeader', id, { conversationId: id }, { channel: widget.channel, conversationId: conversation._id });
    await say(socket, 'still there?');
    outbox.start();
    await eventually(async () => expect(replies(threadTs)).to.deep.equal(['hello?', 'still there?']));
    expect(server.slack.state.callsOf('chat.update').length - updatesBefore).to.equal(1);
    socket.close();
  });

  it('a first reply that names its agent and assigns its author changes the header with one chat.update', async () => {
    const { socket } = await VisitorSocket.hello(server, widget.uuid);
    await say(socket, 'hello?');
    const threadTs = await threadOf();
    await eventually(async () => expect(replies(threadTs)).to.deep.equal(['hello?']));
    await server.slack.settled();
    const headerUpdates = () =>
      server.slack.state.callsOf('chat.update').filter((c) => c.ok && c.args.ts === threadTs && c.args.channel === widget.channel);
    const before = headerUpdates().length;
    await server.slack.postAsUser({ teamId: ACME, userId: ALICE, channelId: widget.channel, threadTs, text: 'Hi, how can I help?' });
    await socket.next('msg', (f) => f.message.text === 'Hi, how can I help?');
    const header = () => JSON.stringify(server.slack.state.channelMessages(widget.channel).find((m) => m.ts === threadTs)?.blocks ?? []);
    await eventually(async () => expect(header()).to.include(`Assigned to <@${ALICE}>`));
    await eventually(async () => expect(replies(threadTs).some((t) => t.includes('whose reply was the first'))).to.equal(true));
    await server.slack.settled();
    expect(headerUpdates().length - before).to.equal(1);
    socket.close();
  });

  it('reach the thread as one post holding the lines in order, each message recording its ts', async () => {
    const { socket } = await VisitorSocket.hello(server, widget.uuid);
    await say(socket, 'hello?');
    const threadTs = await threadOf();
    await eventually(async () => expect(replies(threadTs)).to.deep.equal(['hello?']));
    const { outbox } = server.parley.relay;
    await outbox.stop();
    for (const line of ['is anyone there?', 'I have a question about my <invoice> & my plan', 'it is urgent']) await say(socket, line);
    outbox.start();
    await eventually(async () =>
      expect(replies(threadTs)).to.deep.equal([
        'hello?',
        'is anyone there?\nI have a question about my &lt;invoice&gt; &amp; my plan\nit is urgent',
      ]),
    );
    const posted = server.slack.state.replies(widget.channel, threadTs)[1];
    const messages = await server.models.Message.find({
      conversationId: (await server.models.Conversation.findOne({ ceId: widget.ceId }))?._id,
      from: 'visitor',
    })
      .sort({ seq: 1 })
      .lean();
    expect(messages.map((m) => m.slackTs)).to.deep.equal([messages[0].slackTs, posted.ts, posted.ts, posted.ts]);
    socket.close();
  });

  it('are in the thread once when the answer to their post was lost, and lines queued since follow in a post of their own', async () => {
    const { socket } = await VisitorSocket.hello(server, widget.uuid);
    await say(socket, 'hello?');
    const threadTs = await threadOf();
    await eventually(async () => expect(replies(threadTs)).to.deep.equal(['hello?']));
    const { outbox } = server.parley.relay;
    await outbox.stop();
    for (const line of ['one', 'two', 'three']) await say(socket, line);
    server.slack.state.dropResponses('chat.postMessage', { times: 1 });
    outbox.start();
    await eventually(async () => expect(server.slack.state.callsOf('chat.postMessage').filter((c) => c.dropped)).to.have.length(1));
    await outbox.stop();
    await say(socket, 'four');
    outbox.start();
    await eventually(async () =>
      expect(replies(threadTs).flatMap((t) => t.split('\n'))).to.deep.equal(['hello?', 'one', 'two', 'three', 'four']),
    );
    expect(replies(threadTs)).to.deep.equal(['hello?', 'one\ntwo\nthree', 'four']);
    socket.close();
  });

  it('keep their own posts when they arrive one at a time', async () => {
    const { socket } = await VisitorSocket.hello(server, widget.uuid);
    await say(socket, 'first');
    const threadTs = await threadOf();
    await eventually(async () => expect(replies(threadTs)).to.deep.equal(['first']));
    await say(socket, 'second');
    await eventually(async () => expect(replies(threadTs)).to.deep.equal(['first', 'second']));
    socket.close();
  });
});
