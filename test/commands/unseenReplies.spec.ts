import { expect } from 'chai';
import { Types } from 'mongoose';
import {
  CANNOT_REACH_NOTE,
  startUnseenWait,
  UNSEEN_ROW,
  UNSUBSCRIBED_NOTE,
  type UnseenRow,
  unseenWaitDue,
  visitorSaw,
} from '../../server/commands/unseenReplies';
import { ACME, ALICE, eventually } from '../relay/helpers';
import { useChat } from './chat';

const MINUTE = 60_000;

describe('unseenReplies', () => {
  const { server, at, conversation } = useChat();
  const relay = () => server.parley.relay;

  /** An operator reply from Slack, as the visitor's widget received it; answers its seq. */
  const reply = async (text: string) => {
    await server.slack.postAsUser({ teamId: ACME, userId: ALICE, channelId: at.widget.channel, threadTs: at.chat.threadTs, text });
    return (await at.chat.socket.next('msg', (f) => f.message.text === text)).message.seq;
  };
  const row = async () => {
    const c = await server.models.Conversation.findById(at.chat.id, UNSEEN_ROW).lean<UnseenRow>().exec();
    if (!c) throw new Error('conversation gone');
    return c;
  };
  const clearWait = () => server.models.Conversation.updateOne({ _id: at.chat.id }, { $set: { unseenMailAt: null } });
  const setWidget = async (fields: Record<string, unknown>) => {
    await server.models.ChatEndpoint.updateOne({ _id: at.widget.ceId }, { $set: fields });
    relay().widgets.invalidate(at.widget.ceId);
  };
  const operatorPosts = () => server.slack.state.replies(at.widget.channel, at.chat.threadTs).filter((m) => m.user === ALICE);
  const notes = () => server.slack.state.replies(at.widget.channel, at.chat.threadTs).map((m) => m.text ?? '');
  /** Mails to the chat's visitor sent during this test (every chat's visitor is erin@visitor.test). */
  let mailedBefore = 0;
  const mailsToVisitor = async () => {
    const all = (await server.outbox.list()).filter((m) => m.to === 'erin@visitor.test');
    return all.slice(0, all.length - mailedBefore); // newest first
  };
  beforeEach(async () => {
    mailedBefore = 0;
    mailedBefore = (await mailsToVisitor()).length;
  });

  it("a reply from Slack starts the wait at its time plus the widget's minutes; a later reply leaves a running wait as it is", async () => {
    const before = Date.now();
    await reply('Yes, we ship to Norway.');
    const after = Date.now();
    const started = (await row()).unseenMailAt?.getTime() ?? 0;
    expect(started).to.be.within(before + 2 * MINUTE, after + 2 * MINUTE);
    // A later clock, so a wait the second reply moved would show.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await reply('Delivery takes 3 days.');
    expect((await row()).unseenMailAt?.getTime()).to.equal(started);

    await clearWait();
    await setWidget({ emailUnseenAfterMinutes: 0 });
    await reply('It ships from Oslo.');
    expect((await row()).unseenMailAt).to.equal(null);
  });

  it("starts one wait at the reply's time plus the widget's minutes; not for a seen reply, nor when the widget mails nothing", async () => {
    const seq = await reply('Yes, we ship to Norway.');
    const c = await conversation();
    await clearWait();
    const now = new Date(Date.now() + 10 * MINUTE);
    await startUnseenWait(relay(), c, seq, now);
    expect((await row()).unseenMailAt?.getTime()).to.equal(now.getTime() + 2 * MINUTE);
    // A wait runs: a later reply does not move it.
    await startUnseenWait(relay(), c, seq, new Date(now.getTime() + 5 * MINUTE));
    expect((await row()).unseenMailAt?.getTime()).to.equal(now.getTime() + 2 * MINUTE);

    await clearWait();
    await server.models.Conversation.updateOne({ _id: c._id }, { $set: { seenSeq: seq } });
    await startUnseenWait(relay(), c, seq, now);
    expect((await row()).unseenMailAt).to.equal(null);

    await server.models.Conversation.updateOne({ _id: c._id }, { $set: { seenSeq: 0 } });
    await setWidget({ emailUnseenAfterMinutes: 0 });
    await startUnseenWait(relay(), c, seq, now);
    expect((await row()).unseenMailAt).to.equal(null);
  });

  it('ends the wait once every reply is seen and puts :eyes: on the latest seen reply, once per frame that brings news', async () => {
    const first = await reply('Yes, we ship to Norway.');
    const second = await reply('Delivery takes 3 days.');
    const c = await conversation();
    expect(c.unseenMailAt).to.not.equal(null);
    const bot = server.slack.state.installation(ACME)?.botUserId;

    // Another visitor's frame, or one beyond what exists, changes nothing.
    await visitorSaw(relay(), { conversationId: c._id, visitorId: new Types.ObjectId(), seq: second });
    await visitorSaw(relay(), { conversationId: c._id, visitorId: c.visitorId, seq: c.lastSeq + 5 });
    expect((await row()).seenSeq).to.be.below(first);

    // The first reply seen: the second still waits, :eyes: on the first.
    await visitorSaw(relay(), { conversationId: c._id, visitorId: c.visitorId, seq: first });
    expect((await row()).unseenMailAt).to.not.equal(null);
    await eventually(async () => expect(operatorPosts()[0]?.reactions).to.deep.equal([{ name: 'eyes', users: [bot] }]));

    await visitorSaw(relay(), { conversationId: c._id, visitorId: c.visitorId, seq: second });
    expect((await row()).unseenMailAt).to.equal(null);
    await eventually(async () => expect(operatorPosts()[1]?.reactions).to.deep.equal([{ name: 'eyes', users: [bot] }]));

    // Seen again: nothing new, no second reaction.
    await visitorSaw(relay(), { conversationId: c._id, visitorId: c.visitorId, seq: second });
    expect(await server.models.OutboxJob.countDocuments({ kind: 'slack.react', conversationId: c._id })).to.equal(0);
    await server.slack.settled();
    expect(operatorPosts().map((m) => m.reactions)).to.deep.equal([[{ name: 'eyes', users: [bot] }], [{ name: 'eyes', users: [bot] }]]);
  });

  it('mails the replies still unseen when the wait comes due, once, and ends the wait', async () => {
    await reply('Yes, we ship to Norway.');
    const due = await row();
    expect(due.unseenMailAt).to.not.equal(null);
    expect(await unseenWaitDue(relay(), due, new Date())).to.equal(true);
    expect((await row()).unseenMailAt).to.equal(null);
    await eventually(async () => expect(await mailsToVisitor()).to.have.length(1));
    expect((await mailsToVisitor())[0]?.text).to.include('Yes, we ship to Norway.');
    await eventually(async () => expect(notes().join('\n')).to.include('Sent by e-mail to'));
    // The same row again (a second process, or a crash before the wait was cleared): no second mail.
    await unseenWaitDue(relay(), due, new Date());
    await eventually(async () => expect(await server.models.OutboxJob.countDocuments({ kind: 'mail.unseen' })).to.equal(0));
    expect(await mailsToVisitor()).to.have.length(1);
  });

  it('ends a due wait without a mail when the replies were seen or the widget stopped mailing', async () => {
    const seq = await reply('Yes, we ship to Norway.');
    const due = await row();
    await server.models.Conversation.updateOne({ _id: at.chat.id }, { $set: { seenSeq: seq } });
    expect(await unseenWaitDue(relay(), { ...due, seenSeq: seq }, new Date())).to.equal(false);
    expect((await row()).unseenMailAt).to.equal(null);

    await server.models.Conversation.updateOne({ _id: at.chat.id }, { $set: { seenSeq: 0, unseenMailAt: due.unseenMailAt } });
    await setWidget({ emailUnseenAfterMinutes: 0 });
    expect(await unseenWaitDue(relay(), due, new Date())).to.equal(false);
    expect((await row()).unseenMailAt).to.equal(null);
    expect(await server.models.OutboxJob.countDocuments({ kind: 'mail.unseen' })).to.equal(0);
    expect(await mailsToVisitor()).to.have.length(0);
  });

  it('tells the thread once that a visitor without an address, or unsubscribed, cannot be mailed', async () => {
    await reply('Yes, we ship to Norway.');
    const c = await conversation();
    await server.models.Visitor.updateOne({ _id: c.visitorId }, { $set: { email: '' } });
    const due = await row();
    expect(await unseenWaitDue(relay(), due, new Date())).to.equal(false);
    expect(await unseenWaitDue(relay(), due, new Date())).to.equal(false);
    await eventually(async () => expect(notes()).to.include(CANNOT_REACH_NOTE));

    await server.models.Visitor.updateOne({ _id: c.visitorId }, { $set: { email: 'erin@visitor.test', emailUnsubscribedAt: new Date() } });
    await reply('Anything else?');
    const again = await row();
    expect(again.unseenMailAt).to.not.equal(null);
    expect(await unseenWaitDue(relay(), again, new Date())).to.equal(false);
    await eventually(async () => expect(notes()).to.include(UNSUBSCRIBED_NOTE));
    await server.slack.settled();
    expect(notes().filter((t) => t === CANNOT_REACH_NOTE)).to.have.length(1);
    expect(notes().filter((t) => t === UNSUBSCRIBED_NOTE)).to.have.length(1);
    expect(await mailsToVisitor()).to.have.length(0);
  });
});
