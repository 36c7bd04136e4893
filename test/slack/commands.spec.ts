import { expect } from 'chai';
import { NOT_INSTALLED_TEXT } from '../../server/slack/notInstalled';
import { ACME, ALICE, BOB, eventually, type SetUp, setUpRelayWidget, useRelayServer, VisitorSocket, webhookTarget } from '../relay/helpers';
import { GENERAL, RANDOM } from './helpers';
import { addQuestionGroup, addSavedReply, channelPosts, openChat, parley } from './operatorHelpers';

describe('/parley', () => {
  let widget: SetUp;
  const server = useRelayServer();
  beforeEach(async () => {
    server.slack.state.setPresence(ALICE, 'active');
    widget = await setUpRelayWidget(server);
  });

  describe('widget commands', () => {
    it('answers help at once, and the help text for words it does not know', async () => {
      for (const text of ['', 'help', 'HELP']) {
        const result = await server.slack.sendSlashCommand({
          teamId: ACME,
          userId: ALICE,
          channelId: widget.channel,
          command: '/parley',
          text,
        });
        expect(result.json).to.deep.include({ response_type: 'ephemeral' });
        expect(JSON.stringify(result.json)).to.include('/parley status').and.include('/parley end N');
      }
      const unknown = await parley(server, widget.channel, 'dance now');
      expect(unknown.text).to.include('does not know `dance`').and.include('/parley status');
    });

    it('turns the widget off and back on: settings saved, channel told, open widgets follow at once', async () => {
      const { socket, welcome } = await VisitorSocket.hello(server, widget.uuid);
      expect(welcome.online).to.equal(true);
      const off = await parley(server, widget.channel, 'off');
      expect(off.text).to.include('*offline*');
      expect((await widget.widget()).off).to.equal(true);
      expect((await socket.next('presence')).online).to.equal(false);
      await eventually(async () =>
        expect(channelPosts(server, widget.channel).join('\n')).to.include(`<@${ALICE}> turned the website chat *off*`),
      );
      const on = await parley(server, widget.channel, 'auto');
      expect(on.text).to.include('*online*');
      expect(await widget.widget()).to.include({ off: false, manualMode: false });
      expect((await socket.next('presence')).online).to.equal(true);
      socket.close();
    });

    it('toggles manual mode, which keeps the widget online while nobody is active in Slack', async () => {
      server.slack.state.setPresence(ALICE, 'away');
      // Parley hears of the change on its next look at Slack (as Slack's rate tier for presence allows).
      await eventually(async () =>
        expect((await parley(server, widget.channel, 'status')).text)
          .to.include('*offline*')
          .and.include('nobody in'),
      );
      const on = await parley(server, widget.channel, 'manual-mode');
      expect(on.text).to.include('manual mode on').and.include('*online*');
      expect((await widget.widget()).manualMode).to.equal(true);
      const status = await parley(server, widget.channel, 'st');
      expect(status.text).to.include('*online*').and.include('Mode: manual');
      await parley(server, widget.channel, 'manual-mode');
      expect((await widget.widget()).manualMode).to.equal(false);
    });

    it('prints the operating hours and turns the schedule on and off, warning when no hours are set', async () => {
      const hours = await parley(server, widget.channel, 'hours');
      expect(hours.text).to.include('Monday: closed').and.include('The schedule is *off*');
      expect(JSON.stringify(hours.blocks)).to.include('home_operating_hours');
      const on = await parley(server, widget.channel, 'schedule on');
      expect(on.text).to.include('schedule on').and.include('No operating hours are set');
      expect((await widget.widget()).onOffSchedule).to.equal(true);
      expect((await parley(server, widget.channel, 'status')).text).to.include('outside operating hours');
      await parley(server, widget.channel, 'schedule off');
      expect((await widget.widget()).onOffSchedule).to.equal(false);
      expect((await parley(server, widget.channel, 'schedule maybe')).text).to.include('`/parley schedule on`');
      await server.models.ChatEndpoint.updateOne(
        { _id: widget.ceId },
        { $set: { tz: 'Europe/Paris', operatingHours: [{ weekday: 1, start: 900, end: 1730 }] } },
      );
      expect((await parley(server, widget.channel, 'hours')).text)
        .to.include('Monday: 09:00–17:30')
        .and.include('Europe/Paris');
    });

    it('toggles require-info, response-reminders, notify-channel-on-msg, operator-name and print-visitor-info and says the new value', async () => {
      const { socket } = await VisitorSocket.hello(server, widget.uuid);
      const ce = await widget.widget();
      expect((await parley(server, widget.channel, 'require-info')).text).to.include('`require-info` *on*');
      expect((await socket.next('config', (f) => f.config.requireInfo === true)).config.requireInfo).to.equal(true);
      expect((await parley(server, widget.channel, 'response-reminders')).text).to.include(`*${ce.responseReminders ? 'off' : 'on'}*`);
      expect((await parley(server, widget.channel, 'notify-channel-on-msg')).text).to.include('*on*');
      expect((await parley(server, widget.channel, 'operator-name')).text).to.include('*off*');
      expect((await parley(server, widget.channel, 'print-visitor-info')).text).to.include('*none*');
      expect((await parley(server, widget.channel, 'print-visitor-info')).text).to.include('*compact*');
      expect((await parley(server, widget.channel, 'print-visitor-info full')).text).to.include('*full*');
      expect((await parley(server, widget.channel, 'print-visitor-info loud')).text).to.include('`full`, `compact` or `none`');
      expect(await widget.widget()).to.include({
        requireInfo: true,
        responseReminders: !ce.responseReminders,
        notifyChannelOnMsg: true,
        forwardSlackUserName: false,
        metaInfoInMainChannel: 'full',
      });
      socket.close();
    });

    it('answers info: widget id, plan, channel and conversation counts', async () => {
      await openChat(server, widget);
      const info = await parley(server, widget.channel, 'info');
      expect(info.text)
        .to.include(widget.uuid)
        .and.include('Plan: Basic (monthly), in the free trial with every Business feature')
        .and.include(`<#${widget.channel}>`)
        .and.include('today: *1*')
        .and.include('this month: *1*');
    });
  });

  describe('refusals', () => {
    it('says no widget is linked in another channel, and lists the linked channels the person is in', async () => {
      const answer = await parley(server, GENERAL, 'off');
      expect(answer.text).to.include('No Parley widget is linked to this channel').and.include(`<#${widget.channel}>`);
      expect((await widget.widget()).off).to.equal(false);
    });

    it('refuses people who are not members of the linked channel', async () => {
      const answer = await parley(server, widget.channel, 'off', BOB);
      expect(answer.text).to.include(`Only members of <#${widget.channel}>`);
      expect((await widget.widget()).off).to.equal(false);
      expect((await parley(server, RANDOM, 'status', BOB)).text).to.include('None of the channels you are in is linked');
      await server.slack.joinChannel({ teamId: ACME, userId: BOB, channelId: widget.channel });
      await eventually(async () => expect((await parley(server, widget.channel, 'status', BOB)).text).to.include('The website chat of'));
    });

    it('tells a workspace whose installation Parley no longer has that it is not installed', async () => {
      await server.models.Installation.updateMany({ teamId: ACME }, { $set: { revokedAt: new Date() } });
      // As Parley's own revocation does (installationChanged): the cached installation goes with it.
      server.parley.slack.forget(ACME);
      try {
        const answer = await parley(server, widget.channel, 'off');
        expect(answer.text).to.equal(NOT_INSTALLED_TEXT);
        expect((await widget.widget()).off).to.equal(false);
      } finally {
        await server.models.Installation.updateMany({ teamId: ACME }, { $set: { revokedAt: null } });
        server.parley.slack.forget(ACME);
      }
    });

    it('explains bad conversation numbers, unknown conversations and bad addresses', async () => {
      await openChat(server, widget);
      expect((await parley(server, widget.channel, 'end')).text).to.include('Give the conversation number');
      expect((await parley(server, widget.channel, 'end abc')).text).to.include('`/parley end 12`');
      expect((await parley(server, widget.channel, 'x 99')).text).to.include('There is no conversation #99');
      expect((await parley(server, widget.channel, 'email 1 not-an-address')).text).to.include('is not a valid e-mail address');
      expect((await parley(server, widget.channel, 'email 1')).text).to.include('Give the address');
      expect((await parley(server, widget.channel, 'reply 1 nosuch')).text).to.include('No saved reply with the shortcut “nosuch”');
      expect((await parley(server, widget.channel, 'stw 1')).text).to.include('no webhook URL');
      expect((await server.models.Conversation.findOne({ ceId: widget.ceId }))?.status).to.equal('open');
    });
  });

  describe('conversation commands', () => {
    it('ends a conversation by number: widget told, thread told, post-chat actions run; a second end is refused', async () => {
      await server.models.ChatEndpoint.updateOne(
        { _id: widget.ceId },
        { $set: { emailOnArchive: true, transcriptRecipient: 'archive@example.com' } },
      );
      const chat = await openChat(server, widget);
      expect((await parley(server, widget.channel, `end ${chat.number}`)).text).to.include(`Conversation #${chat.number} ended`);
      expect((await chat.socket.next('ended')).by).to.equal('operator');
      expect((await server.models.Conversation.findById(chat.id))?.status).to.equal('ended');
      await eventually(async () =>
        expect(
          server.slack.state
            .replies(widget.channel, chat.threadTs)
            .map((m) => m.text)
            .join('\n'),
        ).to.include(`<@${ALICE}> ended this chat`),
      );
      await eventually(async () => expect(await server.outbox.latestTo('archive@example.com')).to.not.equal(undefined));
      expect((await parley(server, widget.channel, `x ${chat.number}`)).text).to.include('has already ended');
      chat.socket.close();
    });

    it('discards a conversation: ended and marked discarded, without transcript', async () => {
      await server.models.ChatEndpoint.updateOne(
        { _id: widget.ceId },
        { $set: { emailOnArchive: true, transcriptRecipient: 'discard@example.com' } },
      );
      const chat = await openChat(server, widget);
      expect((await parley(server, widget.channel, `discard ${chat.number}`)).text).to.include('discarded');
      expect((await chat.socket.next('ended')).by).to.equal('operator');
      expect(await server.models.Conversation.findById(chat.id)).to.include({ status: 'ended', discarded: true });
      await eventually(async () =>
        expect(
          server.slack.state
            .replies(widget.channel, chat.threadTs)
            .map((m) => m.text)
            .join('\n'),
        ).to.include('discarded this chat'),
      );
      expect(await server.outbox.latestTo('discard@example.com')).to.equal(undefined);
      chat.socket.close();
    });

    it('asks the visitor for an e-mail address', async () => {
      const chat = await openChat(server, widget);
      expect((await parley(server, widget.channel, `ask email ${chat.number}`)).text).to.include('Asked the visitor');
      await chat.socket.next('askEmail');
      expect((await parley(server, widget.channel, `ask-email ${chat.number}`)).text).to.include('Asked the visitor');
      chat.socket.close();
    });

    it('e-mails the transcript to an address and sends the conversation to the webhook', async () => {
      const hook = await webhookTarget();
      try {
        await server.models.ChatEndpoint.updateOne({ _id: widget.ceId }, { $set: { webhookUrl: hook.url } });
        const chat = await openChat(server, widget);
        expect((await parley(server, widget.channel, `e ${chat.number} boss@example.com`)).text).to.include(
          'on its way to boss@example.com',
        );
        await eventually(async () =>
          expect((await server.outbox.latestTo('boss@example.com'))?.text).to.include('Hello, is anyone there?'),
        );
        expect((await parley(server, widget.channel, `send-to-webhook ${chat.number}`)).text).to.include('on its way to the webhook');
        await eventually(async () => expect(hook.bodies).to.have.length(1));
        expect((hook.bodies[0] as { event: string }).event).to.equal('conversation.sent');
        chat.socket.close();
      } finally {
        await hook.close();
      }
    });

    it('sends a saved reply by shortcut, and lists saved replies with buttons that send them', async () => {
      await addSavedReply(server, widget, { label: 'Opening hours', response: 'We are open 9 to 5 & on weekends', shortcut: 'hours' });
      const chat = await openChat(server, widget);
      expect((await parley(server, widget.channel, `r ${chat.number} hours`)).text).to.include('Saved reply sent');
      expect((await chat.socket.next('msg', (f) => f.message.from === 'operator')).message.text).to.equal(
        'We are open 9 to 5 & on weekends',
      );
      const list = await parley(server, widget.channel, `replies ${chat.number}`);
      expect(JSON.stringify(list.blocks)).to.include('Opening hours').and.include('saved_reply_send');
      const pressed = await server.slack.sendBlockAction({
        teamId: ACME,
        userId: ALICE,
        actionId: 'saved_reply_send',
        ephemeralId: list.id,
      });
      expect(pressed.ok).to.equal(true);
      await chat.socket.next('msg', (f) => f.message.from === 'operator');
      await eventually(async () =>
        expect(server.slack.state.ephemerals.find((e) => e.id === list.id)?.text).to.include('Saved reply sent'),
      );
      chat.socket.close();
    });

    it('starts a question group by shortcut: the widget gets the first question', async () => {
      await addQuestionGroup(server, widget, {
        label: 'Triage',
        shortcut: 'triage',
        question: 'What is it about?',
        answers: ['Billing', 'Bugs'],
      });
      const chat = await openChat(server, widget);
      expect((await parley(server, widget.channel, `qg ${chat.number} triage`)).text).to.include('Question group started');
      const question = await chat.socket.next('question');
      expect(question.text).to.include('What is it about?');
      expect(question.answers.map((a) => a.text)).to.deep.equal(['Billing', 'Bugs']);
      chat.socket.close();
    });
  });
});
