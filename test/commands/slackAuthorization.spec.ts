import { expect } from 'chai';
import {
  authorizerOf,
  completeInstall,
  completeSwapUser,
  completeUpgrade,
  type SlackAuthorizer,
  signUpWithSlack,
} from '../../server/commands/slackAuthorization';
import { TRIAL_PLAN_STRIPE_ID } from '../../server/shared/plans';
import { buildConfiguredWidget, createUserInDb, createWidgetInDb, uniqueEmail } from '../factories';
import { useStore } from './helpers';

describe('slackAuthorization', () => {
  const store = useStore();
  const who = (teamId: string, extra: Partial<SlackAuthorizer> = {}): SlackAuthorizer => ({
    teamId,
    teamName: 'Acme',
    url: 'https://acme.slack.com/',
    userId: 'U0ALICE',
    userName: 'alice',
    botScope: 'commands,channels:history',
    userScope: 'channels:history',
    ...extra,
  });

  it("reads the installation's bot scopes and the live user token's scopes of the user who authorised", async () => {
    const inst = await store.models.Installation.create({
      teamId: 'T0AUTH1',
      teamName: 'Acme',
      url: 'https://acme.slack.com/',
      botToken: 'xoxb-1',
      installedAt: new Date(),
      botScopes: ['commands', 'users:read'],
      userTokens: [
        { userId: 'U0ALICE', token: 'xoxp-1', scopes: ['channels:history', 'chat:write'] },
        { userId: 'U0BOB', token: 'xoxp-2', scopes: ['channels:history'], revokedAt: new Date() },
      ],
    });
    expect(authorizerOf(inst, 'U0ALICE', 'alice')).to.deep.include({
      botScope: 'commands,users:read',
      userScope: 'channels:history,chat:write',
    });
    expect(authorizerOf(inst, 'U0BOB', 'bob').userScope).to.equal('');
  });

  it('moves a new widget to Step 2 in the team; a configured widget re-added to its own team keeps its channel, another team resets it', async () => {
    const { user } = await createUserInDb(store);
    const fresh = await createWidgetInDb(store, user);
    const installed = await completeInstall(fresh, who('T0AUTH2'));
    expect(installed).to.deep.include({
      Step: 2,
      slackTeamId: 'T0AUTH2',
      slackMainUser: 'U0ALICE',
      BotScope: 'commands,channels:history',
      OauthV1: false,
    });
    const configured = await createWidgetInDb(store, user, buildConfiguredWidget({ slackTeamId: 'T0AUTH3', RoomId: 'C0KEEP' }));
    expect(await completeInstall(configured, who('T0AUTH3'))).to.deep.include({ Step: 3, RoomId: 'C0KEEP' });
    expect(await completeInstall(configured, who('T0OTHER'))).to.deep.include({ Step: 2, RoomId: '', slackTeamId: 'T0OTHER' });
  });

  it("swaps the main user and records upgraded scopes on the account's widgets in that team only", async () => {
    const { user } = await createUserInDb(store);
    const inTeam = await createWidgetInDb(store, user, buildConfiguredWidget({ slackTeamId: 'T0AUTH4', OauthV1: true }));
    const elsewhere = await createWidgetInDb(store, user, buildConfiguredWidget({ slackTeamId: 'T0ELSE' }));
    const { user: stranger } = await createUserInDb(store);
    const strangers = await createWidgetInDb(store, stranger, buildConfiguredWidget({ slackTeamId: 'T0AUTH4' }));
    await completeSwapUser(store.models, user.accountId, who('T0AUTH4', { userId: 'U0BOB', userName: 'bob' }));
    await completeUpgrade(store.models, user.accountId, who('T0AUTH4', { botScope: 'commands,users:read' }));
    expect(await store.models.ChatEndpoint.findById(inTeam._id)).to.deep.include({
      slackMainUser: 'U0BOB',
      BotScope: 'commands,users:read',
      OauthV1: false,
    });
    expect((await store.models.ChatEndpoint.findById(elsewhere._id))?.slackMainUser).to.not.equal('U0BOB');
    expect((await store.models.ChatEndpoint.findById(strangers._id))?.slackMainUser).to.not.equal('U0BOB');
  });

  it('signs up with Slack: a new trial account with a passwordless admin and a widget at Step 2; a known e-mail just signs in', async () => {
    const email = uniqueEmail('slack');
    const first = await signUpWithSlack(store.models, { email, source: 'slack', who: who('T0AUTH5') });
    expect(first.created).to.equal(true);
    expect(first.user).to.deep.include({ email, admin: true, passwordHash: null });
    expect((await store.models.Account.findById(first.user.accountId))?.planStripeId).to.equal(TRIAL_PLAN_STRIPE_ID);
    expect(first.ce).to.deep.include({ Step: 2, slackTeamId: 'T0AUTH5' });
    const again = await signUpWithSlack(store.models, { email, source: 'slack', who: who('T0AUTH5') });
    expect(again).to.deep.include({ created: false, ce: null });
    expect(String(again.user._id)).to.equal(String(first.user._id));
    expect(await store.models.Account.countDocuments({ email })).to.equal(1);
  });
});
