/**
 * A visitor's answer by e-mail to the mail of replies they did not see, however it arrived (Parley's SMTP receiver
 * or the mail provider's webhook, server/inbound): its Reply-To token names the conversation and its visitor. The
 * answer without its quoted history and signature (email-reply-parser) is posted in the thread as the visitor and
 * stored in the history; its attachments go with it as files, through the visitor-file path (WidgetFile, then the
 * message's slack.reply job uploads them). Each Message-ID is taken once; auto-replies and bounces are dropped and
 * counted (InboundMail). An answer to a conversation that ended less than REOPEN_DAYS ago reopens it; older, it
 * starts a new conversation whose thread links the old one.
 */
import { createHash } from 'node:crypto';
import EmailReplyParser from 'email-reply-parser';
import { Types } from 'mongoose';
import { maskEmail, tokenConversation, verifyMailToken } from '../conversations/mailTokens';
import { findOpenConversation, headerUpdate, type OpenConversation } from '../conversations/record';
import { AppError } from '../errors';
import type { Conversation } from '../models/Conversation';
import type { InboundOutcome } from '../models/InboundMail';
import type { MessageFile } from '../models/Message';
import type { Visitor } from '../models/Visitor';
import { ERROR_CODES } from '../shared/constants';
import { MAX_UPLOAD_BYTES } from '../shared/widget-constants';
import { inactiveAt } from './conversationDueTimes';
import { startConversation, type VisitorMessageContext, visitorMessage } from './sendVisitorMessage';
import { queueThreadNote, queueThreadPost, type ThreadPost } from './threadPosts';

/** An ended conversation answered within this many days is reopened; later, the answer starts a new one. */
export const REOPEN_DAYS = 7;

/** A mail as it arrived, whatever the way (server/inbound builds it from MIME or from the provider's fields). */
export type InboundMessage = {
  /** Message-ID without angle brackets; empty when the mail had none. */
  messageId: string;
  /** The sender's address (From), lower case. */
  from: string;
  /** The SMTP envelope's sender; '' for a bounce (MAIL FROM:<>), undefined when not known (webhooks). */
  envelopeFrom?: string;
  /** Header names in lower case, values as written (the first of each). */
  headers: Record<string, string>;
  /** The mail's plain text (generated from its HTML when it had only HTML). */
  text: string;
  attachments: { filename: string; contentType: string; content: Buffer }[];
};

export type ReceiveContext = VisitorMessageContext & {
  /** Signs the Reply-To tokens (config.jwtSecret). */
  secret: string;
  clock?: { now(): Date };
};

/** What became of a mail; `refused` is never answered, it is thrown as UnknownRecipientError. */
export type ReceiveOutcome = InboundOutcome | 'duplicate';

/** The address named no conversation Parley signed: refused (SMTP 550, webhook 406). */
export class UnknownRecipientError extends AppError {
  constructor(message: string) {
    super(message, { status: 406, code: ERROR_CODES.unknownRecipient });
  }
}

type Found = { conversation: Conversation & { _id: Types.ObjectId }; visitor: Visitor & { _id: Types.ObjectId } };

/** The conversation and visitor a Reply-To token was signed for; null for a token Parley did not sign. */
export async function findReplyConversation(ctx: Pick<ReceiveContext, 'models' | 'secret'>, token: string): Promise<Found | null> {
  const id = tokenConversation(token);
  if (!id) return null;
  const conversation = await ctx.models.Conversation.findById(id).lean<Conversation & { _id: Types.ObjectId }>().exec();
  if (!conversation) return null;
  if (!verifyMailToken(ctx.secret, 'reply', token, { conversationId: conversation._id, visitorId: conversation.visitorId })) return null;
  const visitor = await ctx.models.Visitor.findById(conversation.visitorId).lean<Visitor & { _id: Types.ObjectId }>().exec();
  return visitor ? { conversation, visitor } : null;
}

/** Bounces: delivery reports and mails from the mail system itself (or with the empty envelope sender). */
function isBounce(mail: InboundMessage): boolean {
  const local = mail.from.split('@')[0] ?? '';
  const type = (mail.headers['content-type'] ?? '').toLowerCase();
  return (
    mail.envelopeFrom === '' ||
    /^(mailer-daemon|postmaster)$/i.test(local) ||
    (type.startsWith('multipart/report') && /report-type="?delivery-status/.test(type)) ||
    'x-failed-recipients' in mail.headers
  );
}

/** Auto-replies (RFC 3834 Auto-Submitted, Precedence bulk/junk/list, and the common vacation markers). */
function isAutoReply(mail: InboundMessage): boolean {
  const submitted = (mail.headers['auto-submitted'] ?? 'no').trim().toLowerCase();
  const precedence = (mail.headers.precedence ?? '').trim().toLowerCase();
  return (
    submitted !== 'no' ||
    ['bulk', 'junk', 'list', 'auto_reply'].includes(precedence) ||
    'x-autoreply' in mail.headers ||
    'x-autorespond' in mail.headers ||
    /\b(oof|autoreply)\b/i.test(mail.headers['x-auto-response-suppress'] ?? '')
  );
}

/** A line that only separates: Outlook's `<hr>` as mailparser writes it (80 dashes), its 32 underscores, and the like. */
const SEPARATOR_LINE = /^[ \t]*(?:[-_=\u2014\u2500]{8,})[ \t]*$/;
/** A header line of a quoted mail's header block ("From: …", "De : …", "Von: …"). */
const HEADER_LINE = /^[ \t]*\*?[\p{L}][\p{L} -]{0,20}\*?[ \t]?:\*?[ \t]+\S/u;

/**
 * Cuts the text at Outlook's quote: a separator line (its `<hr>` before `<div id="divRplyFwdMsg">`) whose next
 * non-empty line starts the quoted mail's header block ("From: … / Sent: …"), in any language.
 */
function withoutOutlookQuote(text: string): string {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    if (!SEPARATOR_LINE.test(lines[i])) continue;
    let next = i + 1;
    while (next < lines.length && lines[next].trim() === '') next += 1;
    if (next < lines.length && HEADER_LINE.test(lines[next])) return lines.slice(0, i).join('\n');
  }
  return text;
}

/** The answer itself: without the quoted mail, the separator before it and the signature. */
export function answerText(text: string): string {
  const visible = new EmailReplyParser().read(withoutOutlookQuote(text.replace(/\r\n/g, '\n'))).getVisibleText();
  const lines = visible.split('\n');
  while (lines.length > 0 && (lines[lines.length - 1].trim() === '' || SEPARATOR_LINE.test(lines[lines.length - 1]))) lines.pop();
  return lines.join('\n').trim();
}

/** Counts a mail once per Message-ID; true when it was new. */
async function recordOnce(
  ctx: ReceiveContext,
  messageId: string,
  fields: { conversationId: Types.ObjectId; outcome: InboundOutcome; from: string },
) {
  const result = await ctx.models.InboundMail.updateOne(
    { messageId },
    { $setOnInsert: { messageId, ...fields, duplicates: 0 } },
    { upsert: true },
  );
  if (result.upsertedCount === 1) return true;
  await ctx.models.InboundMail.updateOne({ messageId }, { $inc: { duplicates: 1 } });
  return false;
}

export async function receiveVisitorMail(ctx: ReceiveContext, token: string, mail: InboundMessage): Promise<ReceiveOutcome> {
  const found = await findReplyConversation(ctx, token);
  if (!found) throw new UnknownRecipientError('This address does not belong to a conversation.');
  const { visitor } = found;
  const now = ctx.clock?.now() ?? new Date();
  // Without a Message-ID, the same sender, text and attachments count as the same mail.
  const messageId =
    mail.messageId ||
    `sha256:${createHash('sha256')
      .update(`${mail.from}\n${mail.text}\n${mail.attachments.map((a) => `${a.filename}:${a.content.length}`).join(',')}`)
      .digest('hex')}`;
  if (await ctx.models.InboundMail.exists({ messageId })) {
    await ctx.models.InboundMail.updateOne({ messageId }, { $inc: { duplicates: 1 } });
    return 'duplicate';
  }
  const dropped: InboundOutcome | null = isBounce(mail) ? 'bounce' : isAutoReply(mail) ? 'autoReply' : null;
  if (dropped) {
    ctx.logger.warn(`inbound mail: ${dropped} for conversation ${String(found.conversation._id)} dropped (${messageId})`);
    return (await recordOnce(ctx, messageId, { conversationId: found.conversation._id, outcome: dropped, from: mail.from }))
      ? dropped
      : 'duplicate';
  }
  const text = answerText(mail.text);
  const attachments = mail.attachments.filter((a) => a.content.length > 0 && a.content.length <= MAX_UPLOAD_BYTES);
  if (!text && attachments.length === 0) {
    return (await recordOnce(ctx, messageId, { conversationId: found.conversation._id, outcome: 'empty', from: mail.from }))
      ? 'empty'
      : 'duplicate';
  }
  const ce = await ctx.models.ChatEndpoint.findById(found.conversation.ceId);
  if (!ce) throw new UnknownRecipientError('This chat no longer exists.');
  const { target, after } = await conversationFor(ctx, found, ce, now);
  const files: MessageFile[] = [];
  for (const a of attachments) {
    const stored = await ctx.models.WidgetFile.create({
      ceId: ce._id,
      visitorId: visitor._id,
      conversationId: target._id,
      source: 'visitor',
      name: (a.filename || 'attachment').slice(0, 200),
      size: a.content.length,
      mimetype: (a.contentType || 'application/octet-stream').slice(0, 100),
      data: a.content,
    });
    files.push({ id: String(stored._id), name: stored.name, size: stored.size, mimetype: stored.mimetype });
  }
  // The clientId comes from the Message-ID: a second delivery racing this one is the same message, stored once.
  const clientId = `mail-${createHash('sha256').update(messageId).digest('hex').slice(0, 40)}`;
  const result = await visitorMessage(ctx, {
    ce,
    visitorId: visitor._id,
    known: target,
    clientId,
    text,
    files,
    origin: { pageUrl: found.conversation.pageUrl, triggerUid: '' },
  });
  if (result.duplicate) {
    await ctx.models.WidgetFile.deleteMany({ _id: { $in: files.map((f) => new Types.ObjectId(f.id)) } });
    await recordOnce(ctx, messageId, { conversationId: result.conversation._id, outcome: 'posted', from: mail.from });
    return 'duplicate';
  }
  if (after) await queueThreadPost(ctx, result.conversation, after);
  if (visitor.email && mail.from !== visitor.email.toLowerCase()) {
    await queueThreadNote(
      ctx,
      result.conversation,
      `This answer came by e-mail from ${mail.from || 'an unknown sender'}, not from the visitor's address ${maskEmail(visitor.email)}.`,
    );
  }
  return (await recordOnce(ctx, messageId, { conversationId: result.conversation._id, outcome: 'posted', from: mail.from }))
    ? 'posted'
    : 'duplicate';
}

/**
 * Where the answer goes: its own conversation while open; reopened when it ended less than REOPEN_DAYS ago (unless
 * the visitor has another one open now, which takes it); else a new conversation whose thread links the old one.
 */
async function conversationFor(
  ctx: ReceiveContext,
  { conversation: old }: Found,
  ce: Parameters<typeof startConversation>[1],
  now: Date,
): Promise<{ target: OpenConversation; after?: ThreadPost }> {
  const open = (c: Conversation & { _id: Types.ObjectId }): OpenConversation => ({
    _id: c._id,
    visitorId: c.visitorId,
    ceId: c.ceId,
    accountId: c.accountId,
    number: c.number,
    slackTeamId: c.slackTeamId,
    slackChannel: c.slackChannel,
  });
  if (old.status === 'open') return { target: open(old) };
  const current = await findOpenConversation(ctx, old.visitorId);
  if (current) {
    await queueThreadNote(ctx, current, `The visitor answered conversation #${old.number} by e-mail; the answer follows here.`);
    return { target: current };
  }
  const endedAt = old.endedAt?.getTime() ?? 0;
  if (now.getTime() - endedAt < REOPEN_DAYS * 24 * 60 * 60_000) {
    const reopened = await ctx.models.Conversation.updateOne(
      { _id: old._id, status: 'ended' },
      {
        $set: {
          status: 'open',
          endedAt: null,
          endedBy: null,
          inactiveAt: inactiveAt(now, ce),
          reminderAt: now,
          noAnswerAt: null,
        },
      },
    );
    if (reopened.modifiedCount === 1) {
      await queueThreadNote(ctx, old, 'The visitor answered by e-mail: the conversation is open again.');
      await headerUpdate(ctx, old);
    }
    return { target: open(old) };
  }
  const fresh = await startConversation(ctx, ce, old.visitorId, { pageUrl: old.pageUrl, triggerUid: '' }, '', { checks: false });
  const ended = old.endedAt ? old.endedAt.toISOString().slice(0, 10) : '';
  // After the answer, which posts the new thread's header.
  return {
    target: fresh,
    after: {
      text: `The visitor answered by e-mail to conversation #${old.number}${ended ? ` (ended ${ended})` : ''}: {link}`,
      look: 'note',
      linkTo: { channel: old.slackChannel, ts: old.threadTs, label: `conversation #${old.number}` },
    },
  };
}
