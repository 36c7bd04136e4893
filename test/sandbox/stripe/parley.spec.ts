import { expect } from 'chai';
import { useServer } from '../../helpers/app';
import { clientFor } from './helpers';

describe('Stripe sandbox inside Parley', () => {
  const server = useServer();

  it('runs without STRIPE_SECRET_KEY and points the stripe client at its own port', async () => {
    expect(server.config.stripe.sandbox).to.equal(true);
    const apiUrl = server.config.stripe.apiUrl ?? '';
    expect(apiUrl).to.equal(server.stripe.apiUrl());
    const stripe = clientFor(apiUrl, server.config.stripe.secretKey);
    const prices = await stripe.prices.list({ lookup_keys: ['parley_basic_monthly'] });
    expect(prices.data[0]?.unit_amount).to.equal(2900);
  });

  it('serves the operator page at /sandbox/stripe on Parley', async () => {
    const res = await fetch(`${server.url}/sandbox/stripe`);
    expect(res.status).to.equal(200);
    expect(await res.text()).to.contain('Stripe sandbox');
  });

  it("hands out Checkout URLs on Parley's address", async () => {
    const stripe = clientFor(server.config.stripe.apiUrl ?? '', server.config.stripe.secretKey);
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: 'parley_pro_monthly', quantity: 1 }],
      success_url: `${server.url}/app/`,
      cancel_url: `${server.url}/app/`,
    });
    expect(session.url).to.equal(`${server.url}/sandbox/stripe/checkout/${session.id}`);
    const page = await fetch(session.url ?? '');
    expect(page.status).to.equal(200);
    expect(await page.text()).to.contain('Subscribe to Parley Pro');
  });
});
