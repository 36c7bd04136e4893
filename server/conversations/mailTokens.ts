/**
 * The signed references in the mails of unseen replies: the Reply-To token `reply+<token>@<INBOUND_MAIL_DOMAIN>`
 * that brings the visitor's answer back into their conversation, and the unsubscribe link's token. Both are HMACs
 * under a key derived from JWT_SECRET, bound to the conversation and its visitor: unguessable, and useless for any
 * other conversation. Lower-case hex only, since mail systems may change the case of an address's local part.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Types } from 'mongoose';

/** 128 bits of the HMAC: enough that guessing one is hopeless, short enough for an address's local part. */
const SIGNATURE_HEX = 32;

function keyOf(secret: string, purpose: 'reply' | 'unsubscribe'): Buffer {
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
