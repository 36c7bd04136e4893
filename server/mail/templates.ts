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
