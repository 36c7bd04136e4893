import { expect } from 'chai';
import { endConversation } from '../../server/commands/endConversation';
import { endInactive } from '../../server/relay';
import {
  ACME,
  ALICE,
  clientId,
  eventually,
  type SetUp,
  say,
  setUpRelayWidget,
  useRelayServer,
  VisitorSocket,
  webhookTarget,
} from './helpers';

describe('end of a conversation', () => {
  let widget: SetUp;
  const server = useRelayServer();
  beforeEach(async () => {
    widget = await setUpRelayWidget(server);
  });

  const conversation = async () => {
    const c = await server.models.Conversation.findOne({ ceId: widget.ceId }).sort({ _id: 1 });
    if (!c) throw new Error('no conversation');
    return c;
  };
  const header = async () => {
    const c = await conversation();
    return JSON.stringify(server.slack.state.message(widget.channel, c.threadTs)?.blocks ?? []);
  };
  const started = async (name = 'Erin') => {
    const opened = await VisitorSocket.hello(server, widget.uuid, { identity: { name } });
    await say(opened.socket, 'Question before I go');
    await eventually(async () => expect((await conversation()).threadTs).to.not.equal(''));
    return opened;
  };

  it('ends when the visitor ends it: ended frame, header, rating, transcript to the recipient and archive webhook', async () => {
    const hook = await webhookTarget();
    try {
      await server.models.ChatEndpoint.updateOne(
        { _id: widget.ceId },
        { $set: { emailOnArchive: true, transcriptRecipient: 'archive@example.com', webhookOnArchive: true, webhookUrl: hook.url } },
      );
      const { socket } = await started();
      await server.models.Conversation.updateOne({ _id: (await conversation())._id }, { $set: { tags: ['billing'] } });
      socket.send({ t: 'end' });
      const ended = await socket.next('ended');
      expect(ended.by).to.equal('visitor');
      expect(ended.seq).to.equal(2);
      socket.send({ t: 'rate', rating: 'up', feedback: 'Quick and kind' });
      await eventually(async () => {
        const c = await conversation();
        expect(c).to.include({ status: 'ended', endedBy: 'visitor', rating: 'up', feedback: 'Quick and kind' });
        expect(c.endedAt).to.be.an.instanceOf(Date);
      });
      await eventually(async () =>
        expect(await header())
          .to.include('Ended by the visitor')
          .and.include(':+1:')
          .and.include('Quick and kind'),
      );
      await eventually(async () => expect((await server.outbox.latestTo('archive@example.com'))?.text).to.include('Question before I go'));
      await eventually(async () => expect(hook.bodies).to.have.length(1));
      const body = hook.bodies[0] as {
        event: string;
        conversation: { number: number; messages: { text: string }[]; visitor: { name: string }; tags: string[] };
      };
      expect(body.event).to.equal('conversation.archived');
      expect(body.conversation.tags).to.deep.equal(['billing']);
      expect(body.conversation.visitor.name).to.equal('Erin');
      expect(body.conversation.messages.map((m) => m.text)).to.deep.equal(['Question before I go']);
      socket.close();
    } finally {
      await hook.close();
    }
  });

  it('ends from Slack through endConversation, and tells the thread when a later reply cannot reach the visitor', async () => {
    const { socket } = await started();
    const c = await conversation();
    expect((await endConversation(server.parley.relay, c._id, 'operator')).ended).to.equal(true);
    expect((await endConversation(server.parley.relay, c._id, 'operator')).ended).to.equal(false);
    expect((await socket.next('ended')).by).to.equal('operator');
    await server.slack.postAsUser({ teamId: ACME, userId: ALICE, channelId: widget.channel, threadTs: c.threadTs, text: 'too late' });
    await eventually(async () => {
      const lines = server.slack.state.replies(widget.channel, c.threadTs).map((m) => m.text);
      expect(lines.join('\n')).to.include('has ended');
    });
    expect(socket.msgs().map((f) => f.message.text)).to.not.include('too late');
    socket.close();
  });

  it('ends conversations of visitors gone longer than maxVisitorInactiveMins', async () => {
    await server.models.ChatEndpoint.updateOne({ _id: widget.ceId }, { $set: { maxVisitorInactiveMins: 5 } });
    const { socket } = await started();
    expect(await endInactive(server.parley.relay)).to.equal(0);
    const c = await conversation();
    const later = new Date(Date.now() + 6 * 60_000);
    await server.models.Visitor.updateOne({ _id: c.visitorId }, { $set: { lastSeenAt: new Date(Date.now() - 60_000) } });
    expect(await endInactive(server.parley.relay, later)).to.be.greaterThan(0);
    expect((await socket.next('ended')).by).to.equal('inactivity');
    expect((await conversation()).endedBy).to.equal('inactivity');
    socket.close();
  });

  it('mails a transcript with the operator formatting as words and links, never raw *asterisks*', async () => {
    const { socket } = await started();
    const c = await conversation();
    await server.slack.postAsUser({
      teamId: ACME,
      userId: ALICE,
      channelId: widget.channel,
      threadTs: c.threadTs,
      text: '*Good news* and <https://shop.example.com/track|your tracking page>',
    });
    const reply = await socket.next('msg', (f) => f.message.from === 'operator');
    expect(reply.message.html).to.include('<a href="https://shop.example.com/track"');
    socket.send({ t: 'end' });
    await socket.next('ended');
    socket.send({ t: 'transcript', email: 'mira@example.com' });
    await eventually(async () =>
      expect((await server.outbox.latestTo('mira@example.com'))?.text).to.include('Good news and your tracking page'),
    );
    const mail = await server.outbox.latestTo('mira@example.com');
    expect(mail?.text).to.not.include('*');
    expect(mail?.html).to.include('<strong>Good news</strong>').and.include('href="https://shop.example.com/track"');
  });

  it('mails a transcript to the address the visitor gives and starts a new conversation on the next message', async () => {
    const { socket } = await started();
    socket.send({ t: 'end' });
    await socket.next('ended');
    socket.send({ t: 'transcript', email: 'erin@example.com' });
    await eventually(async () => expect((await server.outbox.latestTo('erin@example.com'))?.text).to.include('Question before I go'));
    const ack = await say(socket, 'One more thing', clientId());
    expect(ack.seq).to.equal(1);
    const all = await server.models.Conversation.find({ ceId: widget.ceId }).sort({ number: 1 });
    expect(all.map((c) => [c.number, c.status])).to.deep.equal([
      [1, 'ended'],
      [2, 'open'],
    ]);
    socket.close();
  });

  it('discards without transcript or archive webhook', async () => {
    const hook = await webhookTarget();
    try {
      await server.models.ChatEndpoint.updateOne(
        { _id: widget.ceId },
        { $set: { emailOnArchive: true, transcriptRecipient: 'discarded@example.com', webhookOnArchive: true, webhookUrl: hook.url } },
      );
      const { socket } = await started();
      const c = await conversation();
      expect((await endConversation(server.parley.relay, c._id, 'operator', { discard: true })).ended).to.equal(true);
      expect((await socket.next('ended')).by).to.equal('operator');
      expect(await conversation()).to.include({ status: 'ended', discarded: true });
      // Post-chat jobs would be stored before endConversation returns, and stay until delivered.
      expect(
        await server.models.OutboxJob.countDocuments({ key: { $in: [`mail:${String(c._id)}`, `webhook:${String(c._id)}`] } }),
      ).to.equal(0);
      expect(await server.outbox.latestTo('discarded@example.com')).to.equal(undefined);
      expect(hook.bodies).to.have.length(0);
      socket.close();
    } finally {
      await hook.close();
    }
  });
});
