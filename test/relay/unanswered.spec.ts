/**
 * The no-answer webhook by due time: `noAnswerAt` is set when a conversation opens, the check calls the webhook once
 * it has come (once, also when two processes look at the same moment), and an operator's answer takes the
 * conversation out of the index.
 */
import { expect } from 'chai';
import mongoose from 'mongoose';
import { createModels } from '../../server/models';
import { notifyUnanswered } from '../../server/relay';
import { testMongoUri } from '../helpers/mongo';
import { ACME, ALICE, eventually, type SetUp, say, setUpRelayWidget, useRelayServer, VisitorSocket, webhookTarget } from './helpers';

describe('the no-answer webhook', () => {
  let widget: SetUp;
  let hook: Awaited<ReturnType<typeof webhookTarget>>;
  const server = useRelayServer();
  before(async () => {
    hook = await webhookTarget();
  });
  after(async () => {
    await hook.close();
  });
  beforeEach(async () => {
    hook.bodies.length = 0;
    widget = await setUpRelayWidget(server);
    await server.models.ChatEndpoint.updateOne(
      { _id: widget.ceId },
      { $set: { noAnswerWebhookUrl: hook.url, noAnswerMessageAfterSecs: 60 } },
    );
    server.parley.relay.widgets.invalidate(widget.ceId);
  });

  const conversation = async () => {
    const c = await server.models.Conversation.findOne({ ceId: widget.ceId }).sort({ _id: -1 }).lean();
    if (!c) throw new Error('no conversation');
    return c;
  };
  const chatting = async () => {
    const { socket } = await VisitorSocket.hello(server, widget.uuid);
    await say(socket, 'Anyone there?');
    return socket;
  };

  it('is due the widget’s delay after the start and is called once then, even when two processes look at once', async () => {
    const socket = await chatting();
    const c = await conversation();
    const due = c.noAnswerAt ?? new Date(0);
    expect(due.getTime()).to.equal(c.startedAt.getTime() + 60_000);
    expect(await notifyUnanswered(server.parley.relay, new Date(due.getTime() - 1))).to.equal(0);

    const other = await mongoose.createConnection(await testMongoUri(), { dbName: server.dbName }).asPromise();
    try {
      const elsewhere = { ...server.parley.relay, models: createModels(other) };
      const counts = await Promise.all([notifyUnanswered(server.parley.relay, due), notifyUnanswered(elsewhere, due)]);
      expect(counts[0] + counts[1]).to.equal(1);
    } finally {
      await other.close();
    }
    await eventually(async () => expect(hook.bodies).to.have.length(1));
    expect(hook.bodies[0]).to.deep.include({ event: 'conversation.unanswered' });
    const notified = await conversation();
    expect(notified.noAnswerAt).to.equal(null);
    expect(notified.noAnswerNotifiedAt).to.be.an.instanceOf(Date);
    expect(await notifyUnanswered(server.parley.relay, new Date(due.getTime() + 60 * 60_000))).to.equal(0);
    socket.close();
  });

  it('is no longer due once an operator answered', async () => {
    const socket = await chatting();
    let threadTs = '';
    await eventually(async () => {
      threadTs = (await conversation()).threadTs;
      expect(threadTs).to.not.equal('');
    });
    await server.slack.postAsUser({ teamId: ACME, userId: ALICE, channelId: widget.channel, threadTs, text: 'Right here!' });
    await socket.next('msg', (f) => f.message.text === 'Right here!');
    await eventually(async () => expect((await conversation()).firstResponseAt).to.be.an.instanceOf(Date));
    expect((await conversation()).noAnswerAt).to.equal(null);
    expect(await notifyUnanswered(server.parley.relay, new Date(Date.now() + 60 * 60_000))).to.equal(0);
    expect((await conversation()).noAnswerNotifiedAt).to.equal(null);
    socket.close();
  });

  it('is looked at once when nobody is to be told', async () => {
    await server.models.ChatEndpoint.updateOne({ _id: widget.ceId }, { $set: { noAnswerWebhookUrl: '' } });
    server.parley.relay.widgets.invalidate(widget.ceId);
    const socket = await chatting();
    const due = (await conversation()).noAnswerAt ?? new Date(0);
    expect(await notifyUnanswered(server.parley.relay, due)).to.equal(0);
    expect(await conversation()).to.include({ noAnswerAt: null, noAnswerNotifiedAt: null });
    socket.close();
  });
});
