/**
 * Visitors' answers by e-mail (issue: conversations that outlive the page): the SMTP receiver (smtp.ts), Mailgun's
 * inbound webhook and the unsubscribe link (routes.ts), MIME parsing (parse.ts). All of them hand a mail to
 * commands/receiveVisitorMail.ts with the context built here.
 */
import type { ReceiveContext } from '../commands/receiveVisitorMail';
import type { Config } from '../config';

/** What receiving a visitor's mail needs of the relay (it posts into conversations; the relay has it all). */
export type ReceiveRelay = Omit<ReceiveContext, 'secret' | 'clock'>;

/** What receiving a visitor's mail needs: the relay and the key of the Reply-To tokens. */
export function receiveContext(relay: ReceiveRelay, config: Config): ReceiveContext {
  return { ...relay, secret: config.jwtSecret };
}

export { type SmtpReceiver, startSmtpReceiver } from './smtp';
