/**
 * Parley on its embedded store when the disk fills up (injected through the store's file system): what was
 * acknowledged stays, /health answers 503, a visitor's message is refused with try_again (the widget sends it again)
 * and an API write with 503, and everything carries on once the disk takes writes again.
 */
import { expect } from 'chai';
import request from 'supertest';
import type { TestServer } from '../helpers/app';
import { startTestServer } from '../helpers/app';
import { faultyFileSystem } from '../helpers/faultyFs';
import { clientId, eventually, FAST_RELAY, type SetUp, say, setUpRelayWidget, VisitorSocket } from './helpers';

describe('a full disk under Parley', function () {
  this.timeout(60_000);
  const disk = faultyFileSystem();
  let server: TestServer;
  let widget: SetUp;
  before(async () => {
    server = await startTestServer({ relay: FAST_RELAY }, { embeddedStore: { fs: disk.fs, retryWritesMs: 100 } });
    widget = await setUpRelayWidget(server);
  });
  after(async () => {
    disk.fail(null);
    await server.slack.close();
    await server.slack.settled();
    await server.close();
  });

  it('keeps what was acknowledged, answers 503 on /health and to writes, asks the widget to resend, and recovers by itself', async () => {
    const { socket } = await VisitorSocket.hello(server, widget.uuid, { identity: { name: 'Dana' } });
    await say(socket, 'first line, stored');
    await request(server.url).get('/health').expect(200);

    disk.fail('ENOSPC');
    const id = clientId();
    socket.send({ t: 'msg', clientId: id, text: 'second line, while the disk is full' });
    const refused = await socket.next('error', (f) => f.clientId === id);
    expect(refused.code).to.equal('try_again');
    const health = await request(server.url).get('/health').expect(503);
    expect(health.body).to.include({ status: 'database refuses writes', database: 'read-only' });
    const api = await request(server.url)
      .put(`/v1/chat_endpoints/${widget.ceId}/update_config`)
      .set('Authorization', `Bearer ${widget.token}`)
      .send({ onlineTitle: 'Hello' })
      .expect(503);
    expect(api.body).to.deep.equal({
      Message: 'Parley cannot save changes right now. Please try again in a minute.',
      Error: 'storage_unavailable',
    });

    disk.fail(null);
    await eventually(async () => request(server.url).get('/health').expect(200));
    // The widget sends the refused message again with its clientId: stored once, after the first.
    socket.send({ t: 'msg', clientId: id, text: 'second line, while the disk is full' });
    const ack = await socket.next('ack', (f) => f.clientId === id);
    expect(ack.seq).to.equal(2);
    const conversation = await server.models.Conversation.findOne({ ceId: widget.ceId });
    const texts = (await server.models.Message.find({ conversationId: conversation?._id, kind: 'msg' }).sort({ seq: 1 })).map(
      (m) => m.text,
    );
    expect(texts).to.deep.equal(['first line, stored', 'second line, while the disk is full']);
    await eventually(async () => {
      const parent = server.slack.state.channelMessages(widget.channel).find((m) => m.botId);
      // Lines waiting for one thread may go out together as one post: what counts is both, in order, once.
      expect(
        server.slack.state
          .replies(widget.channel, parent?.ts ?? '')
          .map((m) => m.text)
          .join('\n'),
      ).to.equal('first line, stored\nsecond line, while the disk is full');
    });
    socket.close();
  });
});
