// The hosted pages a person (or a browser test) uses: Checkout (`/checkout/:id`), the Customer Portal
// (`/portal/:id`), the hosted invoice page (`/invoices/:id`), and the operator page (`/`).
// Plain HTML forms, no script; elements carry ids for browser tests.
import express, { type Request, type Response, type Router } from 'express';
import { escapeHtml } from '../../escapeHtml';
import { addIntervals, type Ctx } from './billing';
import type { CardInput } from './cards';
import { paymentMethodFromCard } from './cards';
import { completeCheckout } from './checkout';
import { advanceClock } from './clock';
import type { StripeSandbox } from './contract';
import { StripeApiError } from './errors';
import { dateText, pageShell } from './html';
import { formatMoney } from './invoices';
import { operatorPage } from './operator-page';
import { payInvoice, replaceCard } from './payments';
import { updateSubscription } from './subscriptions';
import type { CheckoutSession, Customer, Invoice, PaymentMethod, PortalSession, Price, Subscription } from './types';

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

type Body = Record<string, string | undefined>;

function field(body: Body, key: string): string {
  const v = body[key];
  return typeof v === 'string' ? v.trim() : '';
}

function cardFromForm(body: Body): CardInput {
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

function cardFields(values: Body, withName: boolean): string {
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

const TEST_HINT = `<p class="hint">Test cards: <code>4242 4242 4242 4242</code> succeeds, <code>4000 0000 0000 0002</code> is declined, <code>4000 0000 0000 0341</code> is saved but its charges fail. Any future expiry, any CVC.</p>`;

function priceWords(price: Price): string {
  return `${formatMoney(price.unit_amount, price.currency)} per ${price.recurring?.interval ?? 'month'}`;
}

function cardWords(pm: PaymentMethod | undefined): string {
  if (!pm) return 'No payment method';
  const brand = pm.card.brand.charAt(0).toUpperCase() + pm.card.brand.slice(1);
  return `${brand} •••• ${pm.card.last4}`;
}

function errorText(err: unknown): string {
  if (err instanceof StripeApiError) return err.message;
  throw err;
}

export function pagesRouter(ctx: Ctx, sandbox: StripeSandbox): Router {
  const { state } = ctx;
  const router = express.Router();
  const form = express.urlencoded({ extended: false, limit: '64kb' });
  const productName = (price: Price) => state.data.products.find((p) => p.id === price.product)?.name ?? price.product;
  const html = (res: Response, status: number, title: string, body: string) =>
    res
      .status(status)
      .type('html')
      .send(pageShell(title, body, pageCss));
  const notFound = (res: Response, what: string) =>
    html(
      res,
      404,
      'Not found',
      `<div class="panel"><h1>${escapeHtml(what)}</h1><p class="muted">This link is not valid, or it has expired.</p></div>`,
    );

  // Checkout.
  const checkoutSession = (req: Request): CheckoutSession | undefined => state.data.checkoutSessions.find((s) => s.id === req.params.id);
  const renderCheckout = (res: Response, s: CheckoutSession, values: Body, error?: string) => {
    const customer = s.customer ? state.data.customers.find((c) => c.id === s.customer) : undefined;
    const items = s.sandbox.items.map((it) => ({ price: state.price(it.price), quantity: it.quantity }));
    const first = items[0]?.price;
    const trialDays = s.sandbox.trialPeriodDays ?? (s.sandbox.trialEnd ? Math.ceil((s.sandbox.trialEnd - state.now()) / 86400) : 0);
    const heading = first ? `Subscribe to ${productName(first)}` : 'Subscribe';
    const amount = first
      ? `<div class="amount" id="checkout-amount">${formatMoney(s.amount_total ?? 0, s.currency)} <small>per ${escapeHtml(first.recurring?.interval ?? 'month')}</small></div>`
      : '';
    const lines = items
      .map(
        ({ price, quantity }) =>
          `<div class="line"><span>${escapeHtml(productName(price))}${quantity > 1 ? ` × ${quantity}` : ''}<br><span class="muted">Billed ${price.recurring?.interval === 'year' ? 'yearly' : 'monthly'}</span></span><span>${formatMoney(price.unit_amount * quantity, price.currency)}</span></div>`,
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

  // Customer Portal.
  const portalSession = (req: Request): { session: PortalSession; customer: Customer } | undefined => {
    const session = state.data.portalSessions.find((s) => s.id === req.params.id);
    const customer = session ? state.data.customers.find((c) => c.id === session.customer) : undefined;
    return session && customer ? { session, customer } : undefined;
  };
  const liveSubs = (customer: Customer) =>
    state.data.subscriptions.filter((s) => s.customer === customer.id && !['canceled', 'incomplete_expired'].includes(s.status));
  const defaultCard = (customer: Customer, sub?: Subscription) => {
    const id = sub?.default_payment_method ?? customer.invoice_settings.default_payment_method;
    return state.data.paymentMethods.find((p) => p.id === id);
  };
  const portalFrame = (session: PortalSession, main: string) => `
<div class="portal">
  <aside>
    <div class="back"><span class="logo">${escapeHtml(ctx.accountName.charAt(0))}</span> ${escapeHtml(ctx.accountName)}</div>
    <p class="muted">${escapeHtml(ctx.accountName)} partners with Stripe for simplified billing.</p>
    ${session.return_url ? `<p><a id="portal-return" href="${escapeHtml(session.return_url)}">← Return to ${escapeHtml(ctx.accountName)}</a></p>` : ''}
  </aside>
  <main>${main}</main>
</div>`;
  const subLine = (sub: Subscription) => {
    const end = sub.items.data[0]?.current_period_end ?? null;
    if (sub.cancel_at_period_end || sub.cancel_at) return `Your plan will be canceled on ${dateText(sub.cancel_at ?? end)}.`;
    if (sub.status === 'trialing') return `Your trial ends on ${dateText(sub.trial_end)}.`;
    if (sub.status === 'past_due') return `Your last payment failed. Update your payment method to keep your plan.`;
    return `Your plan renews on ${dateText(end)}.`;
  };
  router.get('/portal/:id', (req, res) => {
    const found = portalSession(req);
    if (!found) {
      notFound(res, 'This session has expired');
      return;
    }
    const { session, customer } = found;
    if (session.flow?.type === 'subscription_cancel' && session.flow.subscription_cancel && req.query.home === undefined) {
      res.redirect(303, `${ctx.baseUrl}/portal/${session.id}/cancel?subscription=${session.flow.subscription_cancel.subscription}`);
      return;
    }
    if (session.flow?.type === 'payment_method_update' && req.query.home === undefined) {
      res.redirect(303, `${ctx.baseUrl}/portal/${session.id}/payment-method`);
      return;
    }
    const notice = typeof req.query.notice === 'string' ? req.query.notice : '';
    const subs = liveSubs(customer);
    const invoices = state.data.invoices.filter((i) => i.customer === customer.id).sort((a, b) => b.created - a.created);
    const plans = subs
      .map((sub) => {
        const item = sub.items.data[0];
        const price = item?.price;
        const canceling = sub.cancel_at_period_end || sub.cancel_at !== null;
        return `<div class="plan-line" data-subscription="${sub.id}">
  <div><div style="font-weight:600;font-size:17px">${price ? escapeHtml(productName(price)) : ''} <span class="badge ${sub.status}">${sub.status === 'past_due' ? 'Past due' : sub.status === 'trialing' ? 'Trial' : canceling ? 'Canceling' : 'Active'}</span></div>
  <div>${price ? priceWords(price) : ''}</div>
  <div class="muted" id="portal-plan-status">${escapeHtml(subLine(sub))}</div></div>
  <div>${
    canceling
      ? `<form method="post" action="${ctx.baseUrl}/portal/${session.id}/renew"><input type="hidden" name="subscription" value="${sub.id}"><button id="portal-renew" type="submit" class="primary">Renew plan</button></form>`
      : `<a class="button" id="portal-cancel" href="${ctx.baseUrl}/portal/${session.id}/cancel?subscription=${sub.id}">Cancel plan</a>`
  }</div>
</div>`;
      })
      .join('');
    const pm = defaultCard(customer, subs[0]);
    const address = customer.address;
    const main = `
<h1>Billing</h1>
${notice ? `<div class="alert ok" id="portal-notice">${escapeHtml(notice)}</div>` : ''}
<section><h2>Current plan</h2>${plans || '<p class="muted" id="portal-no-plan">You have no active plan.</p>'}</section>
<section><h2>Payment method</h2>
  <div class="plan-line"><div id="portal-card">${escapeHtml(cardWords(pm))}${pm ? `<div class="muted">Expires ${String(pm.card.exp_month).padStart(2, '0')}/${pm.card.exp_year}</div>` : ''}</div>
  <a class="button" id="portal-update-card" href="${ctx.baseUrl}/portal/${session.id}/payment-method">${pm ? 'Update payment method' : 'Add payment method'}</a></div>
</section>
<section><h2>Billing information</h2>
  <div class="muted">Name</div><div>${escapeHtml(customer.name ?? '—')}</div>
  <div class="muted" style="margin-top:8px">Email</div><div>${escapeHtml(customer.email ?? '—')}</div>
  <div class="muted" style="margin-top:8px">Billing address</div><div>${address ? escapeHtml([address.line1, address.line2, [address.postal_code, address.city].filter(Boolean).join(' '), address.country].filter(Boolean).join(', ')) : '—'}</div>
</section>
<section style="border:0"><h2>Invoice history</h2>
  ${
    invoices.length === 0
      ? '<p class="muted">No invoices yet.</p>'
      : `<table class="invoices" id="portal-invoices"><thead><tr><th>Date</th><th>Amount</th><th>Number</th><th>Status</th></tr></thead><tbody>${invoices
          .map(
            (i) =>
              `<tr><td><a href="${escapeHtml(i.hosted_invoice_url ?? '#')}">${dateText(i.created)}</a></td><td>${formatMoney(i.total, i.currency)}</td><td>${escapeHtml(i.number ?? '')}</td><td><span class="badge ${i.status ?? ''}">${escapeHtml(i.status ?? '')}</span></td></tr>`,
          )
          .join('')}</tbody></table>`
  }
</section>`;
    html(res, 200, `${ctx.accountName} · Billing`, portalFrame(session, main));
  });
  router.get('/portal/:id/cancel', (req, res) => {
    const found = portalSession(req);
    if (!found) {
      notFound(res, 'This session has expired');
      return;
    }
    const { session, customer } = found;
    const sub = liveSubs(customer).find((s) => s.id === req.query.subscription);
    if (!sub) {
      res.redirect(303, `${ctx.baseUrl}/portal/${session.id}?home`);
      return;
    }
    const end = sub.status === 'trialing' ? sub.trial_end : (sub.items.data[0]?.current_period_end ?? null);
    const price = sub.items.data[0]?.price;
    const main = `
<h1>Cancel your plan</h1>
<p id="portal-cancel-explainer">Your ${price ? escapeHtml(productName(price)) : ''} plan will be canceled, but is still available until the end of your billing period on <strong>${dateText(end)}</strong>.</p>
<p class="muted">If you change your mind, you can renew your subscription.</p>
<form method="post" action="${ctx.baseUrl}/portal/${session.id}/cancel" style="display:flex;gap:10px;flex-wrap:wrap;margin-top:24px">
  <input type="hidden" name="subscription" value="${sub.id}">
  <button class="danger" id="portal-cancel-confirm" type="submit">Cancel plan</button>
  <a class="button" id="portal-cancel-back" href="${ctx.baseUrl}/portal/${session.id}?home">Go back</a>
</form>`;
    html(res, 200, `${ctx.accountName} · Cancel plan`, portalFrame(session, main));
  });
  router.post('/portal/:id/cancel', form, (req, res) => {
    const found = portalSession(req);
    if (!found) {
      notFound(res, 'This session has expired');
      return;
    }
    const { session, customer } = found;
    const sub = liveSubs(customer).find((s) => s.id === (req.body as Body).subscription);
    if (!sub) {
      res.redirect(303, `${ctx.baseUrl}/portal/${session.id}?home`);
      return;
    }
    updateSubscription(ctx, sub, { cancelAtPeriodEnd: true });
    const after = session.flow?.after_completion;
    if (after?.type === 'redirect' && after.redirect) {
      res.redirect(303, after.redirect.return_url);
      return;
    }
    res.redirect(
      303,
      `${ctx.baseUrl}/portal/${session.id}?home&notice=${encodeURIComponent(`Your plan has been canceled. It remains available until ${dateText(sub.cancel_at)}.`)}`,
    );
  });
  router.post('/portal/:id/renew', form, (req, res) => {
    const found = portalSession(req);
    if (!found) {
      notFound(res, 'This session has expired');
      return;
    }
    const { session, customer } = found;
    const sub = liveSubs(customer).find((s) => s.id === (req.body as Body).subscription);
    if (sub) updateSubscription(ctx, sub, { cancelAtPeriodEnd: false });
    res.redirect(303, `${ctx.baseUrl}/portal/${session.id}?home&notice=${encodeURIComponent('Your plan has been renewed.')}`);
  });
  const renderCardPage = (res: Response, session: PortalSession, values: Body, error?: string) => {
    const main = `
<h1>${session.flow?.type === 'payment_method_update' ? 'Update payment method' : 'Add payment method'}</h1>
${error ? `<div class="alert error" id="portal-card-error" role="alert">${escapeHtml(error)}</div>` : ''}
<form method="post" action="${ctx.baseUrl}/portal/${session.id}/payment-method" style="max-width:420px">
  ${cardFields(values, true)}
  <div style="display:flex;gap:10px;margin-top:22px"><button class="primary" id="portal-card-save" type="submit">Save</button><a class="button" href="${ctx.baseUrl}/portal/${session.id}?home">Cancel</a></div>
</form>
${TEST_HINT}`;
    html(res, error ? 402 : 200, `${ctx.accountName} · Payment method`, portalFrame(session, main));
  };
  router.get('/portal/:id/payment-method', (req, res) => {
    const found = portalSession(req);
    if (!found) {
      notFound(res, 'This session has expired');
      return;
    }
    renderCardPage(res, found.session, {});
  });
  router.post('/portal/:id/payment-method', form, (req, res) => {
    const found = portalSession(req);
    if (!found) {
      notFound(res, 'This session has expired');
      return;
    }
    const { session, customer } = found;
    const body = (req.body ?? {}) as Body;
    try {
      replaceCard(ctx, customer, cardFromForm(body));
    } catch (err) {
      renderCardPage(res, session, body, errorText(err));
      return;
    }
    const after = session.flow?.after_completion;
    if (session.flow?.type === 'payment_method_update' && after?.type === 'redirect' && after.redirect) {
      res.redirect(303, after.redirect.return_url);
      return;
    }
    res.redirect(303, `${ctx.baseUrl}/portal/${session.id}?home&notice=${encodeURIComponent('Your payment method has been updated.')}`);
  });

  // Hosted invoice page.
  const renderInvoice = (res: Response, invoice: Invoice, values: Body, error?: string, notice?: string) => {
    const customer = state.data.customers.find((c) => c.id === invoice.customer);
    const status =
      invoice.status === 'paid'
        ? `Paid on ${dateText(invoice.status_transitions.paid_at)}`
        : invoice.status === 'open'
          ? invoice.attempt_count > 0
            ? 'Payment failed — due now'
            : 'Due now'
          : (invoice.status ?? '');
    const rows = invoice.lines.data
      .map(
        (l) =>
          `<div class="line"><span>${escapeHtml(l.description ?? '')}<br><span class="muted">${dateText(l.period.start)} – ${dateText(l.period.end)}</span></span><span>${formatMoney(l.amount, l.currency)}</span></div>`,
      )
      .join('');
    const body = `
<div class="panel">
  <div class="back"><span class="logo">${escapeHtml(ctx.accountName.charAt(0))}</span> ${escapeHtml(ctx.accountName)}</div>
  ${notice ? `<div class="alert ok" id="invoice-notice">${escapeHtml(notice)}</div>` : ''}
  <div class="invoice-head"><h1 id="invoice-amount">${formatMoney(invoice.amount_due, invoice.currency)}</h1><span class="badge ${invoice.status ?? ''}" id="invoice-status">${escapeHtml(status)}</span></div>
  <div class="muted">Invoice ${escapeHtml(invoice.number ?? '')} · ${dateText(invoice.created)}</div>
  <div class="muted">To ${escapeHtml(customer?.name ?? customer?.email ?? invoice.customer)}${customer?.name && customer.email ? ` · ${escapeHtml(customer.email)}` : ''}</div>
  <div style="margin-top:24px">${rows}
    ${invoice.starting_balance !== 0 ? `<div class="line"><span>Applied balance</span><span>${formatMoney(Math.max(invoice.starting_balance, -invoice.total), invoice.currency)}</span></div>` : ''}
    <div class="line total"><span>Amount ${invoice.status === 'paid' ? 'paid' : 'due'}</span><span>${formatMoney(invoice.status === 'paid' ? invoice.amount_paid : invoice.amount_due, invoice.currency)}</span></div>
  </div>
  ${
    invoice.status === 'open'
      ? `<h2>Pay this invoice</h2>${error ? `<div class="alert error" id="invoice-error" role="alert">${escapeHtml(error)}</div>` : ''}
  <form method="post" action="${ctx.baseUrl}/invoices/${invoice.id}/pay">${cardFields(values, true)}<button class="primary submit" id="invoice-pay" type="submit">Pay ${formatMoney(invoice.amount_due, invoice.currency)}</button></form>${TEST_HINT}`
      : ''
  }
  <p class="muted" style="margin-top:28px">Questions? Contact ${escapeHtml(ctx.accountName)}.</p>
</div>`;
    html(res, error ? 402 : 200, `Invoice ${invoice.number ?? ''} · ${ctx.accountName}`, body);
  };
  router.get('/invoices/:id', (req, res) => {
    const invoice = state.data.invoices.find((i) => i.id === req.params.id);
    if (!invoice) {
      notFound(res, 'Invoice not found');
      return;
    }
    renderInvoice(res, invoice, {}, undefined, req.query.paid !== undefined ? 'Thank you, your payment went through.' : undefined);
  });
  router.post('/invoices/:id/pay', form, (req, res) => {
    const invoice = state.data.invoices.find((i) => i.id === req.params.id);
    if (!invoice) {
      notFound(res, 'Invoice not found');
      return;
    }
    const body = (req.body ?? {}) as Body;
    try {
      const customer = state.customer(invoice.customer);
      const pm = paymentMethodFromCard(cardFromForm(body), state.nowMs());
      pm.customer = customer.id;
      state.data.paymentMethods.push(pm);
      state.publish('payment_method.attached', pm);
      payInvoice(ctx, invoice, pm);
    } catch (err) {
      renderInvoice(res, invoice, body, errorText(err));
      return;
    }
    res.redirect(303, `${ctx.baseUrl}/invoices/${invoice.id}?paid`);
  });

  // Operator page.
  router.get('/', (_req, res) => {
    res.type('html').send(operatorPage(ctx, sandbox));
  });
  router.post('/operator/advance', form, (req, res) => {
    const body = (req.body ?? {}) as Body;
    const by = field(body, 'by');
    const now = state.now();
    let target = now;
    if (by === 'day') target = now + 86400;
    else if (by === 'month') target = addIntervals(now, 'month', 1);
    else if (by === 'trial') {
      const ends = state.data.subscriptions
        .filter((s) => s.status === 'trialing' && s.trial_end !== null)
        .map((s) => s.trial_end as number);
      target = ends.length > 0 ? Math.min(...ends) : now;
    } else if (/^\d+$/.test(field(body, 'days'))) target = now + Number(field(body, 'days')) * 86400;
    advanceClock(ctx, target);
    res.redirect(303, `${ctx.baseUrl}/`);
  });
  router.post('/operator/resend', form, (req, res) => {
    const eventId = field((req.body ?? {}) as Body, 'event');
    if (state.data.events.some((e) => e.id === eventId)) void sandbox.redeliver(eventId).catch(() => undefined);
    res.redirect(303, `${ctx.baseUrl}/#deliveries`);
  });
  return router;
}
