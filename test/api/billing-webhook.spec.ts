/**
 * POST /v1/billing/stripe-webhook against the Stripe sandbox: only Stripe's signature, fresh, over the raw body
 * is taken; each event is taken once; events in any order leave the account as Stripe has it.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import request from 'supertest';
import { createSync } from '../../server/billing/sync';
import { useServer } from '../helpers/app';
import { endTrialNow, trialAccount as newTrial, payCheckout } from '../helpers/billing';

describe('the Stripe webhook', function () {
  this.timeout(60_000);
  const server = useServer();

  const as = (token: string) => ({ Authorization: `Bearer ${token}` });
  const sign = (payload: string, timestamp = Math.floor(Date.now() / 1000)) =>
    server.parley.billing.stripe.webhooks.generateTestHeaderString({ payload, secret: server.config.stripe.webhookSecret, timestamp });
  const deliver = (payload: string, signature?: string) => {
    const req = request(server.url).post('/v1/billing/stripe-webhook').set('Content-Type', 'application/json');
    return (signature === undefined ? req : req.set('Stripe-Signature', signature)).send(payload);
  };

  const trialAccount = () => newTrial(server);

  /**
   * A real event of the sandbox about this customer, under a new id so that the sandbox's own delivery of it
   * (settled first) does not count.
   */
  const eventAbout = async (customerId: string, type: string) => {
    await server.stripe.settled();
    const event = server.stripe
      .events(type)
      .find((e) => (e.data.object as { customer?: string }).customer === customerId || e.data.object.id === customerId);
    if (!event) throw new Error(`no ${type} event for ${customerId}`);
    return { ...event, id: `evt_test_${randomBytes(8).toString('hex')}` };
  };

  describe('refuses with 400 and changes nothing', () => {
    it('a wrong signature', async () => {
      const { customerId, accountId } = await trialAccount();
      const event = await eventAbout(customerId, 'customer.subscription.created');
      await server.models.Account.updateOne({ _id: accountId }, { $set: { subscriptionStatus: 'stale' } });
      const payload = JSON.stringify(event);
      const forged = server.parley.billing.stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_not_the_secret' });
      const res = await deliver(payload, forged).expect(400);
      expect(res.body).to.deep.equal({ Message: 'The Stripe signature is missing, wrong or too old.', Error: 'bad_signature' });
      expect(await server.models.StripeEvent.countDocuments({ eventId: event.id })).to.equal(0);
      expect((await server.models.Account.findById(accountId))?.subscriptionStatus).to.equal('stale');
    });

    it('a missing signature', async () => {
      const { customerId } = await trialAccount();
      const event = await eventAbout(customerId, 'customer.created');
      await deliver(JSON.stringify(event)).expect(400);
      expect(await server.models.StripeEvent.countDocuments({ eventId: event.id })).to.equal(0);
    });

    it('a signature made six minutes ago (a replay)', async () => {
      const { customerId, accountId } = await trialAccount();
      const event = await eventAbout(customerId, 'customer.subscription.created');
      await server.models.Account.updateOne({ _id: accountId }, { $set: { subscriptionStatus: 'stale' } });
      const payload = JSON.stringify(event);
      await deliver(payload, sign(payload, Math.floor(Date.now() / 1000) - 6 * 60)).expect(400);
      expect((await server.models.Account.findById(accountId))?.subscriptionStatus).to.equal('stale');
    });

    it('a signed body that is not an event, or an event about a Checkout session Stripe does not have', async () => {
      const { customerId, accountId } = await trialAccount();
      const event = await eventAbout(customerId, 'customer.subscription.created');
      await server.models.Account.updateOne({ _id: accountId }, { $set: { subscriptionStatus: 'stale' } });
      const bodies = [
        '{}',
        '[]',
        '"evt_1"',
        JSON.stringify({ ...event, id: 42 }),
        JSON.stringify({ ...event, type: undefined }),
        JSON.stringify({ ...event, data: null }),
        JSON.stringify({ ...event, data: { object: 'cus_1' } }),
        JSON.stringify({ ...event, data: { object: { ...event.data.object, customer: 7 } } }),
        JSON.stringify({
          ...event,
          type: 'checkout.session.completed',
          data: { object: { id: 'cs_test_NoSuchSession', object: 'checkout.session', customer: customerId } },
        }),
      ];
      for (const payload of bodies) {
        const res = await deliver(payload, sign(payload));
        expect(res.status, payload.slice(0, 120)).to.equal(400);
        expect(res.body).to.have.keys(['Message', 'Error']);
      }
      expect(await server.models.StripeEvent.countDocuments({ eventId: event.id })).to.equal(0);
      expect((await server.models.Account.findById(accountId))?.subscriptionStatus).to.equal('stale');
    });

    it('a body changed after signing', async () => {
      const { customerId } = await trialAccount();
      const event = await eventAbout(customerId, 'customer.created');
      const payload = JSON.stringify(event);
      await deliver(payload.replace(customerId, 'cus_someone_else'), sign(payload)).expect(400);
    });
  });

  it('takes an event about an account its owner deleted while Parley was reading Stripe, and leaves it deleted', async () => {
    const { customerId, accountId } = await trialAccount();
    await server.stripe.settled();
    // The owner's deletion lands between the account's read and its write: at Parley's first call to Stripe.
    const sync = createSync({
      models: server.models,
      stripe: server.parley.billing.stripe,
      call: async (work) => {
        await server.models.Account.deleteOne({ _id: accountId });
        return work();
      },
    });
    expect(await sync.syncCustomer(customerId)).to.equal(null);
    expect(await server.models.Account.countDocuments({ _id: accountId })).to.equal(0);
    // And through the webhook: an account gone answers 200, so Stripe does not retry it for days.
    const event = await eventAbout(customerId, 'customer.subscription.created');
    const payload = JSON.stringify(event);
    await deliver(payload, sign(payload)).expect(200);
    expect(await server.models.Account.countDocuments({ _id: accountId })).to.equal(0);
  });

  it('takes an event delivered five times once', async () => {
    const { customerId, accountId } = await trialAccount();
    const event = await eventAbout(customerId, 'customer.subscription.created');
    await server.models.Account.updateOne({ _id: accountId }, { $set: { subscriptionStatus: 'stale' } });
    const payload = JSON.stringify(event);
    const answers = [];
    for (let i = 0; i < 5; i += 1) answers.push((await deliver(payload, sign(payload)).expect(200)).body);
    expect(answers).to.deep.equal([{ received: true }, ...Array(4).fill({ received: true, duplicate: true })]);
    expect(await server.models.StripeEvent.countDocuments({ eventId: event.id })).to.equal(1);
    expect((await server.models.Account.findById(accountId))?.subscriptionStatus).to.equal('trialing');
  });

  describe("a checkout's event that comes after a later Checkout", () => {
    /** Pays a Checkout for `plan` on the hosted page and comes back through the return page, as the browser does. */
    const checkout = async (trial: { accountId: string; token: string }, plan: string) => {
      const { body } = await request(server.url)
        .post(`/v1/accounts/${trial.accountId}/create_checkout_session`)
        .set(as(trial.token))
        .send({ plan })
        .expect(200);
      const paid = await payCheckout(body.url);
      expect(paid.status).to.equal(303);
      expect((await fetch(paid.location, { redirect: 'manual' })).status).to.equal(303);
      return String(body.url).split('/').pop() ?? '';
    };

    /** Pro paid, then Business in a second Checkout, while Stripe's deliveries wait (an endpoint that answered 503). */
    const proThenBusiness = async () => {
      const trial = await trialAccount();
      // After the trial, Checkout subscribes (during it, it only saves the card).
      await endTrialNow(server, trial.accountId);
      await server.stripe.settled();
      server.stripe.holdWebhooks();
      try {
        const pro = await checkout(trial, 'parley_pro_monthly');
        await checkout(trial, 'parley_business_monthly');
        const late = server.stripe.events('checkout.session.completed').find((e) => e.data.object.id === pro);
        if (!late) throw new Error('no checkout.session.completed for the Pro checkout');
        return { trial, late };
      } finally {
        // Stripe's retries: every held event, the Pro checkout's first, now arrives after the Business checkout.
        server.stripe.releaseWebhooks();
      }
    };

    const expectBusinessPaid = async (accountId: string, customerId: string) => {
      const subscriptions = server.stripe.state.data.subscriptions.filter((s) => s.customer === customerId);
      const live = subscriptions.filter((s) => s.status !== 'canceled');
      expect(live.map((s) => [s.items.data[0]?.price.id, s.status])).to.deep.equal([['parley_business_monthly', 'active']]);
      expect(await server.models.Account.findById(accountId)).to.include({
        planStripeId: 'parley_business_monthly',
        subscriptionStatus: 'active',
        stripeSubscriptionId: live[0]?.id,
        paymentType: 'card',
      });
    };

    it("never cancels the newer subscription when Stripe's retry of the first checkout's event arrives", async () => {
      const { trial, late } = await proThenBusiness();
      await server.stripe.settled();
      await server.stripe.redeliver(late.id);
      await server.stripe.settled();
      expect(server.stripe.deliveries().filter((d) => d.eventId === late.id && d.status === 'succeeded')).to.have.length(2);
      await expectBusinessPaid(trial.accountId, trial.customerId);
    });

    it("does the same when the first checkout's event comes again under a new id, signed afresh", async () => {
      const { trial, late } = await proThenBusiness();
      await server.stripe.settled();
      const payload = JSON.stringify({ ...late, id: `evt_test_${randomBytes(8).toString('hex')}` });
      expect((await deliver(payload, sign(payload)).expect(200)).body).to.deep.equal({ received: true });
      await expectBusinessPaid(trial.accountId, trial.customerId);
    });
  });

  it("leaves the account as Stripe has it whatever the order and repetition of the sandbox's deliveries", async () => {
    const trial = await trialAccount();
    await server.stripe.settled();
    server.stripe.holdWebhooks();
    // The trial is over in Parley, so Checkout charges at once.
    await server.models.Account.updateOne({ _id: trial.accountId }, { $set: { trialEndAt: new Date(Date.now() - 1000) } });
    // Checkout paid, and nobody comes back through the return page: only webhooks tell Parley.
    const { body } = await request(server.url)
      .post(`/v1/accounts/${trial.accountId}/create_checkout_session`)
      .set(as(trial.token))
      .send({ plan: 'parley_pro_monthly' })
      .expect(200);
    expect((await payCheckout(body.url)).status).to.equal(303);
    // Then cancelled in the portal.
    const portal = await request(server.url)
      .post(`/v1/accounts/${trial.accountId}/create_portal_session`)
      .set(as(trial.token))
      .send({ type: 'home', uID: trial.userId })
      .expect(200);
    const subscription = server.stripe.state.data.subscriptions.find((s) => s.customer === trial.customerId && s.status === 'active');
    const cancelled = await fetch(`${portal.body.url}/cancel`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ subscription: subscription?.id ?? '' }),
    });
    expect(cancelled.status).to.equal(303);
    expect((await server.models.Account.findById(trial.accountId))?.paymentType).to.equal('none');

    const released = server.stripe.releaseWebhooks('reverse');
    expect(released.length).to.be.greaterThan(3);
    await server.stripe.settled();
    for (const eventId of released.slice(0, 3)) await server.stripe.redeliver(eventId, 2);
    await server.stripe.settled();

    const account = await server.models.Account.findById(trial.accountId);
    expect(account).to.include({
      planStripeId: 'parley_pro_monthly',
      paymentType: 'card',
      last4: '4242',
      subscriptionStatus: 'active',
      delinquent: false,
    });
    expect(account?.cancelAt?.getTime()).to.equal((subscription?.items.data[0]?.current_period_end ?? 0) * 1000);
    expect(await server.models.StripeEvent.countDocuments({ eventId: { $in: released } })).to.equal(released.length);
    const deliveries = server.stripe.deliveries().filter((d) => released.includes(d.eventId));
    expect(deliveries.every((d) => d.status === 'succeeded')).to.equal(true);
  });
});
