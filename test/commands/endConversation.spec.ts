import { expect } from 'chai';
import { endConversation, endVisitorConversation } from '../../server/commands/endConversation';
import { eventually } from '../slack/helpers';
import { useChat } from './chat';

describe('endConversation', () => {
  const { server, at, conversation } = useChat();

  it('ends an open conversation once: the widget is told who ended it, the transcript is mailed; a second end changes nothing', async () => {
    await server.models.ChatEndpoint.updateOne(
      { _id: at.widget.ceId },
      { $set: { emailOnArchive: true, transcriptRecipient: 'owner@shop.test' } },
    );
    const first = await endConversation(server.parley.relay, at.chat.id, 'operator', { operatorSlackUserId: 'U0ALICE001' });
    expect(first.ended).to.equal(true);
    expect((await at.chat.socket.next('ended')).by).to.equal('operator');
    const ended = await conversation();
    expect(ended).to.deep.include({ status: 'ended', endedBy: 'operator', inactiveAt: null, noAnswerAt: null });
    expect(await server.models.Message.exists({ conversationId: ended._id, kind: 'ended', endedBy: 'operator' })).to.not.equal(null);
    await eventually(async () => expect((await server.outbox.latestTo('owner@shop.test'))?.text).to.include('Hello, is anyone there?'));
    expect((await endConversation(server.parley.relay, at.chat.id, 'visitor')).ended).to.equal(false);
    expect((await conversation()).endedBy).to.equal('operator');
  });

  it('discards without post-chat actions, and ends only while the inactivity due time read is still the one stored', async () => {
    await server.models.ChatEndpoint.updateOne(
      { _id: at.widget.ceId },
      { $set: { emailOnArchive: true, transcriptRecipient: 'discard@shop.test' } },
    );
    const stale = new Date(Date.now() - 3600_000);
    expect((await endConversation(server.parley.relay, at.chat.id, 'inactivity', { dueAt: stale })).ended).to.equal(false);
    expect((await conversation()).status).to.equal('open');
    expect((await endConversation(server.parley.relay, at.chat.id, 'operator', { discard: true })).ended).to.equal(true);
    expect((await conversation()).discarded).to.equal(true);
    expect(await server.models.OutboxJob.countDocuments({ kind: 'mail', key: `mail:${at.chat.id}` })).to.equal(0);
    expect(await server.outbox.latestTo('discard@shop.test')).to.equal(undefined);
  });

  it("ends the visitor's own open conversation when they close it", async () => {
    const c = await conversation();
    await endVisitorConversation(server.parley.relay, c.visitorId);
    expect((await at.chat.socket.next('ended')).by).to.equal('visitor');
    expect((await conversation()).endedBy).to.equal('visitor');
  });
});
