/**
 * Operators' pictures in visitors' mails: an https address of Parley's (GET /mail/avatar/<message id>, served by
 * server/inbound/routes.ts) instead of what the message stored, which may be a data: image (most mail clients block
 * those) or an address that changes when the operator changes their picture.
 */
export const MAIL_AVATAR_PATH = '/mail/avatar';

/** The picture of the operator who wrote this message, at Parley's public address. */
export function mailAvatarUrl(publicUrl: string, messageId: string): string {
  return `${publicUrl.replace(/\/+$/, '')}${MAIL_AVATAR_PATH}/${encodeURIComponent(messageId)}`;
}

/** A data: image as its type and bytes, when it is a picture type mail clients show; null otherwise. */
export function dataImage(url: string): { type: string; bytes: Buffer } | null {
  const match = /^data:(image\/(?:png|jpeg|gif|webp|svg\+xml));base64,([A-Za-z0-9+/=]+)$/i.exec(url);
  if (!match?.[1] || !match[2]) return null;
  return { type: match[1].toLowerCase(), bytes: Buffer.from(match[2], 'base64') };
}
