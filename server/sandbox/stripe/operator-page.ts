// The operator page: what the sandbox holds (customers, subscriptions, invoices, webhook deliveries) and the
// clock, with buttons to move it forward.

import { escapeHtml } from '../../escapeHtml';
import type { Ctx } from './billing';
import type { StripeSandbox } from './contract';
import { dateText, dateTimeText, pageShell } from './html';
import { formatMoney } from './invoices';

const css = `
.op { max-width: 1180px; margin: 0 auto; padding: 28px 24px 60px; }
.op header { display: flex; justify-content: space-between; align-items: flex-start; gap: 20px; flex-wrap: wrap; }
.clock { background: var(--soft); border: 1px solid var(--border); border-radius: 8px; padding: 14px 16px; }
.clock .now { font-size: 18px; font-weight: 600; }
.clock form { display: inline; }
.clock .buttons { display: flex; gap: 8px; flex-wrap: wrap; margin-top: 10px; align-items: center; }
.clock button { padding: 6px 12px; font-size: 14px; }
.clock input { width: 70px; padding: 6px 8px; }
.scroll { overflow-x: auto; border: 1px solid var(--border); border-radius: 8px; }
.scroll table td, .scroll table th { white-space: nowrap; }
.attempts { display: flex; gap: 4px; flex-wrap: wrap; }
.op h2 { display: flex; align-items: baseline; gap: 8px; }
.op h2 .muted { font-weight: 400; }
@media (max-width: 760px) { .op { padding: 18px 12px 40px; } .clock { width: 100%; } }
`;

export function operatorPage(ctx: Ctx, sandbox: StripeSandbox): string {
  const { state } = ctx;
  const d = state.data;
  const customerLabel = (id: string) => {
    const c = d.customers.find((x) => x.id === id);
    return c ? escapeHtml(c.email ?? c.name ?? c.id) : escapeHtml(id);
  };
  const productName = (priceId: string) => {
    const price = d.prices.find((p) => p.id === priceId);
    return escapeHtml(d.products.find((p) => p.id === price?.product)?.name ?? priceId);
  };
  const newest = <T extends { created: number }>(list: T[]) => [...list].sort((a, b) => b.created - a.created);
  const trialing = d.subscriptions.filter((s) => s.status === 'trialing').length;
  const table = (id: string, head: string[], rows: string[], empty: string) =>
    rows.length === 0
      ? `<p class="muted" id="${id}-empty">${empty}</p>`
      : `<div class="scroll"><table id="${id}"><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table></div>`;

  const customers = newest(d.customers).map((c) => {
    const pm =
      d.paymentMethods.find((p) => p.id === c.invoice_settings.default_payment_method) ?? d.paymentMethods.find((p) => p.customer === c.id);
    return `<tr><td><code>${c.id}</code></td><td>${escapeHtml(c.email ?? '—')}</td><td>${escapeHtml(c.name ?? '—')}</td><td>${pm ? `${escapeHtml(pm.card.brand)} •••• ${pm.card.last4}${pm.behavior && pm.behavior !== 'succeeds' ? ` <span class="badge failed">${pm.behavior.replace('_', ' ')}</span>` : ''}` : '—'}</td><td>${c.delinquent ? '<span class="badge past_due">delinquent</span>' : ''}</td><td>${dateText(c.created)}</td></tr>`;
  });
  const subscriptions = newest(d.subscriptions).map((s) => {
    const item = s.items.data[0];
    const when =
      s.status === 'trialing'
        ? `trial ends ${dateText(s.trial_end)}`
        : s.status === 'canceled'
          ? `ended ${dateText(s.ended_at)}`
          : `${s.cancel_at_period_end ? 'cancels' : 'renews'} ${dateText(item?.current_period_end)}`;
    return `<tr data-subscription="${s.id}"><td><code>${s.id}</code></td><td>${customerLabel(s.customer)}</td><td>${item ? `${productName(item.price.id)} · ${formatMoney(item.price.unit_amount, item.price.currency)}/${item.price.recurring?.interval ?? ''}` : ''}</td><td><span class="badge ${s.status}">${s.status}</span>${s.cancel_at_period_end ? ' <span class="badge">cancel at period end</span>' : ''}</td><td>${when}</td></tr>`;
  });
  const invoices = newest(d.invoices).map(
    (i) =>
      `<tr><td><a href="${escapeHtml(i.hosted_invoice_url ?? '#')}">${escapeHtml(i.number ?? i.id)}</a></td><td>${customerLabel(i.customer)}</td><td>${formatMoney(i.total, i.currency)}</td><td><span class="badge ${i.status ?? ''}">${i.status ?? ''}</span>${i.attempt_count > 1 ? ` <span class="muted">${i.attempt_count} attempts</span>` : ''}</td><td>${escapeHtml(i.billing_reason)}</td><td>${dateText(i.created)}</td><td>${i.next_payment_attempt ? `retry ${dateText(i.next_payment_attempt)}` : ''}</td></tr>`,
  );
  const deliveries = [...d.deliveries]
    .reverse()
    .slice(0, 200)
    .map((del) => {
      const attempts = del.attempts
        .map(
          (a) =>
            `<span class="badge ${a.status && a.status < 300 ? 'succeeded' : 'failed'}" title="${escapeHtml(dateTimeText(Math.floor(a.at / 1000)))}">${a.status ?? escapeHtml(a.error ?? 'error')}</span>`,
        )
        .join('');
      return `<tr data-event="${del.eventId}"><td>${escapeHtml(del.type)}</td><td><code>${del.eventId}</code></td><td><span class="badge ${del.status}">${del.status}</span>${del.reason !== 'event' ? ` <span class="badge">${del.reason}</span>` : ''}</td><td><div class="attempts">${attempts}</div></td><td><form method="post" action="${ctx.baseUrl}/operator/resend"><input type="hidden" name="event" value="${del.eventId}"><button class="link" type="submit">Resend</button></form></td></tr>`;
    });
  const prices = d.prices.map(
    (p) =>
      `<tr><td><code>${escapeHtml(p.id)}</code></td><td>${productName(p.id)}</td><td>${formatMoney(p.unit_amount, p.currency)} / ${p.recurring?.interval ?? 'once'}</td><td>${escapeHtml(p.lookup_key ?? '')}</td></tr>`,
  );

  const body = `
<div class="op">
  <header>
    <div><h1>Stripe sandbox <a href="${ctx.baseUrl}/" id="op-refresh" style="font-size:14px;font-weight:500">Refresh</a></h1><div class="muted">API <code>${escapeHtml(safeApiUrl(sandbox))}</code> · webhooks to <code>${escapeHtml(webhookTarget(sandbox))}</code></div></div>
    <div class="clock" id="op-clock">
      <div class="muted">Sandbox clock</div>
      <div class="now" id="op-clock-now">${escapeHtml(dateTimeText(state.now()))}</div>
      <div class="buttons">
        <form method="post" action="${ctx.baseUrl}/operator/advance"><input type="hidden" name="by" value="day"><button id="op-advance-day" type="submit">+1 day</button></form>
        <form method="post" action="${ctx.baseUrl}/operator/advance"><input type="hidden" name="by" value="month"><button id="op-advance-month" type="submit">+1 month</button></form>
        <form method="post" action="${ctx.baseUrl}/operator/advance"><input type="hidden" name="by" value="trial"><button id="op-advance-trial" type="submit"${trialing === 0 ? ' disabled' : ''}>To trial end</button></form>
        <form method="post" action="${ctx.baseUrl}/operator/advance"><input name="days" inputmode="numeric" placeholder="days" aria-label="Days"> <button type="submit">Advance</button></form>
      </div>
    </div>
  </header>
  <h2>Customers <span class="muted">${d.customers.length}</span></h2>
  ${table('op-customers', ['Id', 'Email', 'Name', 'Default card', '', 'Created'], customers, 'No customers yet. Checkout creates them.')}
  <h2>Subscriptions <span class="muted">${d.subscriptions.length}</span></h2>
  ${table('op-subscriptions', ['Id', 'Customer', 'Plan', 'Status', 'Period'], subscriptions, 'No subscriptions yet.')}
  <h2>Invoices <span class="muted">${d.invoices.length}</span></h2>
  ${table('op-invoices', ['Number', 'Customer', 'Total', 'Status', 'Reason', 'Date', ''], invoices, 'No invoices yet.')}
  <h2 id="deliveries">Webhook deliveries <span class="muted">${d.deliveries.length}</span></h2>
  ${table('op-deliveries', ['Event', 'Id', 'Status', 'Attempts', ''], deliveries, 'Nothing sent yet.')}
  <h2>Prices <span class="muted">${d.prices.length}</span></h2>
  ${table('op-prices', ['Id', 'Product', 'Amount', 'Lookup key'], prices, 'No prices.')}
</div>`;
  return pageShell('Stripe sandbox', body, css);
}

function safeApiUrl(sandbox: StripeSandbox): string {
  try {
    return sandbox.apiUrl();
  } catch {
    return 'not listening';
  }
}

function webhookTarget(sandbox: StripeSandbox): string {
  return sandbox.webhookUrl() ?? 'nowhere (no endpoint set)';
}
