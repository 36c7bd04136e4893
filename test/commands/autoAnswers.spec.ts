import { expect } from 'chai';
import { autoAnswerIfDue } from '../../server/commands/autoAnswers';
import type { ServerFrame } from '../../server/shared/widget-protocol';
import { eventually, say } from '../relay/helpers';
import { ACME, ALICE } from '../slack/helpers';
import { useChat } from './chat';

type ChatFrame = Extract<ServerFrame, { t: 'msg' }>;
const automatic = (f: ChatFrame) => f.message.automatic === true;

/**
 * Automatic answers run in the relay's due work: the tests run its pass with a time past the widget's
 * autoAnswerAfterSeconds (45 s by default) instead of waiting for it.
 */
describe('automatic answers from the help center', () => {
  const { server, at, conversation, thread } = useChat();
  const relay = () => server.parley.relay;
  const later = (seconds: number) => new Date(Date.now() + seconds * 1000);

  /** Two articles of the chat's widget, one about the visitor's question, one not; the search is told. */
  const writeArticles = async () => {
    const ce = await at.widget.widget();
    const base = { accountId: ce.accountId, ceId: ce._id, language: 'en', published: true };
    const reset = await server.models.Article.create({
      ...base,
      title: 'Reset your password',
      slug: 'reset-password',
      body: 'Forgot your password? Open **Settings**, choose Password and follow the reset link we e-mail you.',
    });
    await server.models.Article.create({
      ...base,
      title: 'Shipping times',
      slug: 'shipping',
      body: 'Parcels leave our warehouse within two days.',
    });
    await server.models.Article.create({
      ...base,
      title: 'Password rules draft',
      slug: 'draft',
      body: 'Password reset notes.',
      published: false,
    });
    server.parley.articleSearch.changed(String(ce._id));
    return reset;
  };
  const autoMessages = () => server.models.Message.find({ conversationId: at.chat.id, automatic: true }).lean();

  it('answers a conversation nobody answered within the setting once, with the matching articles, marked as automatic', async () => {
    const reset = await writeArticles();
    await say(at.chat.socket, 'I forgot my password, how do I reset it?');
    await relay().dueWork.tick(later(20));
    expect(await autoMessages()).to.have.length(0);

    await relay().dueWork.tick(later(46));
    const frame = await at.chat.socket.next('msg', automatic);
    expect(frame.message.from).to.equal('system');
    expect(frame.message.author).to.deep.equal({ name: 'Automatic answer' });
    expect(frame.message.articles?.map((a) => a.title)).to.deep.equal(['Reset your password']);
    expect(frame.message.articles?.[0]?.id).to.equal(String(reset._id));
    expect(frame.message.articles?.[0]?.url).to.match(/\/help\/[^/]+\/reset-password\?lang=en$/);
    expect(frame.message).to.not.have.property('helpful');
    await thread((texts) =>
      expect(
        texts.some((t) => t.includes('Parley sent the visitor an article from the help center') && t.includes('|Reset your password>')),
      ).to.equal(true),
    );
    // Not an operator's answer: the conversation still waits for one.
    const c = await conversation();
    expect(c.firstResponseAt).to.equal(null);
    expect(c.autoAnswerMessageId).to.equal(frame.message.id);

    // Later passes, and the visitor's next question, get no second automatic answer.
    await say(at.chat.socket, 'Also, how do I reset my password on the phone?');
    await relay().dueWork.tick(later(200));
    await relay().dueWork.tick(later(4000));
    expect(await autoMessages()).to.have.length(1);
  });

  it('tags the conversation with the tags the owner set on the articles it sent, as Parley', async () => {
    const reset = await writeArticles();
    const ce = await at.widget.widget();
    await server.models.ChatEndpoint.updateOne({ _id: ce._id }, { $set: { tags: ['password', 'shipping'] } });
    server.parley.relay.widgets.invalidate(String(ce._id));
    await server.models.Article.updateOne({ _id: reset._id }, { $set: { tag: 'password' } });
    await server.models.Article.updateOne({ slug: 'shipping', ceId: ce._id }, { $set: { tag: 'shipping' } });
    await say(at.chat.socket, 'I forgot my password, how do I reset it?');
    await relay().dueWork.tick(later(46));
    await at.chat.socket.next('msg', automatic);
    // Only the article sent (not the shipping one) tags it.
    await eventually(async () => expect((await conversation()).tags).to.deep.equal(['password']));
    await thread((texts) =>
      expect(texts).to.include(':label: Parley tagged this conversation `password` (the help center answered the visitor).'),
    );
    const events = await server.models.InboxEvent.find({ conversationId: at.chat.id }).lean();
    expect(events.map((e) => [e.kind, e.tag, e.byId])).to.deep.equal([['tagged', 'password', '']]);
  });

  it('sends nothing once an operator answered first', async () => {
    await writeArticles();
    await server.slack.postAsUser({
      teamId: ACME,
      userId: ALICE,
      channelId: at.widget.channel,
      threadTs: at.chat.threadTs,
      text: 'Hi, here now',
    });
    await at.chat.socket.next('msg', (f) => f.message.from === 'operator');
    await eventually(async () => expect((await conversation()).firstResponseAt).to.be.instanceOf(Date));
    await relay().dueWork.tick(later(60));
    expect(await autoMessages()).to.have.length(0);
    // Its due time went with the answer: the pass does not read it again.
    expect((await conversation()).autoAnswerAt).to.equal(null);
  });

  it('sends nothing for a question no published article matches (an empty help center too), and looks only once', async () => {
    await relay().dueWork.tick(later(60));
    expect(await autoMessages()).to.have.length(0);
    const c = await conversation();
    expect(c.autoAnsweredAt).to.be.instanceOf(Date);
    expect(c.autoAnswerAt).to.equal(null);
    expect(c.autoAnswerMessageId).to.equal('');
  });

  it('is off at 0: a conversation started then has no due time', async () => {
    await writeArticles();
    await server.models.ChatEndpoint.updateOne({ _id: at.widget.ceId }, { $set: { autoAnswerAfterSeconds: 0 } });
    relay().widgets.invalidate(at.widget.ceId);
    at.chat.socket.send({ t: 'end' });
    await at.chat.socket.next('ended');
    await say(at.chat.socket, 'How do I reset my password?');
    const next = await server.models.Conversation.findOne({ ceId: at.widget.ceId, status: 'open' });
    if (!next) throw new Error('the second conversation did not open');
    expect(next.autoAnswerAt).to.equal(null);
    await relay().dueWork.tick(later(4000));
    expect(await server.models.Message.countDocuments({ conversationId: next._id, automatic: true })).to.equal(0);
  });

  it('answers at once a visitor who waits when the widget goes offline', async () => {
    await writeArticles();
    await say(at.chat.socket, 'How do I reset my password?');
    await server.models.ChatEndpoint.updateOne({ _id: at.widget.ceId }, { $set: { off: true } });
    await relay().presence.recheck(at.widget.ceId);
    expect((await conversation()).autoAnswerAt?.getTime()).to.be.at.most(Date.now());
    await relay().dueWork.tick();
    const frame = await at.chat.socket.next('msg', automatic);
    expect(frame.message.articles?.map((a) => a.title)).to.deep.equal(['Reset your password']);
  });

  it('sends one answer when two due passes (two processes) look at the same conversation together', async () => {
    await writeArticles();
    await say(at.chat.socket, 'How do I reset my password?');
    const row = await server.models.Conversation.findById(at.chat.id, {
      ceId: 1,
      visitorId: 1,
      slackChannel: 1,
      firstResponseAt: 1,
      autoAnswerAt: 1,
      autoAnsweredAt: 1,
    }).lean();
    if (!row) throw new Error('no conversation');
    const now = later(50);
    const sent = await Promise.all([autoAnswerIfDue(relay(), row, now), autoAnswerIfDue(relay(), row, now), relay().dueWork.tick(now)]);
    expect(sent.filter((s) => s === true)).to.have.length.at.most(1);
    await eventually(async () => expect(await autoMessages()).to.have.length(1));
    const lines = () =>
      server.slack.state.replies(at.widget.channel, at.chat.threadTs).filter((m) => (m.text ?? '').includes('Parley sent the visitor'));
    await eventually(async () => expect(lines()).to.have.length(1));
    await relay().dueWork.tick(later(100));
    await server.slack.settled();
    expect(lines()).to.have.length(1);
    expect(await autoMessages()).to.have.length(1);
  });
});
