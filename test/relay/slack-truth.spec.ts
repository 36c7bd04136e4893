import { expect } from 'chai';
import { conversationPayload, transcriptMail } from '../../server/conversations/transcript';
import {
  ACME,
  ALICE,
  BOB,
  eventually,
  type SetUp,
  say,
  setUpRelayWidget,
  useRelayServer,
  type ViewLine,
  VisitorSocket,
  widgetView,
} from './helpers';

/**
 * Slack is the truth for operator messages: however Slack's events arrive (concurrently, a message's event after
 * its own edit or deletion, as Slack's retries bring them), the visitor's view — live and replayed to a fresh
 * socket — ends as the thread shows in Slack: its replies in Slack's order, edited as they stand, deleted ones gone.
 */
describe('Slack is the truth for operator messages', function () {
  this.timeout(60_000);
  const server = useRelayServer();
  let widget: SetUp;
  const sockets: VisitorSocket[] = [];
  beforeEach(async () => {
    widget = await setUpRelayWidget(server);
  });
  afterEach(() => {
    for (const s of sockets.splice(0)) s.close();
  });

  type Visitor = { socket: VisitorSocket; token: string; threadTs: string };
  const visitor = async (name: string): Promise<Visitor> => {
    const { socket, welcome } = await VisitorSocket.hello(server, widget.uuid, { identity: { name } });
    sockets.push(socket);
    const ack = await say(socket, `Hello, I am ${name}`);
    let threadTs = '';
    await eventually(async () => {
      const message = await server.models.Message.findById(ack.id);
      const conversation = await server.models.Conversation.findById(message?.conversationId);
      expect(conversation?.threadTs).to.not.equal('');
      threadTs = conversation?.threadTs ?? '';
    });
    return { socket, token: welcome.visitorToken, threadTs };
  };

  /** The operators' replies of the thread as Slack shows it: in ts order, as edited, deleted ones gone. */
  const slackThread = (threadTs: string): string[] =>
    server.slack.state
      .replies(widget.channel, threadTs)
      .filter((m) => m.user === ALICE || m.user === BOB)
      .map((m) => m.text);
  const operatorLines = (lines: ViewLine[]): string[] => lines.filter((l) => l.from === 'operator').map((l) => l.text);

  /** The live view and a fresh socket's replayed history both equal the thread. */
  const convergesToSlack = async (v: Visitor, expected: string[]) => {
    expect(slackThread(v.threadTs)).to.deep.equal(expected, 'the sandbox thread');
    await eventually(async () => expect(operatorLines(widgetView(v.socket.frames))).to.deep.equal(expected, 'the live view'));
    const { socket: fresh } = await VisitorSocket.hello(server, widget.uuid, { visitorToken: v.token });
    sockets.push(fresh);
    await eventually(async () => expect(operatorLines(widgetView(fresh.frames))).to.deep.equal(expected, "a fresh socket's history"));
  };

  /** Twelve replies with no pause; every fourth edited right after it is posted, the 3rd and 7th deleted. */
  const burst = async (userId: string, v: Visitor, prefix: string): Promise<string[]> => {
    const expected: string[] = [];
    for (let i = 1; i <= 12; i++) {
      const text = `${prefix}${i}`;
      const posted = await server.slack.postAsUser({ teamId: ACME, userId, channelId: widget.channel, threadTs: v.threadTs, text });
      if (i % 4 === 0) {
        await server.slack.editAsUser({ teamId: ACME, userId, channelId: widget.channel, ts: posted.ts, text: `${text} (edited)` });
        expected.push(`${text} (edited)`);
      } else if (i === 3 || i === 7) {
        await server.slack.deleteAsUser({ teamId: ACME, userId, channelId: widget.channel, ts: posted.ts });
      } else expected.push(text);
    }
    return expected;
  };

  it('a burst of replies with immediate edits and deletions in one thread', async () => {
    const v = await visitor('Tom');
    const expected = await burst(ALICE, v, 'K');
    await convergesToSlack(v, expected);
    const deleted = await server.models.Message.countDocuments({ text: { $in: ['K3', 'K7'] } });
    expect(deleted).to.equal(0, 'the deleted replies are gone from the history');
  });

  it('bursts in two threads at once, from two operators', async () => {
    await server.slack.joinChannel({ teamId: ACME, userId: BOB, channelId: widget.channel });
    const [tom, ann] = [await visitor('Tom'), await visitor('Ann')];
    const [forTom, forAnn] = await Promise.all([burst(ALICE, tom, 'A'), burst(BOB, ann, 'B')]);
    await convergesToSlack(tom, forTom);
    await convergesToSlack(ann, forAnn);
  });

  it("an edit and a deletion delivered before their messages (Slack's retry order), and a reply delivered after a later one", async () => {
    const v = await visitor('Tom');
    // The events of R2 and R4 fail their first delivery: Slack retries them after the later events went out.
    const hold = server.slack.holdEvents((e) => !e.subtype && (e.text === 'R2' || e.text === 'R4'));
    const post = (text: string) =>
      server.slack.postAsUser({ teamId: ACME, userId: ALICE, channelId: widget.channel, threadTs: v.threadTs, text });
    await post('R1');
    const r2 = await post('R2');
    const r4 = await (async () => {
      await post('R3');
      return post('R4');
    })();
    await server.slack.editAsUser({ teamId: ACME, userId: ALICE, channelId: widget.channel, ts: r2.ts, text: 'R2, corrected' });
    await server.slack.deleteAsUser({ teamId: ACME, userId: ALICE, channelId: widget.channel, ts: r4.ts });
    await v.socket.next('msg', (f) => f.message.text === 'R3');
    expect(hold.held()).to.equal(2);
    // The edit and the deletion have been handled (the sandbox's deliveries are over) before their messages come.
    await server.slack.settled();
    await hold.release();
    await convergesToSlack(v, ['R1', 'R2, corrected', 'R3']);
    expect(v.socket.msgs().map((f) => f.message.text)).to.not.include('R4', 'a reply deleted in Slack is never shown');
    expect(await server.models.Message.countDocuments({ text: 'R4' })).to.equal(0);

    // R2 was stored after R3: the transcript mail and the archive webhook's messages read the thread's order too.
    const conversation = await server.models.Conversation.findOne({ threadTs: v.threadTs }).orFail();
    const mail = await transcriptMail(server.models, conversation, 'tom@example.com', {
      ce: { agentLabel: 'Agent', titleColor: '#2f6fed', titleFontColor: '#ffffff', onlineTitle: 'Acme' },
      visitorName: 'Tom',
      reader: 'owner',
    });
    const replies = mail.text.split('\n').filter((line) => /: R\d/.test(line));
    expect(replies.map((line) => line.replace(/^.*: /, ''))).to.deep.equal(['R1', 'R2, corrected', 'R3']);
    const payload = await conversationPayload(server.models, conversation);
    const fromOperators = payload.messages.filter((m) => m.from === 'operator').map((m) => m.text);
    expect(fromOperators).to.deep.equal(['R1', 'R2, corrected', 'R3']);
  });
});
