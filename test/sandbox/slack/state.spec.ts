import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { ACME, ALICE, BOB, CAROL, clientFor, GENERAL, installBot, type SandboxFixture, SUPPORT, startSandbox, until } from './helpers';

describe('Slack sandbox state', () => {
  let f: SandboxFixture | undefined;
  afterEach(async () => {
    await f?.close();
    f = undefined;
  });

  it('seeds the Acme workspace with people (one active), a bot user and #general, #random, #support', async () => {
    f = await startSandbox({ autoEvents: false });
    const { state } = f.sandbox;
    expect(state.workspaces.map((w) => w.name)).to.deep.equal(['Acme']);
    expect(state.channelsOf(ACME).map((c) => c.name)).to.deep.equal(['general', 'random', 'support']);
    const humans = state.usersOf(ACME).filter((u) => !u.isBot);
    expect(humans.map((u) => u.id)).to.deep.equal([ALICE, BOB, CAROL]);
    expect(humans.filter((u) => u.presence === 'active').map((u) => u.id)).to.deep.equal([ALICE]);
    expect(state.usersOf(ACME).filter((u) => u.isBot)).to.have.length(1);
  });

  it('builds its workspaces from a seed file', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'slack-seed-'));
    const seedFile = path.join(dir, 'seed.json');
    writeFileSync(
      seedFile,
      JSON.stringify({
        workspaces: [
          {
            id: 'T0GLOBEX01',
            name: 'Globex',
            domain: 'globex',
            users: [
              { id: 'U0HANK0001', name: 'hank', realName: 'Hank Scorpio', presence: 'active', email: 'hank@globex.test' },
              { id: 'U0MARGE001', name: 'marge', realName: 'Marge S' },
            ],
            channels: [{ id: 'C0SALES001', name: 'sales', members: ['hank'] }],
          },
        ],
      }),
    );
    f = await startSandbox({ autoEvents: false, seed: seedFile });
    expect(f.sandbox.state.workspaces.map((w) => w.id)).to.deep.equal(['T0GLOBEX01']);
    expect(f.sandbox.state.channel('C0SALES001')?.members).to.deep.equal(['U0HANK0001']);
    const inst = f.sandbox.install({ teamId: 'T0GLOBEX01', userId: 'U0HANK0001', botScopes: ['users:read'] });
    const res = await clientFor(f, inst.botToken).users.getPresence({ user: 'U0HANK0001' });
    expect(res.presence).to.equal('active');
  });

  it('writes changes to the data file soon after they happen, before any close', async () => {
    const dataFile = path.join(mkdtempSync(path.join(tmpdir(), 'slack-data-')), 'sandbox.json');
    f = await startSandbox({ autoEvents: false, dataFile });
    await f.sandbox.postAsUser({ teamId: ACME, userId: ALICE, channelId: GENERAL, text: 'persist me' });
    await until(() => readFileSync(dataFile, 'utf8').includes('persist me'));
  });

  it('adds a workspace to a running sandbox, once', async () => {
    f = await startSandbox({ autoEvents: false });
    const globex = {
      workspaces: [
        {
          id: 'T0GLOBEX01',
          name: 'Globex',
          domain: 'globex',
          users: [{ id: 'U0GINA0001', name: 'gina', realName: 'Gina Grant' }],
          channels: [{ id: 'C0GHELP001', name: 'help' }],
        },
      ],
    };
    f.sandbox.addWorkspaces(globex);
    f.sandbox.addWorkspaces(globex);
    expect(f.sandbox.state.workspaces.map((w) => w.id)).to.deep.equal([ACME, 'T0GLOBEX01']);
    expect(f.sandbox.state.channel('C0GHELP001')?.members).to.deep.equal(['U0GINA0001']);
    expect(f.sandbox.state.workspace('T0GLOBEX01')?.url).to.equal(`${f.baseUrl}/workspaces/globex/`);
  });

  it('keeps threads, installations and views across a restart when given a data file', async () => {
    const dataFile = path.join(mkdtempSync(path.join(tmpdir(), 'slack-data-')), 'sandbox.json');
    f = await startSandbox({ autoEvents: false, dataFile });
    const { client, inst } = installBot(f);
    await client.conversations.join({ channel: SUPPORT });
    const parent = await client.chat.postMessage({ channel: SUPPORT, text: 'Chat with Jane' });
    const reply = await f.sandbox.postAsUser({
      teamId: ACME,
      userId: ALICE,
      channelId: SUPPORT,
      text: 'Hello Jane',
      threadTs: parent.ts as string,
    });
    await client.views.publish({ user_id: ALICE, view: { type: 'home', blocks: [] } });
    await f.close();
    expect(existsSync(dataFile)).to.equal(true);

    f = await startSandbox({ autoEvents: false, dataFile });
    const again = clientFor(f, inst.botToken);
    const replies = await again.conversations.replies({ channel: SUPPORT, ts: parent.ts as string });
    expect(replies.messages?.map((m) => m.text)).to.deep.equal(['Chat with Jane', 'Hello Jane']);
    expect(replies.messages?.[1].ts).to.equal(reply.ts);
    expect(f.sandbox.state.homeView(ACME, ALICE)).not.to.equal(undefined);
    const next = await again.chat.postMessage({ channel: SUPPORT, text: 'later' });
    expect(Number(next.ts)).to.be.greaterThan(Number(reply.ts));
  });

  it('sends an event retry that was waiting when the sandbox stopped once it runs again', async () => {
    const dataFile = path.join(mkdtempSync(path.join(tmpdir(), 'slack-data-')), 'sandbox.json');
    f = await startSandbox({ autoEvents: false, dataFile, retryDelaysMs: [1500, 1500, 1500] });
    installBot(f);
    f.app.respond(() => ({ status: 500 }));
    const first = f.sandbox.sendEvent(ACME, { type: 'app_home_opened', user: ALICE, tab: 'home' }, { retries: 1 });
    await f.app.waitFor(1);
    const eventId = (JSON.parse(f.app.received[0]?.body ?? '{}') as { event_id?: string }).event_id;
    await until(() => (f?.sandbox.state.data.pendingRetries ?? []).some((r) => r.eventId === eventId));
    await f.close();
    await first;

    f = await startSandbox({ autoEvents: false, dataFile });
    const [retry] = await f.app.waitFor(1);
    expect(JSON.parse(retry?.body ?? '{}')).to.include({ event_id: eventId });
    expect(retry?.headers['x-slack-retry-num']).to.equal('1');
    await until(() => (f?.sandbox.state.data.pendingRetries ?? []).length === 0);
  });

  describe('operator page actions', () => {
    beforeEach(async () => {
      f = await startSandbox({ autoEvents: false });
    });

    it('lists the channels, the messages and the people of the chosen workspace for the person acting', async () => {
      const fx = f as SandboxFixture;
      await fx.sandbox.postAsUser({ teamId: ACME, userId: BOB, channelId: GENERAL, text: 'Morning all' });
      const res = await request(fx.origin)
        .get(`/sandbox/slack/operator/api/snapshot?team=${ACME}&user=${BOB}&channel=${GENERAL}`)
        .expect(200);
      expect(res.body.me).to.equal(BOB);
      expect(res.body.channels.map((c: { name: string }) => c.name)).to.deep.equal(['general', 'random', 'support']);
      expect(res.body.channel.messages.map((m: { text: string; mine: boolean }) => [m.text, m.mine])).to.deep.equal([
        ['Morning all', true],
      ]);
      expect(res.body.app.installed).to.equal(false);
    });

    it('posts as the person acting, and refuses people outside the channel with not_in_channel', async () => {
      const fx = f as SandboxFixture;
      const { client } = installBot(fx);
      const c = await client.conversations.create({ name: 'private-ish' });
      await request(fx.origin)
        .post('/sandbox/slack/operator/api/post')
        .send({ team: ACME, user: ALICE, channel: SUPPORT, text: 'hello' })
        .expect(200);
      expect(fx.sandbox.state.channelMessages(SUPPORT).at(-1)).to.include({ user: ALICE, text: 'hello' });
      const refused = await request(fx.origin)
        .post('/sandbox/slack/operator/api/post')
        .send({ team: ACME, user: ALICE, channel: c.channel?.id, text: 'hello' })
        .expect(400);
      expect(refused.body).to.deep.equal({ ok: false, error: 'not_in_channel' });
      await request(fx.origin)
        .post('/sandbox/slack/operator/api/join')
        .send({ team: ACME, user: ALICE, channel: c.channel?.id })
        .expect(200);
      await request(fx.origin)
        .post('/sandbox/slack/operator/api/post')
        .send({ team: ACME, user: ALICE, channel: c.channel?.id, text: 'now I can' })
        .expect(200);
    });

    it("creates channels with Slack's naming rules", async () => {
      const fx = f as SandboxFixture;
      const ok = await request(fx.origin)
        .post('/sandbox/slack/operator/api/create-channel')
        .send({ team: ACME, user: CAROL, name: 'sales-leads' })
        .expect(200);
      expect(fx.sandbox.state.channel(ok.body.channel)).to.include({ name: 'sales-leads', creator: CAROL });
      const bad = await request(fx.origin)
        .post('/sandbox/slack/operator/api/create-channel')
        .send({ team: ACME, user: CAROL, name: 'Sales Leads' })
        .expect(400);
      expect(bad.body.error).to.equal('invalid_name_specials');
      const taken = await request(fx.origin)
        .post('/sandbox/slack/operator/api/create-channel')
        .send({ team: ACME, user: CAROL, name: 'sales-leads' })
        .expect(400);
      expect(taken.body.error).to.equal('name_taken');
    });

    it('refuses to act as a user of another workspace or as a bot', async () => {
      const fx = f as SandboxFixture;
      const bot = fx.sandbox.state.usersOf(ACME).find((u) => u.isBot);
      await request(fx.origin)
        .post('/sandbox/slack/operator/api/post')
        .send({ team: 'T0OTHER', user: ALICE, channel: SUPPORT, text: 'x' })
        .expect(400);
      await request(fx.origin)
        .post('/sandbox/slack/operator/api/post')
        .send({ team: ACME, user: bot?.id, channel: SUPPORT, text: 'x' })
        .expect(400);
    });

    it('uninstalls the app from the workspace, which revokes its tokens', async () => {
      const fx = f as SandboxFixture;
      const { client } = installBot(fx);
      await request(fx.origin).post('/sandbox/slack/operator/api/uninstall').send({ team: ACME }).expect(200);
      const err = await client.auth.test().catch((e: { data: { error: string } }) => e.data);
      expect(err.error).to.equal('token_revoked');
    });

    it('streams a change notice to the page when the state changes', async () => {
      const fx = f as SandboxFixture;
      const controller = new AbortController();
      const res = await fetch(`${fx.baseUrl}/operator/api/events`, { signal: controller.signal });
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      const first = new TextDecoder().decode((await reader.read()).value);
      expect(first).to.match(/^event: change\ndata: \d+/);
      await fx.sandbox.postAsUser({ teamId: ACME, userId: ALICE, channelId: GENERAL, text: 'ping' });
      const second = new TextDecoder().decode((await reader.read()).value);
      expect(second).to.contain('event: change');
      controller.abort();
    });
  });
});
