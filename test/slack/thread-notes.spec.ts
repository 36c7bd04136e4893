import { expect } from 'chai';
import { ALICE, eventually, type SetUp, say, setUpRelayWidget, useRelayServer, VisitorSocket } from '../relay/helpers';
import { parley } from './operatorHelpers';

/** Parley's grey lines in a conversation's thread: one job kind, which waits for the thread and never drops a line. */
describe('thread notes', () => {
  let widget: SetUp;
  const sockets: VisitorSocket[] = [];
  const server = useRelayServer();
  beforeEach(async () => {
    server.slack.state.setPresence(ALICE, 'active');
    widget = await setUpRelayWidget(server);
  });
  afterEach(() => {
    server.slack.state.clearFaults();
    for (const socket of sockets.splice(0)) socket.close();
  });

  const contextLines = (threadTs: string) =>
    server.slack.state
      .replies(widget.channel, threadTs)
      .filter((m) => JSON.stringify(m.blocks ?? []).includes('"context"'))
      .map((m) => m.text ?? '');

  it('leaves an operator’s note for a conversation whose thread is not posted yet in the thread, once it is', async () => {
    // Slack does not take posts for a while: the conversation's header (its thread) waits in the outbox.
    server.slack.state.failFor('chat.postMessage', 600, 503);
    const { socket } = await VisitorSocket.hello(server, widget.uuid, { identity: { name: 'Erin' } });
    sockets.push(socket);
    await say(socket, 'Hello, is anyone there?');
    let number = 0;
    await eventually(async () => {
      const c = await server.models.Conversation.findOne({ ceId: widget.ceId });
      expect(c, 'the conversation').to.not.equal(null);
      number = c?.number ?? 0;
    });

    expect((await parley(server, widget.channel, `ask-email ${number}`)).text).to.include(`Asked the visitor of conversation #${number}`);
    const c = await server.models.Conversation.findOne({ ceId: widget.ceId });
    expect(c?.threadTs, 'no thread yet when the operator acted').to.equal('');

    server.slack.state.clearFaults();
    let threadTs = '';
    await eventually(async () => {
      threadTs = (await server.models.Conversation.findOne({ ceId: widget.ceId }))?.threadTs ?? '';
      expect(threadTs).to.not.equal('');
      expect(contextLines(threadTs).filter((t) => t.includes(`<@${ALICE}> asked the visitor for their e-mail address`))).to.have.length(1);
    });
  });
});
