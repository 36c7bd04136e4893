/**
 * Response targets as a team sees them through the Slack sandbox: replies in the thread become the Team report's
 * answered, median and within-target figures (GET /v1/reports/{ceId}/team), and App Home shows each operator their
 * Mine and the Unassigned list, with each conversation's state and a flag on one past its target.
 */
import { expect } from 'chai';
import { Types } from 'mongoose';
import request from 'supertest';
import { setAssignee } from '../../server/commands/assignConversation';
import { remindMissedTarget } from '../../server/commands/responseTargets';
import { snoozeConversation } from '../../server/commands/snoozeConversation';
import { remindMissedTargets } from '../../server/relay/index';
import type { TeamReport } from '../../server/shared/reports';
import { ACME, ALICE, BOB, eventually, type SetUp, say, setUpRelayWidget, useRelayServer } from '../relay/helpers';
import { type Chat, fastHomes, openChat } from './operatorHelpers';

describe('Response targets and App Home’s Mine and Unassigned (Slack sandbox)', () => {
  const server = useRelayServer();
  let widget: SetUp;
  before(() => fastHomes(server));
  beforeEach(async () => {
    server.slack.state.setPresence(ALICE, 'active');
    widget = await setUpRelayWidget(server);
    await server.slack.joinChannel({ teamId: ACME, userId: BOB, channelId: widget.channel });
    // Inactivity must not end the chats in the due-work passes below, which run minutes ahead.
    await server.models.ChatEndpoint.updateOne(
      { _id: widget.ceId },
      { $set: { firstResponseTargetMins: 30, nextResponseTargetMins: 5, maxVisitorInactiveMins: 120 } },
    );
    server.parley.relay.widgets.invalidate(widget.ceId);
  });
  const chats: Chat[] = [];
  afterEach(() => {
    for (const c of chats.splice(0)) c.socket.close();
  });
  const open = async (name: string) => {
    const chat = await openChat(server, widget, name);
    chats.push(chat);
    return chat;
  };
  const reply = (chat: Chat, who: string, text: string) =>
    server.slack.postAsUser({ teamId: ACME, userId: who, channelId: widget.channel, text, threadTs: chat.threadTs });
  const responses = (chat: Chat) => server.models.InboxEvent.countDocuments({ conversationId: chat.id, kind: 'response' });

  it('turns thread replies into the Team report’s answered, median response times and share within target', async () => {
    const chat = await open('Walter');
    expect((await server.models.Conversation.findById(chat.id))?.targetKind).to.equal('first');
    await reply(chat, ALICE, 'Hello Walter, Alice here.');
    await eventually(async () => expect(await responses(chat)).to.equal(1));
    await say(chat.socket, 'Can Bob check my invoice?');
    let due: Date | null | undefined;
    await eventually(async () => {
      due = (await server.models.Conversation.findById(chat.id))?.targetDueAt;
      expect(due).to.be.instanceOf(Date);
    });
    // Nobody answers within the next-response target: the due work reminds, and the late answer is outside it.
    expect(await remindMissedTargets(server.parley.relay, new Date((due as Date).getTime() + 1000))).to.equal(1);
    await reply(chat, BOB, 'Bob here, your invoice is fixed.');
    await eventually(async () => expect(await responses(chat)).to.equal(2));

    const day = new Date().toISOString().slice(0, 10);
    // The Team report's tallies are written just after the events the test waited for: read until they are.
    await eventually(async () => {
      const res = await request(server.url)
        .get(`/v1/reports/${widget.ceId}/team`)
        .query({ tz: 'UTC', startDate: `${day}T00:00:00`, endDate: `${day}T23:59:59` })
        .set('Authorization', `Bearer ${widget.token}`)
        .expect(200);
      const report = res.body as TeamReport;
      const row = (id: string) => report.operators.find((o) => o.id === id);
      expect(row(ALICE)).to.include({
        answered: 1,
        firstResponses: 1,
        nextResponses: 0,
        targeted: 1,
        withinTarget: 1,
        withinTargetPercent: 100,
      });
      expect(row(ALICE)?.medianFirstResponseSecs).to.be.a('number').within(0, 60);
      expect(row(BOB)).to.include({
        answered: 1,
        firstResponses: 0,
        nextResponses: 1,
        targeted: 1,
        withinTarget: 0,
        withinTargetPercent: 0,
      });
      expect(row(BOB)?.medianNextResponseSecs).to.be.a('number').within(0, 60);
      expect(report.team).to.include({ answered: 1, targeted: 2, withinTarget: 1, withinTargetPercent: 50 });
    });
  });

  it('shows each operator their Mine and the Unassigned list, oldest waiting first, with states and a flag past the target', async () => {
    const walter = await open('Walter');
    await open('Vera');
    const olga = await open('Olga');
    const xavier = await open('Xavier');
    await setAssignee(server.parley.relay, new Types.ObjectId(walter.id), { assigneeId: ALICE, byId: ALICE });
    await setAssignee(server.parley.relay, new Types.ObjectId(olga.id), { assigneeId: BOB, byId: ALICE });
    await snoozeConversation(server.parley.relay, new Types.ObjectId(xavier.id), new Date(Date.now() + 3_600_000), BOB);
    // Walter's first-response target passes unanswered (30 minutes on): one reminder, and the flag.
    const due = (await server.models.Conversation.findById(walter.id))?.targetDueAt as Date;
    // Walter's alone: the others' targets come due moments later.
    expect(
      await remindMissedTarget(
        server.parley.relay,
        { _id: new Types.ObjectId(walter.id), targetDueAt: due },
        new Date(due.getTime() + 1000),
      ),
    ).to.equal(true);

    const list = (userId: string, which: 'mine' | 'unassigned') => {
      const blocks = (server.slack.state.homeView(ACME, userId)?.definition.blocks ?? []) as {
        block_id?: string;
        text?: { text: string };
      }[];
      return blocks.find((b) => b.block_id === `${which}_${widget.ceId}`)?.text?.text ?? '';
    };
    await server.slack.openAppHome({ teamId: ACME, userId: ALICE });
    await server.slack.openAppHome({ teamId: ACME, userId: BOB });
    await eventually(async () => expect(list(ALICE, 'mine')).to.include('Walter'));
    await eventually(async () => expect(list(BOB, 'mine')).to.include('Olga'));

    const aliceMine = list(ALICE, 'mine');
    expect(aliceMine).to.match(/^\*Mine\* \(1\)\n• <[^|]+\|#\d+ · Walter>: :hourglass_flowing_sand: open, waiting since <!date\^/);
    expect(aliceMine).to.include(':rotating_light: *past its response target*');
    // The others wait within their target; the snoozed one says until when; both operators see the same Unassigned.
    const unassigned = list(ALICE, 'unassigned');
    expect(unassigned).to.match(/^\*Unassigned\* \(2\)\n/);
    expect(unassigned.indexOf('Vera')).to.be.greaterThan(0);
    expect(unassigned.indexOf('Xavier')).to.be.greaterThan(unassigned.indexOf('Vera'));
    expect(unassigned).to.include(':zzz: snoozed until').and.not.include('past its response target');
    expect(list(BOB, 'unassigned')).to.equal(unassigned);
    expect(list(BOB, 'mine')).to.match(/^\*Mine\* \(1\)\n• <[^|]+\|#\d+ · Olga>: :hourglass_flowing_sand: open/);
    expect(list(BOB, 'mine')).to.not.include('Walter').and.not.include('past its response target');
  });

  it('flags a conversation in an open App Home the moment its target is missed, not at the tabs’ next sweep', async () => {
    const walter = await open('Walter');
    await setAssignee(server.parley.relay, new Types.ObjectId(walter.id), { assigneeId: ALICE, byId: ALICE });
    const mine = () => {
      const blocks = (server.slack.state.homeView(ACME, ALICE)?.definition.blocks ?? []) as {
        block_id?: string;
        text?: { text: string };
      }[];
      return blocks.find((b) => b.block_id === `mine_${widget.ceId}`)?.text?.text ?? '';
    };
    await server.slack.openAppHome({ teamId: ACME, userId: ALICE });
    await eventually(async () => expect(mine()).to.include('Walter'));
    expect(mine()).to.not.include('past its response target');

    const due = (await server.models.Conversation.findById(walter.id))?.targetDueAt as Date;
    // Walter's alone (the earlier tests' conversations are past their targets too).
    const walterDue = { _id: new Types.ObjectId(walter.id), targetDueAt: due };
    expect(await remindMissedTarget(server.parley.relay, walterDue, new Date(due.getTime() + 1000))).to.equal(true);
    // The tabs sweep every 30 s: the flag shows within a few seconds because the header's update told them.
    await eventually(async () => expect(mine()).to.include(':rotating_light: *past its response target*'), 5_000);
  });
});
