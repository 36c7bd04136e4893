import { expect } from 'chai';
import { ACME, ALICE, BOB, eventually, type SetUp, setUpRelayWidget, useRelayServer, VisitorSocket } from '../relay/helpers';
import { addQuestionGroup, addSavedReply, type Chat, channelPosts, openChat, parley } from './operatorHelpers';

describe('Slack conversation buttons, shortcut and modals', () => {
  let widget: SetUp;
  let chat: Chat;
  const server = useRelayServer();
  beforeEach(async () => {
    server.slack.state.setPresence(ALICE, 'active');
    widget = await setUpRelayWidget(server);
    chat = await openChat(server, widget);
  });
  afterEach(() => chat.socket.close());

  const press = async (actionId: string, who = ALICE) => {
    const result = await server.slack.sendBlockAction({
      teamId: ACME,
      userId: who,
      actionId,
      message: { channelId: widget.channel, ts: chat.threadTs },
    });
    expect(result.ok).to.equal(true);
    return result;
  };
  let seenViews = new Set<string>();
  beforeEach(() => {
    seenViews = new Set(server.slack.state.views.map((v) => v.id));
  });
  /** The modal opened since the test started (or since the last call). */
  const openModal = async (who = ALICE) => {
    let id = '';
    await eventually(async () => {
      const open = server.slack.state.openModals(ACME, who).filter((v) => !seenViews.has(v.id));
      expect(open).to.have.length.greaterThan(0);
      id = open[open.length - 1]?.id ?? '';
    });
    seenViews.add(id);
    const view = server.slack.state.view(id);
    if (!view) throw new Error('no modal');
    return view;
  };
  const submit = (viewId: string, values: Record<string, Record<string, unknown>> = {}) =>
    server.slack.sendViewSubmission({ teamId: ACME, userId: ALICE, viewId, values });
  const threadText = () =>
    server.slack.state
      .replies(widget.channel, chat.threadTs)
      .map((m) => m.text)
      .join('\n');
  const lastEphemeral = () => server.slack.state.ephemeralsFor(ACME, ALICE, widget.channel).at(-1)?.text ?? '';

  it('End chat asks for confirmation with an optional note, then ends the chat and leaves the note in the thread', async () => {
    await press('conversation_end');
    const modal = await openModal();
    expect(JSON.stringify(modal.definition)).to.include(`#${chat.number}`).and.include('Erin');
    const result = await submit(modal.id, { note: { note: 'Solved by phone' } });
    expect(result.viewErrors).to.equal(undefined);
    expect((await chat.socket.next('ended')).by).to.equal('operator');
    await eventually(async () => expect(threadText()).to.include('ended this chat').and.include('Solved by phone'));
    await eventually(async () => expect(lastEphemeral()).to.include(`Conversation #${chat.number} ended`));
    expect(server.slack.state.view(modal.id)?.open).to.equal(false);
  });

  it('Ask for e-mail confirms, then asks the visitor', async () => {
    await press('conversation_ask_email');
    const modal = await openModal();
    expect(JSON.stringify(modal.definition)).to.include('erin@visitor.test');
    await submit(modal.id);
    await chat.socket.next('askEmail');
    await eventually(async () => expect(threadText()).to.include('asked the visitor for their e-mail'));
  });

  it('Request screenshot asks the visitor at once; their refusal is said in the thread once, and not asked again', async () => {
    await press('conversation_screenshot');
    const request = await chat.socket.next('screenshot');
    await eventually(async () => expect(threadText()).to.include('asked the visitor for a screenshot of their page'));
    chat.socket.send({ t: 'screenshot', id: request.id, answer: 'declined' });
    await eventually(async () => expect(threadText()).to.include('The visitor declined the screenshot request.'));
    // Another tab answering the same request changes nothing; a reconnecting widget is not asked again.
    chat.socket.send({ t: 'screenshot', id: request.id, answer: 'unsupported' });
    const welcome = chat.socket.frames.find((f) => f.t === 'welcome');
    const { socket: again } = await VisitorSocket.hello(server, widget.uuid, {
      visitorToken: welcome?.t === 'welcome' ? welcome.visitorToken : '',
      lastSeq: 0,
    });
    await eventually(async () => expect(again.frames.some((f) => f.t === 'msg')).to.equal(true));
    expect(again.frames.some((f) => f.t === 'screenshot')).to.equal(false);
    again.close();
    expect(threadText()).to.not.include('could not take one');
    expect(threadText().match(/declined the screenshot request/g)).to.have.length(1);
  });

  it('the message shortcut asks for a screenshot after a confirmation, and not in an ended chat', async () => {
    await server.slack.sendShortcut({
      teamId: ACME,
      userId: ALICE,
      callbackId: 'parley_conversation_actions',
      message: { channelId: widget.channel, ts: chat.threadTs },
    });
    const picker = await openModal();
    await submit(picker.id, { action: { action: 'screenshot' } });
    expect(server.slack.state.view(picker.id)?.definition.callback_id).to.equal('parley_screenshot');
    await submit(picker.id, {});
    await chat.socket.next('screenshot');
    await parley(server, widget.channel, `end ${chat.number}`);
    const refused = await parley(server, widget.channel, `screenshot ${chat.number}`);
    expect(JSON.stringify(refused)).to.include(`Conversation #${chat.number} has already ended.`);
  });

  it('Saved replies opens a picker whose choice reaches the widget', async () => {
    const reply = await addSavedReply(server, widget, { label: 'Thanks', response: 'Thanks for waiting!', shortcut: 'ty' });
    await press('conversation_saved_replies');
    const modal = await openModal();
    expect(JSON.stringify(modal.definition)).to.include('Thanks for waiting!');
    await submit(modal.id, { reply: { reply: reply.id as string } });
    expect((await chat.socket.next('msg', (f) => f.message.from === 'operator')).message.text).to.equal('Thanks for waiting!');
  });

  it('Saved replies shows a field error when the chat ended while the picker was open', async () => {
    const reply = await addSavedReply(server, widget, { label: 'Bye', response: 'Have a nice day', shortcut: 'bye' });
    await press('conversation_saved_replies');
    const modal = await openModal();
    await parley(server, widget.channel, `end ${chat.number}`);
    const result = await submit(modal.id, { reply: { reply: reply.id as string } });
    expect(result.viewErrors?.reply).to.equal(`Conversation #${chat.number} has already ended.`);
    expect(chat.socket.msgs().filter((f) => f.message.from === 'operator')).to.have.length(0);
  });

  it('Saved replies without any saved reply says where to add them', async () => {
    await press('conversation_saved_replies');
    const modal = await openModal();
    expect(JSON.stringify(modal.definition)).to.include('no saved replies yet').and.include(`${server.url}/app/`);
  });

  it('Visitor info shows who the visitor is', async () => {
    await press('conversation_visitor_info');
    const text = JSON.stringify((await openModal()).definition);
    expect(text).to.include('Erin').and.include('erin@visitor.test').and.include('shop.example.com');
  });

  it('Send transcript shows a field error for a bad address and mails a good one', async () => {
    await press('conversation_send_transcript');
    const modal = await openModal();
    const bad = await submit(modal.id, { email: { email: 'nobody-at-all' } });
    expect(bad.viewErrors?.email).to.include('not a valid e-mail address');
    expect(server.slack.state.view(modal.id)?.open).to.equal(true);
    const good = await submit(modal.id, { email: { email: 'lead@example.com' } });
    expect(good.viewErrors).to.equal(undefined);
    await eventually(async () => expect((await server.outbox.latestTo('lead@example.com'))?.text).to.include('Hello, is anyone there?'));
    expect((await server.models.Conversation.findById(chat.id))?.transcriptSentTo).to.equal('lead@example.com');
  });

  it('refuses buttons pressed by someone who is not in the channel', async () => {
    await press('conversation_end', BOB);
    await eventually(async () =>
      expect(server.slack.state.ephemeralsFor(ACME, BOB, widget.channel).at(-1)?.text).to.include(`Only members of <#${widget.channel}>`),
    );
    expect(server.slack.state.openModals(ACME, BOB).filter((v) => !seenViews.has(v.id))).to.have.length(0);
    expect((await server.models.Conversation.findById(chat.id))?.status).to.equal('open');
  });

  it('the message shortcut on a thread message picks an action, then shows that action’s modal', async () => {
    await server.slack.postAsUser({
      teamId: ACME,
      userId: ALICE,
      channelId: widget.channel,
      threadTs: chat.threadTs,
      text: 'Let me check',
    });
    const reply = server.slack.state.replies(widget.channel, chat.threadTs).find((m) => m.text === 'Let me check');
    const result = await server.slack.sendShortcut({
      teamId: ACME,
      userId: ALICE,
      callbackId: 'parley_conversation_actions',
      message: { channelId: widget.channel, ts: reply?.ts ?? '' },
    });
    expect(result.ok).to.equal(true);
    const picker = await openModal();
    const empty = await submit(picker.id, {});
    expect(empty.ok).to.equal(false);
    await submit(picker.id, { action: { action: 'end' } });
    const endModal = server.slack.state.view(picker.id);
    expect(endModal?.definition.callback_id).to.equal('parley_end_chat');
    await submit(picker.id, {});
    expect((await chat.socket.next('ended')).by).to.equal('operator');
  });

  it('the message shortcut starts a question group picked in the modal', async () => {
    const group = await addQuestionGroup(server, widget, {
      label: 'Triage',
      shortcut: 'triage',
      question: 'Which product?',
      answers: ['Shoes', 'Hats'],
    });
    await server.slack.sendShortcut({
      teamId: ACME,
      userId: ALICE,
      callbackId: 'parley_conversation_actions',
      message: { channelId: widget.channel, ts: chat.threadTs },
    });
    const picker = await openModal();
    await submit(picker.id, { action: { action: 'questionGroup' } });
    expect(JSON.stringify(server.slack.state.view(picker.id)?.definition)).to.include('Triage');
    await submit(picker.id, { group: { group: group.uid } });
    expect((await chat.socket.next('question')).text).to.include('Which product?');
  });

  it('the message shortcut elsewhere says it only works in conversation threads', async () => {
    const other = await server.slack.postAsUser({ teamId: ACME, userId: ALICE, channelId: widget.channel, text: 'Lunch anyone?' });
    await server.slack.sendShortcut({
      teamId: ACME,
      userId: ALICE,
      callbackId: 'parley_conversation_actions',
      message: { channelId: widget.channel, ts: other.ts },
    });
    await eventually(async () => expect(lastEphemeral()).to.include('not part of a Parley conversation'));
    expect(server.slack.state.openModals(ACME, ALICE).filter((v) => !seenViews.has(v.id))).to.have.length(0);
  });

  it('the operating hours modal shows field errors, then saves hours, time zone and schedule', async () => {
    const hours = await parley(server, widget.channel, 'hours');
    await server.slack.sendBlockAction({ teamId: ACME, userId: ALICE, actionId: 'home_operating_hours', ephemeralId: hours.id });
    const modal = await openModal();
    const bad = await submit(modal.id, { tz: { tz: 'Mars/Olympus' }, day_1: { day_1: '9 to lunch' }, day_2: { day_2: '09:10-17:00' } });
    expect(bad.viewErrors?.tz).to.equal('Unknown time zone');
    expect(bad.viewErrors?.day_1).to.include('not a range');
    expect(bad.viewErrors?.day_2).to.include('15-minute steps');
    expect((await widget.widget()).operatingHours).to.have.length(0);
    const { socket } = await VisitorSocket.hello(server, widget.uuid);
    const good = await submit(modal.id, {
      tz: { tz: 'Europe/Paris' },
      schedule: { schedule: [] },
      day_1: { day_1: '17:00-09:00, 18:00-18:00' },
      day_5: { day_5: '10:00-12:30, 13:30-16:00' },
    });
    expect(good.viewErrors).to.equal(undefined);
    await eventually(async () => {
      const ce = await widget.widget();
      expect(ce.tz).to.equal('Europe/Paris');
      expect(ce.onOffSchedule).to.equal(false);
      expect(ce.operatingHours.map((h) => [h.weekday, h.start, h.end])).to.deep.equal([
        [1, 900, 1700],
        [5, 1000, 1230],
        [5, 1330, 1600],
      ]);
    });
    await eventually(async () => expect(channelPosts(server, widget.channel).join('\n')).to.include('updated the *operating hours*'));
    expect((await parley(server, widget.channel, 'hours')).text).to.include('Friday: 10:00–12:30, 13:30–16:00');
    socket.close();
  });
});
