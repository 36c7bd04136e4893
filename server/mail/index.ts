/**
 * Sending e-mail: SMTP when SMTP_URL is set, otherwise the local outbox folder.
 */
import nodemailer from 'nodemailer';
import type { Counter } from 'prom-client';
import type { Config } from '../config';
import { createOutbox, type Outbox } from './outbox';

export type { Outbox, SentMail } from './outbox';

/** What a mail is, for the metrics (parley_emails_sent_total{kind}). */
export const MAIL_KINDS = ['password_reset', 'invitation', 'gdpr_export', 'transcript', 'offline_message'] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

export type MailMessage = {
  kind?: MailKind;
  /** The sender's name (the widget's sender name for visitors' mails); the address stays MAIL_FROM's. */
  fromName?: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Where a reply goes instead of the no-reply sender (the visitor of an offline message). */
  replyTo?: { name: string; address: string };
  /** Extra headers (List-Unsubscribe …). */
  headers?: Record<string, string>;
};

export type Mailer = {
  send(message: MailMessage): Promise<void>;
  /** Present only when mails go to the local outbox. */
  outbox?: Outbox;
  close(): void;
};

/** `sent`: counts each mail handed on (the metrics' parley_emails_sent_total), by kind. */
/** MAIL_FROM's address: `Parley <no-reply@example.com>` → no-reply@example.com. */
export function addressOfSender(from: string): string {
  const angle = /<([^<>\s]+)>\s*$/.exec(from);
  return angle?.[1] ?? from.trim();
}

export function createMailer(config: Pick<Config['mail'], 'smtpUrl' | 'from' | 'outboxDir'>, sent?: Pick<Counter<'kind'>, 'inc'>): Mailer {
  const counted = (kind: MailKind | undefined) => sent?.inc({ kind: kind ?? 'other' });
  // A named sender keeps the deployment's address (its SPF and DKIM) and shows the site's name.
  const fromOf = (name: string | undefined) => (name ? { name, address: addressOfSender(config.from) } : config.from);
  const shown = (name: string | undefined) => (name ? `${name} <${addressOfSender(config.from)}>` : config.from);
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      async send({ kind, fromName, ...message }) {
        await transport.sendMail({ from: fromOf(fromName), ...message });
        counted(kind);
      },
      close: () => transport.close(),
    };
  }
  const outbox = createOutbox(config.outboxDir);
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    outbox,
    async send({ kind, fromName, ...message }) {
      const info = await composer.sendMail({ from: fromOf(fromName), ...message });
      const eml = Buffer.isBuffer(info.message) ? info.message : Buffer.from(String(info.message));
      await outbox.save({ from: shown(fromName), ...message, messageId: info.messageId }, eml);
      counted(kind);
    },
    close: () => composer.close(),
  };
}
