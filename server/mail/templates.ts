/**
 * The mails Parley sends, each as a plain-text part and an HTML part in the one layout (layout.ts). Visitors' mails
 * are in the visitor's language and the widget's name and colours; owners' mails (password, invitation, export,
 * trial, receipt) are Parley's, in English. Every visitor or owner text in the HTML goes through escapeHtml; a
 * stored message's HTML through mailMessageParts (links that lead where their words say, kept in the text part).
 */
import { escapeHtml } from '../escapeHtml';
import { mailMessageParts } from '../ownerText';
import { directionOf, fill, type WidgetLocale } from '../shared/widget-texts';
import type { MailMessage } from './index';
import { renderMailLayout } from './layout';
import { MAIL_TEXTS } from './texts';

/** Parley's own colours, for the mails to owners. */
const PARLEY_COLOR = '#4f46e5';
const PARLEY_FONT_COLOR = '#ffffff';

type OwnerMail = {
  kind?: MailMessage['kind'];
  to: string;
  subject: string;
  /** Paragraphs of plain text. */
  lines: string[];
  /** Label and value rows (a receipt's amount, date …). */
  facts?: [string, string][];
  /** The link the mail is about: a button in HTML, the label and the address in text. */
  link?: { label: string; url: string; textLead: string };
  /** Paragraphs after the link. */
  after?: string[];
};

/** Label and value rows, escaped. */
function factsTable(facts: [string, string][]): string {
  if (facts.length === 0) return '';
  const rows = facts
    .map(
      ([label, value]) =>
        `<tr><th align="left" style="padding:4px 16px 4px 0;color:#4b5563;font-weight:600">${escapeHtml(label)}</th><td style="padding:4px 0">${escapeHtml(value)}</td></tr>`,
    )
    .join('');
  return `<table role="presentation" style="border-collapse:collapse;margin:0 0 12px">${rows}</table>`;
}

const paragraphs = (lines: string[]) => lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('');

/** An owner's mail: Parley's header and colours, in English, with its plain-text part. */
async function ownerMail(mail: OwnerMail): Promise<MailMessage> {
  const facts = mail.facts ?? [];
  const text = [
    ...mail.lines,
    ...(facts.length > 0 ? [facts.map(([label, value]) => `${label}: ${value}`).join('\n')] : []),
    ...(mail.link ? [`${mail.link.textLead}\n${mail.link.url}`] : []),
    ...(mail.after ?? []),
  ].join('\n\n');
  const factsHtml = factsTable(facts);
  const html = await renderMailLayout({
    lang: 'en',
    dir: 'ltr',
    color: PARLEY_COLOR,
    fontColor: PARLEY_FONT_COLOR,
    header: 'Parley',
    preview: mail.lines[0] ?? mail.subject,
    body: `${paragraphs(mail.lines)}${factsHtml}`,
    ...(mail.link ? { button: { label: mail.link.label, url: mail.link.url } } : {}),
    after: paragraphs(mail.after ?? []),
    footer: escapeHtml('Parley: website chat answered from Slack. You get this mail because of your Parley account.'),
  });
  return { ...(mail.kind ? { kind: mail.kind } : {}), to: mail.to, subject: mail.subject, text, html };
}

export function passwordResetMail(to: string, link: string, validMinutes: number): Promise<MailMessage> {
  return ownerMail({
    kind: 'password_reset',
    to,
    subject: 'Reset your Parley password',
    lines: ['Someone asked to reset the password of your Parley account.'],
    link: {
      label: 'Choose a new password',
      url: link,
      textLead: `Choose a new password here (the link works once, for ${validMinutes} minutes):`,
    },
    after: [`The link works once, for ${validMinutes} minutes. If it was not you, ignore this mail: your password stays as it is.`],
  });
}

export function invitationMail(to: string, invitedBy: string, link: string, validDays: number): Promise<MailMessage> {
  return ownerMail({
    kind: 'invitation',
    to,
    subject: 'You are invited to Parley',
    lines: [`${invitedBy} invited you to answer website chats from Slack with Parley.`],
    link: {
      label: 'Set your password and join',
      url: link,
      textLead: `Set your password and accept the terms here (the link works once, for ${validDays} days):`,
    },
    after: [`The link works once, for ${validDays} days. If you did not expect this invitation, ignore this mail.`],
  });
}

export function gdprExportReadyMail(to: string, link: string, validHours: number): Promise<MailMessage> {
  return ownerMail({
    kind: 'gdpr_export',
    to,
    subject: 'Your Parley data export is ready',
    lines: ['The export of everything Parley holds for your account is ready.'],
    link: { label: 'Download the export', url: link, textLead: `Download it here (the link works for ${validHours} hours):` },
    after: [`The link works for ${validHours} hours.`],
  });
}

const offlineUntilPlan = 'your widgets show visitors the offline form (their messages still reach you by e-mail) until you choose a plan';

/** Three days before a trial ends (Stripe's trial_will_end): what happens then, with a card on file or without. */
export function trialEndingMail(
  to: string,
  trial: { endsOn: string; accountUrl: string; charge: { card: string; amount: string; plan: string } | null },
): Promise<MailMessage> {
  const { endsOn, accountUrl, charge } = trial;
  const lines = charge
    ? [
        `Your free trial of Parley ends on ${endsOn}.`,
        `Then your ${charge.card} will be charged ${charge.amount} for the ${charge.plan} plan, and your widgets stay online.`,
      ]
    : [
        `Your free trial of Parley ends on ${endsOn}.`,
        `Add a card before then to keep your widgets online; nothing is charged before the trial ends. Without a card, ${offlineUntilPlan}.`,
      ];
  return ownerMail({
    to,
    subject: charge ? `Your Parley trial ends on ${endsOn}` : `Your Parley trial ends on ${endsOn}: add a card to stay online`,
    lines,
    link: charge
      ? { label: 'Open your Account page', url: accountUrl, textLead: 'To change the plan or the card, open your Account page:' }
      : { label: 'Add a card', url: accountUrl, textLead: 'Add a card on your Account page:' },
  });
}

/** The trial is over: the plan started (or its first payment failed), or, without a card, the widgets went offline. */
export function trialEndedMail(
  to: string,
  trial: { endedOn: string; accountUrl: string; outcome: 'started' | 'payment_failed' | 'no_card'; plan: string },
): Promise<MailMessage> {
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
        : [`Your free trial of Parley ended on ${endedOn}. No card was added, so ${offlineUntilPlan}.`];
  return ownerMail({
    to,
    subject: outcome === 'started' ? `Your Parley trial has ended: your ${plan} plan has started` : 'Your Parley trial has ended',
    lines,
    link: {
      label: 'Open your Account page',
      url: accountUrl,
      textLead: outcome === 'no_card' ? 'Choose a plan on your Account page:' : 'Your Account page:',
    },
  });
}

/** A paid invoice's receipt, with Stripe's hosted invoice page. */
export function receiptMail(
  to: string,
  receipt: { amount: string; paidOn: string; description: string; number: string; invoiceUrl: string },
): Promise<MailMessage> {
  const { amount, paidOn, description, number, invoiceUrl } = receipt;
  return ownerMail({
    to,
    subject: `Your Parley receipt: ${amount} on ${paidOn}`,
    lines: ['Thank you for your payment.'],
    facts: [
      ['Amount paid', amount],
      ['Date', paidOn],
      ['For', description],
      ...(number ? [['Invoice number', number] as [string, string]] : []),
    ],
    ...(invoiceUrl ? { link: { label: 'View the invoice', url: invoiceUrl, textLead: 'View or download the invoice:' } } : {}),
  });
}

/** An offline message for the widget's owner: the visitor's words and details, under the widget's title and colours. */
export async function offlineMessageMail(mail: {
  to: string;
  subject: string;
  widget: { title: string; titleColor: string; titleFontColor: string };
  message: string;
  details: [string, string][];
  visitorEmail: string;
}): Promise<MailMessage> {
  const reply = `Reply to this mail to answer the visitor at ${mail.visitorEmail}.`;
  const html = await renderMailLayout({
    lang: 'en',
    dir: 'ltr',
    color: mail.widget.titleColor,
    fontColor: mail.widget.titleFontColor,
    header: mail.widget.title,
    preview: mail.message.slice(0, 140),
    body: `<p>${escapeHtml(mail.message).replace(/\n/g, '<br>')}</p>${factsTable(mail.details)}`,
    after: `<p>${escapeHtml(reply)}</p>`,
    footer: escapeHtml('Sent by Parley from the offline form of your widget.'),
  });
  return {
    kind: 'offline_message',
    to: mail.to,
    subject: mail.subject,
    text: [mail.message, mail.details.map(([k, v]) => `${k}: ${v}`).join('\n'), reply].join('\n\n'),
    html,
  };
}

/** The language a visitor's mail is written in, and where its times are shown. */
export type MailLanguage = {
  locale: WidgetLocale;
  /** The visitor's own language tag for dates and numbers (fr-CA), within `locale`. */
  formatLocale: string;
  /** IANA time zone; UTC when not known. */
  timeZone: string;
};

/** A time as the visitor reads it: their language's date and time, in their time zone, naming it. */
export function formatMailTime(at: Date, language: Pick<MailLanguage, 'formatLocale' | 'timeZone'>): string {
  const options: Intl.DateTimeFormatOptions = {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  };
  try {
    return new Intl.DateTimeFormat(language.formatLocale, { ...options, timeZone: language.timeZone || 'UTC' }).format(at);
  } catch {
    return new Intl.DateTimeFormat('en', { ...options, timeZone: 'UTC' }).format(at);
  }
}

/** The site a visitor's mail comes from: its sender name, its title in the visitor's language and its colours. */
export type MailSender = { name: string; title: string; titleColor: string; titleFontColor: string };

/** The layout's frame of a mail to a visitor: their language and its direction, the site's title and colours. */
function visitorFrame(sender: MailSender, language: MailLanguage) {
  return {
    lang: language.locale,
    dir: directionOf(language.locale),
    color: sender.titleColor,
    fontColor: sender.titleFontColor,
    header: sender.title,
  };
}

/** One line of a conversation as a visitor's mail shows it. */
export type MailLine = {
  who: string;
  /** Plain text (mrkdwn markers already taken out for operator lines). */
  text: string;
  /** Operator formatting as the widget shows it (server-built, sanitised HTML); empty: `text` is escaped. */
  html: string;
  /** Attached files; one without a url is named only. */
  files: { name: string; url: string }[];
  at?: Date;
};

/** A line's HTML and plain text: formatting kept, links leading where they say and spelled out in the text. */
function lineParts(line: MailLine): { html: string; text: string } {
  const parts = line.html ? mailMessageParts(line.html) : { html: escapeHtml(line.text).replace(/\n/g, '<br>'), text: line.text };
  return {
    html: `${parts.html}${line.files
      .map((f) => `<br>${f.url ? `<a href="${escapeHtml(f.url)}">${escapeHtml(f.name)}</a>` : `[${escapeHtml(f.name)}]`}`)
      .join('')}`,
    text: [parts.text, ...line.files.map((f) => (f.url ? `${f.name} (${f.url})` : `[${f.name}]`))].filter(Boolean).join('\n'),
  };
}

export type UnseenRepliesMail = {
  to: string;
  sender: MailSender;
  language: MailLanguage;
  /** Where the chat was: the page's host name (the widget's title when the page is not known). */
  site: string;
  /** avatarUrl: an https address (Parley's /mail/avatar/…), or empty. */
  operator: { name: string; avatarUrl: string };
  replies: MailLine[];
  /** Earlier lines of the conversation, oldest first. */
  context: MailLine[];
  /** The page the chat was on, with the fragment that reopens the widget; empty when the page is not known. */
  openUrl: string;
  unsubscribeUrl: string;
  replyTo: string;
};

/**
 * Operator replies the visitor did not see in the widget: in the visitor's language, from the site's sender name,
 * in the widget's title and colours, with the lines before them, a link back to the page (which reopens the chat)
 * and a one-click unsubscribe link. The visitor answers by replying (Reply-To: reply+<token>@<INBOUND_MAIL_DOMAIN>).
 */
export async function unseenRepliesMail(mail: UnseenRepliesMail): Promise<MailMessage> {
  const t = MAIL_TEXTS[mail.language.locale];
  const dir = directionOf(mail.language.locale);
  const count = mail.replies.length;
  const values = { operator: mail.operator.name, site: mail.site, count: String(count) };
  const subject = fill(t.replySubject, values);
  const lead = fill(count === 1 ? t.repliedOne : t.repliedMany, values);
  const replies = mail.replies.map(lineParts);
  const context = mail.context.map((line) => ({ who: line.who, ...lineParts(line) }));
  const text = [
    lead,
    '',
    ...replies.flatMap((r) => [r.text, '']),
    t.answerHint,
    ...(mail.openUrl ? [`${t.continueText} ${mail.openUrl}`] : []),
    ...(context.length > 0 ? ['', `— ${t.earlier} —`, ...context.map((l) => `${l.who}${t.said}${l.text}`)] : []),
    '',
    `${t.unsubscribeText} ${mail.unsubscribeUrl}`,
  ].join('\n');
  const side = dir === 'rtl' ? 'left' : 'right';
  const avatar = mail.operator.avatarUrl
    ? `<img src="${escapeHtml(mail.operator.avatarUrl)}" alt="" width="36" height="36" style="border-radius:18px;vertical-align:middle;margin-${side}:10px;border:0">`
    : '';
  const body = [
    `<p style="margin:0 0 14px">${avatar}<strong>${escapeHtml(lead)}</strong></p>`,
    // A message runs in its own direction (an English reply in an Arabic mail keeps its full stop at its end).
    ...replies.map((r) => `<div dir="auto" style="margin:0 0 12px;font-size:16px">${r.html}</div>`),
  ].join('');
  const after = [
    `<p>${escapeHtml(t.answerHint)}</p>`,
    context.length > 0
      ? `<div style="margin-top:16px;padding-top:12px;border-top:1px solid #e5e7eb"><p style="margin:0 0 8px;font-size:12px;text-transform:uppercase;letter-spacing:.03em">${escapeHtml(t.earlier)}</p>${context
          .map(
            (l) =>
              `<div style="margin:0 0 6px"><strong>${escapeHtml(l.who)}</strong>${escapeHtml(t.said)}<span dir="auto">${l.html}</span></div>`,
          )
          .join('')}</div>`
      : '',
  ].join('');
  const html = await renderMailLayout({
    ...visitorFrame(mail.sender, mail.language),
    preview: replies[0]?.text.slice(0, 140) ?? lead,
    body,
    ...(mail.openUrl ? { button: { label: t.continueButton, url: mail.openUrl } } : {}),
    after,
    footer: `${escapeHtml(fill(t.why, values))} <a href="${escapeHtml(mail.unsubscribeUrl)}">${escapeHtml(t.unsubscribe)}</a>`,
  });
  return {
    fromName: mail.sender.name,
    to: mail.to,
    subject,
    text,
    html,
    replyTo: { name: mail.sender.name, address: mail.replyTo },
    headers: {
      // RFC 8058 one-click unsubscribe: mail clients POST to the link.
      'List-Unsubscribe': `<${mail.unsubscribeUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      // Auto-responders answer no automatic mail (RFC 3834).
      'Auto-Submitted': 'auto-generated',
    },
  };
}

/** A conversation's transcript, for the visitor (or the address an operator or the owner gave). */
export async function transcriptMailMessage(mail: {
  to: string;
  sender: MailSender;
  language: MailLanguage;
  /** The widget's name in the subject ("your chat with …"). */
  name: string;
  number: number;
  lines: (MailLine & { at: Date })[];
}): Promise<MailMessage> {
  const t = MAIL_TEXTS[mail.language.locale];
  const title = fill(t.transcriptSubject, { name: mail.name, number: String(mail.number) });
  const lines = mail.lines.map((line) => ({ who: line.who, at: formatMailTime(line.at, mail.language), ...lineParts(line) }));
  const text = [title, '', ...lines.map((l) => `[${l.at}] ${l.who}${t.said}${l.text}`)].join('\n');
  const body = [
    `<p style="margin:0 0 14px"><strong>${escapeHtml(title)}</strong></p>`,
    ...lines.map(
      (l) =>
        `<div style="margin:0 0 12px"><div style="font-size:12px;color:#6b7280">${escapeHtml(l.at)}</div><strong>${escapeHtml(l.who)}</strong>${escapeHtml(t.said)}<span dir="auto">${l.html}</span></div>`,
    ),
  ].join('');
  const html = await renderMailLayout({
    ...visitorFrame(mail.sender, mail.language),
    preview: title,
    body,
    footer: escapeHtml(t.transcriptWhy),
  });
  return { kind: 'transcript', fromName: mail.sender.name, to: mail.to, subject: title, text, html };
}
