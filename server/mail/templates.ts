/** The mails Parley sends, as text and HTML. */

import { escapeHtml } from '../escapeHtml';
import type { MailMessage } from './index';

export function passwordResetMail(to: string, link: string, validMinutes: number): MailMessage {
  return {
    kind: 'password_reset',
    to,
    subject: 'Reset your Parley password',
    text: [
      'Someone asked to reset the password of your Parley account.',
      '',
      `Choose a new password here (the link works once, for ${validMinutes} minutes):`,
      link,
      '',
      'If it was not you, ignore this mail: your password stays as it is.',
    ].join('\n'),
    html: [
      '<p>Someone asked to reset the password of your Parley account.</p>',
      `<p><a href="${escapeHtml(link)}">Choose a new password</a> (the link works once, for ${validMinutes} minutes).</p>`,
      '<p>If it was not you, ignore this mail: your password stays as it is.</p>',
    ].join('\n'),
  };
}

export function invitationMail(to: string, invitedBy: string, link: string, validDays: number): MailMessage {
  return {
    kind: 'invitation',
    to,
    subject: 'You are invited to Parley',
    text: [
      `${invitedBy} invited you to answer website chats from Slack with Parley.`,
      '',
      `Set your password and accept the terms here (the link works once, for ${validDays} days):`,
      link,
      '',
      'If you did not expect this invitation, ignore this mail.',
    ].join('\n'),
    html: [
      `<p>${escapeHtml(invitedBy)} invited you to answer website chats from Slack with Parley.</p>`,
      `<p><a href="${escapeHtml(link)}">Set your password and join</a> (the link works once, for ${validDays} days).</p>`,
      '<p>If you did not expect this invitation, ignore this mail.</p>',
    ].join('\n'),
  };
}

export function gdprExportReadyMail(to: string, link: string, validHours: number): MailMessage {
  return {
    kind: 'gdpr_export',
    to,
    subject: 'Your Parley data export is ready',
    text: [
      'The export of everything Parley holds for your account is ready.',
      '',
      `Download it here (the link works for ${validHours} hours):`,
      link,
    ].join('\n'),
    html: [
      '<p>The export of everything Parley holds for your account is ready.</p>',
      `<p><a href="${escapeHtml(link)}">Download the export</a> (the link works for ${validHours} hours).</p>`,
    ].join('\n'),
  };
}

const offlineUntilPlan = 'your widgets show visitors the offline form (their messages still reach you by e-mail) until you choose a plan';

/** Three days before a trial ends (Stripe's trial_will_end): what happens then, with a card on file or without. */
export function trialEndingMail(
  to: string,
  trial: { endsOn: string; accountUrl: string; charge: { card: string; amount: string; plan: string } | null },
): MailMessage {
  const { endsOn, accountUrl, charge } = trial;
  const lines = charge
    ? [
        `Your free trial of Parley ends on ${endsOn}.`,
        `Then your ${charge.card} will be charged ${charge.amount} for the ${charge.plan} plan, and your widgets stay online.`,
        'To change the plan or the card, open your Account page:',
      ]
    : [
        `Your free trial of Parley ends on ${endsOn}.`,
        `Add a card before then to keep your widgets online; nothing is charged before the trial ends. Without a card, ${offlineUntilPlan}.`,
        'Add a card on your Account page:',
      ];
  return {
    to,
    subject: charge ? `Your Parley trial ends on ${endsOn}` : `Your Parley trial ends on ${endsOn}: add a card to stay online`,
    text: [...lines, accountUrl].join('\n\n'),
    html: [
      ...lines.slice(0, -1).map((line) => `<p>${escapeHtml(line)}</p>`),
      `<p><a href="${escapeHtml(accountUrl)}">${charge ? 'Open your Account page' : 'Add a card'}</a></p>`,
    ].join('\n'),
  };
}

/** The trial is over: the plan started (or its first payment failed), or, without a card, the widgets went offline. */
export function trialEndedMail(
  to: string,
  trial: { endedOn: string; accountUrl: string; outcome: 'started' | 'payment_failed' | 'no_card'; plan: string },
): MailMessage {
  const { endedOn, accountUrl, outcome, plan } = trial;
  const lines =
    outcome === 'started'
      ? [
          `Your free trial of Parley ended on ${endedOn} and your ${plan} plan has started. The receipt of its first payment comes in a separate mail.`,
        ]
      : outcome === 'payment_failed'
        ? [
            `Your free trial of Parley ended on ${endedOn}, and the first payment of your ${plan} plan did not go through.`,
            'Update your card on your Account page; Stripe tries the payment again over the next days.',
          ]
        : [
            `Your free trial of Parley ended on ${endedOn}. No card was added, so ${offlineUntilPlan}.`,
            'Choose a plan on your Account page:',
          ];
  return {
    to,
    subject: outcome === 'started' ? `Your Parley trial has ended: your ${plan} plan has started` : 'Your Parley trial has ended',
    text: [...lines, accountUrl].join('\n\n'),
    html: [
      ...lines.map((line) => `<p>${escapeHtml(line)}</p>`),
      `<p><a href="${escapeHtml(accountUrl)}">Open your Account page</a></p>`,
    ].join('\n'),
  };
}

/** A paid invoice's receipt, with Stripe's hosted invoice page. */
export function receiptMail(
  to: string,
  receipt: { amount: string; paidOn: string; description: string; number: string; invoiceUrl: string },
): MailMessage {
  const { amount, paidOn, description, number, invoiceUrl } = receipt;
  const facts: [string, string][] = [
    ['Amount paid', amount],
    ['Date', paidOn],
    ['For', description],
    ...(number ? [['Invoice number', number] as [string, string]] : []),
  ];
  return {
    to,
    subject: `Your Parley receipt: ${amount} on ${paidOn}`,
    text: [
      'Thank you for your payment.',
      facts.map(([label, value]) => `${label}: ${value}`).join('\n'),
      ...(invoiceUrl ? ['View or download the invoice:', invoiceUrl] : []),
    ].join('\n\n'),
    html: [
      '<p>Thank you for your payment.</p>',
      `<table>${facts.map(([label, value]) => `<tr><th align="left">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`).join('')}</table>`,
      ...(invoiceUrl ? [`<p><a href="${escapeHtml(invoiceUrl)}">View the invoice</a></p>`] : []),
    ].join('\n'),
  };
}

/** One line of a conversation as the mail of unseen replies shows it. */
export type MailLine = {
  who: string;
  /** Plain text (mrkdwn markers already taken out for operator lines). */
  text: string;
  /** Operator formatting as the widget shows it (server-built, sanitised HTML); empty: `text` is escaped. */
  html: string;
  files: { name: string; url: string }[];
};

export type UnseenRepliesMail = {
  to: string;
  widget: { title: string; titleColor: string; titleFontColor: string };
  /** Where the chat was: the page's host name (the widget's title when the page is not known). */
  site: string;
  operator: { name: string; avatarUrl: string };
  replies: MailLine[];
  /** Earlier lines of the conversation, oldest first. */
  context: MailLine[];
  /** The page the chat was on, with the fragment that reopens the widget; empty when the page is not known. */
  openUrl: string;
  unsubscribeUrl: string;
  replyTo: string;
};

/** Only a #rgb or #rrggbb colour reaches a style attribute; anything else falls back. */
const colour = (value: string, fallback: string) => (/^#(?:[0-9a-f]{3}){1,2}$/i.test(value) ? value : fallback);

const lineHtml = (line: MailLine, size: string) =>
  `<div style="margin:0 0 12px;font-size:${size}">${line.html || escapeHtml(line.text).replace(/\n/g, '<br>')}${line.files
    .map((f) => `<br><a href="${escapeHtml(f.url)}">${escapeHtml(f.name)}</a>`)
    .join('')}</div>`;

const lineText = (line: MailLine) => [line.text, ...line.files.map((f) => `${f.name}: ${f.url}`)].filter(Boolean).join('\n');

/**
 * Operator replies the visitor did not see in the widget: in the widget's title and colours, from the operator, with
 * the lines before them, a link back to the page (which reopens the chat) and a one-click unsubscribe link. The
 * visitor answers by replying (Reply-To: reply+<token>@<INBOUND_MAIL_DOMAIN>).
 */
export function unseenRepliesMail(mail: UnseenRepliesMail): MailMessage {
  const background = colour(mail.widget.titleColor, '#2f6fed');
  const foreground = colour(mail.widget.titleFontColor, '#ffffff');
  const count = mail.replies.length;
  const subject = `${mail.operator.name} replied to your chat on ${mail.site}`;
  const text = [
    `${mail.operator.name} replied to your chat on ${mail.site}:`,
    '',
    ...mail.replies.map(lineText).flatMap((t) => [t, '']),
    'Answer this mail to reply; your answer goes straight to the chat.',
    ...(mail.openUrl ? [`Or continue on the website: ${mail.openUrl}`] : []),
    ...(mail.context.length > 0 ? ['', '— Earlier in the conversation —', ...mail.context.map((l) => `${l.who}: ${lineText(l)}`)] : []),
    '',
    `No more e-mails about this chat: ${mail.unsubscribeUrl}`,
  ].join('\n');
  const avatar = mail.operator.avatarUrl
    ? `<img src="${escapeHtml(mail.operator.avatarUrl)}" alt="" width="36" height="36" style="border-radius:18px;vertical-align:middle;margin-right:8px">`
    : '';
  const html = [
    '<div style="font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;max-width:560px;margin:0 auto;color:#1d1c1d">',
    `<div style="background:${background};color:${foreground};padding:14px 18px;border-radius:8px 8px 0 0;font-size:16px;font-weight:600">${escapeHtml(mail.widget.title)}</div>`,
    '<div style="border:1px solid #e3e3e3;border-top:0;padding:18px;border-radius:0 0 8px 8px">',
    `<p style="margin:0 0 12px">${avatar}<strong>${escapeHtml(mail.operator.name)}</strong> ${count === 1 ? 'replied' : `sent ${count} replies`}:</p>`,
    ...mail.replies.map((line) => lineHtml(line, '15px')),
    '<p style="margin:16px 0 0;color:#555;font-size:13px">Answer this mail to reply; your answer goes straight to the chat.</p>',
    mail.openUrl
      ? `<p style="margin:12px 0 0"><a href="${escapeHtml(mail.openUrl)}" style="display:inline-block;background:${background};color:${foreground};padding:8px 14px;border-radius:6px;text-decoration:none">Continue the chat on the website</a></p>`
      : '',
    mail.context.length > 0
      ? `<div style="margin-top:20px;padding-top:12px;border-top:1px solid #eee;color:#666"><p style="margin:0 0 8px;font-size:12px">Earlier in the conversation</p>${mail.context
          .map(
            (l) =>
              `<div style="font-size:13px;margin:0 0 6px"><strong>${escapeHtml(l.who)}</strong>: ${l.html || escapeHtml(l.text)}</div>`,
          )
          .join('')}</div>`
      : '',
    '</div>',
    `<p style="color:#999;font-size:12px;text-align:center">You get this mail because you chatted on ${escapeHtml(mail.site)}. <a href="${escapeHtml(mail.unsubscribeUrl)}" style="color:#999">Unsubscribe</a></p>`,
    '</div>',
  ].join('\n');
  return {
    to: mail.to,
    subject,
    text,
    html,
    replyTo: { name: mail.widget.title, address: mail.replyTo },
    headers: {
      // RFC 8058 one-click unsubscribe: mail clients POST to the link.
      'List-Unsubscribe': `<${mail.unsubscribeUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      // Auto-responders answer no automatic mail (RFC 3834).
      'Auto-Submitted': 'auto-generated',
    },
  };
}
