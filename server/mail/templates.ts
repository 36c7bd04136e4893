/** The mails Parley sends, as text and HTML. */
import type { MailMessage } from './index';

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

export function passwordResetMail(to: string, link: string, validMinutes: number): MailMessage {
  return {
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
