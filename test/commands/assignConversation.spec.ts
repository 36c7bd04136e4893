import { assignFirstReplier, setAssignee } from '../../server/commands/assignConversation';
import { ActionRefused } from '../../server/errors';
import { ACME, ALICE, BOB, eventually, say } from '../relay/helpers';
import { useChat } from './chat';

describe('assignConversation', () => {
  const { server, at, conversation, thread, expect } = useChat();
  const header = () => JSON.stringify(server.slack.state.channelMessages(at.widget.channel).find((m) => m.ts === at.chat.threadTs)?.blocks);

  it('gives the conversation to one of two operators who take it at the same instant: one line, one event, the header names them', async () => {
    const c = await conversation();
    const results = await Promise.allSettled(
      [ALICE, BOB].map((who) => setAssignee(server.parley.relay, c._id, { assigneeId: who, byId: who, expected: '' })),
    );
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r) => r.status === 'rejected');
    expect(won).to.have.length(1);
    expect(lost).to.have.length(1);
    expect((lost[0] as PromiseRejectedResult).reason).to.be.instanceOf(ActionRefused);
    const winner = (await conversation()).assigneeId;
    expect([ALICE, BOB]).to.include(winner);
    expect((lost[0] as PromiseRejectedResult).reason.message).to.include(`<@${winner}> took conversation #${c.number}`);
    await thread((texts) =>
      expect(texts.filter((t) => t.includes('took this conversation'))).to.deep.equal([
        `:bust_in_silhouette: <@${winner}> took this conversation.`,
      ]),
    );
    await eventually(async () => expect(header()).to.include(`Assigned to <@${winner}>`));
    const events = await server.models.InboxEvent.find({ conversationId: c._id });
    expect(events.map((e) => [e.kind, e.operatorId, e.byId])).to.deep.equal([['assigned', winner, winner]]);
    // Assigning it to whoever has it already changes nothing and says nothing.
    expect(await setAssignee(server.parley.relay, c._id, { assigneeId: winner, byId: ALICE })).to.equal(null);
    expect(await server.models.InboxEvent.countDocuments({ conversationId: c._id })).to.equal(1);
  });

  it('assigns the author of the first reply when nobody has it; the reply makes it wait for the visitor, a visitor line opens it', async () => {
    await server.slack.postAsUser({
      teamId: ACME,
      userId: ALICE,
      channelId: at.widget.channel,
      text: 'Hi, I am here',
      threadTs: at.chat.threadTs,
    });
    await eventually(async () => expect(await conversation()).to.include({ assigneeId: ALICE, inboxState: 'waiting' }));
    await thread((texts) => expect(texts).to.include(`:bust_in_silhouette: Assigned to <@${ALICE}>, whose reply was the first.`));
    await eventually(async () => expect(header()).to.include('Waiting for the visitor').and.include(`Assigned to <@${ALICE}>`));
    // Someone who has it keeps it: a later replier does not take it.
    await assignFirstReplier(server.parley.relay, (await conversation())._id, BOB);
    expect((await conversation()).assigneeId).to.equal(ALICE);
    await say(at.chat.socket, 'Thanks, one more question');
    await eventually(async () => expect((await conversation()).inboxState).to.equal('open'));
    await eventually(async () => expect(header()).to.include('*Open*: waiting for us'));
  });

  it('does not assign anyone on a first reply when the widget turned autoAssignOnReply off', async () => {
    await server.models.ChatEndpoint.updateOne({ _id: at.widget.ceId }, { $set: { autoAssignOnReply: false } });
    server.parley.relay.widgets.invalidate(at.widget.ceId);
    await server.slack.postAsUser({ teamId: ACME, userId: ALICE, channelId: at.widget.channel, text: 'Hello', threadTs: at.chat.threadTs });
    await eventually(async () => expect((await conversation()).inboxState).to.equal('waiting'));
    expect((await conversation()).assigneeId).to.equal('');
  });
});
