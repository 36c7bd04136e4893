import { expect } from 'chai';
import { planHasFeature, requirePlanFeature } from '../../server/commands/planFeature';
import { PaymentRequiredError } from '../../server/errors';
import { planStripeId } from '../../server/shared/plans';
import { useStore } from './helpers';

describe('planFeature', () => {
  const store = useStore();
  const account = (tier: string) => store.models.Account.create({ planStripeId: planStripeId(tier, 'monthly') });

  it('answers from the account plan: basic has no reports or bots, pro has both', async () => {
    const basic = await account('basic');
    const pro = await account('pro');
    expect(await planHasFeature(store.models, basic._id, 'reports')).to.equal(false);
    expect(await planHasFeature(store.models, basic._id, 'bots')).to.equal(false);
    expect(await planHasFeature(store.models, pro._id, 'reports')).to.equal(true);
    expect(await planHasFeature(store.models, pro._id, 'bots')).to.equal(true);
  });

  it('refuses with 402 plan_feature and names the feature in words, for an account whose plan lacks it', async () => {
    const basic = await account('basic');
    const error = await requirePlanFeature(store.models, basic._id, 'questionGroups').then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(PaymentRequiredError);
    expect((error as PaymentRequiredError).status).to.equal(402);
    expect((error as PaymentRequiredError).code).to.equal('plan_feature');
    expect((error as PaymentRequiredError).message).to.equal('Your plan does not have access to question groups. Please upgrade.');
  });

  it('refuses an unknown account or plan rather than letting it through', async () => {
    const lost = await store.models.Account.create({ planStripeId: 'parley_gone_monthly' });
    expect(await planHasFeature(store.models, lost._id, 'reports')).to.equal(false);
    await store.models.Account.deleteOne({ _id: lost._id });
    expect(await planHasFeature(store.models, lost._id, 'reports')).to.equal(false);
    const pro = await account('pro');
    await requirePlanFeature(store.models, pro._id, 'reports');
  });
});
