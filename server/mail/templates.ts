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
