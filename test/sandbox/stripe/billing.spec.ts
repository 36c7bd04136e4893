import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type Stripe from 'stripe';
import { type Fixture, startSandbox, stripeError } from './helpers';

const DAY = 86_400;

describe('Stripe sandbox billing: subscriptions, invoices and the clock', () => {
  let f: Fixture;
  before(async () => {
    f = await startSandbox();
  });
  after(async () => {
    await f.close();
  });

  async function customerWithCard(card = 'pm_card_visa'): Promise<{ customer: Stripe.Customer; pm: Stripe.PaymentMethod }> {
    const customer = await f.stripe.customers.create({ email: `c${Math.random().toString(36).slice(2)}@acme.test` });
    const pm = await f.stripe.paymentMethods.attach(card, { customer: customer.id });
    await f.stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: pm.id } });
    return { customer, pm };
  }

  it('subscribes a customer with a card: active, a paid first invoice with a hosted page, periods on the item', async () => {
    const { customer } = await customerWithCard();
    const sub = await f.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: 'parley_pro_monthly' }],
      expand: ['latest_invoice'],
    });
    expect(sub.id).to.match(/^sub_/);
    expect(sub.status).to.equal('active');
    const item = sub.items.data[0] as Stripe.SubscriptionItem;
    expect(item.price.id).to.equal('parley_pro_monthly');
    expect(item.current_period_end - item.current_period_start).to.be.within(28 * DAY, 31 * DAY);
    const invoice = sub.latest_invoice as Stripe.Invoice;
    expect(invoice).to.include({ status: 'paid', amount_paid: 7900, billing_reason: 'subscription_create', customer: customer.id });
    expect(invoice.parent?.subscription_details?.subscription).to.equal(sub.id);
    const page = await fetch(invoice.hosted_invoice_url ?? '');
    expect(page.status).to.equal(200);
    expect(await page.text()).to.contain('$79.00');
  });

  it('refuses with error_if_incomplete when the card cannot be charged, and creates nothing', async () => {
    const { customer } = await customerWithCard('pm_card_chargeCustomerFail');
    const err = await stripeError(
      f.stripe.subscriptions.create({
        customer: customer.id,
        items: [{ price: 'parley_basic_monthly' }],
        payment_behavior: 'error_if_incomplete',
      }),
    );
    expect(err.type).to.equal('StripeCardError');
    expect(err.code).to.equal('card_declined');
    expect((await f.stripe.subscriptions.list({ customer: customer.id })).data).to.have.length(0);
  });

  it('leaves a subscription incomplete with an open invoice when the first charge fails', async () => {
    const { customer } = await customerWithCard('pm_card_chargeCustomerFail');
    const sub = await f.stripe.subscriptions.create({ customer: customer.id, items: [{ price: 'parley_basic_monthly' }] });
    expect(sub.status).to.equal('incomplete');
    const invoices = await f.stripe.invoices.list({ subscription: sub.id });
    expect(invoices.data[0]?.status).to.equal('open');
  });

  it('switches a monthly plan to yearly at once: unused time credited, the year charged, the cycle restarted', async () => {
    const { customer } = await customerWithCard();
    const sub = await f.stripe.subscriptions.create({ customer: customer.id, items: [{ price: 'parley_basic_monthly' }] });
    const preview = await f.stripe.invoices.createPreview({
      customer: customer.id,
      subscription: sub.id,
      subscription_details: {
        items: [{ id: sub.items.data[0]?.id, price: 'parley_basic_yearly' }],
        proration_behavior: 'create_prorations',
      },
    });
    const updated = await f.stripe.subscriptions.update(sub.id, {
      items: [{ id: sub.items.data[0]?.id, price: 'parley_basic_yearly' }],
      proration_behavior: 'create_prorations',
      expand: ['latest_invoice'],
    });
    expect(updated.status).to.equal('active');
    expect(updated.items.data[0]?.price.id).to.equal('parley_basic_yearly');
    const invoice = updated.latest_invoice as Stripe.Invoice;
    expect(invoice.billing_reason).to.equal('subscription_update');
    expect(invoice.status).to.equal('paid');
    const credit = invoice.lines.data.find((l) => l.amount < 0);
    expect(credit?.description).to.match(/^Unused time on Parley Basic/);
    expect(invoice.total).to.equal(31900 + (credit?.amount ?? 0));
    expect(preview.total).to.equal(invoice.total);
    const event = f.sandbox.events('customer.subscription.updated').find((e) => (e.data.object as { id: string }).id === sub.id);
    expect(event?.data.previous_attributes).to.have.property('items');
  });

  it('prorates an upgrade within the month onto the next invoice, as the upcoming invoice shows', async () => {
    const { customer } = await customerWithCard();
    const sub = await f.stripe.subscriptions.create({ customer: customer.id, items: [{ price: 'parley_basic_monthly' }] });
    f.sandbox.advanceClock(15 * DAY);
    await f.stripe.subscriptions.update(sub.id, { items: [{ id: sub.items.data[0]?.id, price: 'parley_pro_monthly' }] });
    const upcoming = await f.stripe.invoices.createPreview({ customer: customer.id, subscription: sub.id });
    const prorations = upcoming.lines.data.filter((l) => l.parent?.subscription_item_details?.proration);
    expect(prorations).to.have.length(2);
    const net = prorations.reduce((s, l) => s + l.amount, 0);
    expect(net)
      .to.be.greaterThan(0)
      .and.lessThan(7900 - 2900);
    expect(upcoming.total).to.equal(7900 + net);
  });

  it("credits a downgrade's negative invoice to the customer's balance, which the next invoice takes off its amount due", async () => {
    const { customer } = await customerWithCard();
    const sub = await f.stripe.subscriptions.create({ customer: customer.id, items: [{ price: 'parley_business_monthly' }] });
    f.sandbox.advanceClock(15 * DAY);
    const updated = await f.stripe.subscriptions.update(sub.id, {
      items: [{ id: sub.items.data[0]?.id, price: 'parley_pro_monthly' }],
      proration_behavior: 'always_invoice',
      expand: ['latest_invoice'],
    });
    const downgrade = updated.latest_invoice as Stripe.Invoice;
    const credit = downgrade.total;
    expect(credit).to.be.lessThan(-(19900 - 7900) / 3);
    expect(downgrade).to.include({ status: 'paid', amount_due: 0, amount_paid: 0, starting_balance: 0, ending_balance: credit });
    expect(((await f.stripe.customers.retrieve(customer.id)) as Stripe.Customer).balance).to.equal(credit);
    const balanceEvent = f.sandbox
      .events('customer.updated')
      .find((e) => e.data.object.id === customer.id && e.data.previous_attributes?.balance === 0);
    expect(balanceEvent?.data.object.balance).to.equal(credit);

    const upcoming = await f.stripe.invoices.createPreview({ customer: customer.id, subscription: sub.id });
    expect(upcoming.total).to.equal(7900);
    expect(upcoming.amount_due).to.equal(Math.max(0, 7900 + credit));

    f.sandbox.advanceClockTo((updated.items.data[0]?.current_period_end ?? 0) + 60);
    const renewal = (await f.stripe.invoices.list({ subscription: sub.id, limit: 1 })).data[0];
    expect(renewal).to.include({
      billing_reason: 'subscription_cycle',
      status: 'paid',
      total: 7900,
      amount_due: Math.max(0, 7900 + credit),
      amount_paid: Math.max(0, 7900 + credit),
      starting_balance: credit,
      ending_balance: Math.min(0, 7900 + credit),
    });
    expect(((await f.stripe.customers.retrieve(customer.id)) as Stripe.Customer).balance).to.equal(Math.min(0, 7900 + credit));
  });

  it('answers invoice_upcoming_none for a subscription set to cancel at period end', async () => {
    const { customer } = await customerWithCard();
    const sub = await f.stripe.subscriptions.create({ customer: customer.id, items: [{ price: 'parley_pro_monthly' }] });
    const canceling = await f.stripe.subscriptions.update(sub.id, { cancel_at_period_end: true });
    expect(canceling.cancel_at_period_end).to.equal(true);
    expect(canceling.cancel_at).to.equal(sub.items.data[0]?.current_period_end);
    const err = await stripeError(f.stripe.invoices.createPreview({ customer: customer.id, subscription: sub.id }));
    expect(err.code).to.equal('invoice_upcoming_none');
  });

  it('ends a trial with a card: the first invoice is charged and the subscription turns active', async () => {
    const { customer } = await customerWithCard();
    const trialEnd = f.sandbox.now() + 30 * DAY;
    const sub = await f.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: 'parley_pro_monthly' }],
      trial_end: trialEnd,
    });
    expect(sub.status).to.equal('trialing');
    expect(sub.trial_end).to.equal(trialEnd);
    f.sandbox.advanceClockTo(trialEnd + 60);
    const after = await f.stripe.subscriptions.retrieve(sub.id, { expand: ['latest_invoice'] });
    expect(after.status).to.equal('active');
    expect(after.latest_invoice as Stripe.Invoice).to.include({ status: 'paid', amount_paid: 7900, billing_reason: 'subscription_cycle' });
  });

  it('sends customer.subscription.trial_will_end three days before the trial ends, once', async () => {
    const customer = await f.stripe.customers.create({ email: 'soon@acme.test' });
    const sub = await f.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: 'parley_basic_monthly' }],
      trial_period_days: 10,
    });
    const reminders = () =>
      f.sandbox.events('customer.subscription.trial_will_end').filter((e) => (e.data.object as { id: string }).id === sub.id);
    f.sandbox.advanceClock(6 * DAY);
    expect(reminders()).to.have.length(0);
    f.sandbox.advanceClock(1 * DAY + 60);
    expect(reminders()).to.have.length(1);
    expect(reminders()[0]?.created).to.equal((sub.trial_end ?? 0) - 3 * DAY);
    f.sandbox.advanceClock(DAY);
    expect(reminders()).to.have.length(1);
  });

  it('cancels a trial without a card when missing_payment_method is cancel', async () => {
    const customer = await f.stripe.customers.create({ email: 'nocard@acme.test' });
    const sub = await f.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: 'parley_basic_monthly' }],
      trial_period_days: 30,
      trial_settings: { end_behavior: { missing_payment_method: 'cancel' } },
    });
    f.sandbox.advanceClock(31 * DAY);
    const after = await f.stripe.subscriptions.retrieve(sub.id);
    expect(after.status).to.equal('canceled');
    expect(f.sandbox.events('customer.subscription.deleted').some((e) => (e.data.object as { id: string }).id === sub.id)).to.equal(true);
  });

  it('fails a renewal on the 0341 card: past_due, invoice.payment_failed, retries, then paid once the card is replaced', async () => {
    const { customer } = await customerWithCard('pm_card_chargeCustomerFail');
    const sub = await f.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: 'parley_pro_monthly' }],
      trial_period_days: 7,
    });
    f.sandbox.advanceClock(8 * DAY);
    const failed = await f.stripe.subscriptions.retrieve(sub.id, { expand: ['latest_invoice'] });
    expect(failed.status).to.equal('past_due');
    const invoice = failed.latest_invoice as Stripe.Invoice;
    expect(invoice.status).to.equal('open');
    expect(invoice.next_payment_attempt).to.be.a('number');
    expect(f.sandbox.events('invoice.payment_failed').some((e) => (e.data.object as { id: string }).id === invoice.id)).to.equal(true);
    expect(((await f.stripe.customers.retrieve(customer.id)) as Stripe.Customer).delinquent).to.equal(true);

    const good = await f.stripe.paymentMethods.attach('pm_card_visa', { customer: customer.id });
    const paid = await f.stripe.invoices.pay(invoice.id ?? '', { payment_method: good.id });
    expect(paid.status).to.equal('paid');
    expect((await f.stripe.subscriptions.retrieve(sub.id)).status).to.equal('active');
    expect(((await f.stripe.customers.retrieve(customer.id)) as Stripe.Customer).delinquent).to.equal(false);
  });

  it("pays a past_due renewal at the clock's next retry with the customer's new default card, and the subscription turns active", async () => {
    const { customer } = await customerWithCard('pm_card_chargeCustomerFail');
    const sub = await f.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: 'parley_basic_monthly' }],
      trial_period_days: 1,
    });
    f.sandbox.advanceClock(2 * DAY);
    const failed = await f.stripe.subscriptions.retrieve(sub.id, { expand: ['latest_invoice'] });
    expect(failed.status).to.equal('past_due');
    const invoice = failed.latest_invoice as Stripe.Invoice;
    const retryAt = invoice.next_payment_attempt ?? 0;
    expect(retryAt).to.be.greaterThan(0);

    // A new default card through the API (not the portal) is only tried at the next scheduled retry, as in Stripe.
    const good = await f.stripe.paymentMethods.attach('pm_card_visa', { customer: customer.id });
    await f.stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: good.id } });
    expect((await f.stripe.invoices.retrieve(invoice.id ?? '')).status).to.equal('open');

    f.sandbox.advanceClockTo(retryAt + 60);
    expect((await f.stripe.invoices.retrieve(invoice.id ?? '')).status).to.equal('paid');
    expect((await f.stripe.subscriptions.retrieve(sub.id)).status).to.equal('active');
  });

  it('cancels a past_due subscription after the last retry fails', async () => {
    const { customer } = await customerWithCard('pm_card_chargeCustomerFail');
    const sub = await f.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: 'parley_basic_monthly' }],
      trial_period_days: 1,
    });
    f.sandbox.advanceClock(2 * DAY + 20 * DAY);
    const after = await f.stripe.subscriptions.retrieve(sub.id);
    expect(after.status).to.equal('canceled');
    expect(after.cancellation_details?.reason).to.equal('payment_failed');
  });

  it('renews monthly, and a cancel_at_period_end subscription ends at its period end with customer.subscription.deleted', async () => {
    const { customer } = await customerWithCard();
    const sub = await f.stripe.subscriptions.create({ customer: customer.id, items: [{ price: 'parley_basic_monthly' }] });
    const firstEnd = sub.items.data[0]?.current_period_end ?? 0;
    f.sandbox.advanceClockTo(firstEnd + 60);
    const renewed = await f.stripe.subscriptions.retrieve(sub.id);
    expect(renewed.status).to.equal('active');
    expect(renewed.items.data[0]?.current_period_start).to.equal(firstEnd);
    expect((await f.stripe.invoices.list({ subscription: sub.id })).data.map((i) => i.status)).to.deep.equal(['paid', 'paid']);

    await f.stripe.subscriptions.update(sub.id, { cancel_at_period_end: true });
    f.sandbox.advanceClockTo((renewed.items.data[0]?.current_period_end ?? 0) + 60);
    const ended = await f.stripe.subscriptions.retrieve(sub.id);
    expect(ended.status).to.equal('canceled');
    expect(ended.ended_at).to.equal(renewed.items.data[0]?.current_period_end);
  });

  it('cancels at once with subscriptions.cancel, and lists canceled ones only when asked', async () => {
    const { customer } = await customerWithCard();
    const sub = await f.stripe.subscriptions.create({ customer: customer.id, items: [{ price: 'parley_basic_monthly' }] });
    const canceled = await f.stripe.subscriptions.cancel(sub.id);
    expect(canceled.status).to.equal('canceled');
    expect((await f.stripe.subscriptions.list({ customer: customer.id })).data).to.have.length(0);
    expect((await f.stripe.subscriptions.list({ customer: customer.id, status: 'all' })).data).to.have.length(1);
    const err = await stripeError(
      f.stripe.subscriptions.update(sub.id, { items: [{ id: sub.items.data[0]?.id, price: 'parley_pro_monthly' }] }),
    );
    expect(err.statusCode).to.equal(400);
  });
});

describe('Stripe sandbox data file', () => {
  it('keeps customers, subscriptions and the clock across a restart', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'stripe-sandbox-'));
    const dataFile = path.join(dir, 'stripe.json');
    const first = await startSandbox({ dataFile });
    const customer = await first.stripe.customers.create({ email: 'kept@acme.test' });
    await first.stripe.paymentMethods.attach('pm_card_visa', { customer: customer.id });
    const sub = await first.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: 'parley_pro_monthly' }],
      trial_period_days: 30,
    });
    first.sandbox.advanceClock(10 * DAY);
    const clock = first.sandbox.now();
    await first.close();

    const second = await startSandbox({ dataFile });
    try {
      expect(((await second.stripe.customers.retrieve(customer.id)) as Stripe.Customer).email).to.equal('kept@acme.test');
      expect((await second.stripe.subscriptions.retrieve(sub.id)).status).to.equal('trialing');
      expect(second.sandbox.now()).to.be.within(clock, clock + 60);
      expect((await second.stripe.prices.list({ limit: 100 })).data).to.have.length(6);
    } finally {
      await second.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
