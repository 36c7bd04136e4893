import { expect } from 'chai';
import { type Fixture, SECRET_KEY, startSandbox } from './helpers';

/** A small seeded generator, so a failure can be replayed. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const KEYS = [
  'customer',
  'items',
  'items[0]',
  'items[0][price]',
  'items[0][id]',
  'items[0][quantity]',
  'items[0][deleted]',
  'items[][price]',
  'trial_end',
  'trial_period_days',
  'metadata',
  'metadata[a]',
  'metadata[a][b]',
  'expand[]',
  'expand',
  'address',
  'address[city]',
  'invoice_settings',
  'invoice_settings[default_payment_method]',
  'tax_id_data[0][type]',
  'tax_id_data',
  'line_items',
  'line_items[0][price]',
  'mode',
  'success_url',
  'flow_data[type]',
  'flow_data',
  'subscription_details[items][0][price]',
  'subscription',
  'proration_behavior',
  'cancel_at_period_end',
  'cancel_at',
  'limit',
  'starting_after',
  'ending_before',
  'lookup_keys[]',
  'type',
  'card[token]',
  'seconds',
  'to',
  'payment_method',
  'subscription_data[trial_end]',
  'billing_cycle_anchor',
  'trial_settings[end_behavior][missing_payment_method]',
  'email',
];
const VALUES = ['', 'x', '-1', '99999999999999999999', 'now', 'true', '\u0000', 'a[b]=c', 'parley_pro_monthly', 'pm_card_visa'];

describe('Stripe sandbox API on garbage parameters', function () {
  this.timeout(60_000);
  let f: Fixture;
  before(async () => {
    f = await startSandbox({ webhook: { secret: 'whsec_fuzz' } });
  });
  after(async () => {
    await f.close();
  });

  it('answers 300 random requests with Stripe errors (4xx) or success, never a 5xx', async () => {
    const c = await f.stripe.customers.create({ email: 'fuzz@acme.test' });
    const pm = await f.stripe.paymentMethods.attach('pm_card_visa', { customer: c.id });
    const sub = await f.stripe.subscriptions.create({
      customer: c.id,
      items: [{ price: 'parley_pro_monthly' }],
      default_payment_method: pm.id,
    });
    const posts = [
      '/v1/customers',
      `/v1/customers/${c.id}`,
      `/v1/customers/${c.id}/tax_ids`,
      '/v1/payment_methods',
      `/v1/payment_methods/${pm.id}/attach`,
      '/v1/subscriptions',
      `/v1/subscriptions/${sub.id}`,
      '/v1/invoices/create_preview',
      `/v1/invoices/${String(sub.latest_invoice)}/pay`,
      '/v1/checkout/sessions',
      '/v1/billing_portal/sessions',
      '/v1/sandbox/clock/advance',
    ];
    const gets = [
      '/v1/customers',
      '/v1/prices',
      '/v1/subscriptions',
      '/v1/invoices',
      '/v1/events',
      `/v1/customers/${c.id}/payment_methods`,
    ];
    const random = prng(20261123);
    const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)] as T;
    const failures: string[] = [];
    for (let i = 0; i < 300; i += 1) {
      const post = random() < 0.7;
      const path = post ? pick(posts) : pick(gets);
      const query = Array.from({ length: 1 + Math.floor(random() * 4) }, () => `${pick(KEYS)}=${encodeURIComponent(pick(VALUES))}`).join(
        '&',
      );
      const res = await fetch(post ? `${f.apiUrl}${path}` : `${f.apiUrl}${path}?${query}`, {
        method: post ? 'POST' : 'GET',
        headers: { authorization: `Bearer ${SECRET_KEY}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: post ? query : undefined,
      });
      const body = (await res.json()) as { error?: { type?: string; message?: string } };
      if (res.status >= 500 || (res.status >= 400 && !(body.error?.type && body.error.message)))
        failures.push(`${res.status} ${path} ${query}`);
    }
    expect(failures).to.deep.equal([]);
  });
});
