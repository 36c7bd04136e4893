/**
 * What the reports read is recorded by the relay as it happens: a real chat (widget socket ↔ Slack sandbox)
 * shows up in the overview and the history with its messages, first reply, agent, rating, feedback and end.
 */
import { expect } from 'chai';
import request from 'supertest';
import { type ChatsPage, type OverviewReport, presetDates, rangeQuery, todayIn } from '../../server/shared/reports';
import { ACME, ALICE, eventually, say, setUpRelayWidget, useRelayServer, VisitorSocket } from '../relay/helpers';
import { PRO } from './seed';

describe('recording for the reports', () => {
  const server = useRelayServer();

  it('counts a live chat’s messages, first reply, agent, rating and end, and reports them', async () => {
    const widget = await setUpRelayWidget(server);
    const ce = await widget.widget();
    await server.models.Account.updateOne({ _id: ce.accountId }, { $set: { planStripeId: PRO } });
    const { socket } = await VisitorSocket.hello(server, widget.uuid, { identity: { name: 'Rita' } });
    await say(socket, 'Hello?');
    await say(socket, 'Anyone there?');
    const parentOf = () => server.slack.state.channelMessages(widget.channel).find((m) => m.botId);
    await eventually(async () => expect(parentOf()).to.not.equal(undefined));
    const parent = parentOf();
    await server.slack.postAsUser({
      teamId: ACME,
      userId: ALICE,
      channelId: widget.channel,
      threadTs: parent?.ts,
      text: 'Alice here, how can I help?',
    });
    await socket.next('msg', (f) => f.message.from === 'operator');
    socket.send({ t: 'end' });
    await socket.next('ended');
    socket.send({ t: 'rate', rating: 'up', feedback: 'Lovely' });
    await eventually(async () => {
      const c = await server.models.Conversation.findOne({ ceId: widget.ceId }).lean();
      expect(c).to.include({ visitorMsgs: 2, operatorMsgs: 1, agentName: 'Alice', rating: 'up', feedback: 'Lovely', status: 'ended' });
    });
    socket.close();

    const auth = { Authorization: `Bearer ${widget.token}` };
    const range = rangeQuery(presetDates('today', todayIn('UTC', new Date())), 'UTC');
    const overview = (await request(server.url).get(`/v1/reports/${widget.ceId}/overview`).query(range).set(auth).expect(200))
      .body as OverviewReport;
    expect(overview.totalStats).to.include({ totalChats: 1, upRatingCount: 1, upRatingPercent: 100, avgMsgsPerChat: 3, lateReply: 0 });
    expect(overview.stats.map((s) => s.agentName)).to.deep.equal(['Alice']);
    const history = (await request(server.url).get(`/v1/reports/${widget.ceId}/chats`).set(auth).expect(200)).body as ChatsPage;
    expect(history.totalChats).to.equal(1);
    expect(history.chats[0]).to.include({ agentName: 'Alice', chatRating: 'up', chatFeedback: 'Lovely' });
    expect(history.chats[0].visitor.name).to.equal('Rita');
  });
});
