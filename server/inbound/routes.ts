/**
 * The HTTP side of mail: Mailgun's inbound webhook (a route's forward() to POST /inbound/mailgun, parsed fields and
 * attachments; or to POST /inbound/mailgun/mime, the raw MIME in `body-mime`), verified with Mailgun's signature
 * (HMAC-SHA256 of timestamp + token under the HTTP webhook signing key, MAILGUN_SIGNING_KEY); and the one-click
 * unsubscribe link of the mails of unseen replies. A signature whose timestamp is more than 5 minutes from now, or whose
 * token was already taken (models.MailgunTokenSeen, shared by every process), is refused. Answers Mailgun reads: 200 taken (posted, or dropped and counted),
 * 406 refused for good (no conversation behind the recipient: Mailgun does not retry), 401 a bad signature,
 * anything else is retried by Mailgun.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import express, { type Request, Router } from 'express';
import type { Types } from 'mongoose';
import multer from 'multer';
import type { InboundMessage, ReceiveContext } from '../commands/receiveVisitorMail';
import { receiveVisitorMail, UnknownRecipientError } from '../commands/receiveVisitorMail';
import type { InboundMailConfig } from '../config';
import { tokenConversation, tokenOfAddress, verifyMailToken } from '../conversations/mailTokens';
import { escapeHtml } from '../escapeHtml';
import { identiconPng } from '../http/visitorAvatar';
import { dataImage, MAIL_AVATAR_PATH } from '../mail/avatars';
import type { Models } from '../models';
import { siteOf } from '../relay/unseenMail';
import { headersOf, parseMime } from './parse';

/** True when Mailgun signed this timestamp and token with the signing key (compared in constant time). */
export function mailgunSignatureValid(signingKey: string, fields: { timestamp?: unknown; token?: unknown; signature?: unknown }): boolean {
  const { timestamp, token, signature } = fields;
  if (typeof timestamp !== 'string' || typeof token !== 'string' || typeof signature !== 'string') return false;
  const expected = Buffer.from(
    createHmac('sha256', signingKey)
      .update(timestamp + token)
      .digest('hex'),
  );
  const given = Buffer.from(signature.toLowerCase());
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** How far a signature's timestamp may be from now, either way (Mailgun's retries are signed afresh). */
export const MAILGUN_SIGNATURE_TOLERANCE_SECS = 5 * 60;

/** True when the signature's timestamp (seconds since 1970) is within 5 minutes of now, before or after. */
export function mailgunTimestampFresh(timestamp: string, now = Date.now()): boolean {
  if (!/^\d{1,12}$/.test(timestamp)) return false;
  return Math.abs(now / 1000 - Number(timestamp)) <= MAILGUN_SIGNATURE_TOLERANCE_SECS;
}

const field = (body: Record<string, unknown>, name: string): string => (typeof body[name] === 'string' ? (body[name] as string) : '');

/** "Jane <jane@example.com>" or "jane@example.com" → jane@example.com. */
function addressOf(value: string): string {
  const angle = /<([^<>\s]+@[^<>\s]+)>/.exec(value);
  return (angle ? angle[1] : value.trim()).toLowerCase();
}

/** Mailgun's parsed fields (and uploaded attachment-N files) as an InboundMessage. */
function fromMailgunFields(body: Record<string, unknown>, files: Express.Multer.File[]): InboundMessage {
  let lines: { key: string; line: string }[] = [];
  try {
    const parsed: unknown = JSON.parse(field(body, 'message-headers') || '[]');
    if (Array.isArray(parsed)) {
      lines = parsed
        .filter((h): h is [string, string] => Array.isArray(h) && typeof h[0] === 'string' && typeof h[1] === 'string')
        .map(([key, value]) => ({ key, line: `${key}: ${value}` }));
    }
  } catch {
    lines = [];
  }
  const headers = headersOf(lines);
  return {
    messageId: (headers['message-id'] ?? '').replace(/^<|>$/g, ''),
    from: addressOf(field(body, 'from') || field(body, 'sender')),
    headers,
    text: field(body, 'body-plain'),
    attachments: files
      .filter((f) => /^attachment-\d+$/.test(f.fieldname))
      .map((f) => ({ filename: f.originalname, contentType: f.mimetype, content: f.buffer })),
  };
}

export function inboundRouter(deps: { config: InboundMailConfig; ctx: ReceiveContext; models: Models }): Router {
  const { config, ctx, models } = deps;
  const router = Router();
  const upload = multer({ storage: multer.memoryStorage(), limits: { fileSize: config.maxBytes, fieldSize: config.maxBytes } });
  const urlencoded = express.urlencoded({ extended: false, limit: config.maxBytes });

  const take = (mime: boolean) => async (req: Request, res: express.Response) => {
    const key = config.mailgunSigningKey;
    if (!key) {
      res.status(404).type('text/plain').send('Not found');
      return;
    }
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (!mailgunSignatureValid(key, body)) {
      res.status(401).json({ Message: 'The Mailgun signature does not match.', Error: 'bad_signature' });
      return;
    }
    // Mailgun's signature covers only the timestamp and the token, not the mail: a triple seen once could carry any
    // body. So, as Mailgun's "Securing Webhooks" asks, an old timestamp is refused and each token is taken once.
    if (!mailgunTimestampFresh(field(body, 'timestamp'))) {
      res.status(401).json({ Message: 'The Mailgun signature is older than 5 minutes (or from the future).', Error: 'stale_signature' });
      return;
    }
    const signatureToken = field(body, 'token');
    try {
      await models.MailgunTokenSeen.create({ token: signatureToken });
    } catch (error) {
      if ((error as { code?: unknown }).code !== 11000) throw error;
      res.status(401).json({ Message: 'This Mailgun signature was already used.', Error: 'replayed_signature' });
      return;
    }
    const token = tokenOfAddress(field(body, 'recipient'), config.domain);
    if (!token) {
      res.status(406).json({ Message: 'This address does not belong to a conversation.', Error: 'unknown_recipient' });
      return;
    }
    const files = Array.isArray(req.files) ? req.files : [];
    try {
      const mail = mime ? await parseMime(Buffer.from(field(body, 'body-mime'), 'utf8'), undefined) : fromMailgunFields(body, files);
      const outcome = await receiveVisitorMail(ctx, token, mail);
      res.status(200).json({ outcome });
    } catch (error) {
      // Not taken: Mailgun's retry of this POST may come with the same token.
      if (!(error instanceof UnknownRecipientError)) await models.MailgunTokenSeen.deleteOne({ token: signatureToken });
      if (error instanceof UnknownRecipientError) {
        res.status(error.status).json({ Message: error.message, Error: error.code });
        return;
      }
      throw error;
    }
  };
  router.post('/inbound/mailgun', upload.any(), urlencoded, take(false));
  router.post('/inbound/mailgun/mime', upload.any(), urlencoded, take(true));

  /** The unsubscribe link: recorded on the visitor at once (one click), honoured by every later wait. */
  const unsubscribe = async (token: string): Promise<string | null> => {
    const id = tokenConversation(token);
    const conversation = id
      ? await models.Conversation.findById(id, { visitorId: 1, pageUrl: 1 }).lean<{ visitorId: Types.ObjectId; pageUrl: string }>()
      : null;
    if (
      !id ||
      !conversation ||
      !verifyMailToken(ctx.secret, 'unsubscribe', token, { conversationId: id, visitorId: conversation.visitorId })
    ) {
      return null;
    }
    await models.Visitor.updateOne(
      { _id: conversation.visitorId, emailUnsubscribedAt: null },
      { $set: { emailUnsubscribedAt: new Date() } },
    );
    return siteOf(conversation.pageUrl) || 'this website';
  };
  const page = (title: string, text: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222}</style>
</head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></body></html>`;
  router.get('/mail/unsubscribe/:token', async (req, res) => {
    const from = await unsubscribe(req.params.token);
    res.set('Cache-Control', 'no-store');
    if (from === null) {
      res.status(404).type('html').send(page('Link not valid', 'This unsubscribe link is not valid. Copy the whole link from the mail.'));
      return;
    }
    res.type('html').send(page('You are unsubscribed', `You will get no more e-mails about your chats on ${from}.`));
  });
  // RFC 8058: mail clients unsubscribe with a POST to the List-Unsubscribe link.
  router.post('/mail/unsubscribe/:token', async (req, res) => {
    const from = await unsubscribe(req.params.token);
    res
      .status(from === null ? 404 : 200)
      .type('text/plain')
      .send(from === null ? 'Not found' : 'Unsubscribed');
  });
  // The operator's picture in a visitor's mail (mail/avatars.ts): an https address that works in every mail client.
  router.get(`${MAIL_AVATAR_PATH}/:messageId`, async (req, res) => {
    const id = req.params.messageId;
    const message = /^[0-9a-f]{24}$/.test(id)
      ? await deps.models.Message.findById(id, { from: 1, author: 1 })
          .lean<{ from: string; author: { avatarUrl?: string } | null }>()
          .exec()
      : null;
    const picture = message?.from === 'operator' ? (message.author?.avatarUrl ?? '') : '';
    if (!picture) {
      res.status(404).type('text/plain').send('No picture');
      return;
    }
    res.set({ 'Cache-Control': 'public, max-age=86400', 'Cross-Origin-Resource-Policy': 'cross-origin' });
    if (/^https:\/\//i.test(picture)) {
      res.redirect(302, picture);
      return;
    }
    const data = dataImage(picture);
    if (data) {
      // An SVG is shown as a picture, never run as a page.
      res.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox").type(data.type).send(data.bytes);
      return;
    }
    res.type('image/png').send(identiconPng(id));
  });
  return router;
}
