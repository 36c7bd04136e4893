import { expect } from 'chai';
import { articleSnippet, sendArticle, sendPastAnswer, sendSuggestedReply } from '../../server/commands/sendSuggestion';
import { NotFoundError, ValidationError } from '../../server/errors';
import { ALICE, eventually, setUpRelayWidget, useRelayServer } from '../relay/helpers';
import { addSavedReply, type Chat, openChat } from '../slack/operatorHelpers';

describe('sendSuggestion', () => {
  const server = useRelayServer();
  const operator = { slackUserId: ALICE, name: 'Alice Operator', avatarUrl: 'https://img.example/alice.png' };
  const chats: Chat[] = [];
  afterEach(() => {
    for (const chat of chats.splice(0)) chat.socket.close();
  });

  const start = async () => {
    const widget = await setUpRelayWidget(server);
    const chat = await openChat(server, widget);
    chats.push(chat);
    const ce = await widget.widget();
    return { widget, chat, ce };
  };

  it('cuts an article to a plain snippet at a word boundary', () => {
    expect(articleSnippet('## Title\n\nSome **bold** words [and a link](https://example.com).')).to.equal(
      'Title Some bold words and a link.',
    );
    expect(articleSnippet(`${'word '.repeat(100)}`, 30)).to.equal('word word word word word word…');
  });

  it('tags the conversation with the article’s tag only while the widget lists it', async () => {
    const { widget, chat, ce } = await start();
    const article = await server.models.Article.create({
      accountId: ce.accountId,
      ceId: ce._id,
      title: 'Refunds',
      body: 'Within 30 days.',
      language: 'en',
      slug: 'refunds',
      published: true,
      tag: 'refund',
    });
    const send = () => sendArticle(server.parley.relay, { conversationId: chat.id, articleId: String(article._id), operator });
    // The widget does not list `refund` (a list saved elsewhere dropped it): sent, but untagged.
    await send();
    await chat.socket.next('msg', (f) => f.message.from === 'operator');
    expect((await server.models.Conversation.findById(chat.id))?.tags).to.deep.equal([]);
    await server.models.ChatEndpoint.updateOne({ _id: ce._id }, { $set: { tags: ['refund'] } });
    // As a settings change through the API does: the relay's one-second copy of the widget is dropped.
    server.parley.relay.widgets.invalidate(ce._id);
    await send();
    expect((await server.models.Conversation.findById(chat.id))?.tags).to.deep.equal(['refund']);
    // (Sending it also assigned the conversation to the operator: an InboxEvent of its own.)
    const events = await server.models.InboxEvent.find({ conversationId: chat.id, kind: { $in: ['tagged', 'untagged'] } }).lean();
    expect(events.map((e) => [e.kind, e.tag, e.byId])).to.deep.equal([['tagged', 'refund', '']]);
    await eventually(async () => {
      const texts = server.slack.state.replies(widget.channel, chat.threadTs).map((m) => m.text ?? '');
      expect(texts).to.include(':label: Parley tagged this conversation `refund` (the article “Refunds” answered the visitor).');
    });
  });

  it('sends an article as a card in the operator’s name, with its link in the text, and counts it', async () => {
    const { widget, chat, ce } = await start();
    await server.models.ChatEndpoint.updateOne({ _id: ce._id }, { $set: { forwardSlackUserName: false, agentLabel: 'Acme Support' } });
    // Written past the API: the relay's copy of the widget (kept a second) is told, as a settings save does.
    server.parley.relay.widgets.invalidate(String(ce._id));
    const article = await server.models.Article.create({
      accountId: ce.accountId,
      ceId: ce._id,
      title: 'Returns & refunds <fast>',
      body: 'Send it back within **30 days**.',
      language: 'de',
      slug: 'returns',
      published: true,
    });
    await sendArticle(server.parley.relay, { conversationId: chat.id, articleId: String(article._id), operator });
    const frame = await chat.socket.next('msg', (f) => f.message.from === 'operator');
    const url = `${server.url}/help/${widget.uuid}/returns?lang=de`;
    expect(frame.message.articles).to.deep.equal([
      { id: String(article._id), title: 'Returns & refunds <fast>', snippet: 'Send it back within 30 days.', url },
    ]);
    expect(frame.message.text).to.equal(`Returns & refunds <fast>\n${url}`);
    expect(frame.message.html).to.include('Returns &amp; refunds &lt;fast&gt;').and.not.include('<fast>');
    // Named as the widget's settings say: the agent label, not the Slack name.
    expect(frame.message.author?.name).to.equal('Acme Support');
    await eventually(async () => {
      const post = server.slack.state.replies(widget.channel, chat.threadTs).find((m) => m.username === operator.name);
      expect(post?.text).to.include(`|Returns &amp; refunds &lt;fast&gt;>`);
      expect(JSON.stringify(post?.blocks)).to.include(`sent by <@${ALICE}>`);
    });
    const events = await server.models.AnswerEvent.find({ conversationId: chat.id });
    expect(events.map((e) => [e.kind, e.suggestion, String(e.articleId)])).to.deep.equal([
      ['suggestionSent', 'article', String(article._id)],
    ]);
    expect((await server.models.Conversation.findById(chat.id))?.firstResponseAt).to.be.instanceOf(Date);
  });

  it('refuses an article of another widget, a draft and an ended conversation', async () => {
    const { chat, ce } = await start();
    const other = await start();
    const foreign = await server.models.Article.create({
      accountId: other.ce.accountId,
      ceId: other.ce._id,
      title: 'Elsewhere',
      slug: 'elsewhere',
      published: true,
    });
    const draft = await server.models.Article.create({ accountId: ce.accountId, ceId: ce._id, title: 'Draft', slug: 'draft' });
    for (const articleId of [String(foreign._id), String(draft._id), 'not-an-id']) {
      const error = await sendArticle(server.parley.relay, { conversationId: chat.id, articleId, operator }).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(NotFoundError);
    }
    await server.models.Conversation.updateOne({ _id: chat.id }, { $set: { status: 'ended' } });
    const ended = await sendArticle(server.parley.relay, { conversationId: chat.id, articleId: String(draft._id), operator }).catch(
      (e: unknown) => e,
    );
    expect(ended).to.be.instanceOf(ValidationError);
    expect(await server.models.Message.countDocuments({ conversationId: chat.id, from: 'operator' })).to.equal(0);
    expect(await server.models.AnswerEvent.countDocuments({ conversationId: chat.id })).to.equal(0);
  });

  it('sends a suggested saved reply through the saved-reply path and counts it', async () => {
    const { widget, chat } = await start();
    const reply = await addSavedReply(server, widget, { label: 'Hours', response: 'We are open 9 to 5.', shortcut: 'hours' });
    await sendSuggestedReply(server.parley.relay, { conversationId: chat.id, replyId: String(reply._id), operator });
    expect((await chat.socket.next('msg', (f) => f.message.from === 'operator')).message.text).to.equal('We are open 9 to 5.');
    expect(await server.models.AnswerEvent.countDocuments({ conversationId: chat.id, suggestion: 'savedReply' })).to.equal(1);
  });

  it('sends a past answer of the same widget as it was or edited; never an automatic message or another widget’s', async () => {
    const { widget, chat, ce } = await start();
    await server.slack.postAsUser({
      teamId: ce.slackTeamId,
      userId: ALICE,
      channelId: widget.channel,
      threadTs: chat.threadTs,
      text: 'We ship in *2 days*.',
    });
    await chat.socket.next('msg', (f) => f.message.from === 'operator');
    const answer = await server.models.Message.findOne({ conversationId: chat.id, from: 'operator' });
    const next = await start();
    const sameWidget = await openChat(server, widget, 'Nora');
    chats.push(sameWidget);
    await sendPastAnswer(server.parley.relay, { conversationId: sameWidget.id, messageId: String(answer?._id), operator });
    const frame = await sameWidget.socket.next('msg', (f) => f.message.from === 'operator');
    // As the widget showed it the first time: the text as typed, the HTML formatted.
    expect(frame.message.text).to.equal('We ship in *2 days*.');
    expect(frame.message.html).to.include('<strong>2 days</strong>');
    await sendPastAnswer(server.parley.relay, {
      conversationId: sameWidget.id,
      messageId: String(answer?._id),
      operator,
      edited: { text: '  We ship in 3 days now.  ', html: 'We ship in 3 days now.' },
    });
    expect((await sameWidget.socket.next('msg', (f) => f.message.text === 'We ship in 3 days now.')).message.author?.name).to.equal(
      'Alice Operator',
    );
    await eventually(async () =>
      expect(JSON.stringify(server.slack.state.replies(widget.channel, sameWidget.threadTs).at(-1)?.blocks)).to.include(
        `Suggested reply from conversation #${chat.number} edited and sent by`,
      ),
    );
    expect(await server.models.AnswerEvent.countDocuments({ conversationId: sameWidget.id, suggestion: 'pastAnswer' })).to.equal(2);

    // Another widget's conversation cannot send it; nor can anyone send an automatic message or an empty edit.
    const foreign = await sendPastAnswer(server.parley.relay, {
      conversationId: next.chat.id,
      messageId: String(answer?._id),
      operator,
    }).catch((e: unknown) => e);
    expect(foreign).to.be.instanceOf(NotFoundError);
    await server.models.Message.updateOne({ _id: answer?._id }, { $set: { slackUserId: '' } });
    const automatic = await sendPastAnswer(server.parley.relay, {
      conversationId: sameWidget.id,
      messageId: String(answer?._id),
      operator,
    }).catch((e: unknown) => e);
    expect(automatic).to.be.instanceOf(NotFoundError);
    await server.models.Message.updateOne({ _id: answer?._id }, { $set: { slackUserId: ALICE } });
    const empty = await sendPastAnswer(server.parley.relay, {
      conversationId: sameWidget.id,
      messageId: String(answer?._id),
      operator,
      edited: { text: '   ', html: '' },
    }).catch((e: unknown) => e);
    expect(empty).to.be.instanceOf(ValidationError);
    expect(await server.models.Message.countDocuments({ conversationId: next.chat.id, from: 'operator' })).to.equal(0);
  });
});
