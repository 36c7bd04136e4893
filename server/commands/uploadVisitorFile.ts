/**
 * A file a visitor sends from the widget: checked (uploads on, a started chat, multipart with a "file" field,
 * at most MAX_UPLOAD_BYTES), stored as a WidgetFile, then sent into the visitor's conversation as a message; with
 * the field `screenshotFor` it answers that screenshot request (commands/screenshots.ts).
 * A message the conversation refuses leaves no file behind. Errors are the ones of server/errors.ts, coded as the
 * widget reads them (WidgetErrorCode).
 */

import { WidgetRefusal } from '../conversations/record';
import { findVisitorByToken, hashToken } from '../conversations/visitors';
import { NotFoundError, ValidationError } from '../errors';
import type { WidgetFileDocument } from '../models/WidgetFile';
import { MAX_UPLOAD_BYTES } from '../shared/widget-constants';
import { answerScreenshot, screenshotPending } from './screenshots';
import { type VisitorMessageContext, visitorMessage } from './sendVisitorMessage';

export type VisitorUpload = {
  /** The widget's public id (ChatEndpoint.Uuid). */
  uuid: string;
  /** The visitor token the widget got in its welcome frame. */
  visitorToken: string;
  /** The request's Content-Type, with its multipart boundary. */
  contentType: string;
  /** The request's body as read, a Buffer for any body. */
  body: unknown;
};

const CLIENT_ID = /^[A-Za-z0-9_-]{8,64}$/;

async function readForm(contentType: string, body: unknown): Promise<FormData> {
  if (!contentType.startsWith('multipart/form-data') || !Buffer.isBuffer(body)) {
    throw new ValidationError('Send the file as multipart/form-data in the field "file".', 'bad_frame');
  }
  try {
    return await new Response(new Uint8Array(body), { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw new ValidationError('The upload could not be read.', 'bad_frame');
  }
}

export async function uploadVisitorFile(ctx: VisitorMessageContext, upload: VisitorUpload): Promise<WidgetFileDocument> {
  const { models } = ctx;
  const ce = await models.ChatEndpoint.findOne({ Uuid: upload.uuid });
  if (!ce) throw new NotFoundError('This chat widget does not exist.', 'unknown_widget');
  const token = upload.visitorToken;
  const visitor = token.length >= 16 && token.length <= 128 ? await findVisitorByToken(models.Visitor, token, ce._id) : null;
  if (!visitor) throw new ValidationError('Start the chat before sending a file.', 'bad_frame');
  const form = await readForm(upload.contentType, upload.body);
  const screenshotFor = form.get('screenshotFor');
  // A screenshot the operator asked for is taken with uploads turned off too: the operator asked for this one file.
  const asked = typeof screenshotFor === 'string' && (await screenshotPending(models, visitor._id, screenshotFor));
  if (!ce.enableFileUploads && !asked) throw new ValidationError('File uploads are turned off for this chat.', 'uploads_disabled');
  const file = form.get('file');
  if (!file || typeof file === 'string') throw new ValidationError('Send the file in the field "file".', 'bad_frame');
  if (file.size > MAX_UPLOAD_BYTES) throw new ValidationError(`Files are limited to ${MAX_UPLOAD_BYTES / 1024 / 1024} MB.`, 'too_large');
  const clientIdField = form.get('clientId');
  const clientId =
    typeof clientIdField === 'string' && CLIENT_ID.test(clientIdField)
      ? clientIdField
      : `file-${hashToken(`${token}:${file.name}:${file.size}:${Date.now()}`).slice(0, 24)}`;
  const name = (file.name || 'file').slice(0, 200);
  const stored = await models.WidgetFile.create({
    ceId: ce._id,
    visitorId: visitor._id,
    source: 'visitor',
    name,
    size: file.size,
    mimetype: (file.type || 'application/octet-stream').slice(0, 100),
    data: Buffer.from(await file.arrayBuffer()),
    ...(asked ? { answersScreenshot: true } : {}),
  });
  try {
    const result = await visitorMessage(ctx, {
      ce,
      visitorId: visitor._id,
      clientId,
      text: '',
      files: [{ id: String(stored._id), name, size: stored.size, mimetype: stored.mimetype }],
      origin: { pageUrl: visitor.currentPage, triggerUid: '' },
    });
    await models.WidgetFile.updateOne({ _id: stored._id }, { $set: { conversationId: result.conversation._id } });
    // The picture an operator asked for: the request is answered (the file itself is the thread's answer).
    if (asked) await answerScreenshot(ctx, visitor._id, screenshotFor, 'sent');
  } catch (error) {
    await models.WidgetFile.deleteOne({ _id: stored._id });
    if (error instanceof WidgetRefusal) throw new ValidationError(error.message, error.code);
    throw error;
  }
  return stored;
}
