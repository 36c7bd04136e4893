// HTML helpers shared by the sandbox's pages (Checkout, Customer Portal, hosted invoice, operator page).

import { htmlPage, svgIcon } from '../page';

export function dateText(ts: number | null | undefined): string {
  if (ts === null || ts === undefined) return '—';
  return new Date(ts * 1000).toLocaleDateString('en-US', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

export function dateTimeText(ts: number): string {
  return new Date(ts * 1000).toLocaleString('en-US', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'UTC',
    timeZoneName: 'short',
  });
}

const css = `
:root { --brand: #635bff; --brand-dark: #4b45c6; --ink: #1a1f36; --muted: #697386; --border: #e3e8ee; --soft: #f6f9fc; --danger: #df1b41; --ok: #0e9f6e; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; color: var(--ink); background: #fff; }
a { color: var(--brand); text-decoration: none; }
a:hover { text-decoration: underline; }
h1 { font-size: 22px; margin: 0 0 6px; }
h2 { font-size: 16px; margin: 28px 0 10px; }
.muted { color: var(--muted); font-size: 14px; }
button, .button { font: inherit; font-weight: 600; cursor: pointer; border-radius: 6px; padding: 10px 16px; border: 1px solid var(--border); background: #fff; color: var(--ink); display: inline-block; text-align: center; }
button.primary, .button.primary { background: var(--brand); border-color: var(--brand); color: #fff; }
button.primary:hover { background: var(--brand-dark); }
button.danger { background: var(--danger); border-color: var(--danger); color: #fff; }
button.link { border: 0; background: none; color: var(--brand); padding: 0; font-weight: 500; }
label { display: block; font-size: 14px; font-weight: 500; color: #3c4257; margin: 14px 0 6px; }
input, select { font: inherit; width: 100%; padding: 9px 11px; border: 1px solid #d5dbe1; border-radius: 6px; background: #fff; box-shadow: 0 1px 1px rgba(0,0,0,.03); }
input:focus, select:focus { outline: 2px solid rgba(99,91,255,.35); border-color: var(--brand); }
.row { display: flex; gap: 10px; }
.row > * { flex: 1; min-width: 0; }
.alert { border-radius: 6px; padding: 10px 12px; margin: 14px 0; font-size: 14px; }
.alert.error { background: #fff0f3; color: #a41c3a; border: 1px solid #f7c1cd; }
.alert.ok { background: #effaf6; color: #0b6e4f; border: 1px solid #b3e5d1; }
.badge { display: inline-block; font-size: 12px; font-weight: 600; border-radius: 4px; padding: 1px 6px; background: #e3e8ee; color: #3c4257; }
.badge.paid, .badge.active, .badge.succeeded, .badge.trialing { background: #d7f7c2; color: #05690d; }
.badge.open, .badge.pending, .badge.past_due, .badge.incomplete { background: #fcedb9; color: #a04100; }
.badge.canceled, .badge.failed, .badge.void, .badge.dropped, .badge.incomplete_expired { background: #ffe7f2; color: #b3093c; }
.test-banner { background: #ffde92; color: #5d3b00; text-align: center; font-size: 12px; font-weight: 600; padding: 3px; letter-spacing: .02em; }
table { width: 100%; border-collapse: collapse; font-size: 14px; }
th { text-align: left; font-weight: 600; color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .04em; padding: 8px 10px; border-bottom: 1px solid var(--border); }
td { padding: 9px 10px; border-bottom: 1px solid var(--border); vertical-align: top; }
code { font: 12.5px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; background: var(--soft); border-radius: 4px; padding: 1px 4px; }
`;

/** The pages' tab icon: an S on Stripe's purple. */
const ICON = svgIcon(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#635bff"/>' +
    '<path d="M20.5 11.5c-1-.8-2.6-1.3-4.2-1.3-2.4 0-4 1.2-4 3 0 3.8 7.5 2.6 7.5 6.4 0 1.9-1.7 3.2-4.3 3.2-1.8 0-3.6-.6-4.8-1.6" ' +
    'fill="none" stroke="#fff" stroke-width="2.6" stroke-linecap="round"/></svg>',
);

/** A page with the sandbox's test-mode banner above `body`. */
export function pageShell(title: string, body: string, extraCss = ''): string {
  return htmlPage({
    title,
    icon: ICON,
    css: css + extraCss,
    body: `<div class="test-banner">TEST MODE · Stripe sandbox</div>
${body}`,
  });
}
