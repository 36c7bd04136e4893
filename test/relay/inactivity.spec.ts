/**
 * Ending conversations for visitor inactivity by due time: `inactiveAt` follows the visitor's last message and the
 * widget's grace period, the check ends a conversation once it has come and not before, leaves a visitor who is still
 * on the page alone, and a pass when nothing is due reads no conversation however many are open (commands counted by
 * the MongoDB driver's command monitoring on a second connection to the same database).
 */
import { expect } from 'chai';
import type { CommandSucceededEvent } from 'mongodb';
import mongoose, { type Connection, Types } from 'mongoose';
import request from 'supertest';
import { SEEN_STALE_MS, scheduleOldDueTimes } from '../../server/commands/conversationDueTimes';
import { createModels } from '../../server/models';
import { endInactive, notifyUnanswered } from '../../server/relay';
import { testMongoUri } from '../helpers/mongo';
import { type SetUp, say, setUpRelayWidget, useRelayServer, VisitorSocket } from './helpers';

const MINUTE = 60_000;

describe('ending conversations for visitor inactivity', () => {
  let widget: SetUp;
  const server = useRelayServer();
  beforeEach(async () => {
    widget = await setUpRelayWidget(server);
    await server.models.ChatEndpoint.updateOne({ _id: widget.ceId }, { $set: { maxVisitorInactiveMins: 1 } });
    server.parley.relay.widgets.invalidate(widget.ceId);
  });

  const conversation = async () => {
    const c = await server.models.Conversation.findOne({ ceId: widget.ceId }).sort({ _id: -1 }).lean();
    if (!c) throw new Error('no conversation');
    return c;
  };
  /** The visitor's widget was last open at `at`. */
  const lastSeen = async (visitorId: Types.ObjectId, at: Date) => {
    await server.models.Visitor.updateOne({ _id: visitorId }, { $set: { lastSeenAt: at } });
  };
  const chatting = async () => {
    const { socket } = await VisitorSocket.hello(server, widget.uuid);
    await say(socket, 'Is the grinder in stock?');
    return socket;
  };

  it('is due one grace period after the last visitor message, and ends then, not before, and only once, also when two processes look', async () => {
    const socket = await chatting();
    const first = await conversation();
    expect(first.inactiveAt?.getTime()).to.equal((first.lastVisitorMsgAt?.getTime() ?? 0) + MINUTE);
    await say(socket, 'Hello?');
    const c = await conversation();
    expect(c.lastVisitorMsgAt?.getTime()).to.be.at.least(first.lastVisitorMsgAt?.getTime() ?? 0);
    const due = c.inactiveAt ?? new Date(0);
    expect(due.getTime()).to.equal((c.lastVisitorMsgAt?.getTime() ?? 0) + MINUTE);
    await lastSeen(c.visitorId, new Date(due.getTime() - 10 * MINUTE));

    expect(await endInactive(server.parley.relay, new Date(due.getTime() - 1))).to.equal(0);
    expect((await conversation()).status).to.equal('open');
    // Two processes looking at the same moment: one ends it.
    const other = await mongoose.createConnection(await testMongoUri(), { dbName: server.dbName }).asPromise();
    try {
      const elsewhere = { ...server.parley.relay, models: createModels(other) };
      const counts = await Promise.all([endInactive(server.parley.relay, due), endInactive(elsewhere, due)]);
      expect(counts[0] + counts[1]).to.equal(1);
    } finally {
      await other.close();
    }
    expect(await server.models.Message.countDocuments({ conversationId: c._id, kind: 'ended' })).to.equal(1);
    expect((await socket.next('ended')).by).to.equal('inactivity');
    expect(await conversation()).to.include({ status: 'ended', endedBy: 'inactivity', inactiveAt: null, noAnswerAt: null });
    expect(await endInactive(server.parley.relay, new Date(due.getTime() + 10 * MINUTE))).to.equal(0);
    socket.close();
  });

  it('moves the due time on instead of ending while the visitor is still on the page', async () => {
    const socket = await chatting();
    const c = await conversation();
    const due = c.inactiveAt ?? new Date(0);
    // An open widget's lastSeenAt is saved once a minute: seen a grace period ago can still mean on the page now.
    const seen = new Date(due.getTime() + 10_000);
    await lastSeen(c.visitorId, seen);
    expect(await endInactive(server.parley.relay, new Date(seen.getTime() + MINUTE + 1000))).to.equal(0);
    const after = await conversation();
    expect(after.status).to.equal('open');
    const gone = seen.getTime() + MINUTE + SEEN_STALE_MS;
    expect(after.inactiveAt?.getTime()).to.equal(gone);
    expect(await endInactive(server.parley.relay, new Date(gone - 1))).to.equal(0);
    expect(await endInactive(server.parley.relay, new Date(gone))).to.equal(1);
    expect((await socket.next('ended')).by).to.equal('inactivity');
    socket.close();
  });

  it("moves the open conversations' due times when the widget's grace periods change", async () => {
    const socket = await chatting();
    const c = await conversation();
    const update = (body: Record<string, unknown>) =>
      request(server.url).put(`/v1/chat_endpoints/${widget.ceId}/update_config`).set('Authorization', `Bearer ${widget.token}`).send(body);

    await update({ maxVisitorInactiveMins: 15, noAnswerMessageAfterSecs: 30 }).expect(200);
    const longer = await conversation();
    expect(longer.inactiveAt?.getTime()).to.equal((c.lastVisitorMsgAt?.getTime() ?? 0) + 15 * MINUTE);
    expect(longer.noAnswerAt?.getTime()).to.equal(c.startedAt.getTime() + 30_000);
    await lastSeen(c.visitorId, c.startedAt);
    expect(await endInactive(server.parley.relay, new Date((c.inactiveAt?.getTime() ?? 0) + MINUTE))).to.equal(0);

    // "Immediately (not recommended)": due at once, ended as soon as the visitor's widget is gone.
    await update({ maxVisitorInactiveMins: 0 }).expect(200);
    expect((await conversation()).inactiveAt?.getTime()).to.equal(c.lastVisitorMsgAt?.getTime());
    const now = new Date();
    await lastSeen(c.visitorId, now);
    expect(await endInactive(server.parley.relay, now)).to.equal(0);
    expect((await conversation()).inactiveAt?.getTime()).to.equal(now.getTime() + SEEN_STALE_MS);
    expect(await endInactive(server.parley.relay, new Date(now.getTime() + SEEN_STALE_MS))).to.equal(1);
    expect((await socket.next('ended')).by).to.equal('inactivity');
    socket.close();
  });

  it('gives conversations open from before the due times theirs once, from their own facts', async () => {
    const socket = await chatting();
    const c = await conversation();
    await server.models.Conversation.collection.updateOne({ _id: c._id }, { $unset: { inactiveAt: '', noAnswerAt: '' } });
    await scheduleOldDueTimes(server.models);
    const scheduled = await conversation();
    expect(scheduled.inactiveAt?.getTime()).to.equal((c.lastVisitorMsgAt?.getTime() ?? 0) + MINUTE);
    expect(scheduled.noAnswerAt?.getTime()).to.equal(c.startedAt.getTime() + (await widget.widget()).noAnswerMessageAfterSecs * 1000);
    socket.close();
  });

  describe('with many conversations open and none due', () => {
    let counted: Connection;
    const replies: CommandSucceededEvent[] = [];
    const ceId = new Types.ObjectId();

    before(async () => {
      counted = await mongoose.createConnection(await testMongoUri(), { dbName: server.dbName, monitorCommands: true }).asPromise();
      counted.getClient().on('commandSucceeded', (e) => replies.push(e));
      await server.models.Conversation.updateMany({ status: 'open' }, { $set: { status: 'ended' } });
      const later = new Date(Date.now() + 10 * MINUTE);
      await server.models.Conversation.insertMany(
        Array.from({ length: 2000 }, (_, i) => ({
          accountId: new Types.ObjectId(),
          ceId,
          number: i + 1,
          visitorId: new Types.ObjectId(),
          inactiveAt: later,
          noAnswerAt: later,
        })),
      );
    });
    after(async () => {
      await server.models.Conversation.deleteMany({ ceId });
      await counted.close();
    });

    it('reads no conversation, widget or visitor in a pass', async () => {
      const models = createModels(counted);
      // The models' own index builds on the counted connection are done before counting starts.
      await Promise.all(Object.values(models).map((model) => model.init()));
      const relay = { ...server.parley.relay, models };
      replies.length = 0;
      expect(await endInactive(relay)).to.equal(0);
      expect(await notifyUnanswered(relay)).to.equal(0);
      const reads = replies.filter((e) => ['find', 'aggregate', 'getMore', 'count', 'distinct'].includes(e.commandName));
      const read = reads.flatMap((e) => (e.reply as { cursor?: { firstBatch?: unknown[] } }).cursor?.firstBatch ?? []);
      expect(reads.map((e) => e.commandName)).to.deep.equal(['find', 'find']);
      expect(read).to.have.length(0);
      expect(replies.filter((e) => e.commandName !== 'find')).to.have.length(0);
    });

    it('answers the due queries from the due-time indexes', async () => {
      for (const field of ['inactiveAt', 'noAnswerAt']) {
        const plan = JSON.stringify(
          await server.models.Conversation.find({ status: 'open', [field]: { $lte: new Date() } })
            .sort({ [field]: 1 })
            .limit(500)
            .explain(),
        );
        expect(plan).to.include('IXSCAN').and.include(`status_1_${field}_1`).and.not.include('COLLSCAN');
      }
    });
  });
});

describe("the relay's own inactivity check", () => {
  // It runs every 200 ms here.
  const server = useRelayServer({ relay: { inactivityCheckMs: 200 } });

  it('ends a conversation once it is due, with nobody calling it', async () => {
    const widget = await setUpRelayWidget(server);
    await server.models.ChatEndpoint.updateOne({ _id: widget.ceId }, { $set: { maxVisitorInactiveMins: 1 } });
    server.parley.relay.widgets.invalidate(widget.ceId);
    const { socket } = await VisitorSocket.hello(server, widget.uuid);
    await say(socket, 'Is the grinder in stock?');
    const c = await server.models.Conversation.findOne({ ceId: widget.ceId }).lean();
    if (!c) throw new Error('no conversation');
    // As if the visitor had written two minutes ago and left.
    const then = new Date(Date.now() - 2 * MINUTE);
    await server.models.Visitor.updateOne({ _id: c.visitorId }, { $set: { lastSeenAt: new Date(then.getTime() - 10 * MINUTE) } });
    await server.models.Conversation.updateOne(
      { _id: c._id },
      { $set: { startedAt: then, lastVisitorMsgAt: then, inactiveAt: new Date(then.getTime() + MINUTE) } },
    );
    expect((await socket.next('ended')).by).to.equal('inactivity');
    socket.close();
  });
});
