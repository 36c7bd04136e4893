import { expect } from 'chai';
import { firstLineOf, visitorMessage } from '../../server/commands/sendVisitorMessage';
import { useChat } from './chat';

describe('sendVisitorMessage', () => {
  const { server, at, conversation, thread } = useChat();

  it('keeps the first line of a message, cut at 140 characters with an ellipsis', () => {
    expect(firstLineOf('  Hello there\nsecond line')).to.equal('Hello there');
    expect(firstLineOf('x'.repeat(200))).to.equal(`${'x'.repeat(139)}…`);
    expect(firstLineOf('\r\n')).to.equal('');
  });

  it('stores a message once per client id in the open conversation and relays it to the thread once', async () => {
    const c = await conversation();
    const ce = await at.widget.widget();
    const input = {
      ce,
      visitorId: c.visitorId,
      clientId: 'c_dup_000000001',
      text: 'Same *message* <!here>',
      origin: { pageUrl: '', triggerUid: '' },
    };
    const first = await visitorMessage(server.parley.relay, input);
    const again = await visitorMessage(server.parley.relay, input);
    expect(first.duplicate).to.equal(false);
    expect(again.duplicate).to.equal(true);
    expect(String(again.message._id)).to.equal(String(first.message._id));
    expect(String(first.conversation._id)).to.equal(at.chat.id);
    expect(await server.models.Message.countDocuments({ conversationId: c._id, text: input.text })).to.equal(1);
    await thread((texts) => expect(texts.filter((t) => t.includes('Same')).length).to.equal(1));
    await server.slack.settled();
    const relayed = server.slack.state.replies(at.widget.channel, at.chat.threadTs).filter((m) => (m.text ?? '').includes('Same'));
    expect(relayed).to.have.length(1);
    // What the visitor typed reaches Slack escaped: no mention fires.
    expect(relayed[0]?.text).to.not.include('<!here>');
  });

  it('opens a new conversation for a visitor whose conversation ended', async () => {
    const c = await conversation();
    await server.models.Conversation.updateOne({ _id: c._id }, { $set: { status: 'ended', endedAt: new Date() } });
    const ce = await at.widget.widget();
    const result = await visitorMessage(server.parley.relay, {
      ce,
      visitorId: c.visitorId,
      known: null,
      clientId: 'c_new_000000001',
      text: 'Back again',
      origin: { pageUrl: 'https://shop.example/back', triggerUid: '' },
    });
    expect(String(result.conversation._id)).to.not.equal(at.chat.id);
    const opened = await server.models.Conversation.findById(result.conversation._id);
    expect(opened).to.deep.include({ status: 'open', number: c.number + 1, firstLine: 'Back again' });
  });
});
