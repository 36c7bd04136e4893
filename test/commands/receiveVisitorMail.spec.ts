import { expect } from 'chai';
import {
  type InboundMessage,
  type ReceiveContext,
  receiveVisitorMail,
  UnknownRecipientError,
} from '../../server/commands/receiveVisitorMail';
import { replyToken, unsubscribeToken } from '../../server/conversations/mailTokens';
import { ANSWER, ANSWER_WITH_QUOTE, type Waiting, waitingConversation } from '../inbound/helpers';
import { eventually, useRelayServer } from '../relay/helpers';

const DAY = 24 * 60 * 60_000;

describe('receiveVisitorMail', () => {
  const server = useRelayServer();
  let waiting: Waiting;
  let token: string;
  beforeEach(async () => {
    waiting = await waitingConversation(server);
    const c = await server.models.Conversation.findById(waiting.conversationId).lean();
    if (!c) throw new Error('no conversation');
    token = replyToken(server.config.jwtSecret, { conversationId: c._id, visitorId: c.visitorId });
  });
  const ctx = (now?: Date): ReceiveContext => ({
    ...server.parley.relay,
    secret: server.config.jwtSecret,
    ...(now ? { clock: { now: () => now } } : {}),
  });
  const mail = (fields: Partial<InboundMessage> = {}): InboundMessage => ({
    messageId: `m${Date.now()}.${Math.random()}@mail.example.com`,
    from: waiting.email,
    headers: {},
    text: ANSWER_WITH_QUOTE,
    attachments: [],
    ...fields,
  });
  const visitorLines = async (conversationId = waiting.conversationId) =>
    (await server.models.Message.find({ conversationId, kind: 'msg', from: 'visitor' }).sort({ seq: 1 }).lean()).map((m) => m.text);

  it('posts the answer without its quote and signature once per Message-ID, and counts the second delivery', async () => {
    const answer = mail({ messageId: 'once@mail.example.com' });
    expect(await receiveVisitorMail(ctx(), token, answer)).to.equal('posted');
    expect(await receiveVisitorMail(ctx(), token, answer)).to.equal('duplicate');
    expect(await visitorLines()).to.deep.equal(['Do you ship to Norway?', ANSWER]);
    expect(await server.models.InboundMail.findOne({ messageId: 'once@mail.example.com' }).lean()).to.deep.include({
      outcome: 'posted',
      duplicates: 1,
    });
    await eventually(async () => expect(waiting.thread()).to.include(ANSWER));
    await server.slack.settled();
    expect(waiting.thread().filter((t) => t === ANSWER)).to.have.length(1);
    expect(waiting.thread().join('\n')).to.not.include('ACME Corp, Oslo');
  });

  it('counts a mail without a Message-ID by its sender and text, so a resent copy is not posted twice', async () => {
    const bare = mail({ messageId: '', text: 'No id here, just the answer.' });
    expect(await receiveVisitorMail(ctx(), token, bare)).to.equal('posted');
    expect(await receiveVisitorMail(ctx(), token, { ...bare })).to.equal('duplicate');
    expect((await visitorLines()).filter((t) => t === 'No id here, just the answer.')).to.have.length(1);
  });

  it('refuses an address Parley did not sign for replies, storing nothing', async () => {
    const c = await server.models.Conversation.findById(waiting.conversationId).lean();
    if (!c) throw new Error('no conversation');
    const forged = [
      unsubscribeToken(server.config.jwtSecret, { conversationId: c._id, visitorId: c.visitorId }),
      replyToken('not-parleys-secret', { conversationId: c._id, visitorId: c.visitorId }),
      'garbage',
    ];
    for (const t of forged) {
      const error = await receiveVisitorMail(ctx(), t, mail()).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error, t).to.be.instanceOf(UnknownRecipientError);
    }
    expect(await visitorLines()).to.deep.equal(['Do you ship to Norway?']);
    expect(await server.models.InboundMail.countDocuments({ conversationId: c._id })).to.equal(0);
  });

  it('drops and counts auto-replies, bounces and mails with nothing but the quote; nothing reaches the thread', async () => {
    const outcomes = [
      await receiveVisitorMail(ctx(), token, mail({ text: 'I am away until Monday.', headers: { 'auto-submitted': 'auto-replied' } })),
      await receiveVisitorMail(ctx(), token, mail({ text: 'Out of office.', headers: { precedence: 'bulk' } })),
      await receiveVisitorMail(ctx(), token, mail({ from: 'mailer-daemon@mail.example.com', text: 'Delivery failed.' })),
      await receiveVisitorMail(ctx(), token, mail({ envelopeFrom: '', text: 'Undeliverable.' })),
      await receiveVisitorMail(ctx(), token, mail({ text: '> Alice replied to your chat:\n> Yes, in 3 days.\n' })),
    ];
    expect(outcomes).to.deep.equal(['autoReply', 'autoReply', 'bounce', 'bounce', 'empty']);
    const counted = await server.models.InboundMail.find({ conversationId: waiting.conversationId }).lean();
    expect(counted.map((m) => m.outcome).sort()).to.deep.equal(['autoReply', 'autoReply', 'bounce', 'bounce', 'empty']);
    expect(await visitorLines()).to.deep.equal(['Do you ship to Norway?']);
    await server.slack.settled();
    expect(waiting.thread().join('\n')).to.not.match(/away until Monday|Out of office|Delivery failed|Undeliverable/);
  });

  it('says in the thread when the answer came from another address than the visitor’s, with theirs masked', async () => {
    expect(await receiveVisitorMail(ctx(), token, mail({ from: 'someone.else@example.org' }))).to.equal('posted');
    await eventually(async () =>
      expect(waiting.thread().join('\n')).to.include(
        "This answer came by e-mail from someone.else@example.org, not from the visitor's address",
      ),
    );
    expect(waiting.thread().join('\n')).to.not.include(waiting.email);
  });

  it('reopens a conversation that ended less than a week ago and says so in its thread', async () => {
    await server.models.Conversation.updateOne(
      { _id: waiting.conversationId },
      { $set: { status: 'ended', endedAt: new Date(Date.now() - 6 * DAY), endedBy: 'operator' } },
    );
    expect(await receiveVisitorMail(ctx(), token, mail())).to.equal('posted');
    const c = await server.models.Conversation.findById(waiting.conversationId).lean();
    expect(c).to.deep.include({ status: 'open', endedAt: null, endedBy: null });
    expect(await visitorLines()).to.deep.equal(['Do you ship to Norway?', ANSWER]);
    await eventually(async () => expect(waiting.thread()).to.include('The visitor answered by e-mail: the conversation is open again.'));
    expect(await server.models.Conversation.countDocuments({ ceId: waiting.widget.ceId })).to.equal(1);
  });

  it('starts a new conversation for an answer to one that ended over a week ago, its thread linking the old one', async () => {
    const endedAt = new Date(Date.now() - 8 * DAY);
    await server.models.Conversation.updateOne(
      { _id: waiting.conversationId },
      { $set: { status: 'ended', endedAt, endedBy: 'operator' } },
    );
    const old = await server.models.Conversation.findById(waiting.conversationId).lean();
    if (!old) throw new Error('no conversation');
    expect(await receiveVisitorMail(ctx(), token, mail())).to.equal('posted');
    expect((await server.models.Conversation.findById(old._id).lean())?.status).to.equal('ended');
    const fresh = await server.models.Conversation.findOne({ ceId: waiting.widget.ceId, _id: { $ne: old._id } }).lean();
    expect(fresh).to.deep.include({ status: 'open', number: old.number + 1 });
    expect(String(fresh?.visitorId)).to.equal(String(old.visitorId));
    expect(await visitorLines(fresh?._id)).to.deep.equal([ANSWER]);
    await eventually(async () => {
      const c = await server.models.Conversation.findById(fresh?._id).lean();
      expect(c?.threadTs).to.be.a('string').and.not.equal('');
      const texts = server.slack.state.replies(waiting.widget.channel, c?.threadTs ?? '').map((m) => m.text ?? '');
      expect(texts.join('\n')).to.include(
        `The visitor answered by e-mail to conversation #${old.number} (ended ${endedAt.toISOString().slice(0, 10)})`,
      );
    });
  });
});
