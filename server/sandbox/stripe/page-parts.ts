// The parts the hosted pages share: their CSS, the card form's fields and how a posted form is read, the money and
// card wording, and the HTML and not-found responders.

import type { Response } from 'express';
import { escapeHtml } from '../../escapeHtml';
import type { CardInput } from './cards';
import { StripeApiError } from './errors';
import { pageShell } from './html';
import { formatMoney } from './invoices';
import type { PaymentMethod, Price } from './types';

const COUNTRIES: [string, string][] = [
  ['US', 'United States'],
  ['GB', 'United Kingdom'],
  ['DE', 'Germany'],
  ['FR', 'France'],
  ['NL', 'Netherlands'],
  ['CA', 'Canada'],
  ['AU', 'Australia'],
];

const pageCss = `
.checkout { display: grid; grid-template-columns: 1fr 1fr; min-height: calc(100vh - 24px); }
.checkout .summary { background: #f6f9fc; padding: 64px 56px; display: flex; justify-content: flex-end; border-right: 1px solid var(--border); }
.checkout .pay { padding: 64px 56px; }
.checkout .inner { width: 100%; max-width: 400px; }
.back { display: inline-flex; align-items: center; gap: 8px; color: var(--ink); font-weight: 600; margin-bottom: 40px; }
.logo { display: inline-flex; align-items: center; justify-content: center; width: 28px; height: 28px; border-radius: 50%; background: var(--brand); color: #fff; font-size: 14px; font-weight: 700; }
.amount { font-size: 36px; font-weight: 700; letter-spacing: -.01em; }
.amount small { font-size: 15px; font-weight: 500; color: var(--muted); }
.line { display: flex; justify-content: space-between; gap: 12px; padding: 12px 0; border-bottom: 1px solid var(--border); font-size: 14px; }
.line.total { font-weight: 600; border-bottom: 0; }
.card-box { border: 1px solid #d5dbe1; border-radius: 6px; }
.card-box input { border: 0; border-radius: 0; box-shadow: none; }
.card-box .row { gap: 0; border-top: 1px solid #d5dbe1; }
.card-box .row input + input { border-left: 1px solid #d5dbe1; }
.submit { width: 100%; margin-top: 22px; padding: 12px; font-size: 16px; }
.hint { margin-top: 18px; font-size: 12.5px; color: var(--muted); }
.portal { display: grid; grid-template-columns: 360px 1fr; min-height: calc(100vh - 24px); }
.portal aside { background: #f6f9fc; padding: 56px 40px; border-right: 1px solid var(--border); }
.portal main { padding: 56px 48px; max-width: 760px; }
.portal section { border-bottom: 1px solid var(--border); padding-bottom: 20px; }
.plan-line { display: flex; justify-content: space-between; align-items: flex-start; gap: 16px; }
.plan-line .button, .plan-line button { white-space: nowrap; }
.panel { max-width: 560px; margin: 48px auto; padding: 0 20px; }
.invoice-head { display: flex; justify-content: space-between; align-items: baseline; gap: 12px; }
@media (max-width: 760px) {
  .checkout, .portal { grid-template-columns: 1fr; }
  .checkout .summary { padding: 28px 20px; border-right: 0; border-bottom: 1px solid var(--border); justify-content: flex-start; }
  .checkout .pay { padding: 24px 20px 40px; }
  .back { margin-bottom: 20px; }
  .amount { font-size: 30px; }
  .portal aside { padding: 24px 20px; border-right: 0; border-bottom: 1px solid var(--border); }
  .portal main { padding: 24px 20px 40px; }
  .portal aside .back { margin-bottom: 8px; }
  table.invoices th:nth-child(3), table.invoices td:nth-child(3) { display: none; }
}
`;

export type Body = Record<string, string | undefined>;

export function field(body: Body, key: string): string {
  const v = body[key];
  return typeof v === 'string' ? v.trim() : '';
}

export function cardFromForm(body: Body): CardInput {
  const [mm, yy] = field(body, 'expiry')
    .split('/')
    .map((s) => s.trim());
  return {
    number: field(body, 'cardnumber'),
    expMonth: Number(mm),
    expYear: Number(yy),
    cvc: field(body, 'cvc'),
    name: field(body, 'name') || null,
    email: field(body, 'email') || null,
    country: field(body, 'country') || null,
    postalCode: field(body, 'postal') || null,
  };
}

export function cardFields(values: Body, withName: boolean): string {
  const v = (k: string) => escapeHtml(values[k] ?? '');
  const country = values.country ?? 'US';
  return `
  <label for="cardnumber">Card information</label>
  <div class="card-box">
    <input id="cardnumber" name="cardnumber" inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234" value="${v('cardnumber')}" required>
    <div class="row">
      <input id="expiry" name="expiry" aria-label="Expiration (MM / YY)" autocomplete="cc-exp" placeholder="MM / YY" value="${v('expiry')}" required>
      <input id="cvc" name="cvc" aria-label="CVC" inputmode="numeric" autocomplete="cc-csc" placeholder="CVC" value="${v('cvc')}" required>
    </div>
  </div>
  ${withName ? `<label for="name">Cardholder name</label><input id="name" name="name" autocomplete="cc-name" placeholder="Full name on card" value="${v('name')}">` : ''}
  <label for="country">Country or region</label>
  <div class="card-box">
    <select id="country" name="country" style="border:0">${COUNTRIES.map(([code, name]) => `<option value="${code}"${code === country ? ' selected' : ''}>${name}</option>`).join('')}</select>
    <div class="row"><input id="postal" name="postal" aria-label="ZIP" autocomplete="postal-code" placeholder="ZIP" value="${v('postal')}"></div>
  </div>`;
}

export const TEST_HINT = `<p class="hint">Test cards: <code>4242 4242 4242 4242</code> succeeds, <code>4000 0000 0000 0002</code> is declined, <code>4000 0000 0000 0341</code> is saved but its charges fail. Any future expiry, any CVC.</p>`;

export function priceWords(price: Price): string {
  return `${formatMoney(price.unit_amount, price.currency)} per ${price.recurring?.interval ?? 'month'}`;
}

export function cardWords(pm: PaymentMethod | undefined): string {
  if (!pm) return 'No payment method';
  const brand = pm.card.brand.charAt(0).toUpperCase() + pm.card.brand.slice(1);
  return `${brand} •••• ${pm.card.last4}`;
}

export function errorText(err: unknown): string {
  if (err instanceof StripeApiError) return err.message;
  throw err;
}

export const html = (res: Response, status: number, title: string, body: string) =>
  res
    .status(status)
    .type('html')
    .send(pageShell(title, body, pageCss));
export const notFound = (res: Response, what: string) =>
  html(
    res,
    404,
    'Not found',
    `<div class="panel"><h1>${escapeHtml(what)}</h1><p class="muted">This link is not valid, or it has expired.</p></div>`,
  );
