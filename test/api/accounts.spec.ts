import { expect } from 'chai';
import request from 'supertest';
import { signUpUser } from '../factories';
import { useServer } from '../helpers/app';
import { trialAccount } from '../helpers/billing';

describe('POST /v1/accounts/{id}/upgrade/{planStripeId}', () => {
  const server = useServer();

  const trialUser = async () => {
    const { token } = await signUpUser(server);
    const me = await request(server.url).get('/v1/users/current').set('Authorization', `Bearer ${token}`).expect(200);
    return { token, accountId: me.body.accountId as string };
  };
  const upgrade = (token: string | undefined, accountId: string, plan: string) => {
    const req = request(server.url).post(`/v1/accounts/${accountId}/upgrade/${plan}`);
    return token ? req.set('Authorization', `Bearer ${token}`) : req;
  };

  it('changes the plan of an account on its trial and answers the current user with it', async () => {
    const { token, accountId } = await trialUser();
    const res = await upgrade(token, accountId, 'parley_pro_monthly').expect(200);
    expect(res.body.account.plan.stripeId).to.equal('parley_pro_monthly');
    expect(res.body.account.plan.maxChannels).to.equal(3);
    // The new limit applies at once: a second widget is now allowed.
    await request(server.url).post('/v1/chat_endpoints/new').set('Authorization', `Bearer ${token}`).expect(200);
  });

  it('answers 402 Add a payment method first once the trial is over', async () => {
    const { token, accountId, customerId } = await trialAccount(server);
    // The trial subscription ends in Stripe without a card, as it does at trialEndAt.
    const account = await server.models.Account.findById(accountId);
    await server.parley.billing.stripe.subscriptions.cancel(account?.stripeSubscriptionId ?? '');
    await server.parley.billing.syncCustomer(customerId);
    const res = await upgrade(token, accountId, 'parley_pro_monthly').expect(402);
    expect(res.body.Message).to.equal('Add a payment method first');
    expect((await server.models.Account.findById(accountId))?.planStripeId).to.equal('parley_basic_monthly');
  });

  it('answers 400 for a plan that is not in the catalog', async () => {
    const { token, accountId } = await trialUser();
    const res = await upgrade(token, accountId, 'parley_free_forever').expect(400);
    expect(res.body.Message).to.include('Unknown plan');
  });

  it('answers 400 when the account has more widgets than the smaller plan allows', async () => {
    const { token, accountId } = await trialUser();
    await upgrade(token, accountId, 'parley_pro_monthly').expect(200);
    await request(server.url).post('/v1/chat_endpoints/new').set('Authorization', `Bearer ${token}`).expect(200);
    const res = await upgrade(token, accountId, 'parley_basic_yearly').expect(400);
    expect(res.body.Message).to.include('delete some widgets first');
  });

  it('answers 404 for another account and leaves its plan alone', async () => {
    const owner = await trialUser();
    const other = await trialUser();
    await upgrade(other.token, owner.accountId, 'parley_business_monthly').expect(404);
    expect((await server.models.Account.findById(owner.accountId))?.planStripeId).to.equal('parley_basic_monthly');
  });

  it('answers 403 without a token', async () => {
    const { accountId } = await trialUser();
    await upgrade(undefined, accountId, 'parley_pro_monthly').expect(403);
  });
});
