import { expect } from 'chai';
import { scopesToAuthorize, widgetPermissions } from '../../server/commands/widgetPermissions';
import { ValidationError } from '../../server/errors';
import { buildConfiguredWidget, createUserInDb } from '../factories';
import { payingAfterTrial, useStore } from './helpers';

describe('widgetPermissions', () => {
  const store = useStore();
  const link = async (bot: string[], user: string[]) => `https://slack.test/authorize?scope=${bot.join(',')}&user_scope=${user.join(',')}`;
  const widget = async (fields: Record<string, unknown>) => {
    const { user } = await createUserInDb(store);
    await payingAfterTrial(store.models, user.accountId);
    const ce = await store.models.ChatEndpoint.findOneAndUpdate(
      { accountId: user.accountId },
      { $set: fields },
      { returnDocument: 'after' },
    );
    if (!ce) throw new Error('no widget');
    return ce;
  };

  it('lists what is missing with one link for all of it and, with more than one missing, a link per scope', async () => {
    await store.models.Installation.create({
      teamId: 'T0PERM',
      botToken: 'xoxb-1',
      installedAt: new Date(),
      botScopes: ['commands'],
      userTokens: [],
    });
    const ce = await widget(buildConfiguredWidget({ slackTeamId: 'T0PERM', slackMainUser: 'U0MAIN' }));
    const view = await widgetPermissions(store.models, ce, link);
    expect(view.allGood).to.equal(false);
    expect(view.missing.map((s) => s.scope)).to.deep.equal(['channels:history', 'files:read', 'files:write', 'channels:history']);
    expect(view.upgradeUrl).to.equal(
      'https://slack.test/authorize?scope=channels:history,files:read,files:write&user_scope=channels:history',
    );
    expect(view.selective.map((s) => s.url)).to.include('https://slack.test/authorize?scope=&user_scope=channels:history');
    expect(view).to.include({ step: 3, mainUserSet: true });
  });

  it('gives a widget without a Slack team no links', async () => {
    const ce = await widget({});
    const view = await widgetPermissions(store.models, ce, link);
    expect(view.upgradeUrl).to.equal('');
    expect(view.selective).to.deep.equal([]);
    expect(view.mainUserSet).to.equal(false);
  });

  it('asks for the scopes named, else the install set, and refuses asking for nothing', async () => {
    const ce = await widget({});
    const install = { bot: ['commands'], user: ['channels:history'] };
    expect(await scopesToAuthorize(store.models, ce, { purpose: 'install' }, install)).to.deep.equal(install);
    expect(await scopesToAuthorize(store.models, ce, { purpose: 'install', bot: ['users:read'] }, install)).to.deep.equal({
      bot: ['users:read'],
      user: [],
    });
    const error = await scopesToAuthorize(store.models, ce, { purpose: 'install', bot: [], user: [] }, install).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(ValidationError);
    expect((error as ValidationError).code).to.equal('no_scopes');
  });
});
