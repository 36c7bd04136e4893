import { expect } from 'chai';
import request from 'supertest';
import { endConversation } from '../../server/commands/endConversation';
import { sendSavedReply } from '../../server/commands/sendSavedReply';
import { NotFoundError, ValidationError } from '../../server/errors';
import type { ConversationDocument } from '../../server/models/Conversation';
import { ALICE, eventually, type SetUp, say, setUpRelayWidget, useRelayServer, VisitorSocket } from '../relay/helpers';

describe('sendSavedReply', () => {
  let widget: SetUp;
  let socket: VisitorSocket;
  let conversation: ConversationDocument;
  const operator = { slackUserId: ALICE, name: 'Alice Operator', avatarUrl: 'https://img.example/alice.png' };
  const server = useRelayServer();
  beforeEach(async () => {
    widget = await setUpRelayWidget(server);
    await request(server.url)
      .post(`/v1/chat_endpoints/${widget.ceId}/saved_replies`)
      .set('Authorization', `Bearer ${widget.token}`)
      .send({
        label: 'Shipping',
        response: 'We ship in 2 days — see <a href="https://shop.example.com/shipping">shipping</a> & returns\nThanks!',
        shortcut: 'ship',
      })
      .expect(200);
    ({ socket } = await VisitorSocket.hello(server, widget.uuid, { identity: { name: 'Tom' } }));
    await say(socket, 'When does it ship?');
    await eventually(async () => {
      const found = await server.models.Conversation.findOne({ ceId: widget.ceId });
      expect(found?.threadTs).to.not.equal('');
      conversation = found as ConversationDocument;
    });
  });
  afterEach(() => socket.close());

  const threadPosts = () => server.slack.state.replies(widget.channel, conversation.threadTs).filter((m) => m.username === operator.name);

  it('shows the decoded reply in the widget and posts it once in the thread as the operator', async () => {
    await sendSavedReply(server.parley.relay, { conversationId: String(conversation._id), shortcut: 'ship', operator });
    const frame = await socket.next('msg', (f) => f.message.from === 'operator');
    expect(frame.message.text).to.equal('We ship in 2 days — see shipping & returns\nThanks!');
    expect(frame.message.html).to.equal(
      'We ship in 2 days — see <a href="https://shop.example.com/shipping" target="_blank" rel="noopener noreferrer">shipping</a> &amp; returns<br />Thanks!',
    );
    expect(frame.message.author?.name).to.equal('Alice Operator');
    await eventually(async () => expect(threadPosts()).to.have.length(1));
    const posted = threadPosts()[0];
    expect(posted?.text).to.equal('We ship in 2 days — see <https://shop.example.com/shipping|shipping> &amp; returns\nThanks!');
    expect(posted?.iconUrl).to.equal(operator.avatarUrl);
    expect(JSON.stringify(posted?.blocks)).to.include(`sent by <@${ALICE}>`);
    await server.slack.settled();
    await eventually(async () =>
      expect((await server.models.Message.findOne({ from: 'operator', conversationId: conversation._id }))?.slackTs).to.equal(posted?.ts),
    );
    // Parley's own post comes back as a message event: it must not reach the visitor a second time.
    await say(socket, 'thanks');
    expect(socket.msgs().filter((f) => f.message.from === 'operator')).to.have.length(1);
    expect(await server.models.Message.countDocuments({ conversationId: conversation._id, from: 'operator' })).to.equal(1);
    const stored = await server.models.Conversation.findById(conversation._id);
    expect(stored?.lastOperatorMsgAt).to.be.instanceOf(Date);
    expect(stored?.firstResponseAt).to.be.instanceOf(Date);
  });

  it('shows Markdown bold, italics and links as formatting in the widget, in Slack and in the transcript mail', async () => {
    await request(server.url)
      .post(`/v1/chat_endpoints/${widget.ceId}/saved_replies`)
      .set('Authorization', `Bearer ${widget.token}`)
      .send({
        label: 'Returns',
        response: '**Free** returns _within 30 days_: [our policy](https://shop.example.com/returns)',
        shortcut: 'ret',
      })
      .expect(200);
    await sendSavedReply(server.parley.relay, { conversationId: String(conversation._id), shortcut: 'ret', operator });
    const frame = await socket.next('msg', (f) => f.message.from === 'operator');
    expect(frame.message.text).to.equal('Free returns within 30 days: our policy');
    expect(frame.message.html).to.equal(
      '<strong>Free</strong> returns <em>within 30 days</em>: <a href="https://shop.example.com/returns" target="_blank" rel="noopener noreferrer">our policy</a>',
    );
    await eventually(async () => expect(threadPosts()).to.have.length(1));
    expect(threadPosts()[0]?.text).to.equal('*Free* returns _within 30 days_: <https://shop.example.com/returns|our policy>');

    socket.send({ t: 'end' });
    await socket.next('ended');
    socket.send({ t: 'transcript', email: 'tom@example.com' });
    await eventually(async () => expect((await server.outbox.latestTo('tom@example.com'))?.text).to.include('Free returns within 30 days'));
    const mail = await server.outbox.latestTo('tom@example.com');
    expect(mail?.text).to.not.include('**');
    expect(mail?.html).to.include('<strong>Free</strong> returns <em>within 30 days</em>');
    expect(mail?.html).to.include('href="https://shop.example.com/returns"');
  });

  it('finds a reply by id as well as by shortcut', async () => {
    const reply = await server.models.SavedReply.findOne({ ceId: widget.ceId });
    await sendSavedReply(server.parley.relay, { conversationId: String(conversation._id), replyId: String(reply?._id), operator });
    await socket.next('msg', (f) => f.message.from === 'operator');
  });

  it('refuses an unknown shortcut, a missing name and an ended conversation with clear messages', async () => {
    const id = String(conversation._id);
    const failure = async (input: Parameters<typeof sendSavedReply>[1]) => {
      try {
        await sendSavedReply(server.parley.relay, input);
      } catch (error) {
        return error as Error;
      }
      throw new Error('it was sent');
    };
    const unknown = await failure({ conversationId: id, shortcut: 'nope', operator });
    expect(unknown).to.be.instanceOf(NotFoundError);
    expect(unknown.message).to.equal('No saved reply with the shortcut “nope” in this widget.');
    expect(await failure({ conversationId: id, operator })).to.be.instanceOf(ValidationError);
    expect(await failure({ conversationId: 'garbage', shortcut: 'ship', operator })).to.be.instanceOf(NotFoundError);
    await endConversation(server.parley.relay, conversation._id, 'operator');
    const ended = await failure({ conversationId: id, shortcut: 'ship', operator });
    expect(ended).to.be.instanceOf(ValidationError);
    expect(ended.message).to.match(/has ended/);
    expect(await server.models.Message.countDocuments({ conversationId: conversation._id, from: 'operator' })).to.equal(0);
  });
});
