import { expect } from 'chai';
import { Types } from 'mongoose';
import { answerHelpful } from '../../server/commands/answerHelpful';
import type { ServerFrame } from '../../server/shared/widget-protocol';
import { eventually, say, VisitorSocket } from '../relay/helpers';
import { useChat } from './chat';

type ChatFrame = Extract<ServerFrame, { t: 'msg' }>;

describe('"Did this answer your question?" on an automatic answer', () => {
  const { server, at, conversation, thread } = useChat();
  const relay = () => server.parley.relay;
  const later = (seconds: number) => new Date(Date.now() + seconds * 1000);
  const texts = () => server.slack.state.replies(at.widget.channel, at.chat.threadTs).map((m) => m.text ?? '');
  const reminders = () => texts().filter((t) => t.includes('has been waiting'));

  /** The chat gets its automatic answer at 46 s; a reminder pace of 60 s (the first reminder at 150 s). */
  const autoAnswer = async (): Promise<ChatFrame['message']> => {
    const ce = await at.widget.widget();
    await server.models.ChatEndpoint.updateOne({ _id: ce._id }, { $set: { responseReminders: true, responseRemindersFreq: 60 } });
    relay().widgets.invalidate(at.widget.ceId);
    const base = { accountId: ce.accountId, ceId: ce._id, language: 'en', published: true };
    await server.models.Article.create([
      { ...base, title: 'Reset your password', slug: 'reset-password', body: 'Forgot your password? Use the reset password link.' },
      { ...base, title: 'Password rules', slug: 'password-rules', body: 'A password needs 12 characters; reset it any time.' },
    ]);
    server.parley.articleSearch.changed(String(ce._id));
    await say(at.chat.socket, 'I forgot my password, how do I reset it?');
    await relay().dueWork.tick(later(46));
    return (await at.chat.socket.next('msg', (f) => f.message.automatic === true)).message;
  };
  const events = () => server.models.AnswerEvent.find({ conversationId: at.chat.id }).sort({ kind: 1 }).lean();

  it('Yes ends the wait: resolved by the article, the thread says so, no reminder follows, and a reload shows the answer', async () => {
    const answer = await autoAnswer();
    const chosen = answer.articles?.find((a) => a.title === 'Reset your password');
    expect(chosen).to.not.equal(undefined);
    at.chat.socket.send({ t: 'helpful', id: answer.id, helpful: true, articleId: chosen?.id });
    await eventually(async () => expect((await conversation()).resolvedByArticleAt).to.be.instanceOf(Date));
    const c = await conversation();
    expect(c.resolvedArticleId).to.equal(chosen?.id);
    expect(c.firstResponseAt).to.equal(null);
    expect(c.reminderAt).to.equal(null);
    await thread((lines) =>
      expect(
        lines.some((t) => t.startsWith(':white_check_mark: Answered by the article <') && t.includes('|Reset your password>')),
      ).to.equal(true),
    );
    const recorded = await events();
    expect(recorded.map((e) => [e.kind, e.helpful, String(e.articleId)])).to.deep.equal([
      ['helpful', true, chosen?.id],
      ['resolved', undefined, chosen?.id],
    ]);
    // App Home's waiting list no longer has it.
    expect(
      await server.models.Conversation.countDocuments({
        ceId: at.widget.ceId,
        status: 'open',
        firstResponseAt: null,
        resolvedByArticleAt: null,
      }),
    ).to.equal(0);

    await relay().dueWork.tick(later(100));
    await relay().dueWork.tick(later(200));
    await server.slack.settled();
    expect(reminders()).to.deep.equal([]);

    // A second answer (another tab) changes nothing; a reload shows the answer given instead of asking again.
    expect(await answerHelpful(relay(), c.visitorId, { messageId: answer.id, helpful: false })).to.equal(false);
    const welcome = at.chat.socket.frames.find((f): f is Extract<ServerFrame, { t: 'welcome' }> => f.t === 'welcome');
    const token = welcome?.visitorToken;
    const { socket } = await VisitorSocket.hello(server, at.widget.uuid, { visitorToken: token });
    try {
      const replayed = await socket.next('msg', (f) => f.message.id === answer.id);
      expect(replayed.message).to.deep.include({ automatic: true, helpful: true });
    } finally {
      socket.close();
    }
    expect(await events()).to.have.length(2);
  });

  it('No keeps the conversation waiting for a person: the thread says so and reminders go on', async () => {
    const answer = await autoAnswer();
    const c = await conversation();
    expect(await answerHelpful(relay(), c.visitorId, { messageId: answer.id, helpful: false })).to.equal(true);
    await thread((lines) => expect(lines.some((t) => t.startsWith(':raising_hand: The visitor still needs a person'))).to.equal(true));
    const after = await conversation();
    expect(after.resolvedByArticleAt).to.equal(null);
    expect((await events()).map((e) => [e.kind, e.helpful])).to.deep.equal([['helpful', false]]);
    // The first reminder comes at 2.5 times the reminder pace (150 s here).
    await relay().dueWork.tick(later(200));
    await eventually(async () => expect(reminders()).to.have.length(1));
  });

  it("refuses another visitor's answer, unknown ids and messages that are not automatic answers", async () => {
    const answer = await autoAnswer();
    const c = await conversation();
    const refused = (visitorId: Types.ObjectId, messageId: string) =>
      answerHelpful(relay(), visitorId, { messageId, helpful: true }).then(
        () => 'answered',
        (e: { code?: string }) => e.code,
      );
    expect(await refused(new Types.ObjectId(), answer.id)).to.equal('bad_frame');
    expect(await refused(c.visitorId, 'nope')).to.equal('bad_frame');
    expect(await refused(c.visitorId, String(new Types.ObjectId()))).to.equal('bad_frame');
    const line = await server.models.Message.findOne({ conversationId: c._id, from: 'visitor' }).lean();
    expect(await refused(c.visitorId, String(line?._id))).to.equal('bad_frame');
    expect((await conversation()).resolvedByArticleAt).to.equal(null);
    expect(await events()).to.deep.equal([]);
  });
});
