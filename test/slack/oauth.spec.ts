import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import request from 'supertest';
import { TRIAL_DAYS } from '../../server/shared/constants';
import { INSTALL_BOT_SCOPES } from '../../server/shared/slack-scopes';
import { OAUTH_STATE_AUDIENCE } from '../../server/slack/oauthState';
import { signUpUser, uniqueEmail } from '../factories';
import { useServer } from '../helpers/app';
import {
  ACME,
  ALICE,
  authorizeUrlFor,
  BOB,
  BROWSER,
  callback,
  consent,
  consoleTarget,
  firstWidgetId,
  installWidget,
  setUpWidget,
} from './helpers';

describe('Slack OAuth', () => {
  const server = useServer();

  const widget = async (id: string) => {
    const ce = await server.models.ChatEndpoint.findById(id);
    if (!ce) throw new Error('widget gone');
    return ce;
  };

  describe('sign-up with Slack', () => {
    it('creates an account on a 30-day trial, signs the Slack user in and opens setup of a widget at Step 2 in that team', async () => {
      const start = await request(server.url).get('/slack/oauth/signup').set('Cookie', BROWSER).query({ source: 'blog-post' }).expect(302);
      const authorize = new URL(String(start.headers.location));
      expect(authorize.href.startsWith(server.slack.authorizeUrl)).to.equal(true);
      expect(authorize.searchParams.get('scope')?.split(',')).to.include('users:read.email');

      const res = await callback(server, await consent(authorize.href, { user: BOB })).expect(302);
      const target = new URL(String(res.headers.location), server.url);
      const token = target.searchParams.get('auth_token') ?? '';
      expect(target.pathname).to.equal('/app/');
      const me = await request(server.url).get('/v1/users/current').set('Authorization', `Bearer ${token}`).expect(200);
      expect(me.body.email).to.equal('bob@acme.test');
      expect(me.body.admin).to.equal(true);
      expect(me.body.account.plan.stripeId).to.equal('parley_basic_monthly');
      const trialDays = (Date.parse(me.body.account.trialEndAt) - Date.now()) / 86_400_000;
      expect(trialDays).to.be.within(TRIAL_DAYS - 1, TRIAL_DAYS);
      expect(me.body.ces).to.have.length(1);
      const ce = me.body.ces[0];
      expect(target.hash).to.equal(`#/setup/${ce.Id}`);
      expect(ce).to.include({
        Step: 2,
        slackTeamId: ACME,
        slackMainUser: BOB,
        slackTeamName: 'Acme',
        online: false,
        installationRevoked: false,
      });
      const user = await server.models.User.findOne({ email: 'bob@acme.test' });
      expect(user?.tklID).to.equal('blog-post');
    });

    it('signs an existing user in without creating anything and goes to the dashboard', async () => {
      const users = await server.models.User.countDocuments();
      const start = await request(server.url).get('/slack/oauth/signup').set('Cookie', BROWSER).expect(302);
      const res = await callback(server, await consent(String(start.headers.location), { user: BOB })).expect(302);
      const target = new URL(String(res.headers.location), server.url);
      expect(target.hash).to.equal('#/');
      const me = await request(server.url)
        .get('/v1/users/current')
        .set('Authorization', `Bearer ${target.searchParams.get('auth_token')}`)
        .expect(200);
      expect(me.body.email).to.equal('bob@acme.test');
      expect(await server.models.User.countDocuments()).to.equal(users);
    });

    it('goes back to sign-up with error=access_denied when the person cancels in Slack', async () => {
      const users = await server.models.User.countDocuments();
      const start = await request(server.url).get('/slack/oauth/signup').set('Cookie', BROWSER).expect(302);
      const res = await callback(server, await consent(String(start.headers.location), { decision: 'cancel' })).expect(302);
      const target = consoleTarget(String(res.headers.location));
      expect(target.hash).to.equal('#/signup');
      expect(target.query.get('error')).to.equal('access_denied');
      expect(await server.models.User.countDocuments()).to.equal(users);
    });
  });

  describe('Add to Slack (setup step 1)', () => {
    it('installs Parley in the workspace and moves the widget to Step 2 with the team, its URL, the main user and the scopes', async () => {
      const { token } = await signUpUser(server);
      const ceId = await firstWidgetId(server, token);
      const url = await authorizeUrlFor(server, token, ceId, 'install');
      expect(url.startsWith(server.slack.authorizeUrl)).to.equal(true);
      const res = await callback(server, await consent(url)).expect(302);
      expect(consoleTarget(String(res.headers.location))).to.deep.include({ path: '/app/', hash: `#/setup/${ceId}` });

      const ce = await widget(ceId);
      expect(ce.Step).to.equal(2);
      expect(ce.slackTeamId).to.equal(ACME);
      expect(ce.slackBaseUrl).to.equal(server.slack.state.workspace(ACME)?.url);
      expect(ce.slackMainUser).to.equal(ALICE);
      expect(ce.slackMainUserName).to.equal('Alice');
      expect(ce.BotScope.split(',')).to.include.members([...INSTALL_BOT_SCOPES]);
      expect(ce.Scope.split(',')).to.include.members(['channels:history', 'channels:write']);
      const inst = await server.models.Installation.findOne({ teamId: ACME });
      expect(inst?.botToken).to.equal(server.slack.state.installation(ACME)?.botToken);
      expect(inst?.userTokens.map((t) => t.userId)).to.include(ALICE);
    });

    it('leaves the widget at Step 1 and shows error=access_denied on setup when the person cancels', async () => {
      const { token } = await signUpUser(server);
      const ceId = await firstWidgetId(server, token);
      const res = await callback(
        server,
        await consent(await authorizeUrlFor(server, token, ceId, 'install'), { decision: 'cancel' }),
      ).expect(302);
      const target = consoleTarget(String(res.headers.location));
      expect(target.hash).to.equal(`#/setup/${ceId}`);
      expect(target.query.get('error')).to.equal('access_denied');
      expect((await widget(ceId)).Step).to.equal(1);
    });
  });

  describe('state checks', () => {
    it('refuses a forged state with a clear page and changes nothing', async () => {
      const { token } = await signUpUser(server);
      const ceId = await firstWidgetId(server, token);
      const url = new URL(await authorizeUrlFor(server, token, ceId, 'install'));
      const forged = jwt.sign(
        { purpose: 'install', uid: '0'.repeat(24), ceId, nonce: 'x'.repeat(24) },
        'not-the-server-secret-not-the-server-secret',
        { audience: OAUTH_STATE_AUDIENCE, expiresIn: 600 },
      );
      url.searchParams.set('state', forged);
      const res = await callback(server, await consent(url.href)).expect(400);
      expect(res.text).to.include('Slack authorisation refused');
      expect(res.text).to.include('data-problem="invalid_state"');
      expect((await widget(ceId)).Step).to.equal(1);
    });

    it('refuses a session token passed off as a state', async () => {
      const { token } = await signUpUser(server);
      const ceId = await firstWidgetId(server, token);
      const url = new URL(await authorizeUrlFor(server, token, ceId, 'install'));
      url.searchParams.set('state', token);
      const res = await callback(server, await consent(url.href)).expect(400);
      expect(res.text).to.include('data-problem="invalid_state"');
      expect((await widget(ceId)).Step).to.equal(1);
    });

    it('refuses an expired state and changes nothing', async () => {
      const { token } = await signUpUser(server);
      const ceId = await firstWidgetId(server, token);
      const me = await request(server.url).get('/v1/users/current').set('Authorization', `Bearer ${token}`).expect(200);
      const nonce = 'expired-nonce-0123456789';
      await server.models.OAuthState.create({ nonce, expiresAt: new Date(Date.now() + 60_000) });
      const expired = jwt.sign(
        { purpose: 'install', uid: me.body.Id, ceId, nonce, exp: Math.floor(Date.now() / 1000) - 60 },
        server.config.jwtSecret,
        { audience: OAUTH_STATE_AUDIENCE },
      );
      const url = new URL(await authorizeUrlFor(server, token, ceId, 'install'));
      url.searchParams.set('state', expired);
      const res = await callback(server, await consent(url.href)).expect(400);
      expect(res.text).to.include('data-problem="expired_state"');
      expect((await widget(ceId)).Step).to.equal(1);
    });

    it('refuses the callback in another browser than the one that started it, which keeps its own attempt', async () => {
      const { token } = await signUpUser(server);
      const ceId = await firstWidgetId(server, token);
      const back = await consent(await authorizeUrlFor(server, token, ceId, 'install'));
      const elsewhere = await callback(server, back, null).expect(400);
      expect(elsewhere.text).to.include('data-problem="wrong_browser"');
      await callback(server, back, 'parley_oauth_browser=another-browser-fedcba9876543210').expect(400);
      expect((await widget(ceId)).Step).to.equal(1);
      await callback(server, back).expect(302);
      expect((await widget(ceId)).Step).to.equal(2);
    });

    it('sets the browser cookie, HttpOnly and SameSite=Lax, for a browser that has none', async () => {
      const start = await request(server.url).get('/slack/oauth/signup').expect(302);
      const cookie = String(start.headers['set-cookie']);
      expect(cookie).to.match(/^parley_oauth_browser=[A-Za-z0-9_-]{16,}/);
      expect(cookie).to.include('HttpOnly');
      expect(cookie).to.include('SameSite=Lax');
      const again = await request(server.url).get('/slack/oauth/signup').set('Cookie', BROWSER).expect(302);
      expect(again.headers['set-cookie']).to.equal(undefined);
    });

    it('accepts a state once: replaying it is refused and changes nothing', async () => {
      const { token } = await signUpUser(server);
      const ceId = await firstWidgetId(server, token);
      const url = await authorizeUrlFor(server, token, ceId, 'install');
      const first = await consent(url, { user: ALICE });
      const second = await consent(url, { user: BOB });
      await callback(server, first).expect(302);
      const replay = await callback(server, second).expect(400);
      expect(replay.text).to.include('data-problem="used_state"');
      expect((await widget(ceId)).slackMainUser).to.equal(ALICE);
    });
  });

  describe('changing the main user', () => {
    it('makes the new Slack user the main user of the team and sends the dashboard the userSwapped marker', async () => {
      const { token } = await signUpUser(server);
      const ceId = await firstWidgetId(server, token);
      await setUpWidget(server, token, ceId);
      const res = await callback(server, await consent(await authorizeUrlFor(server, token, ceId, 'swap_user'), { user: BOB })).expect(302);
      const target = consoleTarget(String(res.headers.location));
      expect(target.hash).to.equal('#/');
      expect(target.query.get('userSwapped')).to.equal('1');
      const ce = await widget(ceId);
      expect(ce.slackMainUser).to.equal(BOB);
      expect(ce.slackMainUserName).to.equal('Bob');
      expect(ce.Step).to.equal(3);
    });
  });

  describe('permissions upgrade', () => {
    it('records the newly granted scopes when the main user approves', async () => {
      const { token } = await signUpUser(server);
      const ceId = await firstWidgetId(server, token);
      await setUpWidget(server, token, ceId);
      await server.models.ChatEndpoint.updateOne({ _id: ceId }, { $set: { requestChatWriteUserScope: true } });
      const before = await request(server.url)
        .get(`/v1/chat_endpoints/${ceId}/permissions`)
        .set('Authorization', `Bearer ${token}`)
        .set('Cookie', BROWSER)
        .expect(200);
      expect(before.body.missing).to.deep.equal([{ scope: 'chat:write', type: 'user' }]);

      const res = await callback(server, await consent(before.body.upgradeUrl, { user: ALICE })).expect(302);
      expect(consoleTarget(String(res.headers.location)).hash).to.equal(`#/permissions/${ceId}`);
      const after = await request(server.url)
        .get(`/v1/chat_endpoints/${ceId}/permissions`)
        .set('Authorization', `Bearer ${token}`)
        .expect(200);
      expect(after.body.allGood).to.equal(true);
      expect((await widget(ceId)).Scope.split(',')).to.include('chat:write');
    });

    it('answers error=wrong_user and changes nothing when another Slack user approves', async () => {
      const { token } = await signUpUser(server);
      const ceId = await firstWidgetId(server, token);
      await setUpWidget(server, token, ceId);
      await server.models.ChatEndpoint.updateOne({ _id: ceId }, { $set: { requestChatWriteUserScope: true } });
      const scopeBefore = (await widget(ceId)).Scope;
      const res = await callback(server, await consent(await authorizeUrlFor(server, token, ceId, 'upgrade'), { user: BOB })).expect(302);
      const target = consoleTarget(String(res.headers.location));
      expect(target.hash).to.equal(`#/permissions/${ceId}`);
      expect(target.query.get('error')).to.equal('wrong_user');
      expect((await widget(ceId)).Scope).to.equal(scopeBefore);
      expect((await widget(ceId)).slackMainUser).to.equal(ALICE);
    });
  });

  it('refuses, with widget_not_found, an authorisation whose widget was deleted meanwhile', async () => {
    const { token } = await signUpUser(server, { email: uniqueEmail('gone') });
    const ceId = await firstWidgetId(server, token);
    const url = await authorizeUrlFor(server, token, ceId, 'install');
    await request(server.url).delete(`/v1/chat_endpoints/${ceId}`).set('Authorization', `Bearer ${token}`).expect(200);
    const res = await callback(server, await consent(url)).expect(302);
    expect(consoleTarget(String(res.headers.location)).query.get('error')).to.equal('widget_not_found');
  });

  it('keeps a configured widget on its channel when Parley is added to its team again', async () => {
    const { token } = await signUpUser(server);
    const ceId = await firstWidgetId(server, token);
    await setUpWidget(server, token, ceId);
    await installWidget(server, token, ceId);
    expect((await widget(ceId)).Step).to.equal(3);
  });
});
