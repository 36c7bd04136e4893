/**
 * The history finds past chats by the visitor's name, e-mail address and the words of the chat, through the real
 * relay (visitor sockets, operator replies from the Slack sandbox), and names each chat by its number, its visitor
 * and its first line.
 */
import { expect } from 'chai';
import request from 'supertest';
import type { ChatsPage } from '../../server/shared/reports';
import { ACME, ALICE, eventually, type SetUp, say, setUpRelayWidget, useRelayServer, VisitorSocket } from '../relay/helpers';

describe('history search', () => {
  let widget: SetUp;
  const server = useRelayServer();
  const sockets: VisitorSocket[] = [];
  afterEach(() => {
    for (const s of sockets.splice(0)) s.close();
  });

  beforeEach(async () => {
    widget = await setUpRelayWidget(server);
    const ce = await widget.widget();
    await server.models.Account.updateOne({ _id: ce.accountId }, { $set: { planStripeId: 'parley_pro_monthly' } });
  });

  /** A visitor's chat: hello (with an identity when given), messages, and the conversation once its thread exists. */
  async function chat(identity: { name?: string; email?: string } | undefined, ...lines: string[]) {
    const { socket } = await VisitorSocket.hello(server, widget.uuid, identity ? { identity } : {});
    sockets.push(socket);
    for (const line of lines) await say(socket, line);
    let threadTs = '';
    let id = '';
    await eventually(async () => {
      const visitor = await server.models.Visitor.findOne({ ceId: widget.ceId }).sort({ _id: -1 });
      const c = await server.models.Conversation.findOne({ visitorId: visitor?._id });
      expect(c?.threadTs).to.not.equal('');
      threadTs = c?.threadTs ?? '';
      id = String(c?._id);
    });
    return { socket, threadTs, id };
  }

  const search = async (q: string, query: Record<string, string | number> = {}) =>
    (
      await request(server.url)
        .get(`/v1/reports/${widget.ceId}/chats`)
        .query({ q, ...query })
        .set('Authorization', `Bearer ${widget.token}`)
        .expect(200)
    ).body as ChatsPage;
  const numbers = (page: ChatsPage) => page.chats.map((c) => c.number);

  it('finds chats by the start of a name or e-mail, by words of either side, all words together, and pages the matches', async () => {
    await chat({ name: 'Zoë Ångström', email: 'zoe.a@shop.example' }, 'My parcel never arrived', 'Order 4411 please');
    const walt = await chat({ email: 'walt@example.com' }, 'Can I change my invoice address?');
    await chat(undefined, 'Hello there, is the parcel tracked?');
    await server.slack.postAsUser({
      teamId: ACME,
      userId: ALICE,
      channelId: widget.channel,
      threadTs: walt.threadTs,
      text: 'Sure, refund issued',
    });
    await eventually(async () => expect(numbers(await search('refund'))).to.deep.equal([2]));

    expect(numbers(await search('zoe'))).to.deep.equal([1]);
    expect(numbers(await search('Angstr'))).to.deep.equal([1]);
    expect(numbers(await search('zoe.a@shop.example'))).to.deep.equal([1]);
    expect(numbers(await search('WALT@example.com'))).to.deep.equal([2]);
    expect(numbers(await search('parcel'))).to.deep.equal([3, 1]);
    expect(numbers(await search('parcel 4411'))).to.deep.equal([1]);
    expect(numbers(await search('parcel invoice'))).to.deep.equal([]);
    // Whole words of the messages (a name or address is found from its start).
    expect(numbers(await search('parc'))).to.deep.equal([]);
    const paged = await search('parcel', { perPage: 1, page: 1 });
    expect(paged.totalChats).to.equal(2);
    expect(numbers(paged)).to.deep.equal([1]);
    expect((await search('')).totalChats).to.equal(3);
  });

  it('names each chat by number, visitor (or "Visitor N") and first line', async () => {
    await chat({ name: 'Tom' }, 'Where is my order?\nIt was due Monday', 'Second message');
    await chat(undefined, 'Just browsing');
    const page = await search('');
    expect(page.chats.map((c) => [c.number, c.visitor.label, c.firstLine])).to.deep.equal([
      [2, 'Visitor 2', 'Just browsing'],
      [1, 'Tom', 'Where is my order?'],
    ]);
  });

  it('finds a chat under a name the visitor gave later, and no longer once the visitor is erased', async () => {
    const first = await chat(undefined, 'I have a question');
    first.socket.send({ t: 'info', name: 'Quentin', email: 'q@example.org' });
    await eventually(async () => expect(numbers(await search('quent'))).to.deep.equal([1]));
    await request(server.url)
      .post('/v1/accounts/gdpr-erasure')
      .set('Authorization', `Bearer ${widget.token}`)
      .send({ query: 'q@example.org' })
      .expect(201);
    expect((await server.models.Conversation.findById(first.id))?.searchTerms).to.deep.equal([]);
    expect(numbers(await search('quent'))).to.deep.equal([]);
    expect(numbers(await search('question'))).to.deep.equal([]);
  });

  it('answers 400 for a query longer than 200 characters', async () => {
    const res = await request(server.url)
      .get(`/v1/reports/${widget.ceId}/chats`)
      .query({ q: 'x'.repeat(201) })
      .set('Authorization', `Bearer ${widget.token}`)
      .expect(400);
    expect(res.body.Message).to.match(/q is longer than 200 characters/);
  });
});
