// Stripe's test cards: the numbers a person types on the hosted pages, and the PaymentMethod / token ids
// (`pm_card_visa`, `tok_chargeDeclined` …) an API caller passes instead.
import { createHash } from 'node:crypto';
import { cardError } from './errors';
import { randomId } from './state';
import type { CardBehavior, PaymentMethod } from './types';

interface TestCard {
  number: string;
  brand: string;
  behavior: CardBehavior;
}

const TEST_CARDS: TestCard[] = [
  { number: '4242424242424242', brand: 'visa', behavior: 'succeeds' },
  { number: '4000056655665556', brand: 'visa', behavior: 'succeeds' },
  { number: '5555555555554444', brand: 'mastercard', behavior: 'succeeds' },
  { number: '378282246310005', brand: 'amex', behavior: 'succeeds' },
  { number: '4000000000000002', brand: 'visa', behavior: 'declined' },
  { number: '4000000000009995', brand: 'visa', behavior: 'insufficient_funds' },
  { number: '4000000000000341', brand: 'visa', behavior: 'charge_fails' },
];

/** Test PaymentMethod ids and tokens, and the card each stands for. */
const TEST_IDS: Record<string, string> = {
  visa: '4242424242424242',
  mastercard: '5555555555554444',
  amex: '378282246310005',
  chargeDeclined: '4000000000000002',
  chargeDeclinedInsufficientFunds: '4000000000009995',
  visa_chargeDeclined: '4000000000000002',
  visa_chargeDeclinedInsufficientFunds: '4000000000009995',
  chargeCustomerFail: '4000000000000341',
};

export interface CardInput {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
  name?: string | null;
  email?: string | null;
  country?: string | null;
  postalCode?: string | null;
}

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** The test card behind `pm_card_visa` / `tok_visa`-style ids, or null for an id of another kind. */
export function testCardNumber(id: string): string | null {
  const m = /^(?:pm_card_|tok_)(.+)$/.exec(id);
  return m ? (TEST_IDS[m[1] ?? ''] ?? null) : null;
}

/**
 * Checks a card as Stripe does when it is tokenised and attached: the number, the expiry (against the sandbox
 * clock), the CVC, and cards that are declined outright (0002, 9995). Throws Stripe's card errors.
 */
export function paymentMethodFromCard(input: CardInput, nowMs: number): PaymentMethod {
  const digits = input.number.replace(/[\s-]/g, '');
  if (!/^\d{13,19}$/.test(digits) || !luhnValid(digits)) throw cardError('incorrect_number');
  const card = TEST_CARDS.find((c) => c.number === digits);
  if (!card) throw cardError('live_card');
  const now = new Date(nowMs);
  const expYear = input.expYear < 100 ? 2000 + input.expYear : input.expYear;
  const expired = expYear < now.getUTCFullYear() || (expYear === now.getUTCFullYear() && input.expMonth < now.getUTCMonth() + 1);
  if (!(input.expMonth >= 1 && input.expMonth <= 12) || expired) throw cardError('invalid_expiry');
  if (!/^\d{3,4}$/.test(input.cvc)) throw cardError('invalid_cvc');
  if (card.behavior === 'declined') throw cardError('declined');
  if (card.behavior === 'insufficient_funds') throw cardError('insufficient_funds');
  return {
    id: randomId('pm'),
    object: 'payment_method',
    billing_details: {
      address: { city: null, country: input.country ?? null, line1: null, line2: null, postal_code: input.postalCode ?? null, state: null },
      email: input.email ?? null,
      name: input.name ?? null,
      phone: null,
    },
    card: {
      brand: card.brand,
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' },
      country: 'US',
      display_brand: card.brand,
      exp_month: input.expMonth,
      exp_year: expYear,
      fingerprint: createHash('sha256').update(digits).digest('base64url').slice(0, 16),
      funding: 'credit',
      last4: digits.slice(-4),
    },
    created: Math.floor(nowMs / 1000),
    customer: null,
    livemode: false,
    metadata: {},
    type: 'card',
    behavior: card.behavior,
  };
}

/** A PaymentMethod for a test id (`pm_card_visa`), valid until the end of next year. */
export function paymentMethodFromTestId(id: string, nowMs: number): PaymentMethod | null {
  const number = testCardNumber(id);
  if (!number) return null;
  return paymentMethodFromCard({ number, expMonth: 12, expYear: new Date(nowMs).getUTCFullYear() + 1, cvc: '123' }, nowMs);
}

/** Whether a charge to this card goes through. */
export function chargeSucceeds(pm: PaymentMethod): boolean {
  return pm.behavior === undefined || pm.behavior === 'succeeds';
}
