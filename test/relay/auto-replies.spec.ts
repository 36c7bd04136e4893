import { expect } from 'chai';
import request from 'supertest';
import { eventually, type SetUp, say, setUpRelayWidget, useRelayServer, VisitorSocket } from './helpers';

describe('saved replies sent automatically on trigger phrases', () => {
  let widget: SetUp;
  let socket: VisitorSocket;
  const server = useRelayServer();
  beforeEach(async () => {
    widget = await setUpRelayWidget(server);
    const save = (body: Record<string, unknown>) =>
      request(server.url)
        .post(`/v1/chat_endpoints/${widget.ceId}/saved_replies`)
        .set('Authorization', `Bearer ${widget.token}`)
        .send(body)
        .expect(200);
    await save({ label: 'Pricing', triggerPhrases: 'price, how much', response: 'Plans start at 29&nbsp;EUR a month.', autoSend: true });
    await save({ label: 'Manual only', triggerPhrases: 'price', response: 'Not automatic', autoSend: false });
    ({ socket } = await VisitorSocket.hello(server, widget.uuid, { identity: { name: 'Tom' } }));
  });
  afterEach(() => socket.close());

  const operatorTexts = () =>
    socket
      .msgs()
      .filter((f) => f.message.from === 'operator')
      .map((f) => f.message.text);
  const threadOf = async () => {
    const conversation = await server.models.Conversation.findOne({ ceId: widget.ceId });
    return conversation?.threadTs ? server.slack.state.replies(widget.channel, conversation.threadTs) : [];
  };

  it('answers a matching visitor message once per conversation and says so in the thread', async () => {
    await say(socket, 'Hi, HOW MUCH is the Pro plan?');
    const frame = await socket.next('msg', (f) => f.message.from === 'operator');
    // The response is HTML: its entities read as characters.
    expect(frame.message.text).to.equal('Plans start at 29\u00a0EUR a month.');
    await eventually(async () => {
      const auto = (await threadOf()).filter((m) => JSON.stringify(m.blocks ?? []).includes('Sent automatically'));
      expect(auto).to.have.length(1);
      expect(auto[0]?.text).to.include('Plans start at 29');
    });
    await say(socket, 'And the price of Business?');
    await say(socket, 'ok thanks');
    await server.slack.settled();
    expect(operatorTexts()).to.deep.equal(['Plans start at 29\u00a0EUR a month.']);
    expect((await threadOf()).filter((m) => JSON.stringify(m.blocks ?? []).includes('Sent automatically'))).to.have.length(1);
  });

  it('matches whole words only', async () => {
    await say(socket, 'Your prices are unclear, and how muchness is a word');
    await say(socket, 'hello');
    await server.slack.settled();
    // Both lines reached the thread (lines that waited together are one post).
    await eventually(async () => expect((await threadOf()).flatMap((m) => m.text.split('\n'))).to.include.members(['hello']));
    expect(operatorTexts()).to.deep.equal([]);
  });
});
