import { expect } from 'chai';
import { NEW_WIDGET_FOR_TEAM_ERROR, newWidget, newWidgetForTeam, PLAN_LIMIT_ERROR } from '../../server/commands/newWidget';
import { PaymentRequiredError, ValidationError } from '../../server/errors';
import { planStripeId } from '../../server/shared/plans';
import { buildConfiguredWidget, createUserInDb } from '../factories';
import { payingAfterTrial, useStore } from './helpers';

describe('newWidget', () => {
  const store = useStore();

  it('refuses one more widget than the plan allows with 402 plan_limit and the plan in words', async () => {
    const { user } = await createUserInDb(store); // basic: 1 channel, and it has its first widget
    await payingAfterTrial(store.models, user.accountId);
    const error = await newWidget(store.models, user).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(PaymentRequiredError);
    expect((error as PaymentRequiredError).code).to.equal(PLAN_LIMIT_ERROR);
    expect((error as Error).message).to.equal('Your Basic plan allows 1 channel. Upgrade to add another.');
    expect(await store.models.ChatEndpoint.countDocuments({ accountId: user.accountId })).to.equal(1);
  });

  it('adds a widget at Step 1 within the limit', async () => {
    const { user, account } = await createUserInDb(store);
    await store.models.Account.updateOne({ _id: account._id }, { $set: { planStripeId: planStripeId('pro', 'monthly') } });
    const ce = await newWidget(store.models, user);
    expect(ce.Step).to.equal(1);
    expect(await store.models.ChatEndpoint.countDocuments({ accountId: user.accountId })).to.equal(2);
  });

  it("adds a widget in a configured widget's Slack team at Step 2, and refuses one from a widget not set up", async () => {
    const { user, account } = await createUserInDb(store);
    await store.models.Account.updateOne({ _id: account._id }, { $set: { planStripeId: planStripeId('pro', 'monthly') } });
    const existing = await store.models.ChatEndpoint.findOneAndUpdate(
      { accountId: account._id },
      { $set: { ...buildConfiguredWidget(), slackTeamName: 'Acme' } },
      { returnDocument: 'after' },
    );
    if (!existing) throw new Error('no widget');
    const added = await newWidgetForTeam(store.models, user, existing);
    expect(added.Step).to.equal(2);
    expect(added).to.include({ slackTeamId: existing.slackTeamId, slackTeamName: 'Acme', slackMainUser: existing.slackMainUser });
    expect(added.RoomId ?? '').to.equal('');
    const unfinished = await newWidget(store.models, user);
    const error = await newWidgetForTeam(store.models, user, unfinished).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(ValidationError);
    expect((error as Error).message).to.equal(NEW_WIDGET_FOR_TEAM_ERROR);
  });
});
