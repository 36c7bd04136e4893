import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, ExpressReceiver, LogLevel, verifySlackRequest } from '@slack/bolt';
import { expect } from 'chai';
import {
  ACME,
  ALICE,
  BOB,
  GENERAL,
  installBot,
  interactivityPayload,
  RANDOM,
  type ReceivedRequest,
  type SandboxFixture,
  SIGNING_SECRET,
  SUPPORT,
  startSandbox,
  until,
} from './helpers';

function verified(r: ReceivedRequest): void {
  verifySlackRequest({
    signingSecret: SIGNING_SECRET,
    body: r.body,
    headers: {
      'x-slack-signature': String(r.headers['x-slack-signature']),
      'x-slack-request-timestamp': Number(r.headers['x-slack-request-timestamp']),
    },
  });
}

function envelope(r: ReceivedRequest): Record<string, unknown> & { event: Record<string, unknown> } {
  return JSON.parse(r.body) as Record<string, unknown> & { event: Record<string, unknown> };
}

describe('Slack sandbox sender', () => {
  let f: SandboxFixture;
  beforeEach(async () => {
    f = await startSandbox();
  });
  afterEach(async () => {
    await f.close();
  });

  describe('Events API', () => {
    it('delivers an event_callback envelope signed with the signing secret (v0, timestamp) that verifySlackRequest accepts', async () => {
      const { inst } = installBot(f);
      const result = await f.sandbox.sendEvent(ACME, { type: 'app_home_opened', user: ALICE, channel: 'D0ALICE', tab: 'home' });
      expect(result.ok).to.equal(true);
      const [req] = f.app.received;
      expect(req.path).to.equal('/slack/events');
      expect(req.headers['content-type']).to.contain('application/json');
      expect(() => verified(req)).not.to.throw();
      const body = envelope(req);
      expect(body).to.include({ type: 'event_callback', team_id: ACME, api_app_id: f.sandbox.appId, event_id: result.eventId });
      expect(body.token).to.be.a('string');
      expect(body.event_time).to.be.a('number');
      expect(body.event).to.include({ type: 'app_home_opened', user: ALICE, tab: 'home' });
      expect(body.event.event_ts).to.be.a('string');
      expect(body.authorizations).to.deep.equal([
        { enterprise_id: null, team_id: ACME, user_id: inst.botUserId, is_bot: true, is_enterprise_install: false },
      ]);
    });

    it('fails verification when the body is tampered with', async () => {
      installBot(f);
      await f.sandbox.sendEvent(ACME, { type: 'app_home_opened', user: ALICE, tab: 'home' });
      const [req] = f.app.received;
      expect(() => verified({ ...req, body: req.body.replace('app_home_opened', 'app_uninstalled') })).to.throw(/signature mismatch/);
    });

    it('retries with x-slack-retry-num and x-slack-retry-reason when the app answers with an error', async () => {
      installBot(f);
      let n = 0;
      f.app.respond(() => ({ status: ++n <= 2 ? 500 : 200 }));
      const result = await f.sandbox.sendEvent(ACME, { type: 'app_home_opened', user: ALICE, tab: 'home' });
      expect(result.ok).to.equal(true);
      expect(result.attempts.map((a) => a.status)).to.deep.equal([500, 500, 200]);
      const reqs = f.app.received;
      expect(reqs.map((r) => r.headers['x-slack-retry-num'])).to.deep.equal([undefined, '1', '2']);
      expect(reqs.map((r) => r.headers['x-slack-retry-reason'])).to.deep.equal([undefined, 'http_error', 'http_error']);
      expect(new Set(reqs.map((r) => envelope(r).event_id)).size).to.equal(1);
      for (const r of reqs) expect(() => verified(r)).not.to.throw();
    });

    it('delivers an event again as a Slack retry, with the same event_id and the next retry number', async () => {
      const { client } = installBot(f);
      await client.conversations.join({ channel: SUPPORT });
      await f.sandbox.postAsUser({ teamId: ACME, userId: ALICE, channelId: SUPPORT, text: 'only once please' });
      await f.sandbox.settled();
      const delivery = f.sandbox.state.deliveries.find((d) => d.summary === 'event message');
      const again = await f.sandbox.redeliverEvent(delivery?.eventId as string);
      expect(again.ok).to.equal(true);
      const copies = f.app.received.filter((r) => envelope(r).event_id === delivery?.eventId);
      expect(copies).to.have.length(2);
      expect(copies[1].body).to.equal(copies[0].body);
      expect(copies[1].headers['x-slack-retry-num']).to.equal('1');
      expect(copies[1].headers['x-slack-retry-reason']).to.equal('http_timeout');
      expect(() => verified(copies[1])).not.to.throw();
    });

    it('gives up after three retries', async () => {
      installBot(f);
      f.app.respond(() => ({ status: 503 }));
      const result = await f.sandbox.sendEvent(ACME, { type: 'app_home_opened', user: ALICE, tab: 'home' });
      expect(result.ok).to.equal(false);
      expect(f.app.received.map((r) => r.headers['x-slack-retry-num'])).to.deep.equal([undefined, '1', '2', '3']);
      expect(f.sandbox.state.deliveries.at(-1)).to.include({ kind: 'event', ok: false });
    });

    it('retries with reason http_timeout when the app takes longer than the ack timeout', async () => {
      await f.close();
      f = await startSandbox({ ackTimeoutMs: 150 });
      installBot(f);
      let n = 0;
      f.app.respond(() => (++n === 1 ? { status: 200, delayMs: 400 } : { status: 200 }));
      const result = await f.sandbox.sendEvent(ACME, { type: 'app_home_opened', user: ALICE, tab: 'home' });
      expect(result.ok).to.equal(true);
      expect(result.attempts[0]).to.include({ failure: 'http_timeout' });
      expect(f.app.received[1].headers['x-slack-retry-reason']).to.equal('http_timeout');
    });

    it('retries with reason connection_failed while the app is down', async () => {
      installBot(f);
      f.sandbox.setAppUrls({ eventsUrl: 'http://127.0.0.1:1/slack/events' });
      const result = await f.sandbox.sendEvent(ACME, { type: 'app_home_opened', user: ALICE, tab: 'home' });
      expect(result.ok).to.equal(false);
      expect(result.attempts.map((a) => a.failure)).to.deep.equal([
        'connection_failed',
        'connection_failed',
        'connection_failed',
        'connection_failed',
      ]);
      expect(result.attempts.map((a) => a.retryReason)).to.deep.equal([
        undefined,
        'connection_failed',
        'connection_failed',
        'connection_failed',
      ]);
    });

    it('does not retry when the app answers with X-Slack-No-Retry: 1', async () => {
      installBot(f);
      f.app.respond(() => ({ status: 500, headers: { 'x-slack-no-retry': '1' } }));
      const result = await f.sandbox.sendEvent(ACME, { type: 'app_home_opened', user: ALICE, tab: 'home' });
      expect(result.attempts).to.have.length(1);
    });

    it('honours a smaller retry count from the caller', async () => {
      installBot(f);
      f.app.respond(() => ({ status: 500 }));
      const result = await f.sandbox.sendEvent(ACME, { type: 'app_home_opened', user: ALICE, tab: 'home' }, { retries: 1 });
      expect(result.attempts).to.have.length(2);
    });

    it('sends nothing to a workspace where the app is not installed', async () => {
      const result = await f.sandbox.sendEvent(ACME, { type: 'app_home_opened', user: ALICE, tab: 'home' });
      expect(result).to.include({ ok: false, skipped: 'app_not_installed' });
      expect(f.app.received).to.have.length(0);
    });

    it('answers url_verification when the app echoes the challenge', async () => {
      f.app.respond((r) => ({ status: 200, body: { challenge: (JSON.parse(r.body) as { challenge: string }).challenge } }));
      expect((await f.sandbox.verifyEventsUrl()).challengeEchoed).to.equal(true);
      f.app.respond(() => ({ status: 200, body: 'nope' }));
      expect((await f.sandbox.verifyEventsUrl()).challengeEchoed).to.equal(false);
    });
  });

  describe('message events from people', () => {
    it("sends a message event for a human's post in a channel the bot is in, with thread_ts for a thread reply", async () => {
      const { client } = installBot(f);
      await client.conversations.join({ channel: SUPPORT });
      const parent = await client.chat.postMessage({ channel: SUPPORT, text: 'Chat with Jane' });
      const reply = await f.sandbox.postAsUser({ teamId: ACME, userId: ALICE, channelId: SUPPORT, text: 'Hi Jane!', threadTs: parent.ts });
      await f.sandbox.settled();
      const events = f.app.received.map((r) => envelope(r).event).filter((e) => e.type === 'message');
      const human = events.find((e) => e.user === ALICE);
      expect(human).to.include({
        type: 'message',
        channel: SUPPORT,
        user: ALICE,
        text: 'Hi Jane!',
        ts: reply.ts,
        thread_ts: parent.ts,
        channel_type: 'channel',
        team: ACME,
      });
      expect(human?.parent_user_id).to.equal(f.sandbox.state.installation(ACME)?.botUserId);
      expect(human?.client_msg_id).to.be.a('string');
      expect(human?.bot_id).to.equal(undefined);
      const own = events.find((e) => e.ts === parent.ts);
      expect(own?.bot_id).to.equal(f.sandbox.state.installation(ACME)?.botId);
    });

    it('sends a thread_broadcast message for a reply also sent to the channel', async () => {
      const { client } = installBot(f);
      await client.conversations.join({ channel: SUPPORT });
      const parent = await client.chat.postMessage({ channel: SUPPORT, text: 'Chat with Jane' });
      const reply = await f.sandbox.postAsUser({
        teamId: ACME,
        userId: ALICE,
        channelId: SUPPORT,
        text: 'Team, Jane needs a quote',
        threadTs: parent.ts as string,
        broadcast: true,
      });
      await f.sandbox.settled();
      const event = f.app.received.map((r) => envelope(r).event).find((e) => e.ts === reply.ts);
      expect(event).to.include({ type: 'message', subtype: 'thread_broadcast', user: ALICE, thread_ts: parent.ts });
      const history = await client.conversations.history({ channel: SUPPORT });
      expect(history.messages?.map((m) => m.text)).to.deep.equal(['Team, Jane needs a quote', 'Chat with Jane']);
    });

    it('sends nothing for posts in channels the bot is not in', async () => {
      installBot(f);
      await f.sandbox.postAsUser({ teamId: ACME, userId: ALICE, channelId: RANDOM, text: 'lunch?' });
      await f.sandbox.settled();
      expect(f.app.received.map((r) => envelope(r).event.type)).not.to.include('message');
    });

    it('refuses to post for a person who is not in the channel', async () => {
      const { client } = installBot(f);
      const c = await client.conversations.create({ name: 'bots-only' });
      const err = await f.sandbox
        .postAsUser({ teamId: ACME, userId: BOB, channelId: c.channel?.id as string, text: 'x' })
        .catch((e: { error: string }) => e);
      expect(err).to.include({ error: 'not_in_channel' });
    });

    it('sends message_changed for an edit and message_deleted for a deletion', async () => {
      const { client } = installBot(f);
      await client.conversations.join({ channel: SUPPORT });
      const m = await f.sandbox.postAsUser({ teamId: ACME, userId: ALICE, channelId: SUPPORT, text: 'helo' });
      await f.sandbox.editAsUser({ teamId: ACME, userId: ALICE, channelId: SUPPORT, ts: m.ts, text: 'hello' });
      await f.sandbox.deleteAsUser({ teamId: ACME, userId: ALICE, channelId: SUPPORT, ts: m.ts });
      await f.sandbox.settled();
      const events = f.app.received.map((r) => envelope(r).event);
      const changed = events.find((e) => e.subtype === 'message_changed');
      expect(changed).to.include({ type: 'message', channel: SUPPORT, hidden: true });
      expect(changed?.message).to.include({ ts: m.ts, text: 'hello', user: ALICE });
      expect((changed!.message as { edited: { user: string } }).edited.user).to.equal(ALICE);
      expect(changed?.previous_message).to.include({ text: 'helo' });
      const deleted = events.find((e) => e.subtype === 'message_deleted');
      expect(deleted).to.include({ channel: SUPPORT, deleted_ts: m.ts, hidden: true });
      expect(deleted?.previous_message).to.include({ text: 'hello' });
    });

    it('sends member_joined_channel, channel_rename and channel_archive when those happen', async () => {
      const { client, inst } = installBot(f);
      const c = await client.conversations.create({ name: 'alpha' });
      const id = c.channel?.id as string;
      await client.conversations.rename({ channel: id, name: 'beta' });
      await client.conversations.join({ channel: SUPPORT });
      await client.conversations.archive({ channel: id });
      await f.sandbox.settled();
      const events = f.app.received.map((r) => envelope(r).event);
      expect(events.find((e) => e.type === 'channel_rename')?.channel).to.include({ id, name: 'beta' });
      expect(events.find((e) => e.type === 'member_joined_channel')).to.include({
        user: inst.botUserId,
        channel: SUPPORT,
        channel_type: 'C',
      });
      expect(events.find((e) => e.type === 'channel_archive')).to.include({ channel: id, user: inst.botUserId });
    });

    it('lets a test make people join, rename, archive and uninstall, with the events Slack sends', async () => {
      const { client } = installBot(f);
      const c = await client.conversations.create({ name: 'ops' });
      const id = c.channel?.id as string;
      await f.sandbox.joinChannel({ teamId: ACME, userId: BOB, channelId: id });
      await f.sandbox.renameChannel({ teamId: ACME, channelId: id, name: 'ops-team' });
      await f.sandbox.archiveChannel({ teamId: ACME, userId: BOB, channelId: id });
      await f.sandbox.uninstall(ACME);
      await f.sandbox.settled();
      const types = f.app.received.map((r) => envelope(r).event.type);
      expect(types).to.include.members(['member_joined_channel', 'channel_rename', 'channel_archive', 'tokens_revoked', 'app_uninstalled']);
      expect(f.app.received.map((r) => envelope(r).event).find((e) => e.type === 'member_joined_channel')).to.include({
        user: BOB,
        channel: id,
      });
    });

    it('sends only the events the app subscribes to when its subscriptions are given', async () => {
      await f.close();
      f = await startSandbox({ app: { events: ['message.channels', 'app_uninstalled'] } });
      const { client } = installBot(f);
      const c = await client.conversations.create({ name: 'subscribed' });
      await client.conversations.rename({ channel: c.channel?.id as string, name: 'renamed' });
      await f.sandbox.postAsUser({ teamId: ACME, userId: ALICE, channelId: GENERAL, text: 'bot not here' });
      await client.chat.postMessage({ channel: c.channel?.id as string, text: 'in channel' });
      await f.sandbox.settled();
      expect(f.app.received.map((r) => envelope(r).event.type)).to.deep.equal(['message']);
    });

    it('sends tokens_revoked and app_uninstalled when the app is uninstalled', async () => {
      const { client, inst } = installBot(f, ['chat:write'], []);
      await client.apps.uninstall({ client_id: '1111.2222', client_secret: 'test-client-secret' });
      await f.sandbox.settled();
      const events = f.app.received.map((r) => envelope(r).event);
      expect(events.map((e) => e.type)).to.have.members(['tokens_revoked', 'app_uninstalled']);
      expect(events.find((e) => e.type === 'tokens_revoked')?.tokens).to.deep.equal({ oauth: [], bot: [inst.botUserId] });
    });
  });

  describe('slash commands', () => {
    it('posts the command form-encoded and signed, with response_url and trigger_id, and shows the ack text ephemerally', async () => {
      installBot(f);
      f.app.respond(() => ({ status: 200, body: { text: 'Parley is online' } }));
      const result = await f.sandbox.sendSlashCommand({
        teamId: ACME,
        userId: ALICE,
        channelId: SUPPORT,
        command: '/parley',
        text: 'status',
      });
      expect(result.ok).to.equal(true);
      const [req] = f.app.received;
      expect(req.headers['content-type']).to.contain('application/x-www-form-urlencoded');
      expect(() => verified(req)).not.to.throw();
      const form = Object.fromEntries(new URLSearchParams(req.body));
      expect(form).to.include({
        team_id: ACME,
        team_domain: 'acme',
        channel_id: SUPPORT,
        channel_name: 'support',
        user_id: ALICE,
        user_name: 'alice',
        command: '/parley',
        text: 'status',
        api_app_id: f.sandbox.appId,
        is_enterprise_install: 'false',
      });
      expect(form.response_url).to.equal(result.responseUrl);
      expect(form.trigger_id).to.equal(result.triggerId);
      expect(f.sandbox.state.ephemeralsFor(ACME, ALICE, SUPPORT).map((e) => e.text)).to.deep.equal(['Parley is online']);
    });

    it('shows the operation_timeout error when the app does not answer in time', async () => {
      await f.close();
      f = await startSandbox({ ackTimeoutMs: 100 });
      installBot(f);
      f.app.respond(() => ({ status: 200, delayMs: 300 }));
      const result = await f.sandbox.sendSlashCommand({
        teamId: ACME,
        userId: ALICE,
        channelId: SUPPORT,
        command: '/parley',
        text: 'help',
      });
      expect(result.ok).to.equal(false);
      expect(f.app.received).to.have.length(1);
      expect(f.sandbox.state.ephemeralsFor(ACME, ALICE).map((e) => e.text)).to.deep.equal([
        '/parley failed with the error "operation_timeout"',
      ]);
    });

    it('accepts ephemeral and in_channel answers on the response_url, at most five times', async () => {
      const { client, inst } = installBot(f);
      await client.conversations.join({ channel: SUPPORT });
      const { responseUrl } = await f.sandbox.sendSlashCommand({
        teamId: ACME,
        userId: ALICE,
        channelId: SUPPORT,
        command: '/parley',
        text: 'off',
      });
      const post = (body: object) =>
        fetch(responseUrl as string, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect((await post({ text: 'Only for you' })).status).to.equal(200);
      expect((await post({ text: 'Parley is now offline', response_type: 'in_channel' })).status).to.equal(200);
      expect(f.sandbox.state.ephemeralsFor(ACME, ALICE, SUPPORT).map((e) => e.text)).to.include('Only for you');
      const posted = f.sandbox.state.channelMessages(SUPPORT).at(-1);
      expect(posted).to.include({ text: 'Parley is now offline', user: inst.botUserId });
      expect(f.sandbox.state.responses.map((r) => r.body.text)).to.deep.equal(['Only for you', 'Parley is now offline']);
      for (let i = 0; i < 3; i++) expect((await post({ text: `again ${i}` })).status).to.equal(200);
      const sixth = await post({ text: 'too many' });
      expect(sixth.status).to.equal(404);
      expect(await sixth.json()).to.deep.equal({ ok: false, error: 'used_url' });
    });

    it('answers an unknown command like Slackbot and sends nothing to the app', async () => {
      installBot(f);
      const result = await f.sandbox.sendSlashCommand({
        teamId: ACME,
        userId: ALICE,
        channelId: SUPPORT,
        command: '/parly',
        text: 'status',
      });
      expect(result.skipped).to.equal('unknown_command');
      expect(f.app.received).to.have.length(0);
      expect(f.sandbox.state.ephemeralsFor(ACME, ALICE, SUPPORT)[0].text).to.contain('/parly is not a valid command');
    });

    it('sends nothing when the app is not installed in the workspace', async () => {
      const result = await f.sandbox.sendSlashCommand({
        teamId: ACME,
        userId: ALICE,
        channelId: SUPPORT,
        command: '/parley',
        text: 'status',
      });
      expect(result.skipped).to.equal('app_not_installed');
      expect(f.app.received).to.have.length(0);
    });
  });

  describe('interactivity', () => {
    it('sends block_actions for a message button with the message, container, trigger_id and response_url, and replace_original updates it', async () => {
      const { client } = installBot(f);
      await client.conversations.join({ channel: SUPPORT });
      const header = await client.chat.postMessage({
        channel: SUPPORT,
        text: 'Chat with Jane',
        blocks: [
          { type: 'section', block_id: 'head', text: { type: 'mrkdwn', text: '*Chat with Jane*' } },
          {
            type: 'actions',
            block_id: 'conv',
            elements: [
              { type: 'button', action_id: 'end_chat', text: { type: 'plain_text', text: 'End chat' }, value: 'conv-42', style: 'danger' },
            ],
          },
        ],
      });
      f.app.received.length = 0;
      const result = await f.sandbox.sendBlockAction({
        teamId: ACME,
        userId: BOB,
        actionId: 'end_chat',
        message: { channelId: SUPPORT, ts: header.ts as string },
      });
      expect(result.ok).to.equal(true);
      const req = f.app.received.find((r) => r.body.startsWith('payload='));
      expect(req).to.not.equal(undefined);
      expect(() => verified(req as ReceivedRequest)).not.to.throw();
      const p = interactivityPayload((req as ReceivedRequest).body);
      expect(p).to.include({
        type: 'block_actions',
        api_app_id: f.sandbox.appId,
        trigger_id: result.triggerId,
        response_url: result.responseUrl,
      });
      expect(p.user).to.include({ id: BOB, username: 'bob', team_id: ACME });
      expect(p.team).to.deep.equal({ id: ACME, domain: 'acme' });
      expect(p.container).to.include({ type: 'message', message_ts: header.ts, channel_id: SUPPORT, is_ephemeral: false });
      expect(p.channel).to.deep.equal({ id: SUPPORT, name: 'support' });
      expect((p.message as { ts: string }).ts).to.equal(header.ts);
      expect((p.actions as unknown[])[0]).to.deep.include({
        type: 'button',
        action_id: 'end_chat',
        block_id: 'conv',
        value: 'conv-42',
        style: 'danger',
      });

      await fetch(result.responseUrl as string, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ replace_original: true, text: 'Chat ended by Bob' }),
      });
      expect(f.sandbox.state.message(SUPPORT, header.ts as string)?.text).to.equal('Chat ended by Bob');
    });

    it('sends block_actions for a button in an ephemeral message, whose response_url can replace it', async () => {
      const { client } = installBot(f);
      await client.conversations.join({ channel: SUPPORT });
      await client.chat.postEphemeral({
        channel: SUPPORT,
        user: ALICE,
        text: 'Pick a saved reply',
        blocks: [
          {
            type: 'actions',
            block_id: 'pick',
            elements: [
              {
                type: 'static_select',
                action_id: 'saved_reply',
                options: [{ text: { type: 'plain_text', text: 'Shipping' }, value: 'ship' }],
              },
            ],
          },
        ],
      });
      const eph = f.sandbox.state.ephemeralsFor(ACME, ALICE, SUPPORT)[0];
      f.app.received.length = 0;
      const result = await f.sandbox.sendBlockAction({
        teamId: ACME,
        userId: ALICE,
        ephemeralId: eph.id,
        actionId: 'saved_reply',
        value: 'ship',
      });
      const p = interactivityPayload(f.app.received[0].body);
      expect(p.container).to.deep.include({ type: 'message', message_ts: eph.messageTs, channel_id: SUPPORT, is_ephemeral: true });
      expect(p.message).to.equal(undefined);
      expect((p.actions as unknown[])[0]).to.deep.include({
        type: 'static_select',
        action_id: 'saved_reply',
        selected_option: { text: { type: 'plain_text', text: 'Shipping' }, value: 'ship' },
      });
      await fetch(result.responseUrl as string, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ replace_original: true, text: 'Sent "Shipping"' }),
      });
      expect(f.sandbox.state.ephemeralsFor(ACME, ALICE, SUPPORT).map((e) => e.text)).to.deep.equal(['Sent "Shipping"']);
      await fetch(result.responseUrl as string, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ delete_original: true }),
      });
      expect(f.sandbox.state.ephemeralsFor(ACME, ALICE, SUPPORT)).to.have.length(0);
    });

    it('sends message_action for a message shortcut and shortcut for a global one', async () => {
      const { client } = installBot(f);
      await client.conversations.join({ channel: SUPPORT });
      const m = await f.sandbox.postAsUser({ teamId: ACME, userId: ALICE, channelId: SUPPORT, text: 'hello' });
      f.app.received.length = 0;
      await f.sandbox.sendShortcut({
        teamId: ACME,
        userId: ALICE,
        callbackId: 'parley_conversation_actions',
        message: { channelId: SUPPORT, ts: m.ts },
      });
      await f.sandbox.sendShortcut({ teamId: ACME, userId: ALICE, callbackId: 'parley_global' });
      const payloads = f.app.received.filter((r) => r.body.startsWith('payload=')).map((r) => interactivityPayload(r.body));
      expect(payloads[0]).to.include({ type: 'message_action', callback_id: 'parley_conversation_actions', message_ts: m.ts });
      expect(payloads[0].channel).to.deep.equal({ id: SUPPORT, name: 'support' });
      expect(payloads[0].response_url).to.be.a('string');
      expect(payloads[0].trigger_id).to.be.a('string');
      expect(payloads[1]).to.include({ type: 'shortcut', callback_id: 'parley_global' });
    });
  });

  describe('with a real Bolt app (ExpressReceiver)', () => {
    let server: Server;
    afterEach(() => {
      server?.closeAllConnections();
      server?.close();
    });

    it('passes Bolt signature checks for events and commands, and Bolt answers through the sandbox', async () => {
      const { client, inst } = installBot(f);
      await client.conversations.join({ channel: SUPPORT });
      const receiver = new ExpressReceiver({ signingSecret: SIGNING_SECRET, logLevel: LogLevel.ERROR });
      const app = new App({ token: inst.botToken, receiver, logLevel: LogLevel.ERROR, clientOptions: { slackApiUrl: f.sandbox.apiUrl } });
      app.message(async ({ message, say }) => {
        if (message.subtype === undefined && message.user === ALICE && !message.thread_ts)
          await say({ text: `echo: ${message.text}`, thread_ts: message.ts });
      });
      app.command('/parley', async ({ ack, respond, command }) => {
        await ack();
        await respond({ response_type: 'in_channel', text: `pong ${command.text}` });
      });
      server = await new Promise<Server>((ok) => {
        const s = receiver.app.listen(0, '127.0.0.1', () => ok(s));
      });
      const boltUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
      f.sandbox.setAppUrls({ eventsUrl: boltUrl, commandsUrl: boltUrl, interactivityUrl: boltUrl });

      const question = await f.sandbox.postAsUser({ teamId: ACME, userId: ALICE, channelId: SUPPORT, text: 'is anyone there?' });
      const echo = await until(() => f.sandbox.state.replies(SUPPORT, question.ts)[0]);
      expect(echo).to.include({ text: 'echo: is anyone there?', user: inst.botUserId });

      const cmd = await f.sandbox.sendSlashCommand({ teamId: ACME, userId: ALICE, channelId: SUPPORT, command: '/parley', text: 'ping' });
      expect(cmd.ok).to.equal(true);
      const pong = await until(() => f.sandbox.state.channelMessages(SUPPORT).find((m) => m.text === 'pong ping'));
      expect(pong.user).to.equal(inst.botUserId);
    });

    it('is refused by Bolt when the signing secret differs', async () => {
      installBot(f);
      const receiver = new ExpressReceiver({ signingSecret: 'another-secret', logLevel: LogLevel.ERROR });
      const app = new App({
        token: 'xoxb-unused',
        receiver,
        logLevel: LogLevel.ERROR,
        tokenVerificationEnabled: false,
        clientOptions: { slackApiUrl: f.sandbox.apiUrl },
      });
      let handled = false;
      app.event('app_home_opened', async () => {
        handled = true;
      });
      server = await new Promise<Server>((ok) => {
        const s = receiver.app.listen(0, '127.0.0.1', () => ok(s));
      });
      f.sandbox.setAppUrls({ eventsUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events` });
      const result = await f.sandbox.sendEvent(ACME, { type: 'app_home_opened', user: ALICE, tab: 'home' }, { retries: 0 });
      expect(result.ok).to.equal(false);
      expect(result.status).to.equal(401);
      expect(handled).to.equal(false);
    });
  });
});
