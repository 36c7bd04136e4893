import { Writable } from 'node:stream';
import { expect } from 'chai';
import mongoose, { Types } from 'mongoose';
import { FAST_RELAY, startRelayServer, startTestServer, type TestServer } from '../helpers/app';
import { testMongoUri } from '../helpers/mongo';
import { ACME, ALICE, clientId, eventually, type SetUp, say, setUpRelayWidget, VisitorSocket } from './helpers';

describe('the relay across a restart', () => {
  let server: TestServer;
  before(async () => {
    server = await startRelayServer();
  });
  after(async () => {
    await server.slack.close();
    await server.slack.settled();
    await server.close();
  });

  async function conversationWithThread(): Promise<{ widget: SetUp; visitorToken: string; conversationId: string; threadTs: string }> {
    const widget = await setUpRelayWidget(server);
    const { socket, welcome } = await VisitorSocket.hello(server, widget.uuid, { identity: { name: 'Tom' } });
    await say(socket, 'Is anyone there?');
    let found = { conversationId: '', threadTs: '' };
    await eventually(async () => {
      const c = await server.models.Conversation.findOne({ ceId: widget.ceId });
      expect(c?.threadTs).to.be.a('string').and.not.equal('');
      found = { conversationId: String(c?._id), threadTs: c?.threadTs ?? '' };
    });
    socket.close();
    return { widget, visitorToken: welcome.visitorToken, ...found };
  }

  /** `whileStopped`: what happens to its database between the stop and the start (an older release's data, say). */
  async function restart(whileStopped?: (db: mongoose.Connection) => Promise<void>): Promise<void> {
    await server.close({ keepData: true });
    if (whileStopped) {
      const db = await mongoose.createConnection(await testMongoUri(), { dbName: server.dbName }).asPromise();
      try {
        await whileStopped(db);
      } finally {
        await db.close();
      }
    }
    server = await startTestServer({ relay: FAST_RELAY }, { restartOf: server });
  }

  // The Slack listeners are built with the relay they hand replies to (main.ts passes it in): there is no moment
  // after start at which a thread reply is acknowledged to Slack and then dropped for want of a relay.
  it('relays a thread reply to the visitor when it is the first thing the restarted server hears', async () => {
    const { widget, visitorToken, threadTs } = await conversationWithThread();
    await restart();
    await server.slack.postAsUser({ teamId: ACME, userId: ALICE, channelId: widget.channel, threadTs, text: 'Yes, how can I help?' });

    const { socket } = await VisitorSocket.hello(server, widget.uuid, { visitorToken, lastSeq: 1 });
    try {
      const reply = await socket.next('msg', (f) => f.message.from === 'operator', 20_000);
      expect(reply.message.text).to.equal('Yes, how can I help?');
    } finally {
      socket.close();
    }
  });

  // A deploy stops a server right after an operator's answer, while the visitor writes: the lines it was handling finish
  // before its store closes, and the jobs it stored claimed meanwhile (the answer's assignment note, its reaction, the
  // lines') are given up for the next server, not left to hold the conversation for a lease of a minute.
  it('posts the lines a visitor sent as the server stopped after an answer once each, at once after the restart, none failed for the closing store', async () => {
    const written: string[] = [];
    const logDestination = new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        written.push(String(chunk));
        done();
      },
    });
    // The production lease: a job left claimed by the stopped server would hold the conversation for a minute.
    const relay = { ...FAST_RELAY, outboxLeaseMs: 60_000 };
    let own = await startTestServer({ relay }, { logDestination });
    try {
      const widget = await setUpRelayWidget(own);
      const { socket, welcome } = await VisitorSocket.hello(own, widget.uuid, {});
      await say(socket, 'The first line');
      let threadTs = '';
      await eventually(async () => {
        const c = await own.models.Conversation.findOne({ ceId: widget.ceId });
        threadTs = c?.threadTs ?? '';
        expect(threadTs).to.not.equal('');
      });
      // The first answer: the visitor sees it at once; its assignment note, reaction and header follow it into the outbox.
      await own.slack.postAsUser({ teamId: ACME, userId: ALICE, channelId: widget.channel, threadTs, text: 'Hello, how can I help?' });
      await socket.next('msg', (f) => f.message.from === 'operator', 10_000);
      const lines = Array.from({ length: 5 }, (_, i) => ({ id: clientId(), text: `Sent as the server stopped (${i + 1})` }));
      for (const line of lines) socket.send({ t: 'msg', clientId: line.id, text: line.text });
      await own.close({ keepData: true });
      const started = Date.now();
      own = await startTestServer({ relay }, { restartOf: own, logDestination });
      // The widget sends again what was not acknowledged: a line already stored is answered, not stored twice.
      const again = await VisitorSocket.hello(own, widget.uuid, { visitorToken: welcome.visitorToken });
      try {
        for (const line of lines) await say(again.socket, line.text, line.id);
      } finally {
        again.socket.close();
      }
      const inThread = (text: string) => own.slack.state.replies(widget.channel, threadTs).filter((m) => m.text.includes(text)).length;
      await eventually(async () => expect(lines.map((line) => inThread(line.text))).to.deep.equal([1, 1, 1, 1, 1]), 20_000);
      expect(Date.now() - started).to.be.below(relay.outboxLeaseMs / 2);
      expect(written.join('')).to.not.include('frame failed');
    } finally {
      await own.slack.close();
      await own.slack.settled();
      await own.close();
    }
  });

  it('posts the thread posts an earlier version left in its own queue, once, through the outbox', async () => {
    const { widget, conversationId, threadTs } = await conversationWithThread();
    const text = 'Saved reply queued before the upgrade';
    await server.connection.collection('threadposts').insertOne({
      conversationId: new Types.ObjectId(conversationId),
      text,
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }],
      username: 'Support',
      iconUrl: '',
      messageId: null,
      runAt: new Date(),
      lockedUntil: null,
      attempts: 0,
      lastError: '',
      failedAt: null,
    });
    await restart();

    const posted = () => server.slack.state.replies(widget.channel, threadTs).filter((m) => m.text === text);
    await eventually(async () => expect(posted()).to.have.length(1));
    expect(await server.connection.collection('threadposts').countDocuments({})).to.equal(0);
    await restart();
    expect(await server.models.OutboxJob.countDocuments({ kind: 'slack.threadPost', failedAt: null })).to.equal(0);
    expect(posted()).to.have.length(1);
  });

  // An older release queued thread notes as slack.note jobs (naming their team, channel and thread) and offline
  // messages as slack.offline jobs; this one has neither kind: the start moves them to the kinds that took their place.
  it('delivers the slack.note and slack.offline jobs an older release left queued, each once, after the upgrade', async () => {
    const { widget, conversationId, threadTs } = await conversationWithThread();
    const note = ':lock: Internal note queued before the upgrade: not sent to the visitor.';
    const offline = ':envelope: Offline message queued before the upgrade';
    await restart(async (db) => {
      const job = { attempts: 0, runAt: new Date(), lockedUntil: null, lockedBy: '', lastError: '', failedAt: null };
      await db.collection('outboxjobs').insertMany([
        {
          ...job,
          kind: 'slack.note',
          key: conversationId,
          channel: widget.channel,
          conversationId: new Types.ObjectId(conversationId),
          payload: { teamId: ACME, channel: widget.channel, threadTs, text: note },
        },
        {
          ...job,
          kind: 'slack.offline',
          key: 'offline:older-release:slack',
          channel: widget.channel,
          conversationId: null,
          payload: { teamId: ACME, channel: widget.channel, text: offline },
        },
      ]);
    });

    const notes = () => server.slack.state.replies(widget.channel, threadTs).filter((m) => m.text === note);
    const offlines = () => server.slack.state.channelMessages(widget.channel).filter((m) => m.text === offline);
    await eventually(async () => {
      expect(notes(), 'the note, in its thread').to.have.length(1);
      expect(offlines(), 'the offline message, in the channel').to.have.length(1);
      expect(await server.models.OutboxJob.countDocuments({})).to.equal(0);
    });
    // A grey line, as notes always were.
    expect(JSON.stringify(notes()[0].blocks ?? [])).to.include('"context"');
    await restart();
    expect(await server.models.OutboxJob.countDocuments({ kind: { $in: ['slack.note', 'slack.offline'] } })).to.equal(0);
    expect(notes()).to.have.length(1);
    expect(offlines()).to.have.length(1);
  });
});
