/** Developer pages listing the mails of the local outbox (only mounted when there is no SMTP server). */
import express, { Router } from 'express';
import nodemailer from 'nodemailer';
import { tokenOfAddress } from '../conversations/mailTokens';
import { escapeHtml } from '../escapeHtml';
import type { Outbox, SentMail } from '../mail';

/** Where "Reply as the visitor" sends: Parley's own SMTP receiver (none when it is off). */
export type DevInbound = { smtpPort: number | null; domain: string };

/** The mail's Reply-To leads back into a conversation, and the receiver runs to take the answer. */
const answerable = (mail: SentMail, inbound: DevInbound) =>
  inbound.smtpPort !== null && !!mail.replyTo && tokenOfAddress(mail.replyTo.address, inbound.domain) !== null;

/** The answer as a mail client writes it: the text, then the mail it answers quoted below "On … wrote:". */
function answerOf(mail: SentMail, text: string): string {
  const quoted = mail.text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
  return `${text}\n\nOn ${new Date(mail.date).toUTCString()}, ${mail.from} wrote:\n${quoted}\n`;
}

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

function renderMail(mail: SentMail, inbound: DevInbound): string {
  const reply = answerable(mail, inbound)
    ? `<form method="post" action="/dev/outbox/${encodeURIComponent(mail.id)}/reply" class="reply">
  <label>Reply as the visitor (${escapeHtml(mail.to)}), through Parley's SMTP receiver<textarea name="text" rows="3" required></textarea></label>
  <button type="submit">Reply as the visitor</button>
</form>`
    : '';
  return `<article class="mail" data-mail-id="${escapeHtml(mail.id)}">
  <h2>${escapeHtml(mail.subject)}</h2>
  <p class="meta">To <b>${escapeHtml(mail.to)}</b> · from ${escapeHtml(mail.from)}${
    mail.replyTo
      ? ` · reply to ${escapeHtml(mail.replyTo.name ? `${mail.replyTo.name} <${mail.replyTo.address}>` : mail.replyTo.address)}`
      : ''
  } · <time datetime="${escapeHtml(mail.date)}">${escapeHtml(mail.date)}</time></p>
  <div class="parts">
    <section class="part"><h3>Text</h3><pre>${linkify(mail.text)}</pre></section>
    ${
      mail.html
        ? `<section class="part"><h3>HTML, as the recipient sees it</h3><iframe class="html" title="${escapeHtml(`HTML of “${mail.subject}”`)}" sandbox="allow-popups allow-popups-to-escape-sandbox" referrerpolicy="no-referrer" loading="lazy" srcdoc="${escapeHtml(mail.html)}"></iframe></section>`
        : ''
    }
  </div>
  ${reply}
</article>`;
}

export function devOutboxRouter(outbox: Outbox, inbound: DevInbound = { smtpPort: null, domain: '' }): Router {
  const router = Router();
  // Sends the answer over SMTP to the receiver, as the visitor's mail server would: the whole loop without a provider.
  router.post('/dev/outbox/:id/reply', express.urlencoded({ extended: false, limit: '100kb' }), async (req, res) => {
    const mail = (await outbox.list()).find((m) => m.id === req.params.id);
    const text = typeof req.body?.text === 'string' ? req.body.text.trim() : '';
    if (!mail?.replyTo || !answerable(mail, inbound) || !text) {
      res.status(400).json({ Message: 'Write an answer to a mail that has a conversation to reply to.', Error: 'bad_request' });
      return;
    }
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: inbound.smtpPort ?? 0,
      secure: false,
      // The receiver offers STARTTLS with a certificate made for tests; on loopback that is all right.
      tls: { rejectUnauthorized: false },
    });
    try {
      await transport.sendMail({
        from: mail.to,
        to: mail.replyTo.address,
        subject: mail.subject.startsWith('Re:') ? mail.subject : `Re: ${mail.subject}`,
        text: answerOf(mail, text),
        ...(mail.messageId ? { inReplyTo: mail.messageId, references: [mail.messageId] } : {}),
      });
    } catch (error) {
      res.status(502).json({
        Message: `The SMTP receiver refused the answer: ${error instanceof Error ? error.message : String(error)}`,
        Error: 'smtp_refused',
      });
      return;
    } finally {
      transport.close();
    }
    res.redirect(303, `/dev/outbox?answered=${encodeURIComponent(mail.id)}`);
  });
  router.get('/dev/outbox.json', async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await outbox.list());
  });
  router.get('/dev/outbox', async (req, res) => {
    const mails = await outbox.list();
    const answered = typeof req.query.answered === 'string' ? mails.find((m) => m.id === req.query.answered) : undefined;
    res
      .set({
        'Cache-Control': 'no-store',
        // The mails' HTML is shown in sandboxed frames (no scripts, no same origin), which inherit this policy: their
        // pictures may come from anywhere a mail client would load them, their styles are inline.
        'Content-Security-Policy':
          "default-src 'self'; img-src 'self' https: http: data:; style-src 'self' 'unsafe-inline'; script-src 'none'; form-action 'self'; frame-ancestors 'self'; base-uri 'none'",
      })
      .type('html')
      .send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Parley outbox</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="${OUTBOX_FAVICON}" type="image/svg+xml">
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:76rem;margin:2rem auto;padding:0 1rem;color:#222}
.mail{border:1px solid #ddd;border-radius:6px;padding:0 1rem;margin:1rem 0;overflow-wrap:anywhere}.meta{color:#666}pre{white-space:pre-wrap;font:inherit}
.reply{margin:0 0 1rem}.reply label{display:block;color:#444;font-size:14px}.reply textarea{display:block;width:100%;box-sizing:border-box;margin:.25rem 0 .5rem;font:inherit;padding:.4rem}
.reply button{font:inherit;padding:.35rem .9rem;border:0;border-radius:5px;background:#4f46e5;color:#fff;cursor:pointer}
.notice{background:#ecfdf5;border:1px solid #a7f3d0;border-radius:6px;padding:.5rem 1rem}
.parts{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1.4fr);gap:1rem;align-items:start}.part h3{font-size:13px;color:#555;margin:.5rem 0}
.html{width:100%;height:640px;border:1px solid #ddd;border-radius:4px;background:#fff}
@media (max-width:48rem){.parts{grid-template-columns:minmax(0,1fr)}}</style>
</head><body>
<h1>Outbox</h1>
<p>Mails Parley sent while no SMTP server is configured (SMTP_URL), newest first. Files: <code>${escapeHtml(outbox.dir)}</code></p>
${answered ? `<p class="notice" role="status">Your answer to “${escapeHtml(answered.subject)}” went to Parley's SMTP receiver as ${escapeHtml(answered.to)}.</p>` : ''}
${mails.length === 0 ? '<p>No mail yet.</p>' : mails.map((mail) => renderMail(mail, inbound)).join('\n')}
</body></html>`);
  });
  return router;
}
