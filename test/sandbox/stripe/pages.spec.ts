import { expect } from 'chai';
import type { Page } from 'playwright-core';
import type Stripe from 'stripe';
import { useBrowser } from '../../helpers/browser';
import { type Fixture, startSandbox } from './helpers';

const DAY = 86_400;

async function fillCard(page: Page, number: string): Promise<void> {
  await page.fill('#cardnumber', number);
  await page.fill('#expiry', '12 / 34');
  await page.fill('#cvc', '123');
}

describe('Stripe sandbox hosted pages in a browser', function () {
  this.timeout(60_000);
  const b = useBrowser();
  let f: Fixture;
  before(async () => {
    f = await startSandbox();
  });
  after(async () => {
    await f.close();
  });

  async function checkoutSession(
    email: string,
    extra: Partial<Stripe.Checkout.SessionCreateParams> = {},
  ): Promise<Stripe.Checkout.Session> {
    return f.stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: 'parley_pro_monthly', quantity: 1 }],
      customer_email: email,
      success_url: `${f.apiUrl}/?done={CHECKOUT_SESSION_ID}`,
      cancel_url: `${f.apiUrl}/?canceled`,
      ...extra,
    });
  }

  it('Checkout: the 0002 card shows the decline and creates nothing; 4242 subscribes and returns to success_url', async () => {
    const session = await checkoutSession('buyer@acme.test');
    const { page } = b;
    await page.goto(session.url ?? '');
    await page.getByText('Subscribe to Parley Pro').waitFor();
    await fillCard(page, '4000 0000 0000 0002');
    await page.click('#checkout-submit');
    expect(await page.textContent('#checkout-error')).to.equal('Your card was declined.');
    expect(f.sandbox.state.data.customers).to.have.length(0);
    expect(f.sandbox.state.data.subscriptions).to.have.length(0);
    expect((await f.stripe.checkout.sessions.retrieve(session.id)).status).to.equal('open');

    await fillCard(page, '4242 4242 4242 4242');
    await page.fill('#name', 'Jane Buyer');
    await page.click('#checkout-submit');
    await page.waitForURL((url) => url.searchParams.get('done') === session.id);

    const done = await f.stripe.checkout.sessions.retrieve(session.id, { expand: ['subscription', 'invoice'] });
    expect(done.status).to.equal('complete');
    expect(done.payment_status).to.equal('paid');
    expect(done.customer_details).to.include({ email: 'buyer@acme.test', name: 'Jane Buyer' });
    expect((done.subscription as Stripe.Subscription).status).to.equal('active');
    expect((done.invoice as Stripe.Invoice).status).to.equal('paid');
    const customer = (await f.stripe.customers.retrieve(done.customer as string)) as Stripe.Customer;
    expect(customer).to.include({ email: 'buyer@acme.test', name: 'Jane Buyer' });
    await f.sandbox.settled();
    expect(f.endpoint.types()).to.include.members([
      'customer.created',
      'payment_method.attached',
      'customer.subscription.created',
      'invoice.paid',
      'checkout.session.completed',
    ]);
  });

  it('Portal: cancel at period end from the subscription_cancel flow, back to the return URL', async () => {
    const customer = await f.stripe.customers.create({ email: 'portal@acme.test', name: 'Portal Co' });
    await f.sandbox.addCard(customer.id, 'pm_card_visa', { makeDefault: true });
    const sub = await f.stripe.subscriptions.create({ customer: customer.id, items: [{ price: 'parley_basic_monthly' }] });
    const portal = await f.stripe.billingPortal.sessions.create({
      customer: customer.id,
      return_url: `${f.apiUrl}/?back`,
      flow_data: {
        type: 'subscription_cancel',
        subscription_cancel: { subscription: sub.id },
        after_completion: { type: 'redirect', redirect: { return_url: `${f.apiUrl}/?canceled-in-portal` } },
      },
    });
    const { page } = b;
    await page.goto(portal.url);
    await page.locator('#portal-cancel-explainer').waitFor();
    await page.click('#portal-cancel-confirm');
    await page.waitForURL((url) => url.searchParams.has('canceled-in-portal'));
    const after = await f.stripe.subscriptions.retrieve(sub.id);
    expect(after.cancel_at_period_end).to.equal(true);
    expect(after.status).to.equal('active');
    await f.sandbox.settled();
    const updated = f.endpoint.received.find(
      (r) => r.event.type === 'customer.subscription.updated' && (r.event.data.object as Stripe.Subscription).id === sub.id,
    );
    expect((updated?.event.data.object as Stripe.Subscription | undefined)?.cancel_at_period_end).to.equal(true);
  });

  it('Portal: a new card after a failed renewal pays the open invoice and lists it as paid', async () => {
    const customer = await f.stripe.customers.create({ email: 'late@acme.test' });
    await f.sandbox.addCard(customer.id, '4000000000000341', { makeDefault: true });
    const sub = await f.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: 'parley_pro_monthly' }],
      trial_period_days: 3,
    });
    f.sandbox.advanceClock(4 * DAY);
    expect((await f.stripe.subscriptions.retrieve(sub.id)).status).to.equal('past_due');

    const portal = await f.stripe.billingPortal.sessions.create({ customer: customer.id, return_url: `${f.apiUrl}/` });
    const { page } = b;
    await page.goto(portal.url);
    await page.getByText('Your last payment failed').waitFor();
    await page.click('#portal-update-card');
    await fillCard(page, '4242424242424242');
    await page.click('#portal-card-save');
    await page.locator('#portal-notice').waitFor();
    expect(await page.textContent('#portal-card')).to.contain('Visa •••• 4242');
    expect(await page.textContent('#portal-invoices')).to.contain('paid');
    expect((await f.stripe.subscriptions.retrieve(sub.id)).status).to.equal('active');
  });

  it("Portal: every page and form of a session it does not know answers 404 'This session has expired'", async () => {
    const customer = await f.stripe.customers.create({ email: 'gone@acme.test' });
    const portal = await f.stripe.billingPortal.sessions.create({ customer: customer.id, return_url: `${f.apiUrl}/?back` });
    const base = portal.url.replace(/\/portal\/[^/?]+.*$/, '/portal/bps_test_gone');
    const form = { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' };
    for (const [url, init] of [
      [base, {}],
      [`${base}/cancel`, {}],
      [`${base}/cancel`, form],
      [`${base}/renew`, form],
      [`${base}/payment-method`, {}],
      [`${base}/payment-method`, form],
    ] as const) {
      const res = await fetch(url, { ...init, redirect: 'manual' });
      expect(res.status, `${init === form ? 'POST' : 'GET'} ${url}`).to.equal(404);
      expect(await res.text()).to.contain('This session has expired');
    }
  });

  it('Operator page: lists the subscription and moves the clock to its trial end, which charges the first invoice', async () => {
    const customer = await f.stripe.customers.create({ email: 'operator@acme.test' });
    await f.sandbox.addCard(customer.id, 'pm_card_visa', { makeDefault: true });
    const sub = await f.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: 'parley_basic_monthly' }],
      trial_period_days: 14,
    });
    const { page } = b;
    await page.goto(`${f.apiUrl}/`);
    await page.locator(`#op-subscriptions tr[data-subscription="${sub.id}"]`).getByText('trialing').waitFor();
    await page.click('#op-advance-trial');
    await page.locator(`#op-subscriptions tr[data-subscription="${sub.id}"]`).getByText('active').waitFor();
    expect((await f.stripe.subscriptions.retrieve(sub.id)).status).to.equal('active');
    expect(f.sandbox.now()).to.be.at.least(sub.trial_end ?? 0);
    await f.sandbox.settled();
    await page.reload();
    expect(await page.locator('#op-deliveries tr[data-event]').count()).to.be.greaterThan(0);
  });
});
