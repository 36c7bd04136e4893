/**
 * The public widget API (no sign-in): the configuration a visitor's widget loads, the offline form, visitor file
 * uploads, and files shown in conversations. GET config is readable from any site; POSTs check the Origin the
 * way the WebSocket does. Nothing here reveals another tenant's data: files need the visitor token of the
 * conversation they belong to.
 */
import express, { type NextFunction, type Request, type Response, Router } from 'express';
import { isValidObjectId } from 'mongoose';
import { sendOfflineMessage } from '../../commands/sendOfflineMessage';
import { visitorMessage } from '../../commands/sendVisitorMessage';
import { WidgetRefusal } from '../../conversations/record';
import { hashToken } from '../../conversations/visitors';
import type { Relay } from '../../relay';
import { originAllowed, WS_PATH } from '../../relay/gateway';
import { clientIp, countryAllowed, countryOf } from '../../relay/visitorIp';
import type { PublicWidgetConfig } from '../../shared/widget-config';
import { OfflineMessageSchema, type WidgetErrorCode } from '../../shared/widget-protocol';
import { publicSettings } from './presenter';

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

type Fail = { Message: string; Error: WidgetErrorCode | 'bad_request' | 'not_found' };
const fail = (res: Response, status: number, Error: Fail['Error'], Message: string): void => {
  res.status(status).json({ Message, Error } satisfies Fail);
};

function cors(req: Request, res: Response, methods: string): boolean {
  const origin = req.headers.origin;
  if (!originAllowed(origin)) {
    fail(res, 403, 'not_allowed_here', 'This site may not use the chat widget.');
    return false;
  }
  if (origin) {
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Vary', 'Origin');
    res.setHeader('Access-Control-Allow-Methods', methods);
    res.setHeader('Access-Control-Allow-Headers', 'Content-Type, X-Visitor-Token');
    res.setHeader('Access-Control-Max-Age', '600');
  }
  return true;
}

export function widgetApiRouter(relay: Relay): Router {
  const { models, config } = relay;
  const router = Router();
  const wsUrl = `${config.publicUrl.replace(/^http/, 'ws')}${WS_PATH}`;

  const widget = async (uuid: string) =>
    typeof uuid === 'string' && uuid.length <= 64 ? models.ChatEndpoint.findOne({ Uuid: uuid }) : null;

  router.options('/widget/api/:uuid/:what', (req, res) => {
    if (cors(req, res, 'GET, POST')) res.status(204).end();
  });

  router.get('/widget/api/:uuid/config', async (req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    // Revalidated on every page load (an ETag makes that cheap): a widget turned off, or back on, must not
    // keep its old launcher text for another half minute.
    res.setHeader('Cache-Control', 'no-cache');
    const ce = await widget(req.params.uuid);
    if (!ce) return fail(res, 404, 'unknown_widget', 'This chat widget does not exist.');
    const country = ce.collectVisitorMetaData ? countryOf(clientIp(req, config.trustProxy)) : '';
    const online = await relay.presence.isOnline(ce).catch(() => false);
    const answer: PublicWidgetConfig = {
      widgetId: ce.Uuid,
      allowed: countryAllowed(ce, country),
      online,
      hideWhenOffline: ce.hideWhenOffline,
      wsUrl,
      settings: publicSettings(ce),
    };
    res.json(answer);
  });

  router.post('/widget/api/:uuid/offline', express.json({ limit: '32kb' }), async (req, res) => {
    if (!cors(req, res, 'GET, POST')) return;
    const ce = await widget(String(req.params.uuid));
    if (!ce) return fail(res, 404, 'unknown_widget', 'This chat widget does not exist.');
    const parsed = OfflineMessageSchema.safeParse(req.body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return fail(res, 400, 'bad_frame', `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`);
    }
    const country = countryOf(clientIp(req, config.trustProxy));
    if (!countryAllowed(ce, country)) return fail(res, 403, 'not_allowed_here', 'This chat is not available in your country.');
    await sendOfflineMessage(relay, ce, parsed.data, { country });
    res.json({ ok: true });
  });

  router.post('/widget/api/:uuid/files', express.raw({ type: () => true, limit: MAX_UPLOAD_BYTES + 64 * 1024 }), async (req, res) => {
    if (!cors(req, res, 'GET, POST')) return;
    const ce = await widget(String(req.params.uuid));
    if (!ce) return fail(res, 404, 'unknown_widget', 'This chat widget does not exist.');
    if (!ce.enableFileUploads) return fail(res, 400, 'uploads_disabled', 'File uploads are turned off for this chat.');
    const token = req.get('x-visitor-token') ?? '';
    const visitor =
      token.length >= 16 && token.length <= 128 ? await models.Visitor.findOne({ tokenHash: hashToken(token), ceId: ce._id }) : null;
    if (!visitor) return fail(res, 400, 'bad_frame', 'Start the chat before sending a file.');
    const contentType = req.get('content-type') ?? '';
    if (!contentType.startsWith('multipart/form-data') || !Buffer.isBuffer(req.body))
      return fail(res, 400, 'bad_frame', 'Send the file as multipart/form-data in the field "file".');
    let form: FormData;
    try {
      form = await new Response(new Uint8Array(req.body), { headers: { 'content-type': contentType } }).formData();
    } catch {
      return fail(res, 400, 'bad_frame', 'The upload could not be read.');
    }
    const file = form.get('file');
    if (!file || typeof file === 'string') return fail(res, 400, 'bad_frame', 'Send the file in the field "file".');
    if (file.size > MAX_UPLOAD_BYTES) return fail(res, 400, 'too_large', 'Files are limited to 10 MB.');
    const clientIdField = form.get('clientId');
    const clientId =
      typeof clientIdField === 'string' && /^[A-Za-z0-9_-]{8,64}$/.test(clientIdField)
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
    });
    try {
      const result = await visitorMessage(relay, {
        ce,
        visitorId: visitor._id,
        clientId,
        text: '',
        files: [{ id: String(stored._id), name, size: stored.size, mimetype: stored.mimetype }],
        origin: { pageUrl: visitor.currentPage, triggerUid: '' },
      });
      await models.WidgetFile.updateOne({ _id: stored._id }, { $set: { conversationId: result.conversation._id } });
    } catch (error) {
      await models.WidgetFile.deleteOne({ _id: stored._id });
      if (error instanceof WidgetRefusal) return fail(res, 400, error.code, error.message);
      throw error;
    }
    res.json({
      id: String(stored._id),
      name,
      size: stored.size,
      url: `${config.publicUrl}/widget/files/${String(stored._id)}`,
      mimetype: stored.mimetype,
    });
  });

  router.get('/widget/files/:id', async (req, res) => {
    const token = typeof req.query.v === 'string' ? req.query.v : '';
    const id = req.params.id;
    const notFound = () => fail(res, 404, 'not_found', 'File not found.');
    if (!isValidObjectId(id) || token.length < 16 || token.length > 128) return notFound();
    const [file, visitor] = await Promise.all([models.WidgetFile.findById(id), models.Visitor.findOne({ tokenHash: hashToken(token) })]);
    if (!file || !visitor) return notFound();
    const conversation = file.conversationId ? await models.Conversation.findById(file.conversationId) : null;
    const mine = conversation ? conversation.visitorId.equals(visitor._id) : file.visitorId?.equals(visitor._id) === true;
    if (!mine) return notFound();
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    res.setHeader('Cache-Control', 'private, max-age=3600');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    const safeName = encodeURIComponent(file.name);
    // Images may show inline; anything else downloads, so an uploaded HTML page never runs on Parley's origin.
    const inline = /^image\/(png|jpeg|gif|webp)$/.test(file.mimetype);
    res.setHeader('Content-Disposition', `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${safeName}`);
    res.type(inline ? file.mimetype : 'application/octet-stream');
    if (file.data) {
      res.send(file.data);
      return;
    }
    const team = await relay.slack.forTeam(file.slackTeamId);
    if (!team) return notFound();
    const info = await team.client.files.info({ file: file.slackFileId }).catch(() => null);
    const url = info?.file?.url_private_download ?? info?.file?.url_private;
    if (!url) return notFound();
    const upstream = await fetch(url, { headers: { Authorization: `Bearer ${team.token}` }, signal: AbortSignal.timeout(20_000) }).catch(
      () => null,
    );
    if (!upstream?.ok) return notFound();
    res.send(Buffer.from(await upstream.arrayBuffer()));
  });

  router.use('/widget/api', (_req: Request, res: Response) => fail(res, 404, 'not_found', 'Not found.'));
  // Body parser errors (too large, unreadable JSON) answer in the widget's error shape.
  router.use('/widget', (error: unknown, _req: Request, res: Response, next: NextFunction): void => {
    const status = (error as { status?: unknown; type?: unknown }).status;
    if (status === 413) return fail(res, 400, 'too_large', 'The request is too large.');
    if (status === 400) return fail(res, 400, 'bad_frame', 'The request body could not be read.');
    next(error);
  });
  return router;
}
