// The hosted Checkout page (`/checkout/:id`): the order summary and the card form, in subscription and setup mode.

import type { Request, RequestHandler, Response, Router } from 'express';
import { escapeHtml } from '../../escapeHtml';
import type { Ctx } from './billing';
import { completeCheckout } from './checkout';
import { formatMoney, productName } from './invoices';
import { type Body, cardFields, cardFromForm, errorText, field, html, notFound, priceWords, TEST_HINT } from './page-parts';
import type { CheckoutSession } from './types';

export function registerCheckoutPage(router: Router, ctx: Ctx, form: RequestHandler): void {
  const { state } = ctx;
  const checkoutSession = (req: Request): CheckoutSession | undefined => state.data.checkoutSessions.find((s) => s.id === req.params.id);
  const renderCheckout = (res: Response, s: CheckoutSession, values: Body, error?: string) => {
    const customer = s.customer ? state.data.customers.find((c) => c.id === s.customer) : undefined;
    const items = s.sandbox.items.map((it) => ({ price: state.price(it.price), quantity: it.quantity }));
    const first = items[0]?.price;
    const trialDays = s.sandbox.trialPeriodDays ?? (s.sandbox.trialEnd ? Math.ceil((s.sandbox.trialEnd - state.now()) / 86400) : 0);
    const heading = first ? `Subscribe to ${productName(ctx, first)}` : 'Subscribe';
    const amount = first
      ? `<div class="amount" id="checkout-amount">${formatMoney(s.amount_total ?? 0, s.currency)} <small>per ${escapeHtml(first.recurring?.interval ?? 'month')}</small></div>`
      : '';
    const lines = items
      .map(
        ({ price, quantity }) =>
          `<div class="line"><span>${escapeHtml(productName(ctx, price))}${quantity > 1 ? ` × ${quantity}` : ''}<br><span class="muted">Billed ${price.recurring?.interval === 'year' ? 'yearly' : 'monthly'}</span></span><span>${formatMoney(price.unit_amount * quantity, price.currency)}</span></div>`,
      )
      .join('');
    const email = values.email ?? customer?.email ?? s.customer_email ?? '';
    const emailLocked = Boolean(customer?.email ?? s.customer_email);
    const setup = s.mode === 'setup';
    // Setup mode saves a card and charges nothing: no amount, no total, as on Stripe's page.
    const summary = setup
      ? `<div class="amount" id="checkout-amount">Save a card</div><div class="muted">for future payments to ${escapeHtml(ctx.accountName)}</div>`
      : `<div class="muted">${escapeHtml(heading)}</div>
    ${trialDays > 0 ? `<div class="amount">${trialDays} days free</div><div class="muted">Then ${first ? priceWords(first) : ''}</div>` : amount}
    <div style="margin-top:28px">${lines}
      <div class="line total"><span>Total due today</span><span id="checkout-total">${formatMoney(trialDays > 0 ? 0 : (s.amount_total ?? 0), s.currency)}</span></div>
    </div>`;
    const submitMessage = s.custom_text?.submit?.message;
    const body = `
<div class="checkout">
  <div class="summary"><div class="inner">
    ${s.cancel_url ? `<a class="back" id="checkout-back" href="${escapeHtml(s.cancel_url)}"><span class="logo">${escapeHtml(ctx.accountName.charAt(0))}</span> ← ${escapeHtml(ctx.accountName)}</a>` : `<div class="back"><span class="logo">${escapeHtml(ctx.accountName.charAt(0))}</span> ${escapeHtml(ctx.accountName)}</div>`}
    ${summary}
  </div></div>
  <div class="pay"><div class="inner">
    <h1>${setup ? 'Card details' : 'Pay with card'}</h1>
    ${error ? `<div class="alert error" id="checkout-error" role="alert">${escapeHtml(error)}</div>` : ''}
    <form method="post" action="${ctx.baseUrl}/checkout/${s.id}" id="checkout-form">
      <label for="email">Email</label>
      <input id="email" name="email" type="email" autocomplete="email" value="${escapeHtml(email)}"${emailLocked ? ' readonly' : ''} required>
      ${cardFields(values, true)}
      ${submitMessage ? `<p class="hint" id="checkout-submit-message">${escapeHtml(submitMessage)}</p>` : ''}
      <button class="primary submit" id="checkout-submit" type="submit">${setup ? 'Save card' : trialDays > 0 ? 'Start trial' : 'Subscribe'}</button>
    </form>
    <p class="muted" style="margin-top:14px;font-size:12.5px">${
      setup
        ? `By saving your card, you allow ${escapeHtml(ctx.accountName)} to charge it for future payments in accordance with their terms.`
        : `By confirming your subscription, you allow ${escapeHtml(ctx.accountName)} to charge your card for this payment and future payments in accordance with their terms. You can always cancel your subscription.`
    }</p>
    ${TEST_HINT}
  </div></div>
</div>`;
    html(res, error ? 402 : 200, `${ctx.accountName} · Checkout`, body);
  };
  router.get('/checkout/:id', (req, res) => {
    const s = checkoutSession(req);
    if (!s) {
      notFound(res, 'Something went wrong');
      return;
    }
    if (s.status === 'complete' && s.success_url) {
      res.redirect(303, s.success_url.replace('{CHECKOUT_SESSION_ID}', s.id));
      return;
    }
    if (s.status !== 'open') {
      notFound(res, 'This Checkout Session is no longer active');
      return;
    }
    renderCheckout(res, s, {});
  });
  router.post('/checkout/:id', form, (req, res) => {
    const s = checkoutSession(req);
    if (s?.status !== 'open') {
      notFound(res, 'This Checkout Session is no longer active');
      return;
    }
    const body = (req.body ?? {}) as Body;
    try {
      completeCheckout(ctx, s, { card: cardFromForm(body), email: field(body, 'email'), name: field(body, 'name') });
    } catch (err) {
      renderCheckout(res, s, body, errorText(err));
      return;
    }
    res.redirect(303, (s.success_url ?? `${ctx.baseUrl}/`).replace('{CHECKOUT_SESSION_ID}', s.id));
  });
}
