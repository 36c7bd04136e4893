/**
 * Segment: with a widget's segmentWriteKey set, Parley sends its conversation events through
 * @segment/analytics-node to SEGMENT_HOST (here a local collector speaking Segment's tracking API): batched,
 * retried after a failed batch, flushed when Parley stops, tied to the identify userId or the visitor's id.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import request from 'supertest';
import { endConversation } from '../../server/commands/endConversation';
import { sendOfflineMessage } from '../../server/commands/sendOfflineMessage';
import { createUserInDb } from '../factories';
import type { TestServer } from '../helpers/app';
import { ACME, ALICE, eventually, type SetUp, say, setUpRelayWidget, startRelayServer, VisitorSocket } from '../relay/helpers';

type TrackCall = {
  type: string;
  event: string;
  userId?: string;
  anonymousId?: string;
  messageId: string;
  properties: Record<string, unknown>;
};
type Batch = { path: string; headers: IncomingHttpHeaders; body: { batch: TrackCall[]; writeKey?: string } };

/** Segment's tracking API as a local server: keeps every POST /v1/batch; `failNext` answers that many with 503. */
async function collector() {
  const batches: Batch[] = [];
  const state = { failNext: 0, refused: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (state.failNext > 0) {
        state.failNext--;
        state.refused++;
        res.statusCode = 503;
        res.end('{"success":false}');
        return;
      }
      batches.push({ path: req.url ?? '', headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      res.setHeader('content-type', 'application/json');
      res.end('{"success":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    batches,
    state,
    events: () => batches.flatMap((b) => b.body.batch),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const WRITE_KEY = 'wk_parley_test_1';
const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

async function withWriteKey(server: TestServer, widget: SetUp, key: string) {
  await server.models.ChatEndpoint.updateOne({ _id: widget.ceId }, { $set: { segmentWriteKey: key } });
  server.parley.relay.widgets.invalidate(widget.ceId);
}

describe('Segment track events (SEGMENT_HOST)', () => {
  let segment: Awaited<ReturnType<typeof collector>>;
  let server: TestServer;
  let widget: SetUp;

  before(async () => {
    segment = await collector();
    server = await startRelayServer({ segment: { host: segment.url, flushIntervalMs: 200 } });
    widget = await setUpRelayWidget(server);
  });
  after(async () => {
    await server?.close();
    await segment?.close();
  });

  it("sends the six conversation events in batches to Segment's tracking API, retrying a refused batch, and none without a key", async () => {
    // Without a write key: nothing, then or later.
    const quiet = await VisitorSocket.hello(server, widget.uuid);
    await say(quiet.socket, 'No analytics please');
    quiet.socket.close();
    const unkeyed = await server.models.Conversation.findOne({ ceId: widget.ceId, status: 'open' });
    if (!unkeyed) throw new Error('no conversation');
    await endConversation(server.parley.relay, unkeyed._id, 'operator');

    await withWriteKey(server, widget, WRITE_KEY);
    segment.state.failNext = 1;
    const { socket } = await VisitorSocket.hello(server, widget.uuid, {
      identity: { userId: 'user-42', name: 'Erin', email: 'erin@example.org' },
    });
    await say(socket, 'Do you ship to Lyon?');
    const conversation = await server.models.Conversation.findOne({ ceId: widget.ceId, status: 'open' });
    if (!conversation) throw new Error('no conversation');
    await eventually(async () =>
      expect((await server.models.Conversation.findById(conversation._id))?.threadTs)
        .to.be.a('string')
        .and.not.equal(''),
    );
    const threadTs = (await server.models.Conversation.findById(conversation._id))?.threadTs ?? '';
    await server.slack.postAsUser({ teamId: ACME, userId: ALICE, channelId: widget.channel, threadTs, text: 'We do, in 2 days.' });
    await socket.next('msg', (m) => m.message.from === 'operator');
    socket.send({ t: 'rate', rating: 'up', feedback: 'Quick' });
    await eventually(async () => expect((await server.models.Conversation.findById(conversation._id))?.rating).to.equal('up'));
    await endConversation(server.parley.relay, conversation._id, 'visitor');
    socket.close();
    // Someone without a visitor token leaves an offline message: anonymous.
    await sendOfflineMessage(
      server.parley.relay,
      await widget.widget(),
      { email: 'later@example.org', message: 'Call me back' },
      { country: '' },
    );

    const names = ['Chat Started', 'Visitor Message Sent', 'Operator Replied', 'Chat Rated', 'Chat Ended', 'Offline Message Left'];
    await eventually(async () => expect(segment.events().map((e) => e.event)).to.have.members(names));
    // The first batch was refused (503) and sent again: nothing lost, nothing twice.
    expect(segment.state.refused).to.equal(1);
    expect(segment.events().filter((e) => e.properties.conversationId === String(unkeyed._id))).to.deep.equal([]);
    expect(segment.batches.some((b) => b.headers['x-retry-count'] === '1')).to.equal(true);
    expect(new Set(segment.events().map((e) => e.messageId)).size).to.equal(names.length);
    for (const batch of segment.batches) {
      expect(batch.path).to.equal('/v1/batch');
      expect(batch.headers.authorization).to.equal(basic(WRITE_KEY));
    }
    const id = String(conversation._id);
    const byName = new Map(segment.events().map((e) => [e.event, e]));
    for (const name of names.slice(0, 5)) {
      const event = byName.get(name);
      expect(event, name).to.include({ type: 'track', userId: 'user-42' });
      expect(event?.anonymousId, name).to.equal(undefined);
      expect(event?.properties, name).to.include({ widgetId: widget.uuid, conversationId: id, conversationNumber: conversation.number });
    }
    expect(byName.get('Operator Replied')?.properties).to.include({ firstReply: true });
    expect(byName.get('Chat Rated')?.properties).to.include({ rating: 'up', feedback: 'Quick' });
    expect(byName.get('Chat Ended')?.properties).to.include({ endedBy: 'visitor', answered: true });
    const offline = byName.get('Offline Message Left');
    expect(offline?.userId).to.equal(undefined);
    expect(offline?.anonymousId).to.match(/^offline-[0-9a-f]{24}$/);
    expect(server.parley.analytics.status(WRITE_KEY).lastDeliveredAt).to.be.a('string');
    expect(server.parley.analytics.status(WRITE_KEY).lastError).to.equal(null);
  });

  it("answers the widget's Segment status to its owner only (GET /v1/chat_endpoints/{id}/segment)", async () => {
    const res = await request(server.url)
      .get(`/v1/chat_endpoints/${widget.ceId}/segment`)
      .set('Authorization', `Bearer ${widget.token}`)
      .expect(200);
    expect(res.body).to.include({ enabled: true, lastError: null });
    expect(res.body.lastDeliveredAt).to.be.a('string');
    await request(server.url).get(`/v1/chat_endpoints/${widget.ceId}/segment`).expect(403);
    const other = await createUserInDb(server);
    await request(server.url).get(`/v1/chat_endpoints/${widget.ceId}/segment`).set('Authorization', `Bearer ${other.token}`).expect(404);
  });

  it("ties a visitor's events to the visitor id as anonymousId when the site did not identify them", async () => {
    const before = segment.events().length;
    const { socket } = await VisitorSocket.hello(server, widget.uuid);
    await say(socket, 'Anonymous question');
    socket.close();
    await eventually(async () => expect(segment.events().length).to.be.greaterThan(before + 1));
    const visitor = await server.models.Visitor.findOne({ ceId: widget.ceId }).sort({ _id: -1 });
    const mine = segment.events().slice(before);
    expect(mine.map((e) => e.event)).to.include.members(['Chat Started', 'Visitor Message Sent']);
    for (const event of mine)
      expect(event)
        .to.include({ anonymousId: String(visitor?._id) })
        .and.not.have.property('userId');
  });
});

describe('Segment on shutdown', () => {
  it('sends the events still waiting for their batch when Parley stops', async () => {
    const segment = await collector();
    // Batches would wait a minute: only the shutdown flush can deliver this one in time.
    const server = await startRelayServer({ segment: { host: segment.url, flushIntervalMs: 60_000 } });
    try {
      const widget = await setUpRelayWidget(server);
      await withWriteKey(server, widget, 'wk_parley_shutdown');
      await sendOfflineMessage(server.parley.relay, await widget.widget(), { email: 'late@example.org', message: 'Bye' }, { country: '' });
      expect(segment.batches).to.have.length(0);
    } finally {
      await server.close();
    }
    expect(segment.events().map((e) => e.event)).to.deep.equal(['Offline Message Left']);
    expect(segment.batches[0]?.headers.authorization).to.equal(basic('wk_parley_shutdown'));
    await segment.close();
  });
});
