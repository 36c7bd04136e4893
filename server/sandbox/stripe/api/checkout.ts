/**
 * Checkout sessions (mode subscription or setup): created, read, their line items, expired; and the setup
 * intents a setup-mode session leaves.
 */
import type { Ctx } from '../billing';
import { invalidRequest, missing, paramMissing } from '../errors';
import { arr, int, isRecord, metadata, obj, onlyKnown, requiredStr, str } from '../params';
import { plain, randomId } from '../state';
import type { CheckoutSession } from '../types';
import { LIST_PARAMS, type Route, routeTable } from './routes';

export function checkoutRoutes(ctx: Ctx): Route[] {
  const { state } = ctx;
  const { routes, on } = routeTable();
  on(
    'POST',
    '/v1/checkout/sessions',
    [
      'mode',
      'line_items',
      'success_url',
      'cancel_url',
      'currency',
      'custom_text',
      'customer',
      'customer_email',
      'client_reference_id',
      'metadata',
      'subscription_data',
      'setup_intent_data',
      'payment_method_types',
      'allow_promotion_codes',
      'billing_address_collection',
      'tax_id_collection',
      'customer_update',
      'locale',
      'ui_mode',
    ],
    (p) => {
      const mode = requiredStr(p, 'mode');
      if (mode !== 'subscription' && mode !== 'setup')
        throw invalidRequest('The sandbox supports Checkout in `subscription` and `setup` mode only.', 'mode');
      const successUrl = str(p, 'success_url');
      if (!successUrl) throw invalidRequest('You must provide `success_url` when `ui_mode` is `hosted`.', 'success_url');
      const lineItems = arr(p, 'line_items');
      let items: { price: string; quantity: number }[] = [];
      if (mode === 'subscription') {
        if (!lineItems || lineItems.length === 0) throw paramMissing('line_items');
        if (p.setup_intent_data !== undefined)
          throw invalidRequest('You can only pass `setup_intent_data` in `setup` mode.', 'setup_intent_data');
        items = lineItems.map((raw, i) => {
          if (!isRecord(raw)) throw invalidRequest('Invalid object', `line_items[${i}]`);
          const price = state.price(requiredStr(raw, 'price', `line_items[${i}][price]`), `line_items[${i}][price]`);
          return { price: price.id, quantity: int(raw, 'quantity', `line_items[${i}][quantity]`) ?? 1 };
        });
      } else {
        if (lineItems !== undefined) throw invalidRequest('You cannot pass `line_items` in `setup` mode.', 'line_items');
        if (p.subscription_data !== undefined)
          throw invalidRequest('You can only pass `subscription_data` in `subscription` mode.', 'subscription_data');
        if (!str(p, 'currency') && !arr(p, 'payment_method_types'))
          throw invalidRequest('`currency` is required in `setup` mode when `payment_method_types` is not set.', 'currency');
      }
      const customerId = str(p, 'customer');
      const customer = customerId ? state.customer(customerId) : null;
      const customerEmail = str(p, 'customer_email');
      if (customer && customerEmail)
        throw invalidRequest('You may only specify one of these parameters: customer, customer_email.', 'customer_email');
      const subData = obj(p, 'subscription_data') ?? {};
      onlyKnown(subData, ['trial_end', 'trial_period_days', 'metadata', 'description', 'trial_settings', 'default_tax_rates']);
      const setupData = obj(p, 'setup_intent_data') ?? {};
      onlyKnown(setupData, ['metadata', 'description', 'on_behalf_of']);
      const customText = obj(p, 'custom_text') ?? {};
      onlyKnown(customText, ['after_submit', 'shipping_address', 'submit', 'terms_of_service_acceptance']);
      const textOf = (key: string) => {
        const part = obj(customText, key);
        if (!part) return null;
        onlyKnown(part, ['message']);
        const message = requiredStr(part, 'message', `custom_text[${key}][message]`);
        if (message.length > 1200) throw invalidRequest('This value must be at most 1200 characters long.', `custom_text[${key}][message]`);
        return { message };
      };
      const now = state.now();
      const id = randomId('cs_test', 58);
      const amount = mode === 'setup' ? null : items.reduce((s, it) => s + state.price(it.price).unit_amount * it.quantity, 0);
      const session: CheckoutSession = {
        id,
        object: 'checkout.session',
        cancel_url: str(p, 'cancel_url') ?? null,
        client_reference_id: str(p, 'client_reference_id') ?? null,
        created: now,
        currency: mode === 'setup' ? (str(p, 'currency') ?? 'usd').toLowerCase() : state.price(items[0]?.price ?? '').currency,
        customer: customer?.id ?? null,
        customer_details: null,
        customer_email: customerEmail ?? null,
        expires_at: now + 24 * 3600,
        invoice: null,
        livemode: false,
        metadata: metadata(p) ?? {},
        mode,
        payment_status: mode === 'setup' ? 'no_payment_required' : 'unpaid',
        status: 'open',
        subscription: null,
        setup_intent: null,
        success_url: successUrl,
        url: `${ctx.baseUrl}/checkout/${id}`,
        amount_subtotal: amount,
        amount_total: amount,
        custom_text: {
          after_submit: textOf('after_submit'),
          shipping_address: textOf('shipping_address'),
          submit: textOf('submit'),
          terms_of_service_acceptance: textOf('terms_of_service_acceptance'),
        },
        sandbox: {
          items,
          trialEnd: int(subData, 'trial_end', 'subscription_data[trial_end]') ?? null,
          trialPeriodDays: int(subData, 'trial_period_days', 'subscription_data[trial_period_days]') ?? null,
          subscriptionMetadata: metadata(subData) ?? {},
          setupIntentMetadata: metadata(setupData) ?? {},
        },
      };
      state.data.checkoutSessions.push(session);
      state.changed();
      return session;
    },
  );
  on('GET', '/v1/checkout/sessions/:id', [], (_p, [id]) => {
    const s = state.data.checkoutSessions.find((x) => x.id === id);
    if (!s) throw missing('cs', id ?? '');
    return s;
  });
  on('GET', '/v1/checkout/sessions/:id/line_items', [...LIST_PARAMS], (_p, [id]) => {
    const s = state.data.checkoutSessions.find((x) => x.id === id);
    if (!s) throw missing('cs', id ?? '');
    return lineItemsOf(ctx, s);
  });
  on('POST', '/v1/checkout/sessions/:id/expire', [], (_p, [id]) => {
    const s = state.data.checkoutSessions.find((x) => x.id === id);
    if (!s) throw missing('cs', id ?? '');
    if (s.status !== 'open')
      throw invalidRequest(
        `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${s.status}".`,
      );
    s.status = 'expired';
    s.url = null;
    state.publish('checkout.session.expired', s);
    return s;
  });
  on('GET', '/v1/setup_intents/:id', ['client_secret'], (_p, [id]) => {
    const intent = state.data.setupIntents.find((x) => x.id === id);
    if (!intent) throw missing('seti', id ?? '');
    return intent;
  });
  return routes;
}

/** A session's line items, which Stripe shows only through expand[]=line_items or their own list call. */
export function lineItemsOf(ctx: Ctx, s: CheckoutSession) {
  const { state } = ctx;
  const items = s.sandbox.items.map((it, i) => {
    const price = state.price(it.price);
    const amount = price.unit_amount * it.quantity;
    const product = state.data.products.find((x) => x.id === price.product);
    return {
      id: `li_${s.id.slice(8, 30)}${i}`,
      object: 'item',
      amount_discount: 0,
      amount_subtotal: amount,
      amount_tax: 0,
      amount_total: amount,
      currency: price.currency,
      description: product?.name ?? price.id,
      price: plain(price),
      quantity: it.quantity,
    };
  });
  return { object: 'list', data: items, has_more: false, url: `/v1/checkout/sessions/${s.id}/line_items` };
}
