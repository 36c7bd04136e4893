import { rmSync } from 'node:fs';
import { expect } from 'chai';
import { appendEntry } from '../../server/conversations/history';
import { startParley } from '../../server/main';
import type { TestServer } from '../helpers/app';
import {
  ACME,
  ALICE,
  clientId,
  eventually,
  type SetUp,
  say,
  setUpRelayWidget,
  startRelayServer,
  useRelayServer,
  VisitorSocket,
} from './helpers';

describe('relay delivery guarantees', () => {
  let widget: SetUp;
  const server = useRelayServer();
  beforeEach(async () => {
    server.slack.state.clearFaults();
    widget = await setUpRelayWidget(server);
  });

  const conversation = async () => {
    const c = await server.models.Conversation.findOne({ ceId: widget.ceId });
    if (!c) throw new Error('no conversation yet');
    return c;
  };
  /** The lines in a thread, in order (visitor lines that waited together went out as one post). */
  const repliesIn = (s: TestServer, channel: string, threadTs: string) =>
    s.slack.state.replies(channel, threadTs).flatMap((m) => m.text.split('\n'));
  const threadOf = async () => {
    let ts = '';
    await eventually(async () => {
      ts = (await conversation()).threadTs;
      expect(ts).to.not.equal('');
    });
    return ts;
  };
  const operatorSays = (threadTs: string, text: string) =>
    server.slack.postAsUser({ teamId: ACME, userId: ALICE, channelId: widget.channel, threadTs, text });

  it('replays exactly the frames after lastSeq on reconnect, including replies sent while the socket was down', async () => {
    const first = await VisitorSocket.hello(server, widget.uuid);
    await say(first.socket, 'first question');
    const threadTs = await threadOf();
    await operatorSays(threadTs, 'answer one');
    const seen = await first.socket.next('msg', (f) => f.message.text === 'answer one');
    first.socket.close();

    await operatorSays(threadTs, 'answer two, while you were away');
    await operatorSays(threadTs, 'answer three');
    await eventually(async () => expect((await conversation()).lastSeq).to.equal(4));

    const again = await VisitorSocket.hello(server, widget.uuid, { visitorToken: first.welcome.visitorToken, lastSeq: seen.message.seq });
    expect(again.welcome.conversation).to.include({ lastSeq: 4, status: 'open' });
    await again.socket.next('msg', (f) => f.message.text === 'answer three');
    await operatorSays(threadTs, 'answer four, live');
    await again.socket.next('msg', (f) => f.message.text === 'answer four, live');
    expect(again.socket.msgs().map((f) => [f.message.seq, f.message.text])).to.deep.equal([
      [3, 'answer two, while you were away'],
      [4, 'answer three'],
      [5, 'answer four, live'],
    ]);
    again.socket.close();
  });

  it('answers a resent message with its first ack and posts it to Slack once', async () => {
    const { socket, welcome } = await VisitorSocket.hello(server, widget.uuid);
    const id = clientId();
    const ack = await say(socket, 'did this arrive?', id);
    socket.close();
    const again = await VisitorSocket.hello(server, widget.uuid, { visitorToken: welcome.visitorToken, lastSeq: 0 });
    const replayed = await again.socket.next('msg');
    expect(replayed.message).to.include({ clientId: id, seq: ack.seq });
    const second = await say(again.socket, 'did this arrive?', id);
    expect(second).to.include({ seq: ack.seq, id: ack.id });
    const threadTs = await threadOf();
    await say(again.socket, 'and this one');
    await eventually(async () => expect(repliesIn(server, widget.channel, threadTs)).to.deep.equal(['did this arrive?', 'and this one']));
    expect((await conversation()).visitorMsgs).to.equal(2);
    // The resend queued nothing: no job is left once both posts are done.
    await eventually(async () => expect(await server.models.OutboxJob.countDocuments({ kind: 'slack.reply' })).to.equal(0));
    again.socket.close();
  });

  it('posts a stored message whose Slack job was lost when the widget resends it, and only once', async () => {
    const { socket } = await VisitorSocket.hello(server, widget.uuid);
    await say(socket, 'opening line');
    const threadTs = await threadOf();
    await eventually(async () => expect(repliesIn(server, widget.channel, threadTs)).to.deep.equal(['opening line']));
    // Stored, but the database failed before its job was: the widget got no ack and resends it.
    const id = clientId();
    await appendEntry(server.models, (await conversation())._id, { kind: 'msg', from: 'visitor', text: 'lost on the way', clientId: id });
    const ack = await say(socket, 'lost on the way', id);
    await eventually(async () => expect(repliesIn(server, widget.channel, threadTs)).to.deep.equal(['opening line', 'lost on the way']));
    expect((await say(socket, 'lost on the way', id)).seq).to.equal(ack.seq);
    await say(socket, 'and the next one');
    await eventually(async () =>
      expect(repliesIn(server, widget.channel, threadTs)).to.deep.equal(['opening line', 'lost on the way', 'and the next one']),
    );
    socket.close();
  });

  it('tells the visitor’s other tab that a new conversation started, and replays it whole to a tab that comes back', async () => {
    const a = await VisitorSocket.hello(server, widget.uuid);
    const token = a.welcome.visitorToken;
    await say(a.socket, 'first conversation');
    const b = await VisitorSocket.hello(server, widget.uuid, { visitorToken: token });
    await b.socket.next('msg', (f) => f.message.text === 'first conversation');
    a.socket.send({ t: 'end' });
    await b.socket.next('ended');
    const first = await conversation();

    await say(a.socket, 'a new question');
    const second = await server.models.Conversation.findOne({ ceId: widget.ceId, _id: { $ne: first._id } });
    const announced = await b.socket.next('conversation');
    expect(announced.id).to.equal(String(second?._id));
    const line = await b.socket.next('msg', (f) => f.message.text === 'a new question');
    expect(line.message.seq).to.equal(1);
    const order = b.socket.frames.map((f) => f.t);
    expect(order.lastIndexOf('conversation')).to.be.below(order.lastIndexOf('msg'));
    expect(a.socket.frames.filter((f) => f.t === 'conversation').map((f) => (f as { id: string }).id)).to.include(String(second?._id));
    b.socket.close();

    // A tab that was away names the conversation its lastSeq counts in: the newer one is replayed from its start.
    const c = await VisitorSocket.hello(server, widget.uuid, {
      visitorToken: token,
      lastSeq: first.lastSeq,
      conversationId: String(first._id),
    });
    expect(c.welcome.conversation?.id).to.equal(String(second?._id));
    expect((await c.socket.next('msg', (f) => f.message.text === 'a new question')).message.seq).to.equal(1);
    a.socket.close();
    c.socket.close();
  });

  it('starts a new conversation for a message written on a socket whose conversation another process ended', async () => {
    const { socket } = await VisitorSocket.hello(server, widget.uuid);
    await say(socket, 'first conversation');
    const firstThread = await threadOf();
    // Ended behind this process's back (no ended frame reaches the socket): the socket still knows it as open.
    const first = await conversation();
    await server.models.Conversation.updateOne({ _id: first._id }, { $set: { status: 'ended', endedAt: new Date(), endedBy: 'operator' } });
    const ack = await say(socket, 'a new question');
    expect(ack.seq).to.equal(1);
    const second = await server.models.Conversation.findOne({ ceId: widget.ceId, _id: { $ne: first._id } });
    expect(second?.status).to.equal('open');
    await eventually(async () => {
      const fresh = await server.models.Conversation.findById(second?._id);
      expect(fresh?.threadTs).to.not.equal('');
      expect(repliesIn(server, widget.channel, fresh?.threadTs ?? '')).to.deep.equal(['a new question']);
    });
    // Both threads share the channel's Slack pace: the first line may still wait for its turn.
    await eventually(async () => expect(repliesIn(server, widget.channel, firstThread)).to.deep.equal(['first conversation']));
    expect((await server.models.Conversation.findById(first._id))?.lastSeq).to.equal(1);
    socket.close();
  });

  it('delivers messages sent during a Slack rate limit after Retry-After, in order', async () => {
    // Long enough that the thread's first post meets it on a loaded machine.
    server.slack.state.rateLimit('chat.postMessage', 3);
    const { socket } = await VisitorSocket.hello(server, widget.uuid);
    await say(socket, 'one');
    await say(socket, 'two');
    const threadTs = await threadOf();
    await eventually(async () => expect(repliesIn(server, widget.channel, threadTs)).to.deep.equal(['one', 'two']));
    const limited = server.slack.state.callsOf('chat.postMessage').filter((c) => c.status === 429);
    expect(limited.length).to.be.greaterThan(0);
    socket.close();
  });

  it('delivers messages in order after a Slack outage answering 500', async () => {
    server.slack.state.failNext('chat.postMessage', 4, 500);
    const { socket } = await VisitorSocket.hello(server, widget.uuid);
    for (const text of ['a', 'b', 'c']) await say(socket, text);
    const threadTs = await threadOf();
    await eventually(async () => expect(repliesIn(server, widget.channel, threadTs)).to.deep.equal(['a', 'b', 'c']));
    socket.close();
  });

  it('keeps undelivered messages across a restart of Parley and posts them once', async () => {
    const separate = await startRelayServer();
    try {
      const own = await setUpRelayWidget(separate);
      const visitor = await VisitorSocket.hello(separate, own.uuid);
      separate.slack.state.failNext('chat.postMessage', 1_000_000, 503);
      await say(visitor.socket, 'sent before the restart');
      await eventually(async () => expect(await separate.models.OutboxJob.countDocuments({ attempts: { $gte: 1 } })).to.be.greaterThan(0));
      visitor.socket.close();
      const dbName = separate.connection.name;
      const config = separate.parley.config;
      await separate.parley.close();

      const restarted = await startParley({ ...config, port: 0 }, { host: '127.0.0.1', dbName, logger: separate.parley.logger });
      try {
        const c = await restarted.models.Conversation.findOne({ ceId: own.ceId });
        await eventually(async () => {
          const fresh = await restarted.models.Conversation.findById(c?._id);
          expect(fresh?.threadTs).to.not.equal('');
          expect(restarted.slackSandbox?.state.replies(own.channel, fresh?.threadTs ?? '').map((m) => m.text)).to.deep.equal([
            'sent before the restart',
          ]);
        });
        await eventually(async () => expect(await restarted.models.OutboxJob.countDocuments({})).to.equal(0));
        const resumed = await VisitorSocket.hello({ url: restarted.url } as TestServer, own.uuid, {
          visitorToken: visitor.welcome.visitorToken,
          lastSeq: 1,
        });
        expect(resumed.welcome.conversation).to.include({ lastSeq: 1, status: 'open' });
        resumed.socket.close();
      } finally {
        await restarted.connection.dropDatabase();
        await restarted.close();
      }
    } finally {
      rmSync(separate.config.dataDir, { recursive: true, force: true });
    }
  });
});
