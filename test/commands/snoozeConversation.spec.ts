import { setAssignee } from '../../server/commands/assignConversation';
import { snoozeConversation, wakeConversation } from '../../server/commands/snoozeConversation';
import { ALICE, BOB, eventually, say } from '../relay/helpers';
import { useChat } from './chat';

describe('snoozeConversation', () => {
  const { server, at, conversation, thread, expect } = useChat();
  const header = () => JSON.stringify(server.slack.state.channelMessages(at.widget.channel).find((m) => m.ts === at.chat.threadTs)?.blocks);
  const hour = () => new Date(Date.now() + 60 * 60_000);

  it('snoozes and assigns at once: the header ends with both, one line each; the snooze’s end opens it and names the assignee', async () => {
    const c = await conversation();
    // A minute: the due work run past it must not also find the visitor gone (inactivity ends chats after minutes).
    const until = new Date(Date.now() + 60_000);
    await Promise.all([
      snoozeConversation(server.parley.relay, c._id, until, BOB),
      setAssignee(server.parley.relay, c._id, { assigneeId: ALICE, byId: BOB }),
    ]);
    expect(await conversation()).to.deep.include({ inboxState: 'snoozed', assigneeId: ALICE });
    await eventually(async () => expect(header()).to.include('*Snoozed* until').and.include(`Assigned to <@${ALICE}>`));
    await thread((texts) => {
      expect(texts.filter((t) => t.includes('snoozed this conversation'))).to.have.length(1);
      expect(texts.filter((t) => t.includes('assigned this conversation'))).to.have.length(1);
    });
    // Snoozing again until the same time changes nothing.
    await snoozeConversation(server.parley.relay, c._id, until, BOB);
    // Before its time the due work leaves it; after it, the conversation is open again, once.
    await server.parley.relay.dueWork.tick(new Date(until.getTime() - 1000));
    expect((await conversation()).inboxState).to.equal('snoozed');
    await server.parley.relay.dueWork.tick(new Date(until.getTime() + 1000));
    await server.parley.relay.dueWork.tick(new Date(until.getTime() + 2000));
    expect(await conversation()).to.deep.include({ inboxState: 'open', snoozedUntil: null });
    await thread((texts) => {
      expect(texts.filter((t) => t.includes('The snooze is over'))).to.deep.equal([
        `:alarm_clock: The snooze is over: this conversation is open again. <@${ALICE}>`,
      ]);
      expect(texts.filter((t) => t.includes('snoozed this conversation'))).to.have.length(1);
    });
    await eventually(async () => expect(header()).to.include('*Open*: waiting for us'));
    const kinds = (await server.models.InboxEvent.find({ conversationId: c._id }).sort({ at: 1 })).map((e) => e.kind);
    expect(kinds.filter((k) => k === 'snoozed')).to.have.length(1);
    expect(kinds.filter((k) => k === 'reopened')).to.have.length(1);
  });

  it('opens a snoozed conversation when the visitor writes, saying so and naming the assignee; an ended one cannot be snoozed', async () => {
    const c = await conversation();
    await setAssignee(server.parley.relay, c._id, { assigneeId: ALICE, byId: ALICE });
    await snoozeConversation(server.parley.relay, c._id, hour(), ALICE);
    await say(at.chat.socket, 'Are you still there?');
    await eventually(async () => expect(await conversation()).to.deep.include({ inboxState: 'open', snoozedUntil: null }));
    await thread((texts) =>
      expect(texts).to.include(`:envelope_with_arrow: The visitor wrote again: this snoozed conversation is open again. <@${ALICE}>`),
    );
    // Nothing is left to wake.
    expect(await wakeConversation(server.parley.relay, c._id, { kind: 'operator', byId: ALICE })).to.equal(false);
    at.chat.socket.send({ t: 'end' });
    await eventually(async () => expect((await conversation()).inboxState).to.equal('ended'));
    let refused = '';
    await snoozeConversation(server.parley.relay, c._id, hour(), ALICE).catch((e: Error) => {
      refused = e.message;
    });
    expect(refused).to.equal(`Conversation #${c.number} has already ended.`);
    await eventually(async () => {
      const ended = await server.models.InboxEvent.findOne({ conversationId: c._id, kind: 'ended' });
      expect(ended?.operatorId).to.equal(ALICE);
    });
  });
});
