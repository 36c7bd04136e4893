import { expect } from 'chai';
import request from 'supertest';
import { sendSavedReply } from '../../server/commands/sendSavedReply';
import { ACME, ALICE, eventually, type SetUp, say, setUpRelayWidget, threadOf, useRelayServer, VisitorSocket } from './helpers';

/**
 * Reminders are driven by the stored times: the test runs the relay's due-work pass with a clock moved past the
 * schedule instead of waiting for it. The widget keeps the defaults a new widget gets (reminders on, 120 s pace: after
 * 5, 15, 30 and 60 minutes, no @here) unless a test changes them.
 */
describe('response reminders in the thread', () => {
  let widget: SetUp;
  let socket: VisitorSocket;
  let threadTs: string;
  const server = useRelayServer();
  beforeEach(async () => {
    widget = await setUpRelayWidget(server);
    ({ socket } = await VisitorSocket.hello(server, widget.uuid, { identity: { name: 'Tom' } }));
    await say(socket, 'Anyone there?');
    threadTs = await threadOf(server, widget.ceId);
  });
  afterEach(() => socket.close());

  const MIN = 60;
  const later = (seconds: number) => new Date(Date.now() + seconds * 1000);
  const tick = async (seconds: number) => {
    // The visitor stays on the page: the clock moved hours ahead must not end the chat for inactivity.
    await server.models.Conversation.updateMany({ ceId: widget.ceId }, { $set: { inactiveAt: null } });
    const { dueWork } = server.parley.relay;
    await dueWork.tick(later(seconds));
    await dueWork.tick();
  };
  const reminders = () =>
    server.slack.state.replies(widget.channel, threadTs).filter((m) => /has been waiting|still unanswered/.test(m.text));
  /** The owner changes the widget's settings, as the console does. */
  const settings = async (set: Record<string, unknown>) => {
    await request(server.url)
      .put(`/v1/chat_endpoints/${widget.ceId}/update_config`)
      .set('Authorization', `Bearer ${widget.token}`)
      .send(set)
      .expect(200);
  };

  it('by default reminds after 5, 15, 30 and 60 minutes without @here, the last one saying so, then never again', async () => {
    await tick(MIN);
    await tick(4 * MIN + 50);
    expect(reminders()).to.have.length(0);
    for (const [index, minutes] of [5, 15, 30].entries()) {
      await tick(minutes * MIN + 1);
      await eventually(async () => expect(reminders()).to.have.length(index + 1));
      await tick(minutes * MIN + 120);
      expect(reminders()).to.have.length(index + 1);
    }
    expect(reminders().map((m) => m.text)).to.deep.equal([
      ':alarm_clock: Tom has been waiting 5 minutes for an answer.',
      ':alarm_clock: Tom has been waiting 15 minutes for an answer.',
      ':alarm_clock: Tom has been waiting 30 minutes for an answer.',
    ]);
    await tick(60 * MIN + 1);
    await eventually(async () => expect(reminders()).to.have.length(4));
    expect(reminders()[3]?.text).to.equal(
      ':hourglass: Tom is still unanswered after 60 minutes. That was the last reminder; the visitor sees your reply whenever it comes.',
    );
    await tick(5 * 60 * MIN);
    await tick(24 * 60 * MIN);
    expect(reminders()).to.have.length(4);
    // Done with it: the reminder pass no longer reads this conversation until the visitor writes again.
    expect((await server.models.Conversation.findOne({ ceId: widget.ceId }))?.reminderAt).to.equal(null);
  });

  it('reminds the assignee first, alone, and the channel only once they stayed silent past it', async () => {
    await settings({ responseRemindersMention: true });
    await server.models.Conversation.updateMany({ ceId: widget.ceId }, { $set: { assigneeId: ALICE } });
    await tick(5 * MIN + 1);
    await eventually(async () => expect(reminders()).to.have.length(1));
    expect(reminders()[0]?.text).to.equal(`<@${ALICE}> :alarm_clock: Tom has been waiting 5 minutes for an answer.`);
    await tick(15 * MIN + 1);
    await eventually(async () => expect(reminders()).to.have.length(2));
    expect(reminders()[1]?.text).to.equal(
      `<!here> <@${ALICE}> has not answered yet. :alarm_clock: Tom has been waiting 15 minutes for an answer.`,
    );
  });

  it('mentions @here only when the owner turns it on, at the pace chosen', async () => {
    await settings({ responseRemindersMention: true, responseRemindersFreq: 30 });
    await tick(76);
    await eventually(async () => expect(reminders()).to.have.length(1));
    expect(reminders()[0]?.text).to.match(/^<!here> :alarm_clock: Tom has been waiting 7[67] seconds for an answer\.$/);
  });

  it('stops once an operator answers in the thread, and once a saved reply answers the next question', async () => {
    await tick(5 * MIN + 1);
    await eventually(async () => expect(reminders()).to.have.length(1));
    await server.slack.postAsUser({ teamId: ACME, userId: ALICE, channelId: widget.channel, threadTs, text: 'Hi Tom, here now' });
    await socket.next('msg', (f) => f.message.from === 'operator');
    await eventually(async () => expect((await server.models.Conversation.findOne({ ceId: widget.ceId }))?.reminderAt).to.equal(null));
    await tick(15 * MIN + 1);
    await tick(60 * MIN + 1);
    expect(reminders()).to.have.length(1);

    await request(server.url)
      .post(`/v1/chat_endpoints/${widget.ceId}/saved_replies`)
      .set('Authorization', `Bearer ${widget.token}`)
      .send({ label: 'Shipping', response: 'We ship in 2 days.', shortcut: 'ship' })
      .expect(200);
    await say(socket, 'When does it ship?');
    const conversation = await server.models.Conversation.findOne({ ceId: widget.ceId });
    const operator = { slackUserId: ALICE, name: 'Alice Operator', avatarUrl: 'https://img.example/alice.png' };
    await sendSavedReply(server.parley.relay, { conversationId: String(conversation?._id), shortcut: 'ship', operator });
    await socket.next('msg', (f) => f.message.text === 'We ship in 2 days.');
    await tick(5 * MIN + 1);
    await tick(60 * MIN + 1);
    expect(reminders()).to.have.length(1);
  });

  it("stores a visitor line's first reminder time with the line (5 minutes later by default), so no pass reads it before", async () => {
    const c = await server.models.Conversation.findOne({ ceId: widget.ceId });
    expect(c?.reminderAt?.getTime()).to.equal((c?.lastVisitorMsgAt?.getTime() ?? 0) + 5 * MIN * 1000);
    await settings({ responseReminders: false });
    await say(socket, 'Hello?');
    expect((await server.models.Conversation.findOne({ ceId: widget.ceId }))?.reminderAt).to.equal(null);
  });

  it('reminds a wait already under way once the owner turns reminders on, at the pace chosen then', async () => {
    await settings({ responseReminders: false });
    await say(socket, 'Hello?');
    // A pass while reminders are off: the wait is owed nothing.
    await tick(MIN);
    expect((await server.models.Conversation.findOne({ ceId: widget.ceId }))?.reminderAt).to.equal(null);
    await settings({ responseReminders: true, responseRemindersFreq: 30 });
    await tick(76);
    await eventually(async () => expect(reminders()).to.have.length(1));
    expect(reminders()[0]?.text).to.match(/^:alarm_clock: Tom has been waiting 7[67] seconds for an answer\.$/);
  });

  it('does not remind when reminders are off, nor after the conversation ended', async () => {
    await settings({ responseReminders: false });
    await tick(61 * MIN);
    expect(reminders()).to.have.length(0);
    await settings({ responseReminders: true });
    socket.send({ t: 'end' });
    await socket.next('ended');
    await tick(61 * MIN);
    expect(reminders()).to.have.length(0);
  });
});
