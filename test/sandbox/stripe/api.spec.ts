import { expect } from 'chai';
import type Stripe from 'stripe';
import { clientFor, type Fixture, startSandbox, stripeError } from './helpers';

describe('Stripe sandbox API through the official stripe client', () => {
  let f: Fixture;
  before(async () => {
    f = await startSandbox();
  });
  after(async () => {
    await f.close();
  });

  describe('authentication and errors', () => {
    it('answers a wrong secret key with a 401 authentication error and a masked key', async () => {
      const err = await stripeError(clientFor(f.apiUrl, 'sk_test_wrongwrongwrong1234').customers.list());
      expect(err.type).to.equal('StripeAuthenticationError');
      expect(err.statusCode).to.equal(401);
      expect(err.message).to.match(/^Invalid API Key provided: sk_test_\*+1234$/);
    });

    it('answers a request without a key with 401 and the Bearer hint', async () => {
      const res = await fetch(`${f.apiUrl}/v1/customers`);
      expect(res.status).to.equal(401);
      const body = (await res.json()) as { error: { type: string; message: string } };
      expect(body.error.type).to.equal('invalid_request_error');
      expect(body.error.message).to.contain('Authorization: Bearer');
    });

    it('answers an unknown object id with 404 resource_missing naming the param', async () => {
      const err = await stripeError(f.stripe.customers.retrieve('cus_doesnotexist'));
      expect(err.type).to.equal('StripeInvalidRequestError');
      expect(err.statusCode).to.equal(404);
      expect(err.code).to.equal('resource_missing');
      expect(err.param).to.equal('id');
      expect(err.message).to.equal("No such customer: 'cus_doesnotexist'");
    });

    it('refuses a parameter the endpoint does not take with parameter_unknown', async () => {
      const err = await stripeError(f.stripe.customers.create({ email: 'a@example.com', colour: 'blue' } as Stripe.CustomerCreateParams));
      expect(err.statusCode).to.equal(400);
      expect(err.code).to.equal('parameter_unknown');
      expect(err.param).to.equal('colour');
    });

    it('answers an unknown URL as Stripe does', async () => {
      const res = await fetch(`${f.apiUrl}/v1/nothing_here`, { headers: { authorization: 'Bearer sk_test_sandbox_0123456789abcdef' } });
      expect(res.status).to.equal(404);
      const body = (await res.json()) as { error: { message: string } };
      expect(body.error.message).to.match(/^Unrecognized request URL \(GET: \/v1\/nothing_here\)/);
    });
  });

  describe('products and prices', () => {
    it("holds Parley's plans as monthly and yearly prices found by lookup key, with the product expanded", async () => {
      const prices = await f.stripe.prices.list({ lookup_keys: ['parley_pro_monthly', 'parley_pro_yearly'], expand: ['data.product'] });
      expect(prices.object).to.equal('list');
      expect(prices.url).to.equal('/v1/prices');
      const byKey = Object.fromEntries(prices.data.map((p) => [p.lookup_key, p]));
      expect(byKey.parley_pro_monthly?.unit_amount).to.equal(7900);
      expect(byKey.parley_pro_monthly?.recurring?.interval).to.equal('month');
      expect(byKey.parley_pro_yearly?.recurring?.interval).to.equal('year');
      expect((byKey.parley_pro_yearly!.product as Stripe.Product).name).to.equal('Parley Pro');
      expect(prices.data.every((p) => p.livemode === false)).to.equal(true);
    });

    it('pages a list with limit, has_more and starting_after', async () => {
      const first = await f.stripe.prices.list({ limit: 2 });
      expect(first.data).to.have.length(2);
      expect(first.has_more).to.equal(true);
      const next = await f.stripe.prices.list({ limit: 2, starting_after: first.data[1]?.id });
      expect(next.data.map((p) => p.id)).to.not.include.members(first.data.map((p) => p.id));
    });
  });

  describe('customers', () => {
    it('creates a customer with address, tax id and metadata, and shows tax ids when expanded', async () => {
      const created = await f.stripe.customers.create({
        email: 'owner@acme.test',
        name: 'Acme Inc.',
        address: { line1: '1 Main St', city: 'Springfield', postal_code: '12345', country: 'US' },
        tax_id_data: [{ type: 'eu_vat', value: 'DE123456789' }],
        metadata: { accountId: 'acc_1' },
      });
      expect(created.id).to.match(/^cus_/);
      expect(created.object).to.equal('customer');
      expect(created.address?.city).to.equal('Springfield');
      expect(created.metadata).to.deep.equal({ accountId: 'acc_1' });
      const withTax = await f.stripe.customers.retrieve(created.id, { expand: ['tax_ids'] });
      expect((withTax as Stripe.Customer).tax_ids?.data[0]).to.include({ type: 'eu_vat', value: 'DE123456789', object: 'tax_id' });
      const taxIds = await f.stripe.customers.listTaxIds(created.id);
      expect(taxIds.data).to.have.length(1);
    });

    it('updates a customer (clearing a field with an empty string) and sends customer.updated', async () => {
      const c = await f.stripe.customers.create({ email: 'x@acme.test', phone: '+1 555' });
      const updated = await f.stripe.customers.update(c.id, { name: 'X Corp', phone: '', address: { country: 'DE', city: 'Berlin' } });
      expect(updated.name).to.equal('X Corp');
      expect(updated.phone).to.equal(null);
      expect(updated.address?.country).to.equal('DE');
      const event = f.sandbox.events('customer.updated').find((e) => (e.data.object as { id: string }).id === c.id);
      expect(event?.data.previous_attributes).to.include({ name: null, phone: '+1 555' });
    });

    it('finds customers by e-mail', async () => {
      await f.stripe.customers.create({ email: 'find-me@acme.test' });
      const list = await f.stripe.customers.list({ email: 'find-me@acme.test' });
      expect(list.data).to.have.length(1);
    });

    it('adds and removes customer tax ids', async () => {
      const c = await f.stripe.customers.create({ email: 't@acme.test' });
      const t = await f.stripe.customers.createTaxId(c.id, { type: 'gb_vat', value: 'GB123456789' });
      expect(t.id).to.match(/^txi_/);
      const deleted = await f.stripe.customers.deleteTaxId(c.id, t.id);
      expect(deleted.deleted).to.equal(true);
      expect((await f.stripe.customers.listTaxIds(c.id)).data).to.have.length(0);
    });
  });

  describe('idempotency', () => {
    it('replays the first answer for the same key and body', async () => {
      const a = await f.stripe.customers.create({ email: 'idem@acme.test' }, { idempotencyKey: 'key-1' });
      const b = await f.stripe.customers.create({ email: 'idem@acme.test' }, { idempotencyKey: 'key-1' });
      expect(b.id).to.equal(a.id);
      expect((await f.stripe.customers.list({ email: 'idem@acme.test' })).data).to.have.length(1);
    });

    it('refuses the same key with another body with an idempotency error', async () => {
      await f.stripe.customers.create({ email: 'idem2@acme.test' }, { idempotencyKey: 'key-2' });
      const err = await stripeError(f.stripe.customers.create({ email: 'other@acme.test' }, { idempotencyKey: 'key-2' }));
      expect(err.type).to.equal('StripeIdempotencyError');
      expect(err.statusCode).to.equal(400);
      expect(err.message).to.contain("Try using a key other than 'key-2'");
    });
  });

  describe('payment methods', () => {
    it('attaches a test card, makes it the default and lists it', async () => {
      const c = await f.stripe.customers.create({ email: 'card@acme.test' });
      const pm = await f.stripe.paymentMethods.attach('pm_card_visa', { customer: c.id });
      expect(pm.id).to.match(/^pm_/);
      expect(pm.card).to.include({ brand: 'visa', last4: '4242' });
      const updated = await f.stripe.customers.update(c.id, {
        invoice_settings: { default_payment_method: pm.id },
        expand: ['invoice_settings.default_payment_method'],
      });
      expect((updated.invoice_settings.default_payment_method as Stripe.PaymentMethod).card?.last4).to.equal('4242');
      const list = await f.stripe.customers.listPaymentMethods(c.id);
      expect(list.data.map((p) => p.id)).to.deep.equal([pm.id]);
      const detached = await f.stripe.paymentMethods.detach(pm.id);
      expect(detached.customer).to.equal(null);
      expect((await f.stripe.customers.retrieve(c.id)) as Stripe.Customer).to.have.nested.property(
        'invoice_settings.default_payment_method',
        null,
      );
    });

    it('declines attaching the 0002 card with card_declined / generic_decline and a 402', async () => {
      const c = await f.stripe.customers.create({ email: 'declined@acme.test' });
      const err = await stripeError(f.stripe.paymentMethods.attach('pm_card_chargeDeclined', { customer: c.id }));
      expect(err.type).to.equal('StripeCardError');
      expect(err.statusCode).to.equal(402);
      expect(err.code).to.equal('card_declined');
      expect(err.decline_code).to.equal('generic_decline');
      expect((await f.stripe.customers.listPaymentMethods(c.id)).data).to.have.length(0);
    });
  });

  describe('Checkout and portal sessions', () => {
    it('creates a subscription Checkout Session with a hosted URL, and shows its line items when expanded', async () => {
      const session = await f.stripe.checkout.sessions.create({
        mode: 'subscription',
        line_items: [{ price: 'parley_business_yearly', quantity: 1 }],
        success_url: 'http://parley.test/ok?session_id={CHECKOUT_SESSION_ID}',
        cancel_url: 'http://parley.test/account',
        client_reference_id: 'acc_9',
        metadata: { accountId: 'acc_9' },
      });
      expect(session.id).to.match(/^cs_test_/);
      expect(session).to.include({
        status: 'open',
        payment_status: 'unpaid',
        mode: 'subscription',
        amount_total: 218900,
        client_reference_id: 'acc_9',
      });
      expect(session.url).to.equal(`${f.apiUrl}/checkout/${session.id}`);
      const again = await f.stripe.checkout.sessions.retrieve(session.id, { expand: ['line_items'] });
      expect(again.line_items?.data[0]?.price?.id).to.equal('parley_business_yearly');
      const items = await f.stripe.checkout.sessions.listLineItems(session.id);
      expect(items.data[0]?.amount_total).to.equal(218900);
    });

    it('refuses a Checkout Session without line items, or with an unknown price, naming the param', async () => {
      const none = await stripeError(f.stripe.checkout.sessions.create({ mode: 'subscription', success_url: 'http://parley.test/ok' }));
      expect(none.code).to.equal('parameter_missing');
      expect(none.param).to.equal('line_items');
      const unknown = await stripeError(
        f.stripe.checkout.sessions.create({
          mode: 'subscription',
          success_url: 'http://parley.test/ok',
          line_items: [{ price: 'price_nope', quantity: 1 }],
        }),
      );
      expect(unknown.statusCode).to.equal(404);
      expect(unknown.param).to.equal('line_items[0][price]');
    });

    it('creates a setup Checkout Session (currency, no line items) whose page saves a card through a SetupIntent, charging nothing', async () => {
      const customer = await f.stripe.customers.create({ email: 'ada@example.com' });
      const noCurrency = await stripeError(
        f.stripe.checkout.sessions.create({ mode: 'setup', customer: customer.id, success_url: 'http://parley.test/ok' }),
      );
      expect(noCurrency.param).to.equal('currency');
      const withItems = await stripeError(
        f.stripe.checkout.sessions.create({
          mode: 'setup',
          currency: 'usd',
          customer: customer.id,
          success_url: 'http://parley.test/ok',
          line_items: [{ price: 'parley_basic_monthly', quantity: 1 }],
        }),
      );
      expect(withItems.param).to.equal('line_items');
      const session = await f.stripe.checkout.sessions.create({
        mode: 'setup',
        currency: 'usd',
        customer: customer.id,
        success_url: 'http://parley.test/ok?session_id={CHECKOUT_SESSION_ID}',
        setup_intent_data: { metadata: { accountId: 'acc_7' } },
        custom_text: { submit: { message: 'Charged when the trial ends.' } },
      });
      expect(session).to.include({
        mode: 'setup',
        status: 'open',
        payment_status: 'no_payment_required',
        amount_total: null,
        setup_intent: null,
      });
      const page = await (await fetch(session.url ?? '')).text();
      expect(page).to.include('Save card').and.include('Charged when the trial ends.').and.not.include('Total due today');

      const post = (cardnumber: string) =>
        fetch(session.url ?? '', {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ email: 'ada@example.com', cardnumber, expiry: '12 / 34', cvc: '123', name: 'Ada' }),
        });
      expect((await post('4000 0000 0000 0002')).status).to.equal(402);
      expect((await f.stripe.customers.listPaymentMethods(customer.id)).data).to.have.length(0);
      const saved = await post('4242 4242 4242 4242');
      expect(saved.headers.get('location')).to.equal(`http://parley.test/ok?session_id=${session.id}`);

      const done = await f.stripe.checkout.sessions.retrieve(session.id, { expand: ['setup_intent'] });
      expect(done.status).to.equal('complete');
      const intent = done.setup_intent as Stripe.SetupIntent;
      expect(intent).to.include({ object: 'setup_intent', status: 'succeeded', usage: 'off_session', customer: customer.id });
      expect(intent.metadata).to.deep.equal({ accountId: 'acc_7' });
      const card = await f.stripe.paymentMethods.retrieve(String(intent.payment_method));
      expect(card).to.include({ customer: customer.id });
      // As at Stripe, the card is attached but not the customer's default, and nothing was invoiced.
      expect((await f.stripe.customers.retrieve(customer.id)) as Stripe.Customer).to.have.nested.property(
        'invoice_settings.default_payment_method',
        null,
      );
      expect((await f.stripe.invoices.list({ customer: customer.id })).data).to.have.length(0);
      expect(f.sandbox.events('setup_intent.succeeded').map((e) => e.data.object.id)).to.include(intent.id);
      expect(f.sandbox.events('checkout.session.completed').map((e) => e.data.object.id)).to.include(session.id);
    });

    it("opens a portal session, and refuses a cancel flow for another customer's subscription", async () => {
      const owner = await f.stripe.customers.create({ email: 'owner2@acme.test' });
      const other = await f.stripe.customers.create({ email: 'other@acme.test' });
      await f.stripe.paymentMethods.attach('pm_card_visa', { customer: owner.id });
      const sub = await f.stripe.subscriptions.create({
        customer: owner.id,
        items: [{ price: 'parley_basic_monthly' }],
        trial_period_days: 10,
      });
      const portal = await f.stripe.billingPortal.sessions.create({ customer: owner.id, return_url: 'http://parley.test/account' });
      expect(portal.id).to.match(/^bps_/);
      expect(portal.url).to.equal(`${f.apiUrl}/portal/${portal.id}`);
      const err = await stripeError(
        f.stripe.billingPortal.sessions.create({
          customer: other.id,
          flow_data: { type: 'subscription_cancel', subscription_cancel: { subscription: sub.id } },
        }),
      );
      expect(err.statusCode).to.equal(400);
      expect(err.param).to.equal('flow_data[subscription_cancel][subscription]');
    });
  });
});
