import { expect } from 'chai';
import { ACME, ALICE, eventually, type SetUp, say, setUpRelayWidget, threadOf, useRelayServer, VisitorSocket } from './helpers';

/**
 * Reminders are driven by the stored times: the test runs the relay's due-work pass with a clock moved past the
 * interval (responseRemindersFreq 30 s, the shortest option) instead of waiting for it.
 */
describe('response reminders in the thread', () => {
  let widget: SetUp;
  let socket: VisitorSocket;
  let threadTs: string;
  const server = useRelayServer();
  beforeEach(async () => {
    widget = await setUpRelayWidget(server);
    await server.models.ChatEndpoint.updateOne({ _id: widget.ceId }, { $set: { responseReminders: true, responseRemindersFreq: 30 } });
    ({ socket } = await VisitorSocket.hello(server, widget.uuid, { identity: { name: 'Tom' } }));
    await say(socket, 'Anyone there?');
    threadTs = await threadOf(server, widget.ceId);
  });
  afterEach(() => socket.close());

  const later = (seconds: number) => new Date(Date.now() + seconds * 1000);
  const tick = async (seconds: number) => {
    const { dueWork } = server.parley.relay;
    await dueWork.tick(later(seconds));
    await dueWork.tick();
  };
  const reminders = () => server.slack.state.replies(widget.channel, threadTs).filter((m) => m.text.includes('has been waiting'));

  it('stops an abandoned chat after three @here reminders with one last note without @here', async () => {
    for (const [index, seconds] of [31, 62, 93].entries()) {
      await tick(seconds);
      await eventually(async () => expect(reminders()).to.have.length(index + 1));
    }
    await tick(124);
    const last = () => server.slack.state.replies(widget.channel, threadTs).filter((m) => m.text.includes('still unanswered'));
    await eventually(async () => expect(last()).to.have.length(1));
    expect(last()[0]?.text).to.not.include('<!here>');
    expect(last()[0]?.text).to.match(/^:hourglass: Tom is still unanswered after \d+ minutes\. That was the last reminder/);
    await tick(155);
    await tick(600);
    expect(reminders()).to.have.length(3);
    expect(last()).to.have.length(1);
    // Done with it: the reminder pass no longer reads this conversation until the visitor writes again.
    expect((await server.models.Conversation.findOne({ ceId: widget.ceId }))?.reminderAt).to.equal(null);
  });

  it('reminds after the interval, again at each interval, and stops once an operator answers', async () => {
    await tick(10);
    expect(reminders()).to.have.length(0);
    await tick(31);
    await eventually(async () => expect(reminders()).to.have.length(1));
    expect(reminders()[0]?.text).to.match(/^<!here> :alarm_clock: Tom has been waiting \d+ seconds for an answer\.$/);
    await tick(40);
    expect(reminders()).to.have.length(1);
    await tick(62);
    await eventually(async () => expect(reminders()).to.have.length(2));

    await server.slack.postAsUser({ teamId: ACME, userId: ALICE, channelId: widget.channel, threadTs, text: 'Hi Tom, here now' });
    await socket.next('msg', (f) => f.message.from === 'operator');
    await eventually(async () =>
      expect((await server.models.Conversation.findOne({ ceId: widget.ceId }))?.lastOperatorMsgAt).to.be.instanceOf(Date),
    );
    await tick(200);
    expect(reminders()).to.have.length(2);
    expect((await server.models.Conversation.findOne({ ceId: widget.ceId }))?.reminderAt).to.equal(null);
  });

  it('does not remind when reminders are off, nor after the conversation ended', async () => {
    await server.models.ChatEndpoint.updateOne({ _id: widget.ceId }, { $set: { responseReminders: false } });
    // Written underneath the API: the relay's one-second settings cache is told, as the API does.
    server.parley.relay.widgets.invalidate(widget.ceId);
    await tick(100);
    expect(reminders()).to.have.length(0);
    await server.models.ChatEndpoint.updateOne({ _id: widget.ceId }, { $set: { responseReminders: true } });
    socket.send({ t: 'end' });
    await socket.next('ended');
    await tick(100);
    expect(reminders()).to.have.length(0);
  });
});
