/**
 * Suggestions in Slack, through the Slack sandbox and a visitor's real socket: the "Suggested" post of a new
 * conversation (help-center articles, saved replies, past answers of the same widget), its Send and Edit buttons,
 * and `/parley article N words`.
 */
import { expect } from 'chai';
import { eraseVisitor } from '../../server/commands/gdprErasure';
import type { Message as SlackMessage } from '../../server/sandbox/slack/types';
import type { TestServer } from '../helpers/app';
import { ACME, ALICE, BOB, eventually, type SetUp, say, setUpRelayWidget, useRelayServer, VisitorSocket } from '../relay/helpers';
import { addSavedReply, parley } from './operatorHelpers';

type Started = { socket: VisitorSocket; id: string; number: number; threadTs: string };

/** A visitor opens a conversation with `text`; answers once its thread exists. */
async function startChat(server: TestServer, widget: SetUp, text: string, name = 'Erin'): Promise<Started> {
  const { socket } = await VisitorSocket.hello(server, widget.uuid, { identity: { name, email: `${name.toLowerCase()}@visitor.test` } });
  await say(socket, text);
  let found: Started | undefined;
  await eventually(async () => {
    const c = await server.models.Conversation.findOne({ ceId: widget.ceId, firstLine: { $exists: true } }).sort({ _id: -1 });
    expect(c?.threadTs).to.be.a('string').and.not.equal('');
    found = { socket, id: String(c?._id), number: c?.number ?? 0, threadTs: c?.threadTs ?? '' };
  });
  return found as Started;
}

async function addArticle(server: TestServer, widget: SetUp, fields: { title: string; body: string; slug: string; published?: boolean }) {
  const ce = await widget.widget();
  const article = await server.models.Article.create({
    accountId: ce.accountId,
    ceId: ce._id,
    language: 'en',
    published: true,
    ...fields,
  });
  server.parley.articleSearch.changed(String(ce._id));
  return article;
}

describe('suggestions in Slack', () => {
  const server = useRelayServer();
  const sockets: VisitorSocket[] = [];
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.close();
  });

  const replies = (widget: SetUp, chat: Started) => server.slack.state.replies(widget.channel, chat.threadTs);
  /** The thread's Suggested post, once it is there. */
  const suggestedPost = async (widget: SetUp, chat: Started): Promise<SlackMessage> => {
    let post: SlackMessage | undefined;
    await eventually(async () => {
      post = replies(widget, chat).find((m) => m.text?.startsWith('Suggested'));
      expect(post, 'the Suggested post').to.not.equal(undefined);
    });
    return post as SlackMessage;
  };
  /** Waits until the conversation's suggestion job ran; answers whether it posted. */
  const suggestionDone = async (widget: SetUp, chat: Started): Promise<boolean> => {
    await eventually(async () => {
      expect(await server.models.OutboxJob.countDocuments({ kind: 'slack.suggest', key: chat.id })).to.equal(0);
      expect(await server.models.Message.countDocuments({ conversationId: chat.id })).to.be.greaterThan(0);
    });
    return replies(widget, chat).some((m) => m.text?.startsWith('Suggested'));
  };
  const press = (widget: SetUp, post: SlackMessage, actionId: string, blockId: string, who = ALICE) =>
    server.slack.sendBlockAction({ teamId: ACME, userId: who, actionId, blockId, message: { channelId: widget.channel, ts: post.ts } });
  const operatorFrame = (chat: Started) => chat.socket.next('msg', (f) => f.message.from === 'operator');
  const sentEvents = (chat: Started, suggestion: string) =>
    server.models.AnswerEvent.countDocuments({ kind: 'suggestionSent', suggestion, conversationId: chat.id });

  it('suggests articles and saved replies under a new header; Send delivers the article card and the saved reply as the operator', async () => {
    const widget = await setUpRelayWidget(server);
    const article = await addArticle(server, widget, {
      title: 'Reset your password',
      body: 'Open **Settings → Security** and press *Reset password*. A link arrives by e-mail within a minute.',
      slug: 'reset-password',
    });
    await addArticle(server, widget, { title: 'Password rules (draft)', body: 'Reset password rules', slug: 'rules', published: false });
    const reply = await addSavedReply(server, widget, {
      label: 'Password reset',
      response: 'You can reset your password from the login page: press “Forgot password”.',
      shortcut: 'pw',
    });
    await addSavedReply(server, widget, { label: 'Opening hours', response: 'We are open 9 to 5.', shortcut: 'hours' });
    const chat = await startChat(server, widget, 'How do I reset my password? <!channel>');
    sockets.push(chat.socket);
    const post = await suggestedPost(widget, chat);
    const shown = JSON.stringify(post.blocks);
    expect(shown).to.include('Reset your password').and.include(`/help/${widget.uuid}/reset-password?lang=en`);
    expect(shown).to.include('Password reset').and.include('Forgot password');
    expect(shown).to.not.include('Opening hours').and.not.include('draft');
    // Under the header: after the visitor's first line, and posted once.
    expect(replies(widget, chat).filter((m) => m.text?.startsWith('Suggested'))).to.have.length(1);

    expect((await press(widget, post, 'suggestion_send_article', `article_${String(article._id)}`)).ok).to.equal(true);
    const card = await operatorFrame(chat);
    expect(card.message.articles).to.deep.equal([
      {
        id: String(article._id),
        title: 'Reset your password',
        snippet: 'Open Settings → Security and press Reset password. A link arrives by e-mail within a minute.',
        url: `${server.url}/help/${widget.uuid}/reset-password?lang=en`,
      },
    ]);
    expect(card.message.text).to.include('Reset your password').and.include(`/help/${widget.uuid}/reset-password`);
    expect(card.message.html).to.include(`href="${server.url}/help/${widget.uuid}/reset-password?lang=en"`);
    await eventually(async () =>
      expect(JSON.stringify(replies(widget, chat).at(-1)?.blocks)).to.include(`Article “Reset your password” sent by <@${ALICE}>`),
    );
    expect(await sentEvents(chat, 'article')).to.equal(1);

    expect((await press(widget, post, 'suggestion_send_reply', `reply_${String(reply._id)}`)).ok).to.equal(true);
    const sent = await chat.socket.next('msg', (f) => f.message.from === 'operator' && f.message.text.includes('Forgot password'));
    expect(sent.message.articles).to.equal(undefined);
    await eventually(async () =>
      expect(JSON.stringify(replies(widget, chat).at(-1)?.blocks)).to.include('Saved reply “Password reset” sent by'),
    );
    expect(await sentEvents(chat, 'savedReply')).to.equal(1);
    // The Suggested post stays for the others in the channel.
    expect(replies(widget, chat).find((m) => m.ts === post.ts)?.text).to.match(/^Suggested/);
  });

  it('refuses a Send for an unpublished article, an ended conversation or someone outside the channel, sending nothing', async () => {
    const widget = await setUpRelayWidget(server);
    const article = await addArticle(server, widget, { title: 'Shipping times', body: 'We ship within 2 days.', slug: 'shipping' });
    const chat = await startChat(server, widget, 'What are your shipping times?');
    sockets.push(chat.socket);
    const post = await suggestedPost(widget, chat);
    const lastEphemeral = (who: string) => server.slack.state.ephemeralsFor(ACME, who, widget.channel).at(-1)?.text ?? '';

    await press(widget, post, 'suggestion_send_article', `article_${String(article._id)}`, BOB);
    await eventually(async () => expect(lastEphemeral(BOB)).to.include(`Only members of <#${widget.channel}>`));

    await server.models.Article.updateOne({ _id: article._id }, { $set: { published: false } });
    await press(widget, post, 'suggestion_send_article', `article_${String(article._id)}`);
    await eventually(async () => expect(lastEphemeral(ALICE)).to.include('deleted or unpublished since it was suggested'));

    await server.models.Article.updateOne({ _id: article._id }, { $set: { published: true } });
    expect((await parley(server, widget.channel, `end ${chat.number}`)).text).to.include('ended');
    await press(widget, post, 'suggestion_send_article', `article_${String(article._id)}`);
    await eventually(async () => expect(lastEphemeral(ALICE)).to.include(`Conversation #${chat.number} has already ended`));
    expect(chat.socket.msgs().filter((f) => f.message.from === 'operator')).to.have.length(0);
    expect(await server.models.Message.countDocuments({ conversationId: chat.id, from: 'operator' })).to.equal(0);
    expect(await sentEvents(chat, 'article')).to.equal(0);
  });

  it('/parley article searches the help center and sends a hit; explains no words, no hit, a bad number and a non-member', async () => {
    const widget = await setUpRelayWidget(server);
    const article = await addArticle(server, widget, {
      title: 'Change your delivery address',
      body: 'Open the order and press Change address before it ships.',
      slug: 'delivery-address',
    });
    const chat = await startChat(server, widget, 'Hi there');
    sockets.push(chat.socket);

    const found = await parley(server, widget.channel, `a ${chat.number} delivery address`);
    expect(JSON.stringify(found.blocks)).to.include('Change your delivery address').and.include('suggestion_send_article');
    const pressed = await server.slack.sendBlockAction({
      teamId: ACME,
      userId: ALICE,
      actionId: 'suggestion_send_article',
      ephemeralId: found.id,
    });
    expect(pressed.ok).to.equal(true);
    expect((await operatorFrame(chat)).message.articles?.[0]?.id).to.equal(String(article._id));
    await eventually(async () =>
      expect(server.slack.state.ephemerals.find((e) => e.id === found.id)?.text).to.include(
        `Article “Change your delivery address” sent in conversation #${chat.number}`,
      ),
    );

    expect((await parley(server, widget.channel, `article ${chat.number} printers for sale`)).text).to.include(
      'No published article of this widget’s help center matches “printers for sale”'.replace('’', "'"),
    );
    expect((await parley(server, widget.channel, `article ${chat.number}`)).text).to.include(
      'Give the words to search the help center for',
    );
    expect((await parley(server, widget.channel, 'article 999 delivery')).text).to.include('There is no conversation #999');
    expect((await parley(server, widget.channel, 'article twelve delivery')).text).to.include('Give the conversation number');
    expect((await parley(server, widget.channel, `article ${chat.number} delivery`, BOB)).text).to.include(
      `Only members of <#${widget.channel}>`,
    );
    // Unknown words answer the help, which lists the command.
    expect((await parley(server, widget.channel, 'articles')).text).to.include('`/parley article N words` (`a`)');
  });

  it('suggests past answers of the same widget only, never from an erased conversation; Edit sends the edited text', async () => {
    const widget = await setUpRelayWidget(server);
    const other = await setUpRelayWidget(server);
    const answer = async (w: SetUp, chat: Started, text: string) => {
      await server.slack.postAsUser({ teamId: ACME, userId: ALICE, channelId: w.channel, threadTs: chat.threadTs, text });
      await chat.socket.next('msg', (f) => f.message.from === 'operator' && f.message.text === text);
    };
    const close = async (chat: Started) => {
      await parley(server, widget.channel, `end ${chat.number}`);
      chat.socket.close();
    };
    // Past conversations: one answered in this widget, one in another widget, one answered here and then erased. Each
    // opens with a greeting (nothing to suggest, so the widget's index is first built for the new question below).
    const past = await startChat(server, widget, '👋', 'Pat');
    await say(past.socket, 'Can I change the delivery address of my order?');
    await answer(widget, past, 'Yes: open your order page and press Change address before it ships.');
    await close(past);
    const elsewhere = await startChat(server, other, 'how do I change the delivery address for my order', 'Olga');
    sockets.push(elsewhere.socket);
    await answer(other, elsewhere, 'Refunds take 3 days from the moment we receive the parcel.');
    const erased = await startChat(server, widget, '👋', 'Eve');
    await say(erased.socket, 'Do you ship to Canada and Mexico?');
    await answer(widget, erased, 'We ship to both, it takes 5 days.');
    await close(erased);
    const eve = await server.models.Conversation.findById(erased.id);
    const admin = await server.models.User.findOne({ accountId: eve?.accountId });
    if (!admin || !eve) throw new Error('no admin');
    await eraseVisitor(server.models, admin, String(eve.visitorId));

    const chat = await startChat(server, widget, 'how do I change the delivery address for my order', 'Nina');
    sockets.push(chat.socket);
    const post = await suggestedPost(widget, chat);
    const shown = JSON.stringify(post.blocks);
    expect(shown).to.include(`Answered in #${past.number}`).and.include('press Change address before it ships');
    expect(shown).to.not.include('Refunds').and.not.include('5 days');

    const pastMessage = await server.models.Message.findOne({ conversationId: past.id, from: 'operator' });
    const blockId = `past_${String(pastMessage?._id)}`;
    expect((await press(widget, post, 'suggestion_edit_past', blockId)).ok).to.equal(true);
    let viewId = '';
    await eventually(async () => {
      const open = server.slack.state.openModals(ACME, ALICE).filter((v) => v.definition.callback_id === 'parley_past_answer');
      expect(open).to.have.length(1);
      viewId = open[0]?.id ?? '';
    });
    expect(JSON.stringify(server.slack.state.view(viewId)?.definition)).to.include('press Change address before it ships');
    const blank = await server.slack.sendViewSubmission({ teamId: ACME, userId: ALICE, viewId, values: { reply: { reply: '   ' } } });
    expect(blank.viewErrors).to.deep.equal({ reply: 'Write the reply to send.' });
    const edited = 'Yes: open your order page and press *Change address*. It takes a minute.';
    const submitted = await server.slack.sendViewSubmission({ teamId: ACME, userId: ALICE, viewId, values: { reply: { reply: edited } } });
    expect(submitted.viewErrors).to.equal(undefined);
    const frame = await operatorFrame(chat);
    expect(frame.message.text).to.equal(edited);
    expect(frame.message.html).to.include('<strong>Change address</strong>');
    await eventually(async () =>
      expect(JSON.stringify(replies(widget, chat).at(-1)?.blocks)).to.include(
        `Suggested reply from conversation #${past.number} edited and sent by <@${ALICE}>`,
      ),
    );
    expect(await sentEvents(chat, 'pastAnswer')).to.equal(1);

    // Send as it was.
    expect((await press(widget, post, 'suggestion_send_past', blockId)).ok).to.equal(true);
    await chat.socket.next('msg', (f) => f.message.text === 'Yes: open your order page and press Change address before it ships.');

    // The erased conversation's question, asked again: nothing close is left, so nothing is posted.
    const again = await startChat(server, widget, 'Do you ship to Canada and Mexico?', 'Max');
    sockets.push(again.socket);
    expect(await suggestionDone(widget, again)).to.equal(false);
  });

  it('posts nothing when nothing is close to the first line', async () => {
    const widget = await setUpRelayWidget(server);
    await addArticle(server, widget, { title: 'Reset your password', body: 'Open Settings.', slug: 'reset-password' });
    await addSavedReply(server, widget, { label: 'Opening hours', response: 'We are open 9 to 5.', shortcut: 'hours' });
    const chat = await startChat(server, widget, 'Do you sell printers?');
    sockets.push(chat.socket);
    expect(await suggestionDone(widget, chat)).to.equal(false);
  });
});
