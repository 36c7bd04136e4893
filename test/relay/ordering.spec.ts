import { expect } from 'chai';
import request from 'supertest';
import { eventually, type SetUp, say, setUpRelayWidget, useRelayServer, VisitorSocket } from './helpers';

/**
 * Everything Parley posts into a thread goes through one ordered outbox: while Slack refuses posts for a while,
 * a saved reply sent automatically still lands after the visitor message that triggered it.
 */
describe('thread order while Slack refuses posts', () => {
  let widget: SetUp;
  let socket: VisitorSocket;
  const server = useRelayServer();
  beforeEach(async () => {
    server.slack.state.clearFaults();
    widget = await setUpRelayWidget(server);
    await request(server.url)
      .post(`/v1/chat_endpoints/${widget.ceId}/saved_replies`)
      .set('Authorization', `Bearer ${widget.token}`)
      .send({ label: 'Pricing', triggerPhrases: 'price', response: 'Plans start at 29 EUR a month.', autoSend: true })
      .expect(200);
    ({ socket } = await VisitorSocket.hello(server, widget.uuid, { identity: { name: 'Tom' } }));
    await say(socket, 'hello');
    await threadLinesUntil((lines) => lines.includes('visitor: hello'));
  });
  afterEach(() => {
    socket.close();
    server.slack.state.clearFaults();
  });

  /** The thread as "who: text" lines (visitor, auto for the saved reply, parley for other posts), in Slack's order. */
  const threadLines = async (): Promise<string[]> => {
    const c = await server.models.Conversation.findOne({ ceId: widget.ceId });
    if (!c?.threadTs) return [];
    return server.slack.state.replies(widget.channel, c.threadTs).map((m) => {
      if (JSON.stringify(m.blocks ?? []).includes('Sent automatically')) return `auto: ${m.text}`;
      if (m.username) return `visitor: ${m.text}`;
      return `parley: ${m.text}`;
    });
  };
  const threadLinesUntil = async (done: (lines: string[]) => boolean): Promise<string[]> => {
    let lines: string[] = [];
    await eventually(async () => {
      lines = await threadLines();
      expect(done(lines), lines.join(' | ')).to.equal(true);
    });
    return lines;
  };
  const autoReplyPosted = (lines: string[]) => lines.some((l) => l.startsWith('auto: '));
  const visitorAndAuto = (lines: string[]) => lines.filter((l) => l.startsWith('visitor: ') || l.startsWith('auto: '));

  const refusals: [string, () => void][] = [
    ['an outage answering 503 to the visitor message’s post', () => server.slack.state.failNext('chat.postMessage', 1, 503)],
    ['a 429 with Retry-After to the visitor message’s post', () => server.slack.state.failNext('chat.postMessage', 1, 429)],
    ['a rate limit on every post for a second', () => server.slack.state.rateLimit('chat.postMessage', 1)],
    ['an outage answering 500 to every post for a second', () => server.slack.state.failFor('chat.postMessage', 1, 500)],
  ];
  for (const [name, refuse] of refusals) {
    it(name, async () => {
      refuse();
      await say(socket, 'what is the price?');
      await socket.next('msg', (f) => f.message.from === 'operator');
      const lines = await threadLinesUntil(autoReplyPosted);
      expect(visitorAndAuto(lines)).to.deep.equal([
        'visitor: hello',
        'visitor: what is the price?',
        'auto: Plans start at 29 EUR a month.',
      ]);
    });
  }
});
