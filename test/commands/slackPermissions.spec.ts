import { expect } from 'chai';
import { upgradeScopes, widgetScopeStatus } from '../../server/commands/slackPermissions';
import { buildConfiguredWidget, createUserInDb } from '../factories';
import { payingAfterTrial, useStore } from './helpers';

describe('slackPermissions', () => {
  const store = useStore();
  const setUp = async (teamId: string, tier: string, botScopes: string[], userScopes: string[]) => {
    const { user, account } = await createUserInDb(store);
    await payingAfterTrial(store.models, account._id, tier);
    await store.models.Installation.create({
      teamId,
      botToken: 'xoxb-1',
      installedAt: new Date(),
      botScopes,
      userTokens: [{ userId: 'U0MAIN', token: 'xoxp-1', scopes: userScopes }],
    });
    const ce = await store.models.ChatEndpoint.findOneAndUpdate(
      { accountId: user.accountId },
      { $set: buildConfiguredWidget({ slackTeamId: teamId, slackMainUser: 'U0MAIN' }) },
      { returnDocument: 'after' },
    );
    if (!ce) throw new Error('no widget');
    return ce;
  };

  it("needs users:read only on a plan with bots, and marks each needed scope by the team's grants", async () => {
    const all = ['commands', 'channels:history', 'files:read', 'files:write'];
    const basic = await widgetScopeStatus(store.models, await setUp('T0BASIC', 'basic', all, ['channels:history']));
    expect(basic.allGood).to.equal(true);
    expect(basic.scopes.map((s) => s.scope)).to.not.include('users:read');
    const pro = await widgetScopeStatus(store.models, await setUp('T0PRO', 'pro', all, ['channels:history']));
    expect(pro.allGood).to.equal(false);
    expect(pro.missing).to.deep.equal([{ scope: 'users:read', type: 'bot' }]);
    expect(upgradeScopes(pro)).to.deep.equal({ bot: ['users:read'], user: [] });
  });

  it('asks an upgrade with nothing missing for the whole needed set (how a legacy install migrates)', async () => {
    const status = await widgetScopeStatus(
      store.models,
      await setUp('T0ALL', 'basic', ['commands', 'channels:history', 'files:read', 'files:write'], ['channels:history']),
    );
    expect(upgradeScopes(status)).to.deep.equal({
      bot: ['commands', 'channels:history', 'files:read', 'files:write'],
      user: ['channels:history'],
    });
  });
});
