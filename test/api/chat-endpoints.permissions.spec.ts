import { expect } from 'chai';
import request from 'supertest';
import { neededScopes, scopeStatus } from '../../server/shared/slack-scopes';
import { payingOn, signUpUser } from '../factories';
import { useServer } from '../helpers/app';
import { ACME, BROWSER, callback, consent, firstWidgetId, setUpWidget } from '../slack/helpers';

describe('Slack permissions', () => {
  describe('scope computation', () => {
    const names = (input: Parameters<typeof neededScopes>[0], type: 'bot' | 'user') =>
      neededScopes(input)
        .filter((s) => s.type === type)
        .map((s) => s.scope);
    const modern = { planAllowsBots: false, requestChatWriteUserScope: false, oauthV1: false };

    it('needs commands, channels:history, files:read and files:write from the bot, and channels:history from the main user', () => {
      expect(names(modern, 'bot')).to.deep.equal(['commands', 'channels:history', 'files:read', 'files:write']);
      expect(names(modern, 'user')).to.deep.equal(['channels:history']);
    });

    it('needs users:read only when the plan allows bots', () => {
      expect(names({ ...modern, planAllowsBots: true }, 'bot')).to.include('users:read');
      expect(names(modern, 'bot')).to.not.include('users:read');
    });

    it('needs chat:write from the main user only when old-channel cleanup was requested', () => {
      expect(names({ ...modern, requestChatWriteUserScope: true }, 'user')).to.deep.equal(['channels:history', 'chat:write']);
    });

    it('asks legacy OauthV1 installs for the wider fixed set', () => {
      const legacy = { ...modern, oauthV1: true };
      expect(names(legacy, 'bot')).to.include.members([
        'channels:manage',
        'channels:read',
        'channels:join',
        'chat:write',
        'chat:write.customize',
        'users:read.email',
      ]);
      expect(names(legacy, 'user')).to.include('channels:write');
    });

    it('marks each needed scope granted or missing', () => {
      const status = scopeStatus(neededScopes(modern), { bot: ['commands', 'channels:history'], user: [] });
      expect(status.allGood).to.equal(false);
      expect(status.missing).to.deep.equal([
        { scope: 'files:read', type: 'bot' },
        { scope: 'files:write', type: 'bot' },
        { scope: 'channels:history', type: 'user' },
      ]);
      expect(status.scopes.find((s) => s.scope === 'commands')?.granted).to.equal(true);
    });
  });

  describe('GET /v1/chat_endpoints/{id}/permissions', () => {
    const server = useServer();
    const configured = async () => {
      const user = await signUpUser(server);
      const ceId = await firstWidgetId(server, user.token);
      await setUpWidget(server, user.token, ceId);
      return { ...user, ceId };
    };
    const permissions = (token: string, ceId: string) =>
      request(server.url).get(`/v1/chat_endpoints/${ceId}/permissions`).set('Authorization', `Bearer ${token}`).set('Cookie', BROWSER);

    it('shows everything granted after a fresh install', async () => {
      const { token, ceId } = await configured();
      const res = await permissions(token, ceId).expect(200);
      expect(res.body).to.include({ step: 3, mainUserSet: true, oauthV1: false, allGood: true });
      expect(res.body.missing).to.deep.equal([]);
      expect(res.body.selective).to.deep.equal([]);
      expect(res.body.scopes.every((s: { granted: boolean }) => s.granted)).to.equal(true);
    });

    it('reads grants from the stored installation, and offers one approval link per missing scope when several are missing', async () => {
      const { token, ceId } = await configured();
      await server.models.Installation.updateOne({ teamId: ACME }, { $pull: { botScopes: { $in: ['files:read', 'files:write'] } } });
      const res = await permissions(token, ceId).expect(200);
      expect(res.body.allGood).to.equal(false);
      expect(res.body.missing).to.deep.equal([
        { scope: 'files:read', type: 'bot' },
        { scope: 'files:write', type: 'bot' },
      ]);
      expect(res.body.selective.map((s: { scope: string }) => s.scope)).to.deep.equal(['files:read', 'files:write']);
      const one = new URL(res.body.selective[0].url);
      expect(one.searchParams.get('scope')).to.equal('files:read');
      expect(one.searchParams.get('user_scope')).to.equal('');
      const all = new URL(res.body.upgradeUrl);
      expect(all.searchParams.get('scope')).to.equal('files:read,files:write');

      // Approving through the upgrade link puts them back.
      await callback(server, await consent(res.body.upgradeUrl)).expect(302);
      expect((await permissions(token, ceId).expect(200)).body.allGood).to.equal(true);
    });

    it('needs users:read on a plan with bots', async () => {
      const { token, ceId } = await configured();
      const me = await request(server.url).get('/v1/users/current').set('Authorization', `Bearer ${token}`).expect(200);
      await payingOn(server, 'parley_pro_monthly', { accountId: me.body.accountId });
      const res = await permissions(token, ceId).expect(200);
      expect(res.body.scopes.map((s: { scope: string }) => s.scope)).to.include('users:read');
    });

    it('flags a legacy OauthV1 widget and offers the migration link with the wider set', async () => {
      const { token, ceId } = await configured();
      await server.models.ChatEndpoint.updateOne({ _id: ceId }, { $set: { OauthV1: true } });
      const res = await permissions(token, ceId).expect(200);
      expect(res.body.oauthV1).to.equal(true);
      const url = new URL(res.body.upgradeUrl);
      expect(url.searchParams.get('scope')?.split(',')).to.include.members(['channels:manage', 'chat:write.customize']);
      await callback(server, await consent(res.body.upgradeUrl)).expect(302);
      expect((await permissions(token, ceId).expect(200)).body.oauthV1).to.equal(false);
    });

    it('tells the console a widget below Step 3 has no main user yet', async () => {
      const user = await signUpUser(server);
      const ceId = await firstWidgetId(server, user.token);
      const res = await permissions(user.token, ceId).expect(200);
      expect(res.body).to.include({ step: 1, mainUserSet: false, upgradeUrl: '' });
    });

    it("answers 404 for another account's widget", async () => {
      const owner = await configured();
      const other = await signUpUser(server);
      await permissions(other.token, owner.ceId).expect(404);
    });

    it('answers 403 without a token', async () => {
      const { ceId } = await configured();
      await request(server.url).get(`/v1/chat_endpoints/${ceId}/permissions`).expect(403);
    });
  });
});
