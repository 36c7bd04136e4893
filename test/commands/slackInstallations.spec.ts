import { expect } from 'chai';
import {
  type GrantedInstallation,
  grantedScopes,
  markInstallationRevoked,
  markUserTokensRevoked,
  saveInstallation,
} from '../../server/commands/slackInstallations';
import { buildConfiguredWidget, createUserInDb } from '../factories';
import { useStore } from './helpers';

describe('slackInstallations', () => {
  const store = useStore();
  let n = 0;
  const granted = (teamId: string, extra: Partial<GrantedInstallation> = {}): GrantedInstallation => ({
    teamId,
    teamName: 'Acme',
    url: 'https://acme.slack.com/',
    appId: 'A0PARLEY01',
    botToken: `xoxb-${++n}`,
    botUserId: 'U0BOT',
    botId: 'B0BOT',
    botScopes: ['commands', 'chat:write'],
    authedUserId: 'U0ALICE',
    userToken: { token: `xoxp-${n}`, scopes: ['channels:history'] },
    ...extra,
  });
  const teamWidget = async (teamId: string) => {
    const { user } = await createUserInDb(store);
    return store.models.ChatEndpoint.findOneAndUpdate(
      { accountId: user.accountId },
      { $set: { ...buildConfiguredWidget({ slackTeamId: teamId, slackMainUser: 'U0ALICE' }), Scope: 'channels:history' } },
      { returnDocument: 'after' },
    );
  };

  it('keeps one installation per team: a later install adds scopes and replaces the token and the user token of its user', async () => {
    await saveInstallation(store.models, granted('T0ONE'));
    const inst = await saveInstallation(store.models, granted('T0ONE', { botScopes: ['users:read'], teamName: '' }));
    expect(await store.models.Installation.countDocuments({ teamId: 'T0ONE' })).to.equal(1);
    expect(inst.botScopes).to.have.members(['commands', 'chat:write', 'users:read']);
    expect(inst.teamName).to.equal('Acme');
    expect(inst.userTokens.map((t) => t.userId)).to.deep.equal(['U0ALICE']);
    expect(grantedScopes(inst, 'U0ALICE')).to.deep.equal({ bot: inst.botScopes, user: ['channels:history'] });
    expect(grantedScopes(inst, 'U0BOB').user).to.deep.equal([]);
  });

  it('an uninstall takes every widget of the team offline and grants nothing; a reinstall starts over with the new scopes', async () => {
    const ce = await teamWidget('T0TWO');
    await saveInstallation(store.models, granted('T0TWO', { botScopes: ['commands', 'users:read'] }));
    await markInstallationRevoked(store.models, 'T0TWO');
    const revoked = await store.models.Installation.findOne({ teamId: 'T0TWO' });
    expect(grantedScopes(revoked, 'U0ALICE')).to.deep.equal({ bot: [], user: [] });
    expect(await store.models.ChatEndpoint.findById(ce?._id)).to.deep.include({ installationRevoked: true, status: 'offline' });
    const back = await saveInstallation(store.models, granted('T0TWO', { botScopes: ['commands'] }));
    expect(back.botScopes).to.deep.equal(['commands']);
    expect(back.revokedAt).to.equal(null);
    expect((await store.models.ChatEndpoint.findById(ce?._id))?.installationRevoked).to.equal(false);
  });

  it("revoked user tokens lose their user scopes, and their widgets' main-user scope", async () => {
    const ce = await teamWidget('T0THREE');
    await saveInstallation(store.models, granted('T0THREE'));
    await markUserTokensRevoked(store.models, 'T0THREE', ['U0ALICE']);
    const inst = await store.models.Installation.findOne({ teamId: 'T0THREE' });
    expect(grantedScopes(inst, 'U0ALICE').user).to.deep.equal([]);
    expect(grantedScopes(inst, 'U0ALICE').bot).to.not.deep.equal([]);
    expect((await store.models.ChatEndpoint.findById(ce?._id))?.Scope).to.equal('');
  });
});
