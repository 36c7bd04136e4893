/**
 * Operator replies the visitor did not see go out by e-mail: a wait starts with an unseen reply and comes due after
 * the widget's emailUnseenAfterMinutes; its mail carries every reply still unseen then (once each), the earlier lines,
 * the Reply-To token and a one-click unsubscribe link, and the thread says where it went. A reply seen in the widget
 * (`seen` frame) sends nothing and gets :eyes: in Slack, one reaction for what one frame showed.
 */
import { expect } from 'chai';
import mongoose from 'mongoose';
import request from 'supertest';
import {
  CANNOT_REACH_NOTE,
  sentByEmailNote,
  UNSEEN_ROW,
  UNSUBSCRIBED_NOTE,
  type UnseenRow,
  unseenWaitDue,
} from '../../server/commands/unseenReplies';
import { readResumeToken } from '../../server/conversations/mailTokens';
import { createModels } from '../../server/models';
import { mailUnseenReplies } from '../../server/relay';
import { testMongoUri } from '../helpers/mongo';
import { ACME, ALICE, eventually, type SetUp, say, setUpRelayWidget, useRelayServer, VisitorSocket } from './helpers';

const MINUTE = 60_000;

describe('replies the visitor did not see, by e-mail', () => {
  const server = useRelayServer();
  let widget: SetUp;
  let socket: VisitorSocket;
  let threadTs: string;
  let email: string;
  let visitorToken: string;

  beforeEach(async () => {
    widget = await setUpRelayWidget(server);
    email = `jane.${Date.now()}@example.com`;
    const hello = await VisitorSocket.hello(server, widget.uuid);
    socket = hello.socket;
    visitorToken = hello.welcome.visitorToken;
    socket.send({ t: 'info', email });
    await say(socket, 'Do you ship to Norway?');
    await eventually(async () => {
      const c = await server.models.Conversation.findOne({ ceId: widget.ceId });
      expect(c?.threadTs).to.not.equal('');
      threadTs = c?.threadTs ?? '';
    });
  });
  afterEach(() => socket.close());

  const reply = (text: string) => server.slack.postAsUser({ teamId: ACME, userId: ALICE, channelId: widget.channel, threadTs, text });
  const conversation = async () => {
    const c = await server.models.Conversation.findOne({ ceId: widget.ceId }).lean();
    if (!c) throw new Error('no conversation');
    return c;
  };
  const mailsTo = async () => (await server.outbox.list()).filter((m) => m.to === email);
  const notes = () => server.slack.state.replies(widget.channel, threadTs).map((m) => m.text);
  /** Runs the unseen-mail check as if `minutes` had passed, then lets the outbox send. */
  const later = async (minutes: number) => {
    await mailUnseenReplies(server.parley.relay, new Date(Date.now() + minutes * MINUTE));
  };

  it('mails an unseen reply once after the wait, with the later replies of that wait, the context and a way back', async () => {
    await reply('Yes, we ship to *Norway*: see <https://shop.example.com/shipping|our shipping page>');
    const first = await socket.next('msg', (f) => f.message.from === 'operator');
    await reply('Delivery takes 3 days.');
    await socket.next('msg', (f) => f.message.text.includes('3 days'));
    const c = await conversation();
    expect(c.unseenMailAt?.getTime()).to.be.closeTo(Date.parse(first.message.at) + 2 * MINUTE, 2000);

    // Not yet due: nothing.
    await mailUnseenReplies(server.parley.relay, new Date(Date.now() + MINUTE));
    expect(await server.models.OutboxJob.countDocuments({ kind: 'mail.unseen' })).to.equal(0);

    await later(3);
    await eventually(async () => expect(await mailsTo()).to.have.length(1));
    const [mail] = await mailsTo();
    expect(mail.subject).to.include('replied to your chat');
    expect(mail.text).to.include('Yes, we ship to Norway');
    expect(mail.text).to.include('Delivery takes 3 days.');
    expect(mail.text).to.include('Do you ship to Norway?');
    expect(mail.html).to.include('<a href="https://shop.example.com/shipping"');
    expect(mail.replyTo?.address).to.match(new RegExp(`^reply\\+[0-9a-f]{56}@${server.config.mail.inbound.domain}$`));
    expect(mail.headers?.['List-Unsubscribe']).to.match(/^<http.*\/mail\/unsubscribe\/[0-9a-f]{56}>$/);
    // The way back: the chat's page with a resume token of this conversation, good for 7 days, in any browser.
    const back = mail.links.find((l) => l.startsWith('https://shop.example.com/pricing#parley-open=')) ?? '';
    const resume = readResumeToken(back.split('#parley-open=')[1] ?? '');
    expect(resume?.conversationId.toHexString()).to.equal(String(c._id));
    expect((resume?.expiresAt.getTime() ?? 0) - Date.now()).to.be.within(6.9 * 24 * 3600_000, 7 * 24 * 3600_000);
    const masked = `${email[0]}•••@example.com`;
    await eventually(async () => expect(notes()).to.include(sentByEmailNote(email)));
    expect(sentByEmailNote(email)).to.equal(`Sent by e-mail to ${masked}`);

    // The wait is over: another pass, however late, sends nothing more.
    await later(10);
    expect((await conversation()).unseenMailAt).to.equal(null);
    await later(60);
    // A new reply starts a new wait; its mail holds only that reply.
    await reply('One more thing: shipping is free.');
    await socket.next('msg', (f) => f.message.text.includes('free'));
    await later(3);
    await eventually(async () => expect(await mailsTo()).to.have.length(2));
    const [second] = await mailsTo();
    expect(second.text).to.include('shipping is free');
    expect(second.text.split('— Earlier in the conversation —')[0]).to.not.include('Delivery takes 3 days.');
  });

  it('sends one mail per wait when two processes look at the same moment', async () => {
    await reply('We have it in stock.');
    await socket.next('msg', (f) => f.message.from === 'operator');
    const other = await mongoose.createConnection(await testMongoUri(), { dbName: server.dbName }).asPromise();
    try {
      const elsewhere = { ...server.parley.relay, models: createModels(other) };
      const at = new Date(Date.now() + 3 * MINUTE);
      await Promise.all([mailUnseenReplies(server.parley.relay, at), mailUnseenReplies(elsewhere, at)]);
    } finally {
      await other.close();
    }
    await eventually(async () => {
      expect(await mailsTo()).to.have.length(1);
      expect(await server.models.OutboxJob.countDocuments({ kind: 'mail.unseen' })).to.equal(0);
    });
    await eventually(async () => expect(notes().filter((n) => n === sentByEmailNote(email))).to.have.length(1));
  });

  it('gives a reply that arrives while its wait is being mailed a wait of its own, so it is mailed too, once', async () => {
    await reply('First: yes.');
    await socket.next('msg', (f) => f.message.text === 'First: yes.');
    // The check read the conversation; the operator writes again before the check ends the wait.
    const row = await server.models.Conversation.findOne({ ceId: widget.ceId }, UNSEEN_ROW).lean<UnseenRow>();
    if (!row) throw new Error('no conversation');
    await reply('Second: it ships Monday.');
    await socket.next('msg', (f) => f.message.text === 'Second: it ships Monday.');
    expect((await conversation()).unseenMailAt?.getTime()).to.equal(row.unseenMailAt?.getTime());
    expect(await unseenWaitDue(server.parley.relay, row, new Date())).to.equal(true);
    await eventually(async () => expect(await mailsTo()).to.have.length(1));
    const [first] = await mailsTo();
    expect(first.text).to.include('First: yes.');
    expect(first.text).to.not.include('Second: it ships Monday.');
    expect((await conversation()).unseenMailAt).to.not.equal(null);
    await later(3);
    await eventually(async () => expect(await mailsTo()).to.have.length(2));
    const [second] = await mailsTo();
    expect(second.text.split('— Earlier in the conversation —')[0]).to.include('Second: it ships Monday.');
    expect(second.text.split('— Earlier in the conversation —')[0]).to.not.include('First: yes.');
  });

  it('sends nothing for a reply the visitor saw, and Slack shows :eyes: on it once', async () => {
    await reply('Yes we do.');
    await reply('Anything else?');
    const seen = await socket.next('msg', (f) => f.message.text === 'Anything else?');
    expect((await conversation()).unseenMailAt).to.not.equal(null);
    socket.send({ t: 'seen', seq: seen.message.seq });
    await eventually(async () => expect((await conversation()).unseenMailAt).to.equal(null));
    await later(30);
    expect(await server.models.OutboxJob.countDocuments({ kind: 'mail.unseen' })).to.equal(0);
    const operatorPosts = () => server.slack.state.replies(widget.channel, threadTs).filter((m) => m.user === ALICE);
    await eventually(async () => {
      const [yes, anything] = operatorPosts();
      expect(anything.reactions).to.deep.equal([{ name: 'eyes', users: [server.slack.state.installation(ACME)?.botUserId] }]);
      // One call for what one frame showed, on the latest reply.
      expect(yes.reactions ?? []).to.deep.equal([]);
    });
    // Seen again: no second reaction.
    socket.send({ t: 'seen', seq: seen.message.seq });
    socket.send({ t: 'ping' });
    await socket.next('pong');
    expect(await server.models.OutboxJob.countDocuments({ kind: 'slack.react' })).to.equal(0);
    expect(await mailsTo()).to.have.length(0);
  });

  it('cannot go beyond what the conversation holds, nor mark another visitor as having seen it', async () => {
    await reply('Hello there');
    const msg = await socket.next('msg', (f) => f.message.from === 'operator');
    socket.send({ t: 'seen', seq: msg.message.seq + 50 });
    const { socket: stranger } = await VisitorSocket.hello(server, widget.uuid);
    stranger.send({ t: 'seen', seq: msg.message.seq });
    stranger.send({ t: 'ping' });
    await stranger.next('pong');
    socket.send({ t: 'ping' });
    await socket.next('pong');
    expect((await conversation()).seenSeq).to.equal(0);
    stranger.close();
  });

  it('notes in the thread that a visitor without an e-mail address cannot be reached', async () => {
    await server.models.Visitor.updateOne({ _id: (await conversation()).visitorId }, { $set: { email: '' } });
    await reply('Are you still there?');
    await socket.next('msg', (f) => f.message.from === 'operator');
    await later(3);
    await eventually(async () => expect(notes()).to.include(CANNOT_REACH_NOTE));
    expect(await mailsTo()).to.have.length(0);
    await later(10);
    expect(notes().filter((n) => n === CANNOT_REACH_NOTE)).to.have.length(1);
  });

  it('takes the address a visitor without one gave in the offline form', async () => {
    const visitorId = (await conversation()).visitorId;
    await server.models.Visitor.updateOne({ _id: visitorId }, { $set: { email: '' } });
    await request(server.url)
      .post(`/widget/api/${widget.uuid}/offline`)
      .set('origin', 'http://shop.example.com')
      .send({ email, message: 'Call me back please', visitorToken })
      .expect((res) => expect(res.status).to.be.below(300));
    expect((await server.models.Visitor.findById(visitorId).lean())?.email).to.equal(email);
    await reply('Calling you now.');
    await socket.next('msg', (f) => f.message.text === 'Calling you now.');
    await later(3);
    await eventually(async () => expect(await mailsTo()).to.have.length(1));
  });

  it('stops mailing once the visitor unsubscribed with the link, and a forged link does nothing', async () => {
    await reply('First answer');
    await socket.next('msg', (f) => f.message.from === 'operator');
    await later(3);
    await eventually(async () => expect(await mailsTo()).to.have.length(1));
    const [mail] = await mailsTo();
    const link = new URL(mail.links.find((l) => l.includes('/mail/unsubscribe/')) ?? '');
    const forged = link.pathname.replace(/[0-9a-f]$/, (d) => (d === '0' ? '1' : '0'));
    await request(server.url).get(forged).expect(404);
    const visitorId = (await conversation()).visitorId;
    expect((await server.models.Visitor.findById(visitorId).lean())?.emailUnsubscribedAt).to.equal(null);
    const page = await request(server.url).get(link.pathname).expect(200);
    expect(page.text).to.include('You are unsubscribed');
    expect((await server.models.Visitor.findById(visitorId).lean())?.emailUnsubscribedAt).to.be.an.instanceOf(Date);

    await reply('Second answer');
    await socket.next('msg', (f) => f.message.text === 'Second answer');
    await later(3);
    await eventually(async () => expect(notes()).to.include(UNSUBSCRIBED_NOTE));
    expect(await mailsTo()).to.have.length(1);
  });
});
