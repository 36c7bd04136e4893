/**
 * The account and billing calls against the Stripe sandbox: the trial in Stripe, Checkout, the portal, plan
 * changes with proration, invoices, usage and Account Info, each with its 400, 403 and foreign-account 404.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { DEFAULT_CONSOLE_DIR } from '../../server/app';
import { createUserInDb } from '../factories';
import { useServer } from '../helpers/app';
import { endTrialNow, trialAccount as newTrial, payCheckout, type TrialAccount as Trial } from '../helpers/billing';

describe('account and billing calls', function () {
  this.timeout(60_000);
  const server = useServer();

  const api = () => request(server.url);
  const as = (token: string) => ({ Authorization: `Bearer ${token}` });

  const trialAccount = () => newTrial(server);

  /** A trial account that chose `plan` through Checkout with a working card, its trial then ended: it paid. */
  const payingAccount = async (plan = 'parley_basic_monthly'): Promise<Trial> => {
    const trial = await trialAccount();
    const { body } = await api()
      .post(`/v1/accounts/${trial.accountId}/create_checkout_session`)
      .set(as(trial.token))
      .send({ plan })
      .expect(200);
    const paid = await payCheckout(body.url);
    expect(paid.status).to.equal(303);
    const back = await fetch(paid.location, { redirect: 'manual' });
    expect(back.status).to.equal(303);
    await endTrialNow(server, trial.accountId);
    return trial;
  };

  /** A non-admin in the account of `trial`. */
  const member = async (trial: Trial) => {
    const account = await server.models.Account.findById(trial.accountId);
    if (!account) throw new Error('no account');
    return (await createUserInDb(server, { admin: false, account })).token;
  };

  it('never lets the Stripe secret key, the webhook secret or a card number reach the console or a log line', async () => {
    const written: string[] = [];
    const streams = [process.stdout, process.stderr] as const;
    const originals = streams.map((stream) => stream.write.bind(stream));
    streams.forEach((stream, i) => {
      stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
        written.push(String(chunk));
        return (originals[i] as (...args: unknown[]) => boolean)(chunk, ...rest);
      }) as typeof stream.write;
    });
    const answers: string[] = [];
    try {
      const trial = await trialAccount();
      const checkout = await api()
        .post(`/v1/accounts/${trial.accountId}/create_checkout_session`)
        .set(as(trial.token))
        .send({ plan: 'parley_pro_monthly' })
        .expect(200);
      answers.push(JSON.stringify(checkout.body));
      await payCheckout(checkout.body.url, '4000 0000 0000 0002');
      const paid = await payCheckout(checkout.body.url);
      await fetch(paid.location, { redirect: 'manual' });
      await endTrialNow(server, trial.accountId);
      const account = await server.models.Account.findById(trial.accountId);
      server.stripe.addCard(account?.stripeCustomerId ?? '', '4000000000000341', { makeDefault: true });
      await server.parley.billing.stripe.subscriptions.update(account?.stripeSubscriptionId ?? '', {
        default_payment_method:
          server.stripe.state.data.customers.find((c) => c.id === account?.stripeCustomerId)?.invoice_settings.default_payment_method ?? '',
      });
      await api().post(`/v1/accounts/${trial.accountId}/upgrade/parley_business_monthly`).set(as(trial.token)).expect(402);
      await request(server.url).post('/v1/billing/stripe-webhook').set('Stripe-Signature', 't=1,v1=bad').send('{}').expect(400);
      // The new card reaches Parley through the webhooks queued behind the trial's end.
      await server.stripe.settled();
      for (const path of [
        '/v1/users/current',
        `/v1/accounts/${trial.accountId}/invoices`,
        `/v1/accounts/${trial.accountId}/next-invoice`,
      ]) {
        answers.push(JSON.stringify((await api().get(path).set(as(trial.token)).expect(200)).body));
      }
      await server.stripe.settled();
    } finally {
      streams.forEach((stream, i) => {
        stream.write = originals[i] as typeof stream.write;
      });
    }
    const everything = [...written, ...answers].join('\n');
    const consoleBundle = readdirSync(DEFAULT_CONSOLE_DIR, { recursive: true })
      .map((file) => path.join(DEFAULT_CONSOLE_DIR, String(file)))
      .filter((file) => file.endsWith('.js'))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    for (const secret of [
      server.config.stripe.secretKey,
      server.config.stripe.webhookSecret,
      '4242424242424242',
      '4242 4242 4242 4242',
      '4000000000000341',
      '4000 0000 0000 0002',
    ]) {
      expect(everything.includes(secret), `found ${secret.slice(0, 7)}… in a log line or an answer`).to.equal(false);
      expect(consoleBundle.includes(secret)).to.equal(false);
    }
    expect(answers.join('')).to.include('"last4":"0341"');
  });

  describe('the trial', () => {
    it('starts in Stripe as a trialing subscription that ends with the trial and cancels without a card', async () => {
      const { accountId } = await trialAccount();
      const account = await server.models.Account.findById(accountId);
      const subscription = server.stripe.state.data.subscriptions.find((s) => s.id === account?.stripeSubscriptionId);
      expect(subscription?.status).to.equal('trialing');
      expect(subscription?.trial_settings.end_behavior.missing_payment_method).to.equal('cancel');
      expect(subscription?.trial_end).to.equal(Math.floor((account?.trialEndAt?.getTime() ?? 0) / 1000));
      expect(account?.subscriptionStatus).to.equal('trialing');
    });
  });

  describe('POST /v1/accounts/{id}/create_checkout_session', () => {
    it('answers the URL of a Checkout page for the plan; after the trial paying it puts the account on the plan with the card', async () => {
      const trial = await trialAccount();
      // The trial is over in Parley (its end in Stripe not yet told): Checkout subscribes and charges at once.
      await server.models.Account.updateOne({ _id: trial.accountId }, { $set: { trialEndAt: new Date(Date.now() - 1000) } });
      const { body } = await api()
        .post(`/v1/accounts/${trial.accountId}/create_checkout_session`)
        .set(as(trial.token))
        .send({ plan: 'parley_pro_monthly' })
        .expect(200);
      expect(body.url).to.match(/\/sandbox\/stripe\/checkout\/cs_/);
      const paid = await payCheckout(body.url);
      expect(paid.location).to.include('/v1/billing/checkout-return?session_id=cs_');
      const back = await fetch(paid.location, { redirect: 'manual' });
      expect(back.headers.get('location')).to.equal(`${server.url}/app/#/thank-you-for-upgrading`);
      const me = await api().get('/v1/users/current').set(as(trial.token)).expect(200);
      expect(me.body.account).to.include({ state: 'paying', paymentType: 'card', brand: 'visa', last4: '4242', delinquent: false });
      expect(me.body.account.plan.stripeId).to.equal('parley_pro_monthly');
      // The trial subscription made way for the paid one.
      const subscriptions = server.stripe.state.data.subscriptions.filter(
        (s) => s.customer === server.stripe.state.data.customers.find((c) => c.metadata.accountId === trial.accountId)?.id,
      );
      expect(subscriptions.map((s) => s.status).sort()).to.deep.equal(['active', 'canceled']);
    });

    it('leaves everything as it was when the card is declined', async () => {
      const trial = await trialAccount();
      const { body } = await api()
        .post(`/v1/accounts/${trial.accountId}/create_checkout_session`)
        .set(as(trial.token))
        .send({ plan: 'parley_pro_monthly' })
        .expect(200);
      const refused = await payCheckout(body.url, '4000 0000 0000 0002');
      expect(refused.status).to.equal(402);
      expect(refused.body).to.include('Your card was declined.');
      const account = await server.models.Account.findById(trial.accountId);
      expect(account).to.include({ planStripeId: 'parley_basic_monthly', paymentType: 'none', subscriptionStatus: 'trialing' });
    });

    it('answers 400 for a plan that is not in the catalog, or the Custom plan', async () => {
      const trial = await trialAccount();
      const unknown = await api()
        .post(`/v1/accounts/${trial.accountId}/create_checkout_session`)
        .set(as(trial.token))
        .send({ plan: 'parley_gold' })
        .expect(400);
      expect(unknown.body.Message).to.include('Unknown plan');
      await api()
        .post(`/v1/accounts/${trial.accountId}/create_checkout_session`)
        .set(as(trial.token))
        .send({ plan: 'parley_custom_monthly' })
        .expect(400);
      await api().post(`/v1/accounts/${trial.accountId}/create_checkout_session`).set(as(trial.token)).send({}).expect(400);
    });

    it('answers 403 to a non-admin and 404 for another account', async () => {
      const trial = await trialAccount();
      const other = await trialAccount();
      const res = await api()
        .post(`/v1/accounts/${trial.accountId}/create_checkout_session`)
        .set(as(await member(trial)))
        .send({ plan: 'parley_pro_monthly' })
        .expect(403);
      expect(res.body.Error).to.equal('admin_only');
      await api()
        .post(`/v1/accounts/${other.accountId}/create_checkout_session`)
        .set(as(trial.token))
        .send({ plan: 'parley_pro_monthly' })
        .expect(404);
    });
  });

  describe('POST /v1/accounts/{id}/upgrade/{planStripeId}', () => {
    it('switches a paying account to the annual plan at once, charging the prorated difference', async () => {
      const paying = await payingAccount();
      const before = await api().get(`/v1/accounts/${paying.accountId}/invoices`).set(as(paying.token)).expect(200);
      const res = await api().post(`/v1/accounts/${paying.accountId}/upgrade/parley_basic_yearly`).set(as(paying.token)).expect(200);
      expect(res.body.account.plan).to.include({ stripeId: 'parley_basic_yearly', duration: 'yearly' });
      const after = await api().get(`/v1/accounts/${paying.accountId}/invoices`).set(as(paying.token)).expect(200);
      expect(after.body).to.have.length(before.body.length + 1);
      const newest = after.body[0];
      // A year (11 months) less the unused part of the month already paid.
      expect(newest.amount).to.be.within(2900 * 10, 2900 * 11);
      expect(newest.stripePlanId).to.equal('parley_basic_yearly');
    });

    it('changes nothing when the card on file is refused', async () => {
      const paying = await payingAccount();
      const account = await server.models.Account.findById(paying.accountId);
      const customer = account?.stripeCustomerId ?? '';
      const failing = server.stripe.addCard(customer, '4000000000000341', { makeDefault: true });
      await server.parley.billing.stripe.subscriptions.update(account?.stripeSubscriptionId ?? '', { default_payment_method: failing.id });
      await server.parley.billing.syncCustomer(customer);
      expect((await server.models.Account.findById(paying.accountId))?.last4).to.equal(failing.card.last4);
      const res = await api().post(`/v1/accounts/${paying.accountId}/upgrade/parley_business_monthly`).set(as(paying.token)).expect(402);
      expect(res.body.Message).to.match(/declined/i);
      expect((await server.models.Account.findById(paying.accountId))?.planStripeId).to.equal('parley_basic_monthly');
    });

    it('answers 403 to a non-admin, 404 for another account, 400 for an unknown plan', async () => {
      const trial = await trialAccount();
      const other = await trialAccount();
      await api()
        .post(`/v1/accounts/${trial.accountId}/upgrade/parley_pro_monthly`)
        .set(as(await member(trial)))
        .expect(403);
      await api().post(`/v1/accounts/${other.accountId}/upgrade/parley_pro_monthly`).set(as(trial.token)).expect(404);
      await api().post(`/v1/accounts/${trial.accountId}/upgrade/NOT-A-PLAN`).set(as(trial.token)).expect(400);
      expect((await server.models.Account.findById(other.accountId))?.planStripeId).to.equal('parley_basic_monthly');
    });
  });

  describe('POST /v1/accounts/{id}/create_portal_session', () => {
    it('opens the portal on its home page, or straight on cancelling the subscription', async () => {
      const paying = await payingAccount();
      const home = await api()
        .post(`/v1/accounts/${paying.accountId}/create_portal_session`)
        .set(as(paying.token))
        .send({ type: 'home', uID: paying.userId })
        .expect(200);
      expect(home.body.url).to.match(/\/sandbox\/stripe\/portal\/bps_/);
      const cancel = await api()
        .post(`/v1/accounts/${paying.accountId}/create_portal_session`)
        .set(as(paying.token))
        .send({ type: 'subscription_cancel', uID: paying.userId })
        .expect(200);
      const session = server.stripe.state.data.portalSessions.find((s) => cancel.body.url.endsWith(s.id) || cancel.body.url.includes(s.id));
      expect(session?.flow?.type).to.equal('subscription_cancel');
    });

    it('brings the account up to date on the way back from the portal, before any webhook, when the link is signed', async () => {
      const paying = await payingAccount();
      await server.stripe.settled();
      server.stripe.holdWebhooks();
      try {
        const { body } = await api()
          .post(`/v1/accounts/${paying.accountId}/create_portal_session`)
          .set(as(paying.token))
          .send({ type: 'subscription_cancel', uID: paying.userId })
          .expect(200);
        const account = await server.models.Account.findById(paying.accountId);
        const cancelled = await fetch(`${body.url}/cancel`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ subscription: account?.stripeSubscriptionId ?? '' }),
        });
        const back = cancelled.headers.get('location') ?? '';
        expect(back).to.match(/\/v1\/billing\/portal-return\?account=[0-9a-f]{24}&sig=/);
        const forged = await fetch(back.replace(/sig=[^&]+/, 'sig=forged'), { redirect: 'manual' });
        expect(forged.headers.get('location')).to.equal(`${server.url}/app/#/account`);
        expect((await server.models.Account.findById(paying.accountId))?.cancelAt).to.equal(null);
        const signed = await fetch(back, { redirect: 'manual' });
        expect(signed.headers.get('location')).to.equal(`${server.url}/app/#/account`);
        expect((await server.models.Account.findById(paying.accountId))?.cancelAt).to.be.an.instanceOf(Date);
      } finally {
        server.stripe.releaseWebhooks();
      }
    });

    it('answers 400 for another reason or another user, 403 to a non-admin, 404 for another account', async () => {
      const trial = await trialAccount();
      const other = await trialAccount();
      await api()
        .post(`/v1/accounts/${trial.accountId}/create_portal_session`)
        .set(as(trial.token))
        .send({ type: 'upgrade', uID: trial.userId })
        .expect(400);
      await api()
        .post(`/v1/accounts/${trial.accountId}/create_portal_session`)
        .set(as(trial.token))
        .send({ type: 'home', uID: other.userId })
        .expect(400);
      await api()
        .post(`/v1/accounts/${trial.accountId}/create_portal_session`)
        .set(as(await member(trial)))
        .send({ type: 'home', uID: trial.userId })
        .expect(403);
      await api()
        .post(`/v1/accounts/${other.accountId}/create_portal_session`)
        .set(as(trial.token))
        .send({ type: 'home', uID: trial.userId })
        .expect(404);
    });
  });

  describe('GET /v1/accounts/{id}/invoices and next-invoice', () => {
    it('lists the paid invoice with its plan and hosted page, and tells the next charge', async () => {
      const paying = await payingAccount('parley_pro_monthly');
      const invoices = await api().get(`/v1/accounts/${paying.accountId}/invoices`).set(as(paying.token)).expect(200);
      // The newest first: the paid plan, then the trial's 0 invoice (the console hides a lone 0 invoice).
      expect(invoices.body.map((i: { amount: number }) => i.amount)).to.deep.equal([7900, 0]);
      expect(invoices.body[0]).to.include({ stripePlanId: 'parley_pro_monthly', amount: 7900 });
      expect(invoices.body[0].stripeInvoiceUrl).to.match(/\/sandbox\/stripe\/invoices\/in_/);
      expect(Object.keys(invoices.body[0]).sort()).to.deep.equal(['amount', 'dateTs', 'id', 'stripeInvoiceUrl', 'stripePlanId']);
      const next = await api().get(`/v1/accounts/${paying.accountId}/next-invoice`).set(as(paying.token)).expect(200);
      expect(next.body.amount).to.equal(7900);
      expect(next.body.dateTs).to.be.greaterThan(Math.floor(Date.now() / 1000) + 27 * 86_400);
    });

    it("takes the customer's credit from a downgrade off the next charge (Stripe's amount due, not the total)", async () => {
      const paying = await payingAccount('parley_business_monthly');
      await api().post(`/v1/accounts/${paying.accountId}/upgrade/parley_pro_monthly`).set(as(paying.token)).expect(200);
      const customer = server.stripe.state.data.customers.find((c) => c.id === paying.customerId);
      // The unused part of the month on Business less the same part on Pro: nearly $120 of credit.
      expect(customer?.balance).to.be.below(-11_000);
      const next = await api().get(`/v1/accounts/${paying.accountId}/next-invoice`).set(as(paying.token)).expect(200);
      expect(next.body.amount).to.equal(Math.max(0, 7900 + (customer?.balance ?? 0)));
      expect(next.body.amount).to.equal(0);
    });

    it('answers no next invoice, not 503, when Stripe has none before its webhook reached Parley (set to cancel in the portal)', async () => {
      const paying = await payingAccount('parley_pro_monthly');
      const account = await server.models.Account.findById(paying.accountId);
      await server.parley.billing.stripe.subscriptions.update(account?.stripeSubscriptionId ?? '', { cancel_at_period_end: true });
      await server.stripe.settled();
      // As Parley stands until the webhook of the cancellation arrives.
      await server.models.Account.updateOne({ _id: paying.accountId }, { $set: { cancelAt: null } });
      const next = await api().get(`/v1/accounts/${paying.accountId}/next-invoice`).set(as(paying.token)).expect(200);
      expect(next.body).to.equal(null);
    });

    it("answers the trial's 0 invoice and no next invoice on a trial without a card", async () => {
      const trial = await trialAccount();
      const invoices = await api().get(`/v1/accounts/${trial.accountId}/invoices`).set(as(trial.token)).expect(200);
      expect(invoices.body.map((i: { amount: number }) => i.amount)).to.deep.equal([0]);
      expect((await api().get(`/v1/accounts/${trial.accountId}/next-invoice`).set(as(trial.token)).expect(200)).body).to.equal(null);
    });

    it('answers 403 to a non-admin for invoices, the next invoice and usage, and shows them no card or invoice address', async () => {
      const paying = await payingAccount('parley_pro_monthly');
      await api()
        .put(`/v1/accounts/${paying.accountId}`)
        .set(as(paying.token))
        .send({
          orgName: 'Acme Inc.',
          email: 'invoices@acme.example',
          billingAddressLine1: '1 Main Street',
          billingCity: 'Springfield',
          billingState: 'OR',
          billingPostalCode: '97477',
          billingCountry: 'US',
          taxID: 'US123456789',
        })
        .expect(200);
      const token = await member(paying);
      for (const call of ['invoices', 'next-invoice', 'conversation-count']) {
        const res = await api().get(`/v1/accounts/${paying.accountId}/${call}`).set(as(token)).expect(403);
        expect(res.body, call).to.deep.equal({ Message: 'Only an admin of your account can do this', Error: 'admin_only' });
      }
      const admin = (await api().get('/v1/users/current').set(as(paying.token)).expect(200)).body.account;
      expect(admin).to.include({ last4: '4242', billingAddressLine1: '1 Main Street' });
      const mate = (await api().get('/v1/users/current').set(as(token)).expect(200)).body.account;
      expect(mate).to.include({ last4: '', brand: '', expMonth: null, expYear: null, billingAddressLine1: '', taxID: '', email: '' });
      // What their dashboard's banners need stays.
      expect(mate).to.include({ state: 'paying', paymentType: admin.paymentType });
      expect(mate.plan.stripeId).to.equal('parley_pro_monthly');
    });

    it('answers 404 for another account and 403 without a session', async () => {
      const trial = await trialAccount();
      const other = await trialAccount();
      await api().get(`/v1/accounts/${other.accountId}/invoices`).set(as(trial.token)).expect(404);
      await api().get(`/v1/accounts/${other.accountId}/next-invoice`).set(as(trial.token)).expect(404);
      await api().get(`/v1/accounts/${trial.accountId}/invoices`).expect(403);
    });
  });

  describe('GET /v1/billing/checkout-return', () => {
    const notCompleted = () => `${server.url}/app/#/account?checkout=not_completed`;

    it('opens the account screen saying the checkout was not completed for a session Stripe does not have', async () => {
      const res = await api().get('/v1/billing/checkout-return?session_id=cs_test_a1b2c3d4e5f6NoSuchSession').redirects(0).expect(303);
      expect(res.headers.location).to.equal(notCompleted());
    });

    it('does the same for a session not paid, and changes nothing', async () => {
      const trial = await trialAccount();
      const { body } = await api()
        .post(`/v1/accounts/${trial.accountId}/create_checkout_session`)
        .set(as(trial.token))
        .send({ plan: 'parley_pro_monthly' })
        .expect(200);
      const sessionId = String(body.url).split('/').pop();
      const res = await api().get(`/v1/billing/checkout-return?session_id=${sessionId}`).redirects(0).expect(303);
      expect(res.headers.location).to.equal(notCompleted());
      expect(await server.models.Account.findById(trial.accountId)).to.include({
        planStripeId: 'parley_basic_monthly',
        paymentType: 'none',
        subscriptionStatus: 'trialing',
      });
    });

    it('answers 400 to a session id that is not one', async () => {
      const res = await api().get('/v1/billing/checkout-return?session_id=../../etc').expect(400);
      expect(res.body).to.deep.equal({ Message: 'Unknown Checkout session', Error: 'bad_session' });
      await api().get('/v1/billing/checkout-return').expect(400);
    });
  });

  describe('GET /v1/accounts/{id}/conversation-count', () => {
    it("counts this month's conversations and marks the account over quota past the plan's convosPerMonth", async () => {
      const trial = await trialAccount();
      // Billed for Basic after the trial (during it, Business's 10,000 a month apply); Stripe's own news first.
      await server.stripe.settled();
      await server.models.Account.updateOne({ _id: trial.accountId }, { $set: { subscriptionStatus: 'active' } });
      const ce = await server.models.ChatEndpoint.findOne({ accountId: trial.accountId });
      const lastMonth = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1) - 86_400_000);
      const conversations = Array.from({ length: 301 }, (_, i) => ({
        accountId: ce?.accountId,
        ceId: ce?._id,
        number: i + 1,
        visitorId: ce?._id,
      }));
      await server.models.Conversation.insertMany(conversations);
      await server.models.Conversation.collection.insertOne({
        accountId: ce?.accountId,
        ceId: ce?._id,
        number: 999,
        visitorId: ce?._id,
        createdAt: lastMonth,
      });
      const count = await api().get(`/v1/accounts/${trial.accountId}/conversation-count`).set(as(trial.token)).expect(200);
      expect(count.body).to.equal(301);
      const me = await api().get('/v1/users/current').set(as(trial.token)).expect(200);
      expect(me.body.account.quota).to.deep.equal({
        isOverquota: true,
        reason: '301 conversations this month, your Basic plan includes 300',
      });
    });

    it('answers 404 for another account', async () => {
      const trial = await trialAccount();
      const other = await trialAccount();
      await api().get(`/v1/accounts/${other.accountId}/conversation-count`).set(as(trial.token)).expect(404);
    });
  });

  describe('PUT /v1/accounts/{id} (Account Info)', () => {
    const info = {
      orgName: 'Acme Inc.',
      email: 'Invoices@Acme.example',
      billingAddressLine1: '1 Main Street',
      billingCity: 'Springfield',
      billingState: 'OR',
      billingPostalCode: '97477',
      billingCountry: 'us',
      taxID: 'US123456789',
    };

    it('saves the fields to Parley and to the Stripe customer', async () => {
      const trial = await trialAccount();
      const res = await api().put(`/v1/accounts/${trial.accountId}`).set(as(trial.token)).send(info).expect(200);
      expect(res.body.account).to.include({
        orgName: 'Acme Inc.',
        email: 'invoices@acme.example',
        billingCountry: 'US',
        taxID: 'US123456789',
      });
      const account = await server.models.Account.findById(trial.accountId);
      const customer = server.stripe.state.data.customers.find((c) => c.id === account?.stripeCustomerId);
      expect(customer).to.include({ name: 'Acme Inc.', email: 'invoices@acme.example' });
      expect(customer?.address).to.include({ line1: '1 Main Street', city: 'Springfield', country: 'US', postal_code: '97477' });
      expect(customer?.metadata.taxID).to.equal('US123456789');
    });

    it('answers 400 for a bad e-mail, a bad country or an unknown field, and changes nothing', async () => {
      const trial = await trialAccount();
      const bad = await api()
        .put(`/v1/accounts/${trial.accountId}`)
        .set(as(trial.token))
        .send({ ...info, email: 'not-an-email' })
        .expect(400);
      expect(bad.body.Message).to.equal('Invoice e-mail is invalid');
      await api()
        .put(`/v1/accounts/${trial.accountId}`)
        .set(as(trial.token))
        .send({ ...info, billingCountry: 'Germany' })
        .expect(400);
      await api()
        .put(`/v1/accounts/${trial.accountId}`)
        .set(as(trial.token))
        .send({ ...info, paymentType: 'card' })
        .expect(400);
      expect((await server.models.Account.findById(trial.accountId))?.orgName).to.equal('');
    });

    it('answers 403 to a non-admin and 404 for another account', async () => {
      const trial = await trialAccount();
      const other = await trialAccount();
      await api()
        .put(`/v1/accounts/${trial.accountId}`)
        .set(as(await member(trial)))
        .send(info)
        .expect(403);
      await api().put(`/v1/accounts/${other.accountId}`).set(as(trial.token)).send(info).expect(404);
      expect((await server.models.Account.findById(other.accountId))?.orgName).to.equal('');
    });
  });
});
