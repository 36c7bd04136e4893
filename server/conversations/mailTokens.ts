/**
 * The signed references in the mails of unseen replies: the Reply-To token `reply+<token>@<INBOUND_MAIL_DOMAIN>`
 * that brings the visitor's answer back into their conversation, and the unsubscribe link's token. Both are HMACs
 * under a key derived from JWT_SECRET, bound to the conversation and its visitor: unguessable, and useless for any
 * other conversation. Lower-case hex only, since mail systems may change the case of an address's local part. And the
 * resume token of the mail's link back to the chat, which also expires.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Types } from 'mongoose';

/** 128 bits of the HMAC: enough that guessing one is hopeless, short enough for an address's local part. */
const SIGNATURE_HEX = 32;

function keyOf(secret: string, purpose: 'reply' | 'unsubscribe' | 'resume'): Buffer {
  return createHmac('sha256', secret).update(`parley mail ${purpose} token`).digest();
}

function signature(secret: string, purpose: 'reply' | 'unsubscribe', conversationId: string, visitorId: string): string {
  return createHmac('sha256', keyOf(secret, purpose)).update(`${conversationId}:${visitorId}`).digest('hex').slice(0, SIGNATURE_HEX);
}

export type MailTokenRef = { conversationId: Types.ObjectId; visitorId: Types.ObjectId };

export function replyToken(secret: string, ref: MailTokenRef): string {
  return `${String(ref.conversationId)}${signature(secret, 'reply', String(ref.conversationId), String(ref.visitorId))}`;
}

export function unsubscribeToken(secret: string, ref: MailTokenRef): string {
  return `${String(ref.conversationId)}${signature(secret, 'unsubscribe', String(ref.conversationId), String(ref.visitorId))}`;
}

/** The conversation a token names (not yet checked: `verifyMailToken` does that once its visitor is known). */
export function tokenConversation(token: string): Types.ObjectId | null {
  const id = token.toLowerCase().slice(0, 24);
  return token.length === 24 + SIGNATURE_HEX && /^[0-9a-f]+$/.test(token.toLowerCase()) ? new Types.ObjectId(id) : null;
}

/** True when `token` was signed for this conversation and visitor (compared in constant time). */
export function verifyMailToken(secret: string, purpose: 'reply' | 'unsubscribe', token: string, ref: MailTokenRef): boolean {
  const expected = Buffer.from(purpose === 'reply' ? replyToken(secret, ref) : unsubscribeToken(secret, ref));
  const given = Buffer.from(token.toLowerCase());
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The address a mail's Reply-To names. */
export function replyAddress(secret: string, domain: string, ref: MailTokenRef): string {
  return `reply+${replyToken(secret, ref)}@${domain}`;
}

/** The token of a `reply+<token>@<domain>` address; null for any other address (another domain too). */
export function tokenOfAddress(address: string, domain: string): string | null {
  const match = /^reply\+([0-9a-f]+)@(.+)$/i.exec(address.trim());
  if (!match || match[2].toLowerCase() !== domain.toLowerCase()) return null;
  return match[1].toLowerCase();
}

/** j•••@example.com: enough for an operator to tell which address, not enough to copy it. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '•••';
  return `${email[0]}•••${email.slice(at)}`;
}

/** How long the "Continue the chat" link of a mail opens the conversation in another browser. */
export const RESUME_TOKEN_DAYS = 7;

function resumeSignature(secret: string, conversationId: string, visitorId: string, expires: string): string {
  return createHmac('sha256', keyOf(secret, 'resume'))
    .update(`${conversationId}:${visitorId}:${expires}`)
    .digest('base64url')
    .slice(0, SIGNATURE_HEX);
}

/**
 * The resume token of a mail's "Continue the chat" link: `<conversation>.<expiry, seconds in base 36>.<HMAC>`, signed
 * for one conversation and its visitor until `expiresAt` (RESUME_TOKEN_DAYS after the mail). It goes in the link's
 * fragment, which browsers never send to a server; the widget exchanges it for a visitor token of its own.
 */
export function resumeToken(secret: string, ref: MailTokenRef, expiresAt: Date): string {
  const expires = Math.floor(expiresAt.getTime() / 1000).toString(36);
  return `${String(ref.conversationId)}.${expires}.${resumeSignature(secret, String(ref.conversationId), String(ref.visitorId), expires)}`;
}

/** A resume token's parts (not yet checked: `verifyResumeToken` does that once its visitor is known); null when malformed. */
export function readResumeToken(token: string): { conversationId: Types.ObjectId; expiresAt: Date } | null {
  const match = /^([0-9a-f]{24})\.([0-9a-z]{1,10})\.([\w-]{32})$/.exec(token);
  if (!match) return null;
  return { conversationId: new Types.ObjectId(match[1]), expiresAt: new Date(Number.parseInt(match[2], 36) * 1000) };
}

/** True when `token` was signed for this conversation and visitor, whether expired or not (compared in constant time). */
export function verifyResumeToken(secret: string, token: string, ref: MailTokenRef): boolean {
  const parts = token.split('.');
  if (parts.length !== 3) return false;
  const expected = Buffer.from(resumeSignature(secret, String(ref.conversationId), String(ref.visitorId), parts[1]));
  const given = Buffer.from(parts[2]);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
