// Customers, their tax ids and their cards: created, attached, detached, made the default for invoices.

import type { Ctx } from './billing';
import { paymentMethodFromTestId } from './cards';
import { cardError, invalidRequest } from './errors';
import { randomId } from './state';
import type { Address, Customer, Metadata, PaymentMethod, TaxId } from './types';

const emptyAddress = (): Address => ({ city: null, country: null, line1: null, line2: null, postal_code: null, state: null });

export function newCustomer(
  ctx: Ctx,
  p: {
    email?: string | null;
    name?: string | null;
    description?: string | null;
    phone?: string | null;
    address?: Partial<Address> | null;
    metadata?: Metadata;
  },
): Customer {
  return {
    id: randomId('cus', 14),
    object: 'customer',
    address: p.address ? { ...emptyAddress(), ...p.address } : null,
    balance: 0,
    created: ctx.state.now(),
    currency: null,
    delinquent: false,
    description: p.description ?? null,
    email: p.email ?? null,
    invoice_prefix: randomId('x', 8)
      .slice(2)
      .toUpperCase()
      .replace(/[^A-Z0-9]/g, 'X'),
    invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
    livemode: false,
    metadata: p.metadata ?? {},
    name: p.name ?? null,
    next_invoice_sequence: 1,
    phone: p.phone ?? null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: 'none',
    test_clock: null,
  };
}

export function newTaxId(ctx: Ctx, customer: Customer, type: string, value: string): TaxId {
  return {
    id: randomId('txi', 14),
    object: 'tax_id',
    country: type.includes('_') ? (type.split('_')[0] ?? '').toUpperCase() : null,
    created: ctx.state.now(),
    customer: customer.id,
    livemode: false,
    type,
    value,
    verification: { status: 'unverified', verified_address: null, verified_name: null },
  };
}

export function taxIdList(customer: Customer): TaxId[] {
  customer.tax_ids ??= { object: 'list', data: [], has_more: false, url: `/v1/customers/${customer.id}/tax_ids` };
  return customer.tax_ids.data;
}

/**
 * Resolves a payment method id for a customer: a test id (`pm_card_visa`) becomes a new card attached to the
 * customer; an existing one must be attached to that customer already.
 */
export function resolvePaymentMethod(ctx: Ctx, customer: Customer, id: string, param: string): PaymentMethod {
  const fromTest = paymentMethodFromTestId(id, ctx.state.nowMs());
  if (fromTest) return attachPaymentMethod(ctx, fromTest, customer);
  const pm = ctx.state.paymentMethod(id, param);
  if (pm.customer !== customer.id) {
    throw invalidRequest(`The PaymentMethod provided (${id}) does not belong to the Customer. Attach it to the Customer first.`, param);
  }
  return pm;
}

export function attachPaymentMethod(ctx: Ctx, pm: PaymentMethod, customer: Customer): PaymentMethod {
  const { state } = ctx;
  if (pm.customer && pm.customer !== customer.id) {
    throw invalidRequest('The payment method you provided has already been attached to a customer.', 'payment_method');
  }
  if (pm.customer === customer.id) return pm;
  if (pm.behavior === 'declined') throw cardError('declined');
  if (pm.behavior === 'insufficient_funds') throw cardError('insufficient_funds');
  pm.customer = customer.id;
  if (!state.data.paymentMethods.includes(pm)) state.data.paymentMethods.push(pm);
  state.publish('payment_method.attached', pm);
  return pm;
}

export function detachPaymentMethod(ctx: Ctx, pm: PaymentMethod): PaymentMethod {
  const { state } = ctx;
  if (!pm.customer) throw invalidRequest(`The payment method ${pm.id} is not attached to a customer so detachment is impossible.`);
  const customer = state.data.customers.find((c) => c.id === pm.customer);
  const previous = pm.customer;
  pm.customer = null;
  if (customer && customer.invoice_settings.default_payment_method === pm.id) {
    customer.invoice_settings.default_payment_method = null;
    state.publish('customer.updated', customer, { invoice_settings: { default_payment_method: pm.id } });
  }
  for (const sub of state.data.subscriptions) if (sub.default_payment_method === pm.id) sub.default_payment_method = null;
  state.publish('payment_method.detached', pm, { customer: previous });
  return pm;
}

/** Sets the customer's default card for invoices (customer.updated). */
export function setDefaultPaymentMethod(ctx: Ctx, customer: Customer, pmId: string | null): void {
  const before = customer.invoice_settings.default_payment_method;
  if (before === pmId) return;
  customer.invoice_settings.default_payment_method = pmId;
  ctx.state.publish('customer.updated', customer, { invoice_settings: { default_payment_method: before } });
}
