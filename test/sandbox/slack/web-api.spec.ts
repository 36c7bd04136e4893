import { type WebAPICallResult, WebClient, WebClientEvent } from '@slack/web-api';
import { expect } from 'chai';
import {
  ACME,
  ALICE,
  BOB,
  clientFor,
  GENERAL,
  installBot,
  quietLogger,
  RANDOM,
  type SandboxFixture,
  SUPPORT,
  startSandbox,
} from './helpers';

/** Runs a call that must fail and returns Slack's error body. */
async function slackError(call: Promise<unknown>): Promise<WebAPICallResult & { error: string; needed?: string; provided?: string }> {
  try {
    await call;
  } catch (err) {
    const data = (err as { data?: WebAPICallResult & { error: string } }).data;
    if (data) return data;
    throw err;
  }
  throw new Error('the call succeeded but an error was expected');
}

describe('Slack sandbox Web API', () => {
  let f: SandboxFixture;
  beforeEach(async () => {
    f = await startSandbox({ autoEvents: false });
  });
  afterEach(async () => {
    await f.close();
  });

  describe('authentication', () => {
    it('answers not_authed without a token and invalid_auth with an unknown one', async () => {
      expect((await slackError(clientFor(f).auth.test())).error).to.equal('not_authed');
      expect((await slackError(clientFor(f, 'xoxb-123-456-nope').auth.test())).error).to.equal('invalid_auth');
    });

    it('accepts the token as a form field as well as a Bearer header', async () => {
      const { inst } = installBot(f);
      const res = await fetch(f.sandbox.apiUrl + 'auth.test', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: inst.botToken }).toString(),
      });
      const body = (await res.json()) as Record<string, unknown>;
      expect(body).to.include({ ok: true, team_id: ACME, user_id: inst.botUserId, bot_id: inst.botId });
    });

    it('accepts JSON bodies', async () => {
      const { inst } = installBot(f);
      const res = await fetch(f.sandbox.apiUrl + 'conversations.info', {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', authorization: `Bearer ${inst.botToken}` },
        body: JSON.stringify({ channel: GENERAL }),
      });
      const body = (await res.json()) as { ok: boolean; channel: { name: string } };
      expect(body.ok).to.equal(true);
      expect(body.channel.name).to.equal('general');
    });

    it('describes the bot in auth.test with the workspace URL', async () => {
      const { client, inst } = installBot(f);
      const res = await client.auth.test();
      expect(res).to.include({
        ok: true,
        team: 'Acme',
        team_id: ACME,
        user_id: inst.botUserId,
        bot_id: inst.botId,
        is_enterprise_install: false,
      });
      expect(res.url).to.match(/\/workspaces\/acme\/$/);
    });

    it('answers token_revoked once auth.revoke has revoked the token', async () => {
      const { client } = installBot(f);
      expect(await client.auth.revoke()).to.include({ ok: true, revoked: true });
      expect((await slackError(client.auth.test())).error).to.equal('token_revoked');
      expect(f.sandbox.state.installation(ACME)).to.equal(undefined);
    });

    it('keeps the token working when auth.revoke is called with test=true', async () => {
      const { client } = installBot(f);
      await client.auth.revoke({ test: true });
      expect((await client.auth.test()).ok).to.equal(true);
    });

    it('answers unknown_method for a method Slack does not have', async () => {
      const { client } = installBot(f);
      expect((await slackError(client.apiCall('chat.shout', { text: 'x' }))).error).to.equal('unknown_method');
    });
  });

  describe('scopes', () => {
    it('answers missing_scope with needed and provided when the token lacks the method scope', async () => {
      const { client } = installBot(f, ['chat:write']);
      const err = await slackError(client.conversations.create({ name: 'new-one' }));
      expect(err.error).to.equal('missing_scope');
      expect(err.needed).to.equal('channels:manage,groups:write');
      expect(err.provided).to.equal('chat:write');
    });

    it('sends the granted scopes in x-oauth-scopes like Slack', async () => {
      const { inst } = installBot(f, ['chat:write', 'users:read']);
      const res = await fetch(f.sandbox.apiUrl + 'users.list', { method: 'POST', headers: { authorization: `Bearer ${inst.botToken}` } });
      expect(res.headers.get('x-oauth-scopes')).to.equal('chat:write,users:read');
      expect(res.headers.get('x-accepted-oauth-scopes')).to.equal('users:read');
    });

    it('requires team:read for team.info', async () => {
      const { client } = installBot(f, ['chat:write']);
      expect((await slackError(client.team.info())).needed).to.equal('team:read');
      const { client: full } = installBot(f, ['team:read']);
      const res = await full.team.info();
      expect(res.team).to.include({ id: ACME, name: 'Acme', domain: 'acme' });
    });

    it('refuses username and icon overrides without chat:write.customize', async () => {
      const { client } = installBot(f, ['chat:write', 'channels:join']);
      await client.conversations.join({ channel: SUPPORT });
      const err = await slackError(client.chat.postMessage({ channel: SUPPORT, text: 'hi', username: 'Visitor' }));
      expect(err.error).to.equal('missing_scope');
      expect(err.needed).to.equal('chat:write.customize');
    });

    it('refuses views.publish with a user token (not_allowed_token_type)', async () => {
      const inst = f.sandbox.install({ teamId: ACME, userId: ALICE, botScopes: ['chat:write'], userScopes: ['channels:write'] });
      const userClient = clientFor(f, inst.userTokens[ALICE].token);
      const err = await slackError(userClient.views.publish({ user_id: ALICE, view: { type: 'home', blocks: [] } }));
      expect(err.error).to.equal('not_allowed_token_type');
    });
  });

  describe('conversations', () => {
    it('lists public channels with membership for the caller and paginates with a cursor', async () => {
      const { client, inst } = installBot(f);
      await client.conversations.join({ channel: GENERAL });
      const first = await client.conversations.list({ limit: 2 });
      expect(first.channels).to.have.length(2);
      expect(first.response_metadata?.next_cursor).to.be.a('string').and.not.equal('');
      const second = await client.conversations.list({ limit: 2, cursor: first.response_metadata?.next_cursor });
      const names = [...(first.channels ?? []), ...(second.channels ?? [])].map((c) => c.name);
      expect(names).to.deep.equal(['general', 'random', 'support']);
      expect(second.response_metadata?.next_cursor).to.equal('');
      const general = first.channels?.find((c) => c.id === GENERAL);
      expect(general?.is_member).to.equal(true);
      expect(first.channels?.find((c) => c.id === RANDOM)?.is_member).to.equal(false);
      expect(f.sandbox.state.channel(GENERAL)?.members).to.include(inst.botUserId);
    });

    it('hides archived channels with exclude_archived', async () => {
      const { client } = installBot(f);
      const c = await client.conversations.create({ name: 'old-stuff' });
      await client.conversations.archive({ channel: c.channel?.id as string });
      const all = await client.conversations.list({});
      const active = await client.conversations.list({ exclude_archived: true });
      expect(all.channels?.map((x) => x.name)).to.include('old-stuff');
      expect(active.channels?.map((x) => x.name)).not.to.include('old-stuff');
    });

    it('creates a channel with the bot as member and answers name_taken for an existing name', async () => {
      const { client, inst } = installBot(f);
      const res = await client.conversations.create({ name: 'website-chat' });
      expect(res.channel).to.include({
        name: 'website-chat',
        is_channel: true,
        is_member: true,
        is_archived: false,
        creator: inst.botUserId,
      });
      expect((await slackError(client.conversations.create({ name: 'website-chat' }))).error).to.equal('name_taken');
      expect((await slackError(client.conversations.create({ name: 'general' }))).error).to.equal('name_taken');
    });

    it("enforces Slack's channel name rules: 80 characters, lowercase letters, digits, - and _", async () => {
      const { client } = installBot(f);
      expect((await slackError(client.conversations.create({ name: 'a'.repeat(81) }))).error).to.equal('invalid_name_maxlength');
      expect((await client.conversations.create({ name: 'b'.repeat(80) })).ok).to.equal(true);
      expect((await slackError(client.conversations.create({ name: 'Has Spaces' }))).error).to.equal('invalid_name_specials');
      expect((await slackError(client.conversations.create({ name: 'café' }))).error).to.equal('invalid_name_specials');
      expect((await slackError(client.conversations.create({ name: '--' }))).error).to.equal('invalid_name_punctuation');
      expect((await slackError(client.conversations.create({ name: '' }))).error).to.equal('invalid_name_required');
    });

    it('joins a channel once and warns already_in_channel the second time', async () => {
      const { client, inst } = installBot(f);
      const first = await client.conversations.join({ channel: SUPPORT });
      expect(first.channel?.is_member).to.equal(true);
      expect(first.warning).to.equal(undefined);
      const again = await client.conversations.join({ channel: SUPPORT });
      expect(again.warning).to.equal('already_in_channel');
      expect(f.sandbox.state.channel(SUPPORT)?.members.filter((m) => m === inst.botUserId)).to.have.length(1);
    });

    it("creates a channel with the main user's token and invites the bot into it", async () => {
      const inst = f.sandbox.install({
        teamId: ACME,
        userId: ALICE,
        botScopes: ['channels:read', 'chat:write'],
        userScopes: ['channels:write'],
      });
      const asAlice = clientFor(f, inst.userTokens[ALICE].token);
      const created = await asAlice.conversations.create({ name: 'web-chat' });
      const id = created.channel?.id as string;
      expect(created.channel).to.include({ creator: ALICE, is_member: true });
      expect((await slackError(clientFor(f, inst.botToken).chat.postMessage({ channel: id, text: 'hi' }))).error).to.equal(
        'not_in_channel',
      );
      await asAlice.conversations.invite({ channel: id, users: inst.botUserId });
      expect((await clientFor(f, inst.botToken).chat.postMessage({ channel: id, text: 'hi' })).ok).to.equal(true);
      expect((await slackError(asAlice.conversations.invite({ channel: id, users: inst.botUserId }))).error).to.equal('already_in_channel');
      const mine = await clientFor(f, inst.botToken).users.conversations({});
      expect(mine.channels?.map((c) => c.name)).to.deep.equal(['web-chat']);
    });

    it('leaves a channel, but never #general', async () => {
      const { client, inst } = installBot(f);
      await client.conversations.join({ channel: SUPPORT });
      await client.conversations.join({ channel: GENERAL });
      await client.conversations.leave({ channel: SUPPORT });
      expect(f.sandbox.state.channel(SUPPORT)?.members).not.to.include(inst.botUserId);
      expect((await slackError(client.conversations.leave({ channel: GENERAL }))).error).to.equal('cant_leave_general');
    });

    it('answers channel_not_found for an unknown channel', async () => {
      const { client } = installBot(f);
      expect((await slackError(client.conversations.info({ channel: 'C0NOPE' }))).error).to.equal('channel_not_found');
      expect((await slackError(client.conversations.join({ channel: 'C0NOPE' }))).error).to.equal('channel_not_found');
    });

    it('gives info and members of a channel', async () => {
      const { client } = installBot(f);
      const info = await client.conversations.info({ channel: SUPPORT, include_num_members: true });
      expect(info.channel).to.include({ id: SUPPORT, name: 'support', num_members: 3, is_general: false });
      expect(info.channel?.topic?.value).to.equal('Customer questions');
      const members = await client.conversations.members({ channel: SUPPORT });
      expect(members.members).to.have.members([ALICE, BOB, 'U0CAROL001']);
    });

    it('renames a channel it is in, and refuses when not in it or the name is taken', async () => {
      const { client } = installBot(f);
      const c = await client.conversations.create({ name: 'chat-one' });
      const renamed = await client.conversations.rename({ channel: c.channel?.id as string, name: 'chat-two' });
      expect(renamed.channel).to.include({ name: 'chat-two' });
      expect(renamed.channel?.previous_names).to.deep.equal(['chat-one']);
      expect((await slackError(client.conversations.rename({ channel: c.channel?.id as string, name: 'random' }))).error).to.equal(
        'name_taken',
      );
      expect((await slackError(client.conversations.rename({ channel: RANDOM, name: 'fun' }))).error).to.equal('not_in_channel');
    });

    it('archives a channel, after which posting answers is_archived', async () => {
      const { client } = installBot(f);
      const c = await client.conversations.create({ name: 'to-archive' });
      const id = c.channel?.id as string;
      await client.conversations.archive({ channel: id });
      expect((await slackError(client.chat.postMessage({ channel: id, text: 'hello' }))).error).to.equal('is_archived');
      expect((await slackError(client.conversations.archive({ channel: id }))).error).to.equal('already_archived');
      expect((await slackError(client.conversations.join({ channel: id }))).error).to.equal('is_archived');
    });

    it('refuses to archive #general', async () => {
      const { client } = installBot(f);
      await client.conversations.join({ channel: GENERAL });
      expect((await slackError(client.conversations.archive({ channel: GENERAL }))).error).to.equal('cant_archive_general');
    });

    it('reads history newest first without thread replies, and the thread with conversations.replies', async () => {
      const { client } = installBot(f);
      await client.conversations.join({ channel: SUPPORT });
      const parent = await client.chat.postMessage({ channel: SUPPORT, text: 'Visitor Jane started a chat' });
      await f.sandbox.postAsUser({ teamId: ACME, userId: ALICE, channelId: SUPPORT, text: 'On it', threadTs: parent.ts });
      await client.chat.postMessage({ channel: SUPPORT, text: 'second', thread_ts: parent.ts });
      await f.sandbox.postAsUser({ teamId: ACME, userId: BOB, channelId: SUPPORT, text: 'top level' });
      const history = await client.conversations.history({ channel: SUPPORT });
      expect(history.messages?.map((m) => m.text)).to.deep.equal(['top level', 'Visitor Jane started a chat']);
      const head = history.messages?.[1];
      expect(head).to.include({
        reply_count: 2,
        thread_ts: parent.ts,
        latest_reply: f.sandbox.state.replies(SUPPORT, parent.ts as string)[1].ts,
      });
      const replies = await client.conversations.replies({ channel: SUPPORT, ts: parent.ts as string });
      expect(replies.messages?.map((m) => m.text)).to.deep.equal(['Visitor Jane started a chat', 'On it', 'second']);
      expect(replies.messages?.[1]).to.include({
        user: ALICE,
        thread_ts: parent.ts,
        parent_user_id: f.sandbox.state.installation(ACME)?.botUserId,
      });
    });

    it('answers not_in_channel for history read by a bot outside the channel, and thread_not_found for a bad ts', async () => {
      const { client } = installBot(f);
      expect((await slackError(client.conversations.history({ channel: RANDOM }))).error).to.equal('not_in_channel');
      await client.conversations.join({ channel: RANDOM });
      expect((await slackError(client.conversations.replies({ channel: RANDOM, ts: '1.000001' }))).error).to.equal('thread_not_found');
    });
  });

  describe('chat', () => {
    it('answers not_in_channel when the bot posts to a channel it has not joined', async () => {
      const { client } = installBot(f);
      expect((await slackError(client.chat.postMessage({ channel: SUPPORT, text: 'hi' }))).error).to.equal('not_in_channel');
    });

    it('lets a bot with chat:write.public post in a public channel without joining', async () => {
      const { client } = installBot(f, ['chat:write', 'chat:write.public']);
      expect((await client.chat.postMessage({ channel: SUPPORT, text: 'hi' })).ok).to.equal(true);
    });

    it('posts a thread reply with the visitor name and avatar and broadcasts it when asked', async () => {
      const { client, inst } = installBot(f);
      await client.conversations.join({ channel: SUPPORT });
      const parent = await client.chat.postMessage({
        channel: SUPPORT,
        text: 'New chat',
        blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*New chat*' } }],
      });
      expect(parent.message?.blocks).to.have.length(1);
      const reply = await client.chat.postMessage({
        channel: SUPPORT,
        thread_ts: parent.ts as string,
        text: 'Hello?',
        username: 'Jane (visitor)',
        icon_url: 'https://example.com/jane.png',
        reply_broadcast: true,
      });
      expect(reply.message).to.include({
        subtype: 'thread_broadcast',
        username: 'Jane (visitor)',
        thread_ts: parent.ts,
        bot_id: inst.botId,
        user: inst.botUserId,
      });
      expect(reply.message?.icons).to.deep.include({ image_48: 'https://example.com/jane.png' });
      const history = await client.conversations.history({ channel: SUPPORT });
      expect(history.messages?.map((m) => m.text)).to.deep.equal(['Hello?', 'New chat']);
    });

    it('answers no_text, msg_too_long and invalid_blocks for bad messages', async () => {
      const { client } = installBot(f);
      await client.conversations.join({ channel: SUPPORT });
      expect((await slackError(client.chat.postMessage({ channel: SUPPORT, text: '' }))).error).to.equal('no_text');
      expect((await slackError(client.chat.postMessage({ channel: SUPPORT, text: 'x'.repeat(40_001) }))).error).to.equal('msg_too_long');
      expect(
        (await slackError(client.apiCall('chat.postMessage', { channel: SUPPORT, text: 'x', blocks: '[{"text":"no type"}]' }))).error,
      ).to.equal('invalid_blocks');
      expect((await slackError(client.apiCall('chat.postMessage', { channel: SUPPORT, text: 'x', blocks: '[not json' }))).error).to.equal(
        'invalid_blocks_format',
      );
    });

    it('updates its own message, refuses others with cant_update_message and unknown ones with message_not_found', async () => {
      const { client } = installBot(f);
      await client.conversations.join({ channel: SUPPORT });
      const mine = await client.chat.postMessage({ channel: SUPPORT, text: 'Chat with Jane — open' });
      const updated = await client.chat.update({ channel: SUPPORT, ts: mine.ts as string, text: 'Chat with Jane — ended' });
      expect(updated).to.include({ ok: true, ts: mine.ts, text: 'Chat with Jane — ended' });
      expect(f.sandbox.state.message(SUPPORT, mine.ts as string)?.text).to.equal('Chat with Jane — ended');
      const human = await f.sandbox.postAsUser({ teamId: ACME, userId: ALICE, channelId: SUPPORT, text: 'mine' });
      expect((await slackError(client.chat.update({ channel: SUPPORT, ts: human.ts, text: 'hijack' }))).error).to.equal(
        'cant_update_message',
      );
      expect((await slackError(client.chat.update({ channel: SUPPORT, ts: '1.000002', text: 'x' }))).error).to.equal('message_not_found');
    });

    it('deletes its own message and refuses to delete a human message', async () => {
      const { client } = installBot(f);
      await client.conversations.join({ channel: SUPPORT });
      const mine = await client.chat.postMessage({ channel: SUPPORT, text: 'temp' });
      expect(await client.chat.delete({ channel: SUPPORT, ts: mine.ts as string })).to.include({ ok: true, ts: mine.ts });
      expect(f.sandbox.state.message(SUPPORT, mine.ts as string)).to.equal(undefined);
      const human = await f.sandbox.postAsUser({ teamId: ACME, userId: ALICE, channelId: SUPPORT, text: 'keep' });
      expect((await slackError(client.chat.delete({ channel: SUPPORT, ts: human.ts }))).error).to.equal('cant_delete_message');
    });

    it('shows an ephemeral message to one member and refuses users outside the channel', async () => {
      const { client } = installBot(f);
      await client.conversations.join({ channel: SUPPORT });
      const res = await client.chat.postEphemeral({ channel: SUPPORT, user: ALICE, text: 'Only you see this' });
      expect(res.message_ts).to.be.a('string');
      expect(f.sandbox.state.ephemeralsFor(ACME, ALICE, SUPPORT).map((e) => e.text)).to.deep.equal(['Only you see this']);
      const c = await client.conversations.create({ name: 'bot-only' });
      expect((await slackError(client.chat.postEphemeral({ channel: c.channel?.id as string, user: ALICE, text: 'x' }))).error).to.equal(
        'user_not_in_channel',
      );
    });

    it('adds a reaction as Slack does: once per person and emoji, on a message that exists, with reactions:write', async () => {
      const human = await f.sandbox.postAsUser({ teamId: ACME, userId: ALICE, channelId: SUPPORT, text: 'Shipping takes 3 days' });
      const { client: narrow } = installBot(f, ['channels:history', 'channels:join', 'chat:write']);
      await narrow.conversations.join({ channel: SUPPORT });
      const refused = await slackError(narrow.reactions.add({ channel: SUPPORT, timestamp: human.ts, name: 'eyes' }));
      expect(refused).to.include({ error: 'missing_scope', needed: 'reactions:write' });

      const { client } = installBot(f);
      expect(await client.reactions.add({ channel: SUPPORT, timestamp: human.ts, name: 'eyes' })).to.include({ ok: true });
      expect((await slackError(client.reactions.add({ channel: SUPPORT, timestamp: human.ts, name: 'eyes' }))).error).to.equal(
        'already_reacted',
      );
      expect((await slackError(client.reactions.add({ channel: SUPPORT, timestamp: human.ts, name: 'not-an-emoji' }))).error).to.equal(
        'invalid_name',
      );
      expect((await slackError(client.reactions.add({ channel: SUPPORT, timestamp: '1.000001', name: 'eyes' }))).error).to.equal(
        'message_not_found',
      );
      const history = await client.conversations.history({ channel: SUPPORT });
      const shown = history.messages?.find((m) => m.ts === human.ts);
      const me = (await client.auth.test()).user_id;
      expect(shown?.reactions).to.deep.equal([{ name: 'eyes', users: [me], count: 1 }]);
    });

    it('gives a permalink that opens the message on the operator page', async () => {
      const { client } = installBot(f);
      await client.conversations.join({ channel: SUPPORT });
      const m = await client.chat.postMessage({ channel: SUPPORT, text: 'link me' });
      const link = await client.chat.getPermalink({ channel: SUPPORT, message_ts: m.ts as string });
      const res = await fetch(link.permalink as string, { redirect: 'manual' });
      expect(res.status).to.equal(302);
      expect(res.headers.get('location')).to.contain(`channel=${SUPPORT}`).and.contain(`thread=${m.ts}`);
    });
  });

  describe('users', () => {
    it('shows e-mail addresses only to tokens with users:read.email', async () => {
      const { client } = installBot(f, ['users:read']);
      const without = await client.users.info({ user: ALICE });
      expect(without.user?.profile?.email).to.equal(undefined);
      expect(without.user).to.include({ id: ALICE, name: 'alice', real_name: 'Alice Archer', is_bot: false });
      const { client: withEmail } = installBot(f, ['users:read.email']);
      expect((await withEmail.users.info({ user: ALICE })).user?.profile?.email).to.equal('alice@acme.test');
    });

    it('answers user_not_found for an unknown user', async () => {
      const { client } = installBot(f);
      expect((await slackError(client.users.info({ user: 'U0NOBODY' }))).error).to.equal('user_not_found');
    });

    it('lists humans and bots, the app bot included', async () => {
      const { client, inst } = installBot(f);
      const list = await client.users.list({});
      const ids = list.members?.map((m) => m.id);
      expect(ids).to.include.members([ALICE, BOB, inst.botUserId]);
      expect(list.members?.find((m) => m.id === inst.botUserId)?.is_bot).to.equal(true);
    });

    it('reports presence as set by the test or the operator page', async () => {
      const { client } = installBot(f);
      expect((await client.users.getPresence({ user: ALICE })).presence).to.equal('active');
      expect((await client.users.getPresence({ user: BOB })).presence).to.equal('away');
      f.sandbox.state.setPresence(BOB, 'active');
      expect((await client.users.getPresence({ user: BOB })).presence).to.equal('active');
    });
  });

  describe('rate limits and outages', () => {
    it('answers HTTP 429 ratelimited with Retry-After while a method is rate limited', async () => {
      const { inst } = installBot(f);
      f.sandbox.state.rateLimit('users.list', 30);
      const res = await fetch(f.sandbox.apiUrl + 'users.list', { method: 'POST', headers: { authorization: `Bearer ${inst.botToken}` } });
      expect(res.status).to.equal(429);
      expect(res.headers.get('retry-after')).to.equal('30');
      expect(await res.json()).to.deep.equal({ ok: false, error: 'ratelimited' });
    });

    it("lets the WebClient's retry policy wait Retry-After and then succeed", async () => {
      const { inst } = installBot(f);
      await clientFor(f, inst.botToken).conversations.join({ channel: SUPPORT });
      f.sandbox.state.rateLimit('chat.postMessage', 1);
      const client = new WebClient(inst.botToken, {
        slackApiUrl: f.sandbox.apiUrl,
        retryConfig: { retries: 2, minTimeout: 10, maxTimeout: 20 },
        logger: quietLogger,
      });
      let rateLimitedFor: number | undefined;
      client.on(WebClientEvent.RATE_LIMITED, (seconds: number) => {
        rateLimitedFor = seconds;
      });
      const res = await client.chat.postMessage({ channel: SUPPORT, text: 'after the limit' });
      expect(res.ok).to.equal(true);
      expect(rateLimitedFor).to.equal(1);
      expect(f.sandbox.state.callsOf('chat.postMessage').map((c) => c.status)).to.deep.equal([429, 200]);
    });

    it('surfaces retryAfter to a client that rejects rate-limited calls', async () => {
      const { inst } = installBot(f);
      f.sandbox.state.rateLimit('*', 7);
      const client = new WebClient(inst.botToken, { slackApiUrl: f.sandbox.apiUrl, rejectRateLimitedCalls: true, logger: quietLogger });
      try {
        await client.auth.test();
        expect.fail('should be rate limited');
      } catch (err) {
        expect((err as { code: string; retryAfter: number }).code).to.equal('slack_webapi_rate_limited_error');
        expect((err as { retryAfter: number }).retryAfter).to.equal(7);
      }
    });

    it("enforces Slack's own limits when asked: about one post per second per channel after a short burst", async () => {
      await f.close();
      f = await startSandbox({ autoEvents: false, rateLimits: 'slack' });
      const { inst } = installBot(f);
      const client = new WebClient(inst.botToken, { slackApiUrl: f.sandbox.apiUrl, rejectRateLimitedCalls: true, logger: quietLogger });
      await client.conversations.join({ channel: SUPPORT });
      await client.conversations.join({ channel: RANDOM });
      const results = await Promise.all(
        [0, 1, 2, 3].map((i) =>
          client.chat.postMessage({ channel: SUPPORT, text: `m${i}` }).then(
            () => 'ok',
            (e: { code: string }) => e.code,
          ),
        ),
      );
      expect(results.filter((r) => r === 'ok')).to.have.length(3);
      expect(results.filter((r) => r === 'slack_webapi_rate_limited_error')).to.have.length(1);
      const statuses = f.sandbox.state.callsOf('chat.postMessage').map((c) => `${c.status} ${c.error ?? ''}`.trim());
      expect(statuses.sort()).to.deep.equal(['200', '200', '200', '429 ratelimited']);
      expect((await client.chat.postMessage({ channel: RANDOM, text: 'other channel' })).ok).to.equal(true);
      expect(f.sandbox.state.channelMessages(SUPPORT)).to.have.length(3);
    });

    it('fails the next calls with HTTP 500 during an outage, then recovers', async () => {
      const { client } = installBot(f);
      f.sandbox.state.failNext('auth.test', 1, 503);
      const err = await client.auth.test().catch((e: unknown) => e as { code: string; statusCode: number });
      expect(err).to.include({ code: 'slack_webapi_http_error', statusCode: 503 });
      expect((await client.auth.test()).ok).to.equal(true);
    });

    it('says Retry-After when the next call fails with 429, as Slack always does', async () => {
      const { inst } = installBot(f);
      f.sandbox.state.failNext('auth.test', 1, 429);
      const res = await fetch(f.sandbox.apiUrl + 'auth.test', { method: 'POST', headers: { authorization: `Bearer ${inst.botToken}` } });
      expect(res.status).to.equal(429);
      expect(res.headers.get('retry-after')).to.equal('1');
    });
  });

  describe('message metadata', () => {
    const metadata = { event_type: 'parley_message', event_payload: { id: 'm-1' } };

    it('stores the metadata of a post and returns it from history and replies only with include_all_metadata', async () => {
      const { client } = installBot(f);
      await client.conversations.join({ channel: SUPPORT });
      const parent = await client.chat.postMessage({ channel: SUPPORT, text: 'parent', metadata });
      expect(parent.message?.metadata).to.deep.equal(metadata);
      const reply = await client.chat.postMessage({
        channel: SUPPORT,
        thread_ts: parent.ts,
        text: 'reply',
        metadata: { event_type: 'parley_message', event_payload: { id: 'm-2' } },
      });
      const plainReplies = await client.conversations.replies({ channel: SUPPORT, ts: String(parent.ts) });
      expect(plainReplies.messages?.map((m) => m.metadata)).to.deep.equal([undefined, undefined]);
      const replies = await client.conversations.replies({ channel: SUPPORT, ts: String(parent.ts), include_all_metadata: true });
      expect(replies.messages?.map((m) => [m.ts, m.metadata?.event_payload])).to.deep.equal([
        [parent.ts, { id: 'm-1' }],
        [reply.ts, { id: 'm-2' }],
      ]);
      const since = await client.conversations.replies({ channel: SUPPORT, ts: String(parent.ts), oldest: String(parent.ts) });
      expect(
        since.messages?.map((m) => m.ts),
        'the parent, then the replies after oldest',
      ).to.deep.equal([parent.ts, reply.ts]);
      const none = await client.conversations.replies({ channel: SUPPORT, ts: String(parent.ts), oldest: String(reply.ts) });
      expect(none.messages?.map((m) => m.ts)).to.deep.equal([parent.ts]);
      expect((await client.conversations.history({ channel: SUPPORT })).messages?.[0]?.metadata).to.equal(undefined);
      const history = await client.conversations.history({ channel: SUPPORT, include_all_metadata: true });
      expect(history.messages?.[0]?.metadata).to.deep.equal(metadata);
    });

    it('refuses metadata that is not JSON or lacks event_type and event_payload', async () => {
      const { inst } = installBot(f);
      await clientFor(f, inst.botToken).conversations.join({ channel: SUPPORT });
      const post = async (value: string) => {
        const res = await fetch(f.sandbox.apiUrl + 'chat.postMessage', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${inst.botToken}` },
          body: new URLSearchParams({ channel: SUPPORT, text: 'x', metadata: value }).toString(),
        });
        return ((await res.json()) as { error?: string }).error;
      };
      expect(await post('{not json')).to.equal('invalid_metadata_format');
      expect(await post('"a string"')).to.equal('invalid_metadata_format');
      expect(await post(JSON.stringify({ event_type: 'x' }))).to.equal('invalid_metadata_schema');
      expect(await post(JSON.stringify({ event_payload: {} }))).to.equal('invalid_metadata_schema');
      expect(f.sandbox.state.channelMessages(SUPPORT)).to.have.length(0);
    });
  });

  describe('answers lost after the call was carried out', () => {
    it('stores a post and then resets the connection, for the next calls asked', async () => {
      const { client } = installBot(f);
      await client.conversations.join({ channel: SUPPORT });
      f.sandbox.state.dropResponses('chat.postMessage', { times: 1 });
      const err = await client.chat.postMessage({ channel: SUPPORT, text: 'lost answer' }).catch((e: unknown) => e as { code: string });
      expect(err).to.include({ code: 'slack_webapi_request_error' });
      expect(f.sandbox.state.channelMessages(SUPPORT).map((m) => m.text)).to.deep.equal(['lost answer']);
      expect(f.sandbox.state.callsOf('chat.postMessage').map((c) => c.dropped)).to.deep.equal(['reset']);
      expect((await client.chat.postMessage({ channel: SUPPORT, text: 'heard' })).ok).to.equal(true);
      expect(f.sandbox.state.channelMessages(SUPPORT).map((m) => m.text)).to.deep.equal(['lost answer', 'heard']);
    });

    it('does not count refused calls: only calls Slack carried out lose their answer', async () => {
      const { client } = installBot(f);
      f.sandbox.state.dropResponses('chat.postMessage', { times: 1 });
      expect((await slackError(client.chat.postMessage({ channel: SUPPORT, text: 'not a member' }))).error).to.equal('not_in_channel');
      await client.conversations.join({ channel: SUPPORT });
      const lost = await client.chat.postMessage({ channel: SUPPORT, text: 'stored' }).catch((e: unknown) => e as { code: string });
      expect(lost).to.include({ code: 'slack_webapi_request_error' });
      expect(f.sandbox.state.channelMessages(SUPPORT).map((m) => m.text)).to.deep.equal(['stored']);
    });

    it('holds the connection without an answer past the client timeout in hang mode, for a time window', async () => {
      const { inst } = installBot(f);
      await clientFor(f, inst.botToken).conversations.join({ channel: SUPPORT });
      f.sandbox.state.dropResponses('chat.postMessage', { seconds: 30, mode: 'hang' });
      const client = new WebClient(inst.botToken, {
        slackApiUrl: f.sandbox.apiUrl,
        retryConfig: { retries: 0 },
        timeout: 300,
        logger: quietLogger,
      });
      for (const text of ['one', 'two']) {
        const err = await client.chat.postMessage({ channel: SUPPORT, text }).catch((e: unknown) => e as { code: string });
        expect(err).to.include({ code: 'slack_webapi_request_error' });
      }
      expect(f.sandbox.state.channelMessages(SUPPORT).map((m) => m.text)).to.deep.equal(['one', 'two']);
      f.sandbox.state.clearFaults();
      expect((await client.chat.postMessage({ channel: SUPPORT, text: 'three' })).ok).to.equal(true);
    });
  });

  describe('outage windows', () => {
    it('answers HTTP 5xx to every call of a method for a while, carrying none out', async () => {
      const { client } = installBot(f);
      await client.conversations.join({ channel: SUPPORT });
      f.sandbox.state.failFor('chat.postMessage', 30, 503);
      for (const text of ['a', 'b']) {
        const err = await client.chat
          .postMessage({ channel: SUPPORT, text })
          .catch((e: unknown) => e as { code: string; statusCode: number });
        expect(err).to.include({ code: 'slack_webapi_http_error', statusCode: 503 });
      }
      expect(f.sandbox.state.channelMessages(SUPPORT)).to.have.length(0);
      f.sandbox.state.clearFaults();
      expect((await client.chat.postMessage({ channel: SUPPORT, text: 'c' })).ok).to.equal(true);
    });
  });

  describe('calls log', () => {
    it('records each call with its arguments but never the token', async () => {
      const { client, inst } = installBot(f);
      await client.conversations.join({ channel: SUPPORT });
      const call = f.sandbox.state.callsOf('conversations.join')[0];
      expect(call).to.include({ method: 'conversations.join', teamId: ACME, tokenType: 'bot', ok: true });
      expect(call.args.channel).to.equal(SUPPORT);
      expect(JSON.stringify(f.sandbox.state.calls)).not.to.contain(inst.botToken);
    });
  });
});
