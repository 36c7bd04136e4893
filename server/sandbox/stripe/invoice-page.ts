// The hosted invoice page (`/invoices/:id`): an invoice's lines and status, and paying an open invoice with a card.

import type { RequestHandler, Response, Router } from 'express';
import { escapeHtml } from '../../escapeHtml';
import type { Ctx } from './billing';
import { paymentMethodFromCard } from './cards';
import { dateText } from './html';
import { formatMoney } from './invoices';
import { type Body, cardFields, cardFromForm, errorText, html, notFound, TEST_HINT } from './page-parts';
import { payInvoice } from './payments';
import type { Invoice } from './types';

export function registerInvoicePage(router: Router, ctx: Ctx, form: RequestHandler): void {
  const { state } = ctx;
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
}
