/**
 * The plan's limits in the relay: the conversation over the monthly quota still goes through and marks the
 * account; replies of operators beyond the plan still reach the visitor, the operator told privately once.
 */
import { expect } from 'chai';
import type { Types } from 'mongoose';
import { monthKey, operatorLimitText } from '../../server/billing/operators';
import { payingOn } from '../factories';
import { ACME, ALICE, BOB, eventually, say, setUpRelayWidget, useRelayServer, VisitorSocket } from './helpers';

describe('plan limits in the relay', () => {
  const server = useRelayServer();
  /** The trial is over and the account pays for Basic: Basic's limits apply (during the trial Business's do). */
  const paysForBasic = async (accountId: Types.ObjectId) => {
    await payingOn(server, 'parley_basic_monthly', { accountId });
  };

  it("takes the conversation over the month's quota, relays it to Slack, and marks the account over quota", async () => {
    const widget = await setUpRelayWidget(server);
    const ce = await widget.widget();
    await paysForBasic(ce.accountId);
    await server.models.Conversation.insertMany(
      Array.from({ length: 300 }, (_, i) => ({
        accountId: ce.accountId,
        ceId: ce._id,
        number: 1000 + i,
        visitorId: ce._id,
        status: 'ended',
      })),
    );
    const { socket } = await VisitorSocket.hello(server, widget.uuid, { identity: { name: 'Number 301' } });
    await say(socket, 'Hello from the 301st conversation');
    await eventually(async () => {
      const parent = server.slack.state
        .channelMessages(widget.channel)
        .find((m) => JSON.stringify(m.blocks ?? []).includes('301st conversation'));
      expect(parent).to.not.equal(undefined);
    });
    // Counted after the first line's ack: the mark follows within moments.
    await eventually(async () => {
      const account = await server.models.Account.findById(ce.accountId);
      expect(account?.quota).to.deep.include({ isOverquota: true, reason: '301 conversations this month, your Basic plan includes 300' });
    });
    socket.close();
  });

  it('relays the reply of an operator over the limit and tells them privately once per conversation; seated operators hear nothing', async () => {
    const widget = await setUpRelayWidget(server);
    const ce = await widget.widget();
    await paysForBasic(ce.accountId);
    // Basic has 3 operator seats: two are taken this month by others, Bob takes the last one.
    await server.models.OperatorSeat.insertMany(
      ['U0OTHER001', 'U0OTHER002'].map((slackUserId) => ({ accountId: ce.accountId, month: monthKey(), slackUserId, seated: true })),
    );
    const { socket } = await VisitorSocket.hello(server, widget.uuid, { identity: { name: 'Tom' } });
    await say(socket, 'Can someone help?');
    await eventually(async () => expect((await server.models.Conversation.findOne({ ceId: widget.ceId }))?.threadTs).to.not.equal(''));
    const conversation = await server.models.Conversation.findOne({ ceId: widget.ceId });
    const threadTs = conversation?.threadTs ?? '';
    await server.slack.joinChannel({ teamId: ACME, userId: BOB, channelId: widget.channel });
    const reply = (userId: string, text: string) =>
      server.slack.postAsUser({ teamId: ACME, userId, channelId: widget.channel, threadTs, text });

    await reply(BOB, 'Bob here, one moment');
    await socket.next('msg', (f) => f.message.text === 'Bob here, one moment');
    await reply(ALICE, 'Alice here, I can help too');
    await socket.next('msg', (f) => f.message.text === 'Alice here, I can help too');
    await reply(ALICE, 'Still here');
    await socket.next('msg', (f) => f.message.text === 'Still here');

    await eventually(async () =>
      expect(server.slack.state.ephemeralsFor(ACME, ALICE, widget.channel).map((e) => e.text)).to.deep.equal([
        operatorLimitText('Basic', 3),
      ]),
    );
    expect(server.slack.state.ephemeralsFor(ACME, BOB, widget.channel)).to.deep.equal([]);
    const seats = await server.models.OperatorSeat.find({ accountId: ce.accountId }).lean();
    expect(
      seats
        .filter((s) => s.seated)
        .map((s) => s.slackUserId)
        .sort(),
    ).to.deep.equal([BOB, 'U0OTHER001', 'U0OTHER002'].sort());
    expect(seats.find((s) => s.slackUserId === ALICE)?.warnedConversationIds.map(String)).to.deep.equal([String(conversation?._id)]);
    socket.close();
  });

  it("during the trial applies the top plan's limits: no quota mark at Basic's 301st conversation, no seat limit for a fourth operator", async () => {
    const widget = await setUpRelayWidget(server);
    const ce = await widget.widget();
    await server.models.Conversation.insertMany(
      Array.from({ length: 300 }, (_, i) => ({
        accountId: ce.accountId,
        ceId: ce._id,
        number: 1000 + i,
        visitorId: ce._id,
        status: 'ended',
      })),
    );
    await server.models.OperatorSeat.insertMany(
      ['U0OTHER001', 'U0OTHER002', 'U0OTHER003'].map((slackUserId) => ({
        accountId: ce.accountId,
        month: monthKey(),
        slackUserId,
        seated: true,
      })),
    );
    const { socket } = await VisitorSocket.hello(server, widget.uuid, { identity: { name: 'Trial visitor' } });
    await say(socket, 'Hello during the trial');
    const visitorConversation = () => server.models.Conversation.findOne({ ceId: widget.ceId, number: { $lt: 1000 } });
    await eventually(async () => expect((await visitorConversation())?.threadTs).to.not.equal(''));
    const conversation = await visitorConversation();
    await server.slack.joinChannel({ teamId: ACME, userId: ALICE, channelId: widget.channel });
    await server.slack.postAsUser({
      teamId: ACME,
      userId: ALICE,
      channelId: widget.channel,
      threadTs: conversation?.threadTs ?? '',
      text: 'Alice, fourth operator',
    });
    await socket.next('msg', (f) => f.message.text === 'Alice, fourth operator');
    // A marker after Alice's reply: once it is through, any ephemeral about her reply would have been posted.
    await server.slack.postAsUser({
      teamId: ACME,
      userId: ALICE,
      channelId: widget.channel,
      threadTs: conversation?.threadTs ?? '',
      text: 'Marker',
    });
    await socket.next('msg', (f) => f.message.text === 'Marker');
    expect(server.slack.state.ephemeralsFor(ACME, ALICE, widget.channel)).to.deep.equal([]);
    expect((await server.models.Account.findById(ce.accountId))?.quota.isOverquota).to.equal(false);
    socket.close();
  });
});
