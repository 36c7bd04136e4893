/**
 * Verified identity over the visitor socket: a valid userHash makes every browser of a user one visitor with one
 * history; a wrong or stale hash, or none, never links; requireVerifiedIdentity drops an unproven identity and says
 * so; Slack's header marks a verified visitor.
 */
import { expect } from 'chai';
import { userHashOf } from '../../server/conversations/identity';
import { findVisitorByToken } from '../../server/conversations/visitors';
import { UNVERIFIED_MARK, VERIFIED_MARK } from '../../server/slack/blocks/thread';
import { ACME, ALICE, clientId, eventually, type SetUp, say, setUpRelayWidget, useRelayServer, VisitorSocket } from './helpers';

describe('verified visitor identity (relay)', () => {
  const server = useRelayServer();
  let widget: SetUp;
  let secret: string;
  const sockets: VisitorSocket[] = [];
  before(async () => {
    widget = await setUpRelayWidget(server);
    secret = (
      await fetch(`${server.url}/v1/chat_endpoints/${widget.ceId}/identity_secret`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${widget.token}` },
      }).then((r) => r.json() as Promise<{ identitySecret: string }>)
    ).identitySecret;
  });
  afterEach(() => {
    for (const s of sockets.splice(0)) s.close();
  });

  const hello = async (opts: Parameters<typeof VisitorSocket.hello>[2]) => {
    const result = await VisitorSocket.hello(server, widget.uuid, opts);
    sockets.push(result.socket);
    return result;
  };
  const visitorOf = (token: string) => findVisitorByToken(server.models.Visitor, token);
  const conversationOf = async (token: string) =>
    String((await server.models.Conversation.findOne({ visitorId: (await visitorOf(token))?._id }).sort({ _id: -1 }))?._id);
  /** The thread parent (conversation header) in `channel` whose blocks mention `text`. */
  const header = (channel: string, text: string) =>
    server.slack.state.channelMessages(channel).find((m) => JSON.stringify(m.blocks ?? []).includes(text));

  it('gives a second browser of a verified user the same visitor, history and live replies', async () => {
    const identity = { userId: 'user-1001', name: 'Vera Verified', email: 'vera@example.com', userHash: userHashOf(secret, 'user-1001') };
    const laptop = await hello({ identity });
    await say(laptop.socket, 'Started on my laptop');
    const phone = await hello({ identity });
    expect(phone.welcome.visitorToken).to.not.equal(laptop.welcome.visitorToken);
    expect(phone.welcome.conversation?.id).to.equal(await conversationOf(laptop.welcome.visitorToken));
    const replayed = await phone.socket.next('msg', (f) => f.message.text === 'Started on my laptop');
    expect(replayed.message.from).to.equal('visitor');
    // The phone writes; the laptop sees it live.
    await say(phone.socket, 'Now on my phone');
    await laptop.socket.next('msg', (f) => f.message.text === 'Now on my phone');
    // The phone's token is the user's too: it resumes the same visitor on its own.
    const again = await hello({ visitorToken: phone.welcome.visitorToken, identity });
    expect(again.welcome.visitorToken).to.equal(phone.welcome.visitorToken);
    expect(again.welcome.conversation?.id).to.equal(phone.welcome.conversation?.id);
    expect(await server.models.Visitor.countDocuments({ ceId: widget.ceId, verifiedUserId: 'user-1001' })).to.equal(1);
  });

  it('marks the verified visitor beside name and e-mail in the Slack header', async () => {
    const identity = { userId: 'user-1002', name: 'Mark Checked', email: 'mark@example.com', userHash: userHashOf(secret, 'user-1002') };
    const { socket } = await hello({ identity });
    await say(socket, 'Please check my order');
    await eventually(async () => {
      const parent = header(widget.channel, 'Mark Checked');
      expect(JSON.stringify(parent?.blocks)).to.include(`Mark Checked* ${VERIFIED_MARK}`);
      expect(JSON.stringify(parent?.blocks)).to.include(`mark@example.com ${VERIFIED_MARK}`);
    });
  });

  // The header job gets the conversation and visitor as they were when the first line opened it (no read again): what
  // the visitor says of themselves meanwhile reaches the header through the update queued behind it.
  it('shows the name and e-mail a visitor gives right behind their first line in the thread header, one header', async () => {
    const { socket } = await hello({});
    const id = clientId();
    socket.send({ t: 'msg', clientId: id, text: 'Do you have the Guji in stock?' });
    socket.send({ t: 'info', name: 'Quick Quentin', email: 'quentin@example.com' });
    await socket.next('ack', (a) => a.clientId === id);
    await eventually(async () => {
      const parent = header(widget.channel, 'Do you have the Guji in stock?');
      expect(JSON.stringify(parent?.blocks)).to.include('Quick Quentin').and.include('quentin@example.com');
    });
    const headers = server.slack.state.channelMessages(widget.channel).filter((m) => JSON.stringify(m.blocks ?? []).includes('Guji'));
    expect(headers).to.have.length(1);
  });

  it('marks a forged identity unverified in the header, the App Home and History; without an identity secret it is a plain label', async () => {
    const forged = { userId: 'ceo', name: 'Mallory Fake', email: 'ceo@radium.test', userHash: userHashOf('guessed', 'ceo') };
    const { socket } = await hello({ identity: forged });
    await say(socket, 'Wire the money today');
    await eventually(async () => {
      const blocks = JSON.stringify(header(widget.channel, 'Mallory Fake')?.blocks);
      expect(blocks).to.include(`Mallory Fake* ${UNVERIFIED_MARK}`);
      expect(blocks).to.not.include(VERIFIED_MARK);
    });
    // App Home lists the chat waiting for an answer with the same mark.
    server.parley.homeTabs.minIntervalMs = 50;
    server.slack.state.setPresence(ALICE, 'active');
    await server.slack.openAppHome({ teamId: ACME, userId: ALICE });
    await eventually(async () =>
      expect(JSON.stringify(server.slack.state.homeView(ACME, ALICE)?.definition.blocks ?? [])).to.include(
        `Mallory Fake> ${UNVERIFIED_MARK}`,
      ),
    );
    // History (the console's Reports → History) says which identities were proven.
    const chats = (await fetch(`${server.url}/v1/reports/${widget.ceId}/chats`, {
      headers: { Authorization: `Bearer ${widget.token}` },
    }).then((r) => r.json())) as { chats: { visitor: { name: string; identity: string } }[] };
    const identities = chats.chats.map((c) => [c.visitor.name, c.visitor.identity]);
    expect(identities).to.deep.include(['Mallory Fake', 'unverified']);
    expect(identities).to.deep.include(['Vera Verified', 'verified']);

    const plain = await setUpRelayWidget(server);
    const other = await VisitorSocket.hello(server, plain.uuid, { identity: forged });
    sockets.push(other.socket);
    await say(other.socket, 'Hello from a widget without a secret');
    await eventually(async () => {
      const blocks = JSON.stringify(header(plain.channel, 'Mallory Fake')?.blocks);
      expect(blocks).to.include('Mallory Fake*');
      expect(blocks).to.not.include('verified_');
    });
  });

  it('never links a wrong hash, a missing one or a stale one (made with a replaced secret) to the verified visitor, and shows no mark', async () => {
    const userId = 'user-1003';
    const owner = await hello({ identity: { userId, name: 'Olga Owner', userHash: userHashOf(secret, userId) } });
    await say(owner.socket, 'Private order details');
    const wrong = await hello({ identity: { userId, name: 'Mallory', userHash: userHashOf('not-the-secret', userId) } });
    const none = await hello({ identity: { userId, name: 'Mallory' } });
    for (const intruder of [wrong, none]) {
      expect(intruder.welcome.conversation).to.equal(null);
      const visitor = await visitorOf(intruder.welcome.visitorToken);
      expect(visitor?.verifiedUserId).to.equal('');
      expect(visitor?._id.equals((await visitorOf(owner.welcome.visitorToken))?._id ?? '')).to.equal(false);
    }
    await say(wrong.socket, 'Mallory writes');
    await eventually(async () => {
      const parent = header(widget.channel, '· Mallory*');
      expect(parent, 'the intruder thread').to.not.equal(undefined);
      // Marked as a claim nobody proved, not shown like a real user.
      expect(JSON.stringify(parent?.blocks)).to.include(`Mallory* ${UNVERIFIED_MARK}`);
      expect(JSON.stringify(parent?.blocks)).to.not.include(VERIFIED_MARK);
    });
    // A new secret makes hashes of the old one stale: they verify nobody.
    const stale = userHashOf(secret, userId);
    const res = await fetch(`${server.url}/v1/chat_endpoints/${widget.ceId}/identity_secret`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${widget.token}` },
    });
    secret = ((await res.json()) as { identitySecret: string }).identitySecret;
    const late = await hello({ identity: { userId, name: 'Olga Owner', userHash: stale } });
    expect(late.welcome.conversation).to.equal(null);
    expect((await visitorOf(late.welcome.visitorToken))?.verifiedUserId).to.equal('');
  });

  it('with requireVerifiedIdentity drops an unproven identity and tells the widget, and keeps a proven one', async () => {
    await server.models.ChatEndpoint.updateOne({ _id: widget.ceId }, { $set: { requireVerifiedIdentity: true } });
    try {
      await eventually(async () => {
        const { socket, welcome } = await hello({ identity: { userId: 'user-1004', name: 'Claimed Name', email: 'claimed@example.com' } });
        const error = await socket.next('error');
        expect(error.code).to.equal('identity_unverified');
        const visitor = await visitorOf(welcome.visitorToken);
        expect(visitor).to.include({ name: '', email: '', identUserId: '', verifiedUserId: '' });
      });
      const proven = await hello({ identity: { userId: 'user-1005', name: 'Proven Name', userHash: userHashOf(secret, 'user-1005') } });
      expect(await visitorOf(proven.welcome.visitorToken)).to.include({ name: 'Proven Name', verifiedUserId: 'user-1005' });
      expect(proven.socket.frames.some((f) => f.t === 'error')).to.equal(false);
    } finally {
      await server.models.ChatEndpoint.updateOne({ _id: widget.ceId }, { $set: { requireVerifiedIdentity: false } });
    }
  });

  it("hands a browser's anonymous visitor to the user who signs in there, with its chat", async () => {
    const anonymous = await hello({});
    await say(anonymous.socket, 'Before signing in');
    const signedIn = await hello({
      visitorToken: anonymous.welcome.visitorToken,
      identity: { userId: 'user-1006', userHash: userHashOf(secret, 'user-1006') },
    });
    expect(signedIn.welcome.visitorToken).to.equal(anonymous.welcome.visitorToken);
    expect(signedIn.welcome.conversation?.id).to.equal(await conversationOf(anonymous.welcome.visitorToken));
    expect((await visitorOf(anonymous.welcome.visitorToken))?.verifiedUserId).to.equal('user-1006');
    const elsewhere = await hello({ identity: { userId: 'user-1006', userHash: userHashOf(secret, 'user-1006') } });
    await elsewhere.socket.next('msg', (f) => f.message.text === 'Before signing in');
  });
});
