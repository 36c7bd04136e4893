// The hosted Customer Portal (`/portal/:id`): the billing overview, cancelling and renewing a plan, and updating the
// payment method, with the flows a portal session can start in.

import type { Request, RequestHandler, Response, Router } from 'express';
import { escapeHtml } from '../../escapeHtml';
import type { Ctx } from './billing';
import { dateText } from './html';
import { formatMoney, productName } from './invoices';
import { type Body, cardFields, cardFromForm, cardWords, errorText, html, notFound, priceWords, TEST_HINT } from './page-parts';
import { replaceCard } from './payments';
import { updateSubscription } from './subscriptions';
import type { Customer, PortalSession, Subscription } from './types';

export function registerPortalPage(router: Router, ctx: Ctx, form: RequestHandler): void {
  const { state } = ctx;
  /** The request's portal session and its customer; undefined once it has answered that the session has expired. */
  const portalSession = (req: Request, res: Response): { session: PortalSession; customer: Customer } | undefined => {
    const session = state.data.portalSessions.find((s) => s.id === req.params.id);
    const customer = session ? state.data.customers.find((c) => c.id === session.customer) : undefined;
    if (session && customer) return { session, customer };
    notFound(res, 'This session has expired');
    return undefined;
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
    const found = portalSession(req, res);
    if (!found) return;
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
  <div><div style="font-weight:600;font-size:17px">${price ? escapeHtml(productName(ctx, price)) : ''} <span class="badge ${sub.status}">${sub.status === 'past_due' ? 'Past due' : sub.status === 'trialing' ? 'Trial' : canceling ? 'Canceling' : 'Active'}</span></div>
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
    const found = portalSession(req, res);
    if (!found) return;
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
<p id="portal-cancel-explainer">Your ${price ? escapeHtml(productName(ctx, price)) : ''} plan will be canceled, but is still available until the end of your billing period on <strong>${dateText(end)}</strong>.</p>
<p class="muted">If you change your mind, you can renew your subscription.</p>
<form method="post" action="${ctx.baseUrl}/portal/${session.id}/cancel" style="display:flex;gap:10px;flex-wrap:wrap;margin-top:24px">
  <input type="hidden" name="subscription" value="${sub.id}">
  <button class="danger" id="portal-cancel-confirm" type="submit">Cancel plan</button>
  <a class="button" id="portal-cancel-back" href="${ctx.baseUrl}/portal/${session.id}?home">Go back</a>
</form>`;
    html(res, 200, `${ctx.accountName} · Cancel plan`, portalFrame(session, main));
  });
  router.post('/portal/:id/cancel', form, (req, res) => {
    const found = portalSession(req, res);
    if (!found) return;
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
    const found = portalSession(req, res);
    if (!found) return;
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
    const found = portalSession(req, res);
    if (!found) return;
    renderCardPage(res, found.session, {});
  });
  router.post('/portal/:id/payment-method', form, (req, res) => {
    const found = portalSession(req, res);
    if (!found) return;
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
}
