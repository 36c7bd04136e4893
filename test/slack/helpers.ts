/**
 * Driving Slack from tests: the sandbox's consent page (as a person clicking Allow or Cancel), the
 * OAuth callback into Parley, signed requests to /slack/events, and a second workspace.
 */
import { createHmac, randomBytes } from 'node:crypto';
import request from 'supertest';
import type { SlackSandbox } from '../../server/sandbox/slack';
import { buildData } from '../../server/sandbox/slack/seed';
import type { SandboxSeed } from '../../server/sandbox/slack/types';
import type { TestServer } from '../helpers/app';

/** The test's browser: Parley binds each OAuth state to the browser that asked for it through this cookie. */
export const BROWSER = 'parley_oauth_browser=test-browser-0123456789abcdef';

export const ACME = 'T0ACME0001';
export const ALICE = 'U0ALICE001';
export const BOB = 'U0BOB00001';
export const GENERAL = 'C0GENERAL1';
export const RANDOM = 'C0RANDOM01';
export const SUPPORT = 'C0SUPPORT1';

export const GLOBEX = 'T0GLOBEX01';
export const GINA = 'U0GINA0001';
export const GLOBEX_HELP = 'C0GHELP001';

/** Adds the Globex workspace (Gina, #general and #help) to a running sandbox. */
export function addGlobex(sandbox: SlackSandbox): void {
  if (sandbox.state.workspace(GLOBEX)) return;
  const seed: SandboxSeed = {
    workspaces: [
      {
        id: GLOBEX,
        name: 'Globex',
        domain: 'globex',
        users: [{ id: GINA, name: 'gina', realName: 'Gina Grant', email: 'gina@globex.test', isAdmin: true, presence: 'active' }],
        channels: [
          { id: 'C0GGENERAL', name: 'general', isGeneral: true },
          { id: GLOBEX_HELP, name: 'help', topic: 'Globex help desk' },
        ],
      },
    ],
  };
  const baseUrl = sandbox.apiUrl.replace(/\/api\/$/, '');
  const data = buildData(seed, baseUrl);
  sandbox.state.data.workspaces.push(...data.workspaces);
  sandbox.state.data.users.push(...data.users);
  sandbox.state.data.channels.push(...data.channels);
  sandbox.state.changed();
}

/**
 * Opens the sandbox's consent page for `authorizeUrl` and submits it as `user` of `team` would, then
 * answers where Slack sends the browser back (Parley's redirect URL with code and state).
 */
export async function consent(
  authorizeUrl: string,
  choice: { team?: string; user?: string; decision?: 'allow' | 'cancel' } = {},
): Promise<URL> {
  const url = new URL(authorizeUrl);
  await request(url.origin)
    .get(url.pathname + url.search)
    .expect(200);
  const form: Record<string, string> = {};
  for (const key of ['client_id', 'scope', 'user_scope', 'redirect_uri', 'state']) form[key] = url.searchParams.get(key) ?? '';
  form.team = choice.team ?? ACME;
  form.user = choice.user ?? ALICE;
  form.decision = choice.decision ?? 'allow';
  const res = await request(url.origin).post(url.pathname).type('form').send(form).expect(302);
  return new URL(String(res.headers.location));
}

/** Follows Slack's redirect into Parley, from `browser`, and answers Parley's response (a redirect, or the refusal page). */
export function callback(server: Pick<TestServer, 'url'>, back: URL, browser: string | null = BROWSER) {
  const req = request(server.url).get(back.pathname + back.search);
  return browser ? req.set('Cookie', browser) : req;
}

/** The hash route and query Parley redirected the browser to, e.g. '#/setup/abc' and { error: 'wrong_user' }. */
export function consoleTarget(location: string): { path: string; hash: string; query: URLSearchParams } {
  const url = new URL(location, 'http://parley.test');
  const [hash = '', query = ''] = url.hash.split('?');
  return { path: url.pathname, hash, query: new URLSearchParams(query) };
}

export async function authorizeUrlFor(
  server: TestServer,
  token: string,
  ceId: string,
  purpose: 'install' | 'swap_user' | 'upgrade',
  scopes: { bot?: string; user?: string } = {},
): Promise<string> {
  const res = await request(server.url)
    .get(`/v1/chat_endpoints/${ceId}/slack_authorize`)
    .query({ purpose, ...scopes })
    .set('Authorization', `Bearer ${token}`)
    .set('Cookie', BROWSER)
    .expect(200);
  return res.body.url as string;
}

/** Add to Slack from setup step 1, as `user` of `team`: the widget reaches Step 2. */
export async function installWidget(
  server: TestServer,
  token: string,
  ceId: string,
  who: { team?: string; user?: string } = {},
): Promise<void> {
  const back = await consent(await authorizeUrlFor(server, token, ceId, 'install'), who);
  const res = await callback(server, back).expect(302);
  if (consoleTarget(String(res.headers.location)).hash !== `#/setup/${ceId}`) throw new Error(`install went to ${res.headers.location}`);
}

/**
 * Installs and connects the widget to a channel (a new one unless given, since a channel serves one
 * widget): Step 3. Answers the channel id.
 */
export async function setUpWidget(
  server: TestServer,
  token: string,
  ceId: string,
  who: { team?: string; user?: string; channel?: string } = {},
): Promise<string> {
  await installWidget(server, token, ceId, who);
  let channel = who.channel;
  if (!channel) {
    const created = await request(server.url)
      .post(`/v1/chat_endpoints/${ceId}/channels`)
      .set('Authorization', `Bearer ${token}`)
      .send({ channelName: `chat-${randomBytes(4).toString('hex')}` })
      .expect(200);
    channel = created.body.Id as string;
  }
  await request(server.url)
    .put(`/v1/chat_endpoints/${ceId}/connect_ce`)
    .set('Authorization', `Bearer ${token}`)
    .send({ Id: ceId, RoomId: channel, RoomName: 'whatever' })
    .expect(200);
  return channel;
}

/** The first widget of the user a token belongs to. */
export async function firstWidgetId(server: TestServer, token: string): Promise<string> {
  const res = await request(server.url).get('/v1/users/current').set('Authorization', `Bearer ${token}`).expect(200);
  return res.body.ces[0].Id as string;
}

/** Slack's request signature headers for `body`, at `timestamp` (seconds; now by default). */
export function slackSignature(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)): Record<string, string> {
  const signature = `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
  return { 'x-slack-request-timestamp': String(timestamp), 'x-slack-signature': signature };
}

/** An Events API envelope as Slack sends it. */
export function eventEnvelope(teamId: string, event: Record<string, unknown>): string {
  return JSON.stringify({
    token: 'ignored',
    team_id: teamId,
    api_app_id: 'A0PARLEY01',
    type: 'event_callback',
    event_id: `Ev${Math.random().toString(36).slice(2, 12).toUpperCase()}`,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [{ team_id: teamId, user_id: 'U0BOT', is_bot: true, is_enterprise_install: false }],
    event,
  });
}

/**
 * Polls until `check` passes: events are acknowledged before they are processed. The budget (20 s) fits a
 * loaded 2-core machine; a check that passes returns at once, so it costs nothing when things are quick. The pauses
 * between checks double up to `longestPauseMs`: a long wait paced by something slow (Slack's pace) checks less often.
 */
export async function eventually(check: () => Promise<unknown>, timeoutMs = 20_000, longestPauseMs = 200): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let pause = 10; ; pause = Math.min(pause * 2, longestPauseMs)) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}
