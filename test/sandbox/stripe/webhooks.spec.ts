import { expect } from 'chai';
import Stripe from 'stripe';
import { signatureHeader } from '../../../server/sandbox/stripe';
import { waitFor } from '../../e2e/widgetHelpers';
import { type Fixture, startSandbox, WEBHOOK_SECRET } from './helpers';

describe('Stripe sandbox webhooks', () => {
  let f: Fixture;
  beforeEach(async () => {
    f = await startSandbox();
  });
  afterEach(async () => {
    await f.close();
  });

  it('sends events signed so that stripe.webhooks.constructEvent accepts them, shaped as Stripe shapes them', async () => {
    const customer = await f.stripe.customers.create({ email: 'hook@acme.test' });
    await f.sandbox.settled();
    const received = f.endpoint.received.find((r) => r.event.type === 'customer.created');
    expect(received, 'customer.created delivered').to.not.equal(undefined);
    const event = received?.event as Stripe.Event;
    expect(event.id).to.match(/^evt_/);
    expect(event.object).to.equal('event');
    expect(event.livemode).to.equal(false);
    expect(event.api_version).to.equal(Stripe.API_VERSION);
    expect((event.data.object as Stripe.Customer).id).to.equal(customer.id);
    expect(received?.signature).to.match(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(f.endpoint.rejected).to.deep.equal([]);
    expect(f.sandbox.deliveries().find((d) => d.eventId === event.id)).to.include({ status: 'succeeded' });
  });

  it('signs as Stripe does: a payload changed after signing, or signed with another secret, is refused by the client', () => {
    const payload = JSON.stringify({ id: 'evt_1', object: 'event' });
    const header = signatureHeader(payload, WEBHOOK_SECRET);
    const verifier = new Stripe('sk_test_x');
    expect(verifier.webhooks.constructEvent(payload, header, WEBHOOK_SECRET).id).to.equal('evt_1');
    expect(() => verifier.webhooks.constructEvent(payload.replace('evt_1', 'evt_2'), header, WEBHOOK_SECRET)).to.throw(
      Stripe.errors.StripeSignatureVerificationError,
    );
    expect(() => verifier.webhooks.constructEvent(payload, signatureHeader(payload, 'whsec_other'), WEBHOOK_SECRET)).to.throw(
      Stripe.errors.StripeSignatureVerificationError,
    );
  });

  it('retries with backoff while the endpoint does not answer 2xx, and records every attempt', async () => {
    f.endpoint.status = 500;
    const customer = await f.stripe.customers.create({ email: 'retry@acme.test' });
    const eventId = f.sandbox.events('customer.created').find((e) => (e.data.object as { id: string }).id === customer.id)?.id;
    // Let two attempts fail, then answer.
    await f.endpoint.waitFor(() => (f.sandbox.deliveries().find((d) => d.eventId === eventId)?.attempts.length ?? 0) >= 2);
    f.endpoint.status = 200;
    await f.sandbox.settled();
    const delivery = f.sandbox.deliveries().find((d) => d.eventId === eventId);
    expect(delivery?.status).to.equal('succeeded');
    expect(delivery?.attempts.length).to.be.at.least(3);
    expect(delivery?.attempts[0]?.status).to.equal(500);
    expect(f.endpoint.received.filter((r) => r.event.id === eventId)).to.have.length(1);
  });

  it("retries an event on its own schedule: meanwhile later events, the same customer's and others', go out", async () => {
    // Stripe's first retry comes an hour later; here a minute, longer than the test waits.
    const g = await startSandbox({ webhook: { secret: WEBHOOK_SECRET, retryDelaysMs: [60_000] } });
    try {
      g.sandbox.setWebhookUrl(g.endpoint.url);
      g.endpoint.refuses = (event) =>
        event.type === 'customer.created' && (event.data.object as Stripe.Customer).email === 'down@acme.test';
      const down = await g.stripe.customers.create({ email: 'down@acme.test' });
      const other = await g.stripe.customers.create({ email: 'other@acme.test' });
      await g.stripe.customers.update(down.id, { name: 'Down Inc.' });
      await waitFor('the later events', () => (g.endpoint.received.length >= 2 ? true : null));
      expect(g.endpoint.received.map((r) => [r.event.type, (r.event.data.object as Stripe.Customer).id])).to.deep.equal([
        ['customer.created', other.id],
        ['customer.updated', down.id],
      ]);
      const waiting = g.sandbox.deliveries().find((d) => d.type === 'customer.created' && d.status !== 'succeeded');
      expect(waiting).to.include({ status: 'pending' });
      expect(waiting?.attempts.map((a) => a.status)).to.deep.equal([503]);
    } finally {
      await g.close();
    }
  });

  it('gives up after the last retry and marks the delivery failed', async () => {
    f.endpoint.status = 503;
    await f.stripe.customers.create({ email: 'down@acme.test' });
    await f.sandbox.settled();
    const delivery = f.sandbox.deliveries()[0];
    expect(delivery?.status).to.equal('failed');
    expect(delivery?.attempts).to.have.length(4);
  });

  it('delivers an event five times when asked (duplicates carry the same event id)', async () => {
    await f.stripe.customers.create({ email: 'dup@acme.test' });
    await f.sandbox.settled();
    const eventId = f.sandbox.events('customer.created')[0]?.id ?? '';
    await f.sandbox.redeliver(eventId, 4);
    expect(f.endpoint.received.filter((r) => r.event.id === eventId)).to.have.length(5);
  });

  it('holds deliveries and releases them in reverse order', async () => {
    f.sandbox.holdWebhooks();
    const customer = await f.stripe.customers.create({ email: 'order@acme.test' });
    await f.stripe.customers.update(customer.id, { name: 'Order Inc.' });
    expect(f.endpoint.received).to.have.length(0);
    const order = f.sandbox.releaseWebhooks('reverse');
    await f.sandbox.settled();
    expect(f.endpoint.types()).to.deep.equal(['customer.updated', 'customer.created']);
    expect(f.endpoint.received.map((r) => r.event.id)).to.deep.equal(order);
  });

  it('keeps events for events.list and events.retrieve, newest first, filtered by type', async () => {
    const customer = await f.stripe.customers.create({ email: 'list@acme.test' });
    await f.stripe.paymentMethods.attach('pm_card_visa', { customer: customer.id });
    const all = await f.stripe.events.list({ limit: 10 });
    expect(all.data.map((e) => e.type)).to.deep.equal(['payment_method.attached', 'customer.created']);
    const created = await f.stripe.events.list({ type: 'customer.created' });
    expect(created.data).to.have.length(1);
    const one = await f.stripe.events.retrieve(created.data[0]?.id ?? '');
    expect((one.data.object as Stripe.Customer).email).to.equal('list@acme.test');
  });

  it('drops pending retries on close', async () => {
    f.endpoint.status = 500;
    f.sandbox.setWebhookUrl(f.endpoint.url);
    await f.stripe.customers.create({ email: 'closing@acme.test' });
    await f.sandbox.close();
    expect(f.sandbox.deliveries()[0]?.status).to.equal('dropped');
  });
});
