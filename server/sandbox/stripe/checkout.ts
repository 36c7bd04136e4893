// Checkout Sessions completed with a card, as the hosted Checkout page does: in subscription mode and in setup mode.

import type { Ctx } from './billing';
import { type CardInput, chargeSucceeds, paymentMethodFromCard } from './cards';
import { attachPaymentMethod, newCustomer } from './customers';
import { cardError, invalidRequest } from './errors';
import { randomId } from './state';
import { createSubscription } from './subscriptions';
import type { CheckoutSession, SetupIntent, Subscription } from './types';

/**
 * Completes a Checkout Session with a card, as the hosted page does: a declined card (or, without a trial, a card
 * whose charges fail) changes nothing; otherwise the customer, the card, the subscription and its first invoice
 * are created and checkout.session.completed is sent.
 */
export function completeCheckout(
  ctx: Ctx,
  session: CheckoutSession,
  input: { card: CardInput; email: string; name: string },
): Subscription | SetupIntent {
  const { state } = ctx;
  if (session.status !== 'open') throw invalidRequest('This Checkout Session is no longer active.');
  if (session.mode === 'setup') return completeSetup(ctx, session, input);
  const pm = paymentMethodFromCard(input.card, state.nowMs());
  const trial = session.sandbox.trialEnd !== null || (session.sandbox.trialPeriodDays ?? 0) > 0;
  if (!trial && (session.amount_total ?? 0) > 0 && !chargeSucceeds(pm)) throw cardError('declined');
  let customer = session.customer ? state.customer(session.customer) : null;
  if (!customer) {
    customer = newCustomer(ctx, { email: input.email || session.customer_email, name: input.name || null });
    state.data.customers.push(customer);
    state.publish('customer.created', customer);
  }
  pm.billing_details.email = input.email || customer.email;
  attachPaymentMethod(ctx, pm, customer);
  const sub = createSubscription(ctx, {
    customer: customer.id,
    items: session.sandbox.items,
    trialEnd: session.sandbox.trialEnd ?? undefined,
    trialPeriodDays: session.sandbox.trialPeriodDays ?? undefined,
    defaultPaymentMethod: pm.id,
    metadata: session.sandbox.subscriptionMetadata,
  });
  session.status = 'complete';
  session.payment_status = trial ? 'no_payment_required' : 'paid';
  session.customer = customer.id;
  session.customer_email = customer.email;
  session.customer_details = {
    address: pm.billing_details.address,
    email: customer.email,
    name: pm.billing_details.name,
    phone: null,
    tax_exempt: 'none',
    tax_ids: [],
  };
  session.subscription = sub.id;
  session.invoice = sub.latest_invoice;
  session.url = null;
  state.publish('checkout.session.completed', session);
  return sub;
}

/**
 * Checkout in setup mode: the card is checked (a declined one changes nothing), attached to the session's customer
 * through a SetupIntent, and nothing is charged. As at Stripe, the card does not become the customer's default:
 * the integration does that on checkout.session.completed.
 */
function completeSetup(ctx: Ctx, session: CheckoutSession, input: { card: CardInput; email: string; name: string }): SetupIntent {
  const { state } = ctx;
  const pm = paymentMethodFromCard(input.card, state.nowMs());
  const customer = session.customer ? state.customer(session.customer) : null;
  pm.billing_details.email = input.email || customer?.email || null;
  if (customer) attachPaymentMethod(ctx, pm, customer);
  else {
    if (pm.behavior === 'declined') throw cardError('declined');
    if (pm.behavior === 'insufficient_funds') throw cardError('insufficient_funds');
    state.data.paymentMethods.push(pm);
  }
  const now = state.now();
  const intent: SetupIntent = {
    id: randomId('seti', 24),
    object: 'setup_intent',
    application: null,
    automatic_payment_methods: null,
    cancellation_reason: null,
    client_secret: '',
    created: now,
    customer: customer?.id ?? null,
    description: null,
    flow_directions: null,
    last_setup_error: null,
    latest_attempt: null,
    livemode: false,
    mandate: null,
    metadata: session.sandbox.setupIntentMetadata ?? {},
    next_action: null,
    on_behalf_of: null,
    payment_method: pm.id,
    payment_method_options: { card: { mandate_options: null, network: null, request_three_d_secure: 'automatic' } },
    payment_method_types: ['card'],
    single_use_mandate: null,
    status: 'succeeded',
    usage: 'off_session',
  };
  intent.client_secret = `${intent.id}_secret_${randomId('x', 24).slice(2)}`;
  state.data.setupIntents.push(intent);
  state.publish('setup_intent.created', intent);
  state.publish('setup_intent.succeeded', intent);
  session.status = 'complete';
  session.payment_status = 'no_payment_required';
  session.customer_email = customer?.email ?? (input.email || session.customer_email);
  session.customer_details = {
    address: pm.billing_details.address,
    email: session.customer_email,
    name: pm.billing_details.name,
    phone: null,
    tax_exempt: 'none',
    tax_ids: [],
  };
  session.setup_intent = intent.id;
  session.url = null;
  state.publish('checkout.session.completed', session);
  return intent;
}
