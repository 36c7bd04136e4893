/** Developer pages listing the mails of the local outbox (only mounted when there is no SMTP server). */
import { Router } from 'express';
import { escapeHtml } from '../escapeHtml';
import type { Outbox, SentMail } from '../mail';

/** The page's tab icon, inline: an envelope in Parley's indigo. */
const OUTBOX_FAVICON = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#4f46e5"/>' +
    '<path d="M7 10h18v13H7zM7 10l9 7 9-7" fill="none" stroke="#fff" stroke-width="2.5" stroke-linejoin="round"/></svg>',
)}`;

/** Plain text with its links made clickable. */
function linkify(text: string): string {
  return text
    .split(/(https?:\/\/[^\s<>"')]+)/g)
    .map((part, i) => (i % 2 === 1 ? `<a href="${escapeHtml(part)}">${escapeHtml(part)}</a>` : escapeHtml(part)))
    .join('');
}

function renderMail(mail: SentMail): string {
  return `<article class="mail">
  <h2>${escapeHtml(mail.subject)}</h2>
  <p class="meta">To <b>${escapeHtml(mail.to)}</b> · from ${escapeHtml(mail.from)}${
    mail.replyTo
      ? ` · reply to ${escapeHtml(mail.replyTo.name ? `${mail.replyTo.name} <${mail.replyTo.address}>` : mail.replyTo.address)}`
      : ''
  } · <time datetime="${escapeHtml(mail.date)}">${escapeHtml(mail.date)}</time></p>
  <pre>${linkify(mail.text)}</pre>
</article>`;
}

export function devOutboxRouter(outbox: Outbox): Router {
  const router = Router();
  router.get('/dev/outbox.json', async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await outbox.list());
  });
  router.get('/dev/outbox', async (_req, res) => {
    const mails = await outbox.list();
    res
      .set('Cache-Control', 'no-store')
      .type('html')
      .send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Parley outbox</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="${OUTBOX_FAVICON}" type="image/svg+xml">
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:50rem;margin:2rem auto;padding:0 1rem;color:#222}
.mail{border:1px solid #ddd;border-radius:6px;padding:0 1rem;margin:1rem 0;overflow-wrap:anywhere}.meta{color:#666}pre{white-space:pre-wrap;font:inherit}</style>
</head><body>
<h1>Outbox</h1>
<p>Mails Parley sent while no SMTP server is configured (SMTP_URL), newest first. Files: <code>${escapeHtml(outbox.dir)}</code></p>
${mails.length === 0 ? '<p>No mail yet.</p>' : mails.map(renderMail).join('\n')}
</body></html>`);
  });
  return router;
}
