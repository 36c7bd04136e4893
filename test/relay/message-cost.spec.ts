/**
 * What one message costs the database each way, once its conversation has a Slack thread (the driver's command
 * monitoring counts each command): a visitor line, from the widget's frame to the line's ts stored from Slack, and
 * an operator reply, from Slack's event to the reply's frame at the visitor. docs/relay-performance.md lists them.
 */
import { expect } from 'chai';
import { FAST_RELAY, startTestServer, useServer } from '../helpers/app';
import {
  ACME,
  ALICE,
  backgroundCommand,
  cheapestRun,
  commandLog,
  eventually,
  KEPT_A_SECOND,
  type SetUp,
  say,
  setUpRelayWidget,
  threadOf,
  VisitorSocket,
} from './helpers';

describe('a message’s database operations, each way', () => {
  const server = useServer({ relay: { ...FAST_RELAY, presenceTtlMs: 60_000, presenceRefreshMs: 60_000 } }, (overrides) =>
    startTestServer(overrides, { monitorCommands: true, slackRateLimits: false }),
  );
  let widget: SetUp;
  let socket: VisitorSocket;
  let threadTs: string;
  /**
   * Not a message's own: the commands beside every step (backgroundCommand), and the read of the account's REST hooks,
   * kept a second per account and event (conversations/webhooks.ts): a loaded machine's attempts are each more than a
   * second apart, and every one of them would pay it.
   */
  const log = commandLog(
    server,
    (e) => !backgroundCommand(e) && !(e.commandName === 'find' && String(e.command[e.commandName]) === 'resthooks'),
  );
  const { seen } = log;
  afterEach(() => {
    log.stop();
    socket?.close();
  });

  const repliesInSlack = () => server.slack.state.replies(widget.channel, threadTs);
  /** The operations counted once `last` was seen and then no operation came between two looks. */
  const untilQuiet = async (last: string): Promise<string[]> => {
    await eventually(async () => expect(seen).to.include(last));
    let count = -1;
    await eventually(async () => {
      const now = seen.length;
      const quiet = now === count;
      count = now;
      expect(quiet).to.equal(true);
    });
    log.stop();
    return seen;
  };

  beforeEach(async () => {
    widget = await setUpRelayWidget(server);
    ({ socket } = await VisitorSocket.hello(server, widget.uuid, { identity: { name: 'Tom' } }));
    await say(socket, 'I need help');
    threadTs = await threadOf(server, widget.ceId);
    // A first line and a first reply fill what is kept in memory per widget, account and thread.
    await say(socket, 'Warming up');
    await eventually(async () => expect(repliesInSlack().map((r) => r.text)).to.include('Warming up'));
    await server.slack.postAsUser({ teamId: ACME, userId: ALICE, channelId: widget.channel, threadTs, text: 'Warm reply' });
    await socket.next('msg', (f) => f.message.text === 'Warm reply');
    // A second one: the first answer queues a header update, done (answers of a thread are taken one at a time)
    // once the second is sent.
    await server.slack.postAsUser({ teamId: ACME, userId: ALICE, channelId: widget.channel, threadTs, text: 'Warm again' });
    await socket.next('msg', (f) => f.message.text === 'Warm again');
    await eventually(async () => {
      const stored = await server.models.Message.findOne({ text: 'Warming up' }).lean();
      expect(stored?.slackTs).to.be.a('string').and.not.equal('');
      expect(await server.models.OutboxJob.countDocuments({})).to.equal(0);
    });
  });

  it('takes at most 5 for a visitor line, from its frame to its ts from Slack stored (the only process: its job runs without the key’s read)', async () => {
    // A line just before it, as a visitor's lines come: its post read the visitor's name.
    await say(socket, 'Just before');
    await eventually(async () => {
      const stored = await server.models.Message.findOne({ text: 'Just before' }).lean();
      expect(stored?.slackTs).to.be.a('string').and.not.equal('');
      expect(await server.models.OutboxJob.countDocuments({})).to.equal(0);
    });
    const run = await cheapestRun(
      3,
      async (attempt) => {
        const text = `One more question ${attempt + 1}`;
        log.start();
        await say(socket, text);
        await eventually(async () => expect(repliesInSlack().map((r) => r.text)).to.include(text));
        await eventually(async () => expect(seen).to.include('delete outboxjobs'));
        log.stop();
        return seen;
      },
      (run) => run.length <= 5 && !run.includes('find visitors'),
    );
    // The line's seq, the message, its job (stored claimed), the slackTs, the job's removal.
    expect(run.length, run.join('\n')).to.be.at.most(5);
    expect(run).to.not.include('find outboxjobs');
    // The visitor's name for the post is kept a second: their lines in a row read it once.
    expect(run).to.not.include('find visitors');
  });

  it('signs the line after a name change with the new name, though the name is kept a second', async () => {
    await say(socket, 'Before my name');
    await eventually(async () => expect(repliesInSlack().find((r) => r.text === 'Before my name')?.username).to.equal('Tom'));
    socket.send({ t: 'info', name: 'Thomas Miller' });
    await eventually(async () =>
      expect((await server.models.Visitor.findOne({ name: 'Thomas Miller' }).lean())?.name).to.equal('Thomas Miller'),
    );
    await say(socket, 'After my name');
    await eventually(async () => expect(repliesInSlack().find((r) => r.text === 'After my name')?.username).to.equal('Thomas Miller'));
  });

  it('takes at most 11 for a reply to a visitor waiting for one: its response tallied in one write of both its tallies, the header changed once without reading the first line again', async () => {
    const run = await cheapestRun(
      3,
      async (attempt) => {
        await say(socket, `One more question ${attempt + 1}`);
        await eventually(async () => expect(await server.models.OutboxJob.countDocuments({})).to.equal(0));
        // The line's wait starts after its ack, beside its post: the reply answers a visitor known to be waiting.
        await eventually(async () =>
          expect((await server.models.Conversation.findOne({ ceId: widget.ceId }).lean())?.waitingSince).to.be.an.instanceOf(Date),
        );
        const text = `Here is the answer ${attempt + 1}`;
        log.start();
        await server.slack.postAsUser({ teamId: ACME, userId: ALICE, channelId: widget.channel, threadTs, text });
        await socket.next('msg', (f) => f.message.text === text);
        // Its header's job too, removed once run. Not counted: the reads of what is kept a second (the operator's seat
        // from the account's billing state, the widget's settings): each attempt here first waits for a line's post,
        // more than a second on a loaded machine. The plain reply's test below holds that a reply reads neither
        // otherwise.
        return (await untilQuiet('delete outboxjobs')).filter((c) => !KEPT_A_SECOND.includes(c));
      },
      (run) => run.length <= 11,
    );
    expect(run.length, run.join('\n')).to.be.at.most(11);
    // The team's tally and the operator's: the conversation counted answered and the response's wait, in one command.
    expect(run.filter((c) => c.endsWith(' inboxtallies'))).to.deep.equal(['update inboxtallies']);
    // The conversation opened today: no earlier day's event is read for the tallies.
    expect(run).to.not.include('find inboxevents');
    expect(run.filter((c) => c === 'insert outboxjobs')).to.have.length(1);
    // The header shows the visitor's first line, read once for the thread's first update (the warm-up's).
    expect(run).to.not.include('find messages');
  });

  it('takes at most 5 for an operator reply, from Slack’s event to the visitor’s frame: its Slack ts recorded by the write of its seq', async () => {
    const run = await cheapestRun(
      3,
      async (attempt) => {
        const text = `Here is the answer ${attempt + 1}`;
        log.start();
        await server.slack.postAsUser({ teamId: ACME, userId: ALICE, channelId: widget.channel, threadTs, text });
        await socket.next('msg', (f) => f.message.text === text);
        // What the reply does around its frame (its early changes looked for, the operator's seat) is its cost too.
        return untilQuiet('find slackearlychanges');
      },
      (run) => run.length <= 5 && !run.includes('find accounts'),
    );
    expect(run.length, run.join('\n')).to.be.at.most(5);
    // Slack's retries are told apart by the reply's ts kept on the conversation, not by an event id of their own.
    expect(run).to.not.include('insert slackeventseens');
    // A plan without an operator limit: the seat is not looked up (the billing state is kept a second).
    expect(run).to.not.include('find accounts');
  });
});
