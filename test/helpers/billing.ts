/** Billing steps the specs share: a trial account whose subscription is in the Stripe sandbox, paying on hosted pages. */
import request from 'supertest';
import { waitFor } from '../e2e/widgetHelpers';
import { signUpUser } from '../factories';
import type { TestServer } from './app';

export type TrialAccount = { token: string; email: string; password: string; accountId: string; userId: string; customerId: string };

/** Signs up and opens the console's first call, which puts the trial in Stripe; waits until it is there. */
export async function trialAccount(server: TestServer): Promise<TrialAccount> {
  const user = await signUpUser(server);
  const me = await request(server.url).get('/v1/users/current').set('Authorization', `Bearer ${user.token}`).expect(200);
  const accountId = me.body.accountId as string;
  const account = await waitFor('the trial subscription in Stripe', async () => {
    const found = await server.models.Account.findById(accountId);
    return found?.stripeSubscriptionId ? found : null;
  });
  return {
    token: user.token,
    email: user.email,
    password: user.password,
    accountId,
    userId: me.body.Id as string,
    customerId: account.stripeCustomerId,
  };
}

/** Pays a Checkout session on the sandbox's hosted page, as a person would; answers where it sent the browser. */
export async function payCheckout(
  checkoutUrl: string,
  card = '4242 4242 4242 4242',
): Promise<{ status: number; location: string; body: string }> {
  const res = await fetch(checkoutUrl, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      email: 'billing@example.com',
      cardnumber: card,
      expiry: '12 / 34',
      cvc: '123',
      name: 'Ada Admin',
      country: 'US',
      postal: '94107',
    }),
  });
  return { status: res.status, location: res.headers.get('location') ?? '', body: await res.text() };
}

/**
 * Ends the trial of an account whose card is saved, now, as Stripe's `trial_end=now` does: the first invoice is
 * charged at once and the subscription becomes active. For specs that need a paying account without moving the clock.
 */
export async function endTrialNow(server: TestServer, accountId: string): Promise<void> {
  const account = await server.models.Account.findById(accountId);
  if (!account?.stripeSubscriptionId) throw new Error('no trial subscription');
  await server.parley.billing.stripe.subscriptions.update(account.stripeSubscriptionId, { trial_end: 'now' });
  await server.parley.billing.syncCustomer(account.stripeCustomerId);
}
