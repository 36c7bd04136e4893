/**
 * Parley's own SMTP receiver for visitors' answers (smtp-server): it takes mail for `reply+<token>@<INBOUND_MAIL_DOMAIN>`
 * only, refusing any other recipient (and a token Parley did not sign) at RCPT TO with 550, so nothing unwanted is
 * even received. STARTTLS is offered (with INBOUND_SMTP_TLS_KEY/CERT, else the library's own test certificate), no
 * AUTH is needed, and mails above the size limit are refused with 552. Each mail is parsed (mailparser) and handed to
 * receiveVisitorMail; a failure there answers 451, so the sender's server tries again later.
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerDataStream } from 'smtp-server';
import { findReplyConversation, type ReceiveContext, receiveVisitorMail, UnknownRecipientError } from '../commands/receiveVisitorMail';
import type { InboundMailConfig } from '../config';
import { tokenOfAddress } from '../conversations/mailTokens';
import type { Logger } from '../logger';
import { parseMime } from './parse';

/**
 * An SMTP error answer: smtp-server sends `responseCode` with the message. Not an AppError: it is the SMTP
 * transport's answer shape (as the `{ Message, Error }` body is HTTP's), made here from what the command threw.
 */
class SmtpReply extends Error {
  constructor(
    readonly responseCode: number,
    message: string,
  ) {
    super(message);
  }
}

export type SmtpReceiver = { port: number; close(): Promise<void> };

function readAll(stream: SMTPServerDataStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

export async function startSmtpReceiver(deps: {
  config: InboundMailConfig & { smtpPort: number };
  ctx: ReceiveContext;
  logger: Logger;
}): Promise<SmtpReceiver> {
  const { config, ctx, logger } = deps;
  const tls = config.tls ? { key: readFileSync(config.tls.keyFile), cert: readFileSync(config.tls.certFile) } : {};
  const server = new SMTPServer({
    ...tls,
    name: config.domain,
    banner: 'Parley',
    authOptional: true,
    disabledCommands: ['AUTH'],
    size: config.maxBytes,
    logger: false,
    onRcptTo(address, _session, callback) {
      const token = tokenOfAddress(address.address, config.domain);
      if (!token) return callback(new SmtpReply(550, 'No such recipient here'));
      findReplyConversation(ctx, token).then(
        (found) => callback(found ? null : new SmtpReply(550, 'No such conversation')),
        (error: unknown) => {
          logger.error({ err: error }, 'inbound smtp: recipient check failed');
          callback(new SmtpReply(451, 'Try again later'));
        },
      );
    },
    onData(stream, session, callback) {
      readAll(stream)
        .then(async (raw) => {
          if (stream.sizeExceeded) throw new SmtpReply(552, `Mails are limited to ${Math.floor(config.maxBytes / 1024 / 1024)} MB`);
          const envelopeFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
          const mail = await parseMime(raw, envelopeFrom);
          for (const rcpt of session.envelope.rcptTo) {
            const token = tokenOfAddress(rcpt.address, config.domain);
            if (token) await receiveVisitorMail(ctx, token, mail);
          }
          callback();
        })
        .catch((error: unknown) => {
          if (error instanceof SmtpReply) return callback(error);
          if (error instanceof UnknownRecipientError) return callback(new SmtpReply(550, error.message));
          logger.error({ err: error }, 'inbound smtp: a mail could not be taken');
          callback(new SmtpReply(451, 'Try again later'));
        });
    },
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      // smtp-server re-emits its socket's errors on itself.
      server.once('error', reject);
      server.listen(port, config.smtpHost, () => {
        server.off('error', reject);
        resolve();
      });
    });
  try {
    await listen(config.smtpPort);
  } catch (error) {
    // A second Parley on one machine (or anything else on 2525): the default port gives way; a chosen one does not.
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || config.smtpPortGiven) throw error;
    logger.warn(`inbound smtp: port ${config.smtpPort} is taken, listening on another one`);
    await listen(0);
  }
  server.on('error', (error) => logger.error({ err: error }, 'inbound smtp: the receiver failed'));
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
