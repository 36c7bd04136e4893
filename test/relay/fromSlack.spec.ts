import { expect } from 'chai';
import request from 'supertest';
import { endConversation } from '../../server/commands/endConversation';
import { appendEntryReading } from '../../server/conversations/history';
import { SLACK_REPLIES_KEPT } from '../../server/models/Conversation';
import { slackSignature } from '../slack/helpers';
import { ACME, ALICE, BOB, eventually, type SetUp, say, setUpRelayWidget, threadOf, useRelayServer, VisitorSocket } from './helpers';

describe('relay from Slack to the widget', () => {
  let widget: SetUp;
  let socket: VisitorSocket;
  let threadTs: string;
  const server = useRelayServer();
  beforeEach(async () => {
    widget = await setUpRelayWidget(server);
    ({ socket } = await VisitorSocket.hello(server, widget.uuid, { identity: { name: 'Tom' } }));
    await say(socket, 'I need help');
    threadTs = await threadOf(server, widget.ceId);
  });
  afterEach(() => socket.close());

  const reply = (text: string) => server.slack.postAsUser({ teamId: ACME, userId: ALICE, channelId: widget.channel, threadTs, text });
  const contextLines = () =>
    server.slack.state.replies(widget.channel, threadTs).filter((m) => JSON.stringify(m.blocks ?? []).includes('"context"'));

  /** Posts a signed event as Slack would, with a fixed event id. */
  const deliver = (eventId: string, event: Record<string, unknown>, retryNum?: number) => {
    const body = JSON.stringify({
      token: 'x',
      team_id: ACME,
      api_app_id: server.slack.appId,
      type: 'event_callback',
      event_id: eventId,
      event_time: Math.floor(Date.now() / 1000),
      event,
    });
    const req = request(server.url).post('/slack/events').type('json').set(slackSignature(server.config.slack.signingSecret, body));
    if (retryNum !== undefined) req.set('x-slack-retry-num', String(retryNum)).set('x-slack-retry-reason', 'http_timeout');
    return req.send(body).expect(200);
  };

  /** Alice's reply in the thread as Slack's event carries it, its ts this second with the given microseconds. */
  const aliceReply = (text: string, micros: string) => ({
    type: 'message',
    user: ALICE,
    text,
    channel: widget.channel,
    ts: `${Math.floor(Date.now() / 1000)}.${micros}`,
    thread_ts: threadTs,
    channel_type: 'channel',
  });

  it('keeps a reply starting with ; or // internal and says so in the thread', async () => {
    await reply('; she is a VIP, be nice');
    await reply('// check the order first');
    await reply('Done, your order ships today');
    const frame = await socket.next('msg', (f) => f.message.from === 'operator');
    expect(frame.message.text).to.equal('Done, your order ships today');
    await eventually(async () => expect(contextLines()).to.have.length(2));
    expect(contextLines()[0].text).to.include('Internal note');
    expect(socket.msgs().filter((f) => f.message.from === 'operator')).to.have.length(1);
    expect(
      await server.models.Message.countDocuments({ from: 'operator' })
        .where('text')
        .regex(/VIP|order first/),
    ).to.equal(0);
  });

  it('ignores bot messages in the thread', async () => {
    await deliver(`EvBOT${Date.now()}`, {
      type: 'message',
      subtype: 'bot_message',
      bot_id: 'B0OTHERBOT',
      username: 'Some bot',
      text: 'beep boop',
      channel: widget.channel,
      ts: `${Math.floor(Date.now() / 1000)}.000100`,
      thread_ts: threadTs,
    });
    await reply('A human answer');
    const frame = await socket.next('msg', (f) => f.message.from === 'operator');
    expect(frame.message.text).to.equal('A human answer');
    expect(socket.msgs().map((f) => f.message.text)).to.not.include('beep boop');
  });

  it('mirrors edits and deletions of relayed replies', async () => {
    const posted = await reply('The price is 10 EUR');
    const first = await socket.next('msg', (f) => f.message.from === 'operator');
    await server.slack.editAsUser({ teamId: ACME, userId: ALICE, channelId: widget.channel, ts: posted.ts, text: 'The price is 12 EUR' });
    const edit = await socket.next('edit');
    expect(edit).to.include({ id: first.message.id, text: 'The price is 12 EUR' });
    expect(edit.seq).to.be.greaterThan(first.message.seq);
    await server.slack.deleteAsUser({ teamId: ACME, userId: ALICE, channelId: widget.channel, ts: posted.ts });
    const deleted = await socket.next('delete');
    expect(deleted.id).to.equal(first.message.id);
    expect(deleted.seq).to.be.greaterThan(edit.seq);
  });

  it('delivers an event Slack retries with the same event id once', async () => {
    const event = aliceReply('Only once please', '000200');
    const eventId = `EvDUP${Date.now()}`;
    await deliver(eventId, event);
    await deliver(eventId, event, 1);
    await deliver(eventId, event, 2);
    await socket.next('msg', (f) => f.message.text === 'Only once please');
    await reply('after the retries');
    await socket.next('msg', (f) => f.message.text === 'after the retries');
    expect(socket.msgs().filter((f) => f.message.text === 'Only once please')).to.have.length(1);
    expect(await server.models.Message.countDocuments({ text: 'Only once please' })).to.equal(1);
  });

  it('relays a message once when it comes twice at once under two event ids, and again minutes later', async () => {
    const event = aliceReply('We ship on Monday', '000300');
    const stamp = Date.now();
    await Promise.all([deliver(`EvTWO${stamp}a`, event), deliver(`EvTWO${stamp}b`, event)]);
    await socket.next('msg', (f) => f.message.text === 'We ship on Monday');
    await say(socket, 'And the invoice?');
    // Slack's last retry of the first event, five minutes on, after the visitor wrote again.
    await deliver(`EvTWO${stamp}a`, event, 3);
    await reply('after the retry');
    await socket.next('msg', (f) => f.message.text === 'after the retry');
    expect(socket.msgs().filter((f) => f.message.text === 'We ship on Monday')).to.have.length(1);
    expect(await server.models.Message.countDocuments({ text: 'We ship on Monday' })).to.equal(1);
    // Nothing of the conversation's history was spent on the copies: the next answer follows the visitor's line.
    const seqOf = async (text: string) => (await server.models.Message.findOne({ text }).lean())?.seq;
    expect(await seqOf('after the retry')).to.equal((await seqOf('And the invoice?'))! + 1);
  });

  it('takes Slack’s retry of a reply relayed before the conversation ended for what it is, not for a late reply', async () => {
    const event = aliceReply('Glad I could help', '000400');
    const eventId = `EvEND${Date.now()}`;
    await deliver(eventId, event);
    await socket.next('msg', (f) => f.message.text === 'Glad I could help');
    const { _id } = (await server.models.Conversation.findOne({ ceId: widget.ceId }).lean())!;
    expect((await endConversation(server.parley.relay, _id, 'operator')).ended).to.equal(true);
    await deliver(eventId, event, 1);
    // The retry got as far as an ended conversation's check (its event id is kept there, as for every late reply).
    await eventually(async () => expect(await server.models.SlackEventSeen.countDocuments({ eventId })).to.equal(1));
    await reply('one more thing');
    const endedNotes = () => server.slack.state.replies(widget.channel, threadTs).filter((m) => m.text.includes('has ended'));
    // The late reply's note goes out behind whatever the retry queued in the thread.
    await eventually(async () => {
      expect(endedNotes()).to.have.length.at.least(1);
      expect(await server.models.OutboxJob.countDocuments({})).to.equal(0);
    });
    expect(endedNotes()).to.have.length(1);
    expect(socket.msgs().filter((f) => f.message.text === 'Glad I could help')).to.have.length(1);
  });

  it('knows the latest fifty replies of a thread from Slack’s retries, and keeps no more', async () => {
    const { _id } = (await server.models.Conversation.findOne({ ceId: widget.ceId }).lean())!;
    const tsOf = (i: number) => `1800000000.${String(i).padStart(6, '0')}`;
    const append = (i: number) =>
      appendEntryReading(server.models, _id, { kind: 'msg', from: 'operator', text: `reply ${i}` }, { onceForSlackTs: tsOf(i) }, {});
    for (let i = 0; i < SLACK_REPLIES_KEPT + 5; i++) expect(await append(i), `reply ${i}`).to.not.equal(null);
    const kept = await server.models.Conversation.findById(_id, { slackReplyTs: 1 }).lean();
    expect(kept?.slackReplyTs).to.deep.equal(Array.from({ length: SLACK_REPLIES_KEPT }, (_, k) => tsOf(k + 5)));
    // A retry of a kept reply is refused by the same write; a copy older than what is kept is taken as new.
    expect(await append(SLACK_REPLIES_KEPT + 4)).to.equal(null);
    expect(await append(5)).to.equal(null);
    expect(await append(4)).to.not.equal(null);
    expect(await server.models.Message.countDocuments({ conversationId: _id, text: /^reply / })).to.equal(SLACK_REPLIES_KEPT + 6);
  });

  it('does not relay replies in threads that are not conversations, nor top-level channel messages', async () => {
    await server.slack.postAsUser({ teamId: ACME, userId: ALICE, channelId: widget.channel, text: 'lunch anyone?' });
    await reply('real answer');
    await socket.next('msg', (f) => f.message.text === 'real answer');
    expect(socket.msgs().map((f) => f.message.text)).to.not.include('lunch anyone?');
  });

  it('names the operator once Slack answers again after a failed users.info, in the widget and in the thread header', async () => {
    const header = () => server.slack.state.data.messages.find((m) => m.channel === widget.channel && m.ts === threadTs);
    const replyAsBob = (text: string) => server.slack.postAsUser({ teamId: ACME, userId: BOB, channelId: widget.channel, threadTs, text });
    server.slack.state.data.channels.find((c) => c.id === widget.channel)?.members.push(BOB);
    // Bob's first lookup fails: Slack hiccups.
    server.slack.state.failNext('users.info', 1);
    await replyAsBob('Looking into it');
    const first = await socket.next('msg', (f) => f.message.text === 'Looking into it');
    expect(first.message.author?.name).to.equal('Operator');
    await eventually(async () => expect(JSON.stringify(header())).to.include('Answered by Operator'));

    await replyAsBob('Found it: your order ships today');
    const second = await socket.next('msg', (f) => f.message.text === 'Found it: your order ships today');
    expect(second.message.author?.name).to.equal('Bob');
    await eventually(async () => expect(JSON.stringify(header())).to.include('Answered by Bob'));
    const conversation = await server.models.Conversation.findOne({ ceId: widget.ceId });
    expect(conversation?.agentName).to.equal('Bob');
  });
});
