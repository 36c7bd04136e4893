import { expect } from 'chai';
import { ACME, ALICE, BOB, CLIENT_ID, CLIENT_SECRET, clientFor, type SandboxFixture, startSandbox } from './helpers';

const REDIRECT = 'http://127.0.0.1:9/slack/oauth_redirect';

function authorizeQuery(extra: Record<string, string> = {}): string {
  return new URLSearchParams({
    client_id: CLIENT_ID,
    scope: 'channels:read,chat:write,commands',
    user_scope: 'channels:write',
    redirect_uri: REDIRECT,
    state: 'state-123',
    ...extra,
  }).toString();
}

/** Clicks Allow (or Cancel) on the consent page as `user`, returning where Slack sends the browser back. */
async function decide(f: SandboxFixture, decision: 'allow' | 'cancel', user = ALICE, extra: Record<string, string> = {}): Promise<URL> {
  const query = Object.fromEntries(new URLSearchParams(authorizeQuery(extra)));
  const res = await fetch(f.sandbox.authorizeUrl, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...query, team: ACME, user, decision }).toString(),
  });
  expect(res.status).to.equal(302);
  return new URL(res.headers.get('location') as string);
}

describe('Slack sandbox OAuth v2', () => {
  let f: SandboxFixture;
  beforeEach(async () => {
    f = await startSandbox({ autoEvents: false });
  });
  afterEach(async () => {
    await f.close();
  });

  it('shows a consent page with the requested bot and user scopes, the workspaces and their people', async () => {
    const res = await fetch(`${f.sandbox.authorizeUrl}?${authorizeQuery()}`);
    expect(res.status).to.equal(200);
    const html = await res.text();
    expect(html).to.contain('id="sandbox-oauth-allow"').and.contain('id="sandbox-oauth-cancel"');
    expect(html).to.contain('<code>chat:write</code>').and.contain('<code>channels:write</code>');
    expect(html).to.contain('Alice Archer').and.contain('value="T0ACME0001"');
  });

  it('refuses an unknown client_id with an error page', async () => {
    const res = await fetch(`${f.sandbox.authorizeUrl}?${authorizeQuery({ client_id: 'nope' })}`);
    expect(res.status).to.equal(400);
    expect(await res.text()).to.contain('Invalid client_id');
  });

  it('answers a workspace it does not have with a page that names it, escaped', async () => {
    const res = await fetch(`${f.sandbox.authorizeUrl}?${authorizeQuery({ team: 'T<b>NOPE' })}`);
    expect(res.status).to.equal(400);
    const html = await res.text();
    expect(html).to.contain('<h1>Unknown workspace</h1>').and.contain('No workspace T&lt;b&gt;NOPE in this sandbox.');
    expect(html).not.to.contain('<b>');
  });

  it("refuses a redirect_uri that is not one of the app's redirect URLs", async () => {
    await f.close();
    f = await startSandbox({ autoEvents: false, app: { redirectUrls: [REDIRECT] } });
    const bad = await fetch(`${f.sandbox.authorizeUrl}?${authorizeQuery({ redirect_uri: 'https://evil.example/steal' })}`);
    expect(bad.status).to.equal(400);
    expect(await bad.text()).to.contain('redirect_uri did not match any configured URIs');
    const lookalike = await fetch(`${f.sandbox.authorizeUrl}?${authorizeQuery({ redirect_uri: `${REDIRECT}.evil.example` })}`);
    expect(lookalike.status).to.equal(400);
    const good = await fetch(`${f.sandbox.authorizeUrl}?${authorizeQuery()}`);
    expect(good.status).to.equal(200);
  });

  it("redirects with a code and the state on Allow, and oauth.v2.access returns Slack's shape", async () => {
    const back = await decide(f, 'allow');
    expect(back.origin + back.pathname).to.equal(REDIRECT);
    expect(back.searchParams.get('state')).to.equal('state-123');
    const code = back.searchParams.get('code') as string;
    expect(code).to.be.a('string').and.not.equal('');

    const res = await clientFor(f).oauth.v2.access({ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, code, redirect_uri: REDIRECT });
    expect(res).to.include({
      ok: true,
      token_type: 'bot',
      scope: 'channels:read,chat:write,commands',
      app_id: f.sandbox.appId,
      enterprise: null,
      is_enterprise_install: false,
    });
    expect(res.access_token).to.match(/^xoxb-/);
    expect(res.team).to.deep.equal({ id: ACME, name: 'Acme' });
    expect(res.authed_user).to.include({ id: ALICE, scope: 'channels:write', token_type: 'user' });
    expect(res.authed_user?.access_token).to.match(/^xoxp-/);
    expect(res.bot_user_id).to.equal(f.sandbox.state.installation(ACME)?.botUserId);

    const asBot = await clientFor(f, res.access_token).auth.test();
    expect(asBot).to.include({ user_id: res.bot_user_id, team_id: ACME });
    const asUser = await clientFor(f, res.authed_user?.access_token).auth.test();
    expect(asUser).to.include({ user_id: ALICE, team_id: ACME });
  });

  it('refuses a code used twice (invalid_code)', async () => {
    const code = (await decide(f, 'allow')).searchParams.get('code') as string;
    await clientFor(f).oauth.v2.access({ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, code });
    const replay = await clientFor(f)
      .oauth.v2.access({ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, code })
      .catch((e: { data: { error: string } }) => e.data);
    expect(replay).to.deep.include({ ok: false, error: 'invalid_code' });
  });

  it('refuses an expired code', async () => {
    await f.close();
    f = await startSandbox({ autoEvents: false, codeTtlMs: 1 });
    const code = (await decide(f, 'allow')).searchParams.get('code') as string;
    await new Promise((ok) => setTimeout(ok, 10));
    const err = await clientFor(f)
      .oauth.v2.access({ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, code })
      .catch((e: { data: { error: string } }) => e.data);
    expect(err.error).to.equal('invalid_code');
  });

  it('checks the client secret and the redirect_uri when exchanging the code', async () => {
    const code = (await decide(f, 'allow')).searchParams.get('code') as string;
    const badSecret = await clientFor(f)
      .oauth.v2.access({ client_id: CLIENT_ID, client_secret: 'wrong', code })
      .catch((e: { data: { error: string } }) => e.data);
    expect(badSecret.error).to.equal('bad_client_secret');
    const code2 = (await decide(f, 'allow')).searchParams.get('code') as string;
    const badRedirect = await clientFor(f)
      .oauth.v2.access({ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, code: code2, redirect_uri: 'http://127.0.0.1:9/elsewhere' })
      .catch((e: { data: { error: string } }) => e.data);
    expect(badRedirect.error).to.equal('bad_redirect_uri');
  });

  it('accepts client credentials with HTTP Basic authentication', async () => {
    const code = (await decide(f, 'allow')).searchParams.get('code') as string;
    const res = await fetch(`${f.sandbox.apiUrl}oauth.v2.access`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ code }).toString(),
    });
    expect(((await res.json()) as { ok: boolean }).ok).to.equal(true);
  });

  it('redirects with error=access_denied and the state on Cancel, and installs nothing', async () => {
    const back = await decide(f, 'cancel');
    expect(back.searchParams.get('error')).to.equal('access_denied');
    expect(back.searchParams.get('state')).to.equal('state-123');
    expect(back.searchParams.get('code')).to.equal(null);
    expect(f.sandbox.state.installation(ACME)).to.equal(undefined);
  });

  it('keeps earlier scopes and the same bot token when the app is authorized again with more scopes', async () => {
    const first = await clientFor(f).oauth.v2.access({
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      code: (await decide(f, 'allow')).searchParams.get('code') as string,
    });
    const again = await clientFor(f).oauth.v2.access({
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      code: (await decide(f, 'allow', BOB, { scope: 'files:read', user_scope: 'channels:history' })).searchParams.get('code') as string,
    });
    expect(again.access_token).to.equal(first.access_token);
    expect(again.scope?.split(',')).to.have.members(['channels:read', 'chat:write', 'commands', 'files:read']);
    expect(again.authed_user).to.include({ id: BOB, scope: 'channels:history' });
    expect(again.authed_user?.access_token).not.to.equal(first.authed_user?.access_token);
  });

  it('answers only the user token when the app has no bot scopes in the workspace, and the bot token once it has', async () => {
    const userOnly = await decide(f, 'allow', BOB, { scope: '', user_scope: 'channels:write' });
    const first = await clientFor(f).oauth.v2.access({
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      code: userOnly.searchParams.get('code') as string,
    });
    expect(first.access_token).to.equal(undefined);
    expect(first.authed_user).to.include({ id: BOB, scope: 'channels:write', token_type: 'user' });
    await clientFor(f).oauth.v2.access({
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      code: (await decide(f, 'allow')).searchParams.get('code') as string,
    });
    const again = await clientFor(f).oauth.v2.access({
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      code: (await decide(f, 'allow', ALICE, { scope: '', user_scope: 'chat:write' })).searchParams.get('code') as string,
    });
    expect(again.access_token).to.equal(f.sandbox.state.installation(ACME)?.botToken);
    expect(again.authed_user).to.include({ id: ALICE, token_type: 'user' });
    expect(again.authed_user?.scope?.split(',')).to.have.members(['channels:write', 'chat:write']);
  });

  it('limits the team choice to the team parameter and refuses an unknown one', async () => {
    const ok = await fetch(`${f.sandbox.authorizeUrl}?${authorizeQuery({ team: ACME })}`);
    expect(await ok.text()).to.contain('value="T0ACME0001"');
    const bad = await fetch(`${f.sandbox.authorizeUrl}?${authorizeQuery({ team: 'T0OTHER' })}`);
    expect(bad.status).to.equal(400);
  });

  it('uninstalls with apps.uninstall: the tokens stop working', async () => {
    const res = await clientFor(f).oauth.v2.access({
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      code: (await decide(f, 'allow')).searchParams.get('code') as string,
    });
    const bot = clientFor(f, res.access_token);
    expect((await bot.apps.uninstall({ client_id: CLIENT_ID, client_secret: CLIENT_SECRET })).ok).to.equal(true);
    const err = await bot.auth.test().catch((e: { data: { error: string } }) => e.data);
    expect(err.error).to.equal('token_revoked');
    const userErr = await clientFor(f, res.authed_user?.access_token)
      .auth.test()
      .catch((e: { data: { error: string } }) => e.data);
    expect(userErr.error).to.equal('token_revoked');
  });
});
