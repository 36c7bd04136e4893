// Endpoints outside the Web API: the file upload URL, private file downloads (url_private), response_url and
// permalinks, each checking what Slack checks.
import express, { type Request, type Response, type Router } from 'express';
import { SlackApiError } from './ops';
import type { PresentContext } from './present';
import type { Sender } from './sender';
import { isRecord, MAX_KEPT } from './sender';

const MAX_UPLOAD = 50 * 1024 * 1024;

export function fileAndResponseRoutes(ctx: PresentContext, sender: Sender): Router {
  const router = express.Router();
  const { state } = ctx;

  // The upload URL from files.getUploadURLExternal takes the bytes raw or as multipart/form-data
  // (the WebClient sends a multipart form); the URL itself is the credential, as at Slack.
  router.post('/files-upload/:fileId/:token', express.raw({ type: () => true, limit: MAX_UPLOAD }), async (req: Request, res: Response) => {
    const f = state.file(String(req.params.fileId));
    if (!f || f.uploadToken !== req.params.token || f.completed) {
      res.status(404).type('text/plain').send('not found');
      return;
    }
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    let bytes = raw;
    const type = req.headers['content-type'] ?? '';
    if (type.startsWith('multipart/form-data')) {
      const form = await new globalThis.Response(new Uint8Array(raw), { headers: { 'content-type': type } }).formData();
      const part = [...form.values()].find((v): v is File => typeof v !== 'string');
      if (!part) {
        res.status(400).type('text/plain').send('no file in form');
        return;
      }
      bytes = Buffer.from(await part.arrayBuffer());
    }
    f.contentBase64 = bytes.toString('base64');
    f.size = bytes.length;
    f.uploaded = true;
    state.changed();
    res.status(200).type('text/plain').send(`OK - ${bytes.length}`);
  });

  // url_private: only a token of the file's workspace with files:read gets the bytes. Without one Slack
  // answers with its sign-in page, so this redirects to the (HTML) operator page.
  router.get('/files-pri/:teamFile/:name', (req: Request, res: Response) => {
    const [teamId, fileId] = String(req.params.teamFile).split('-');
    const f = state.file(fileId ?? '');
    const token = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const info = token ? state.resolveToken(token) : null;
    const allowed =
      !!f &&
      f.teamId === teamId &&
      f.completed &&
      info !== null &&
      info !== 'revoked' &&
      info.installation.teamId === teamId &&
      info.scopes.includes('files:read');
    if (!allowed || !f) {
      res.redirect(302, `${ctx.baseUrl}/?redir=${encodeURIComponent(req.originalUrl)}`);
      return;
    }
    res.setHeader('content-type', f.mimetype);
    res.setHeader('content-length', String(f.size));
    if (req.query.download !== undefined) res.setHeader('content-disposition', `attachment; filename="${f.name.replace(/"/g, '')}"`);
    res.end(Buffer.from(f.contentBase64 ?? '', 'base64'));
  });

  // response_url: the app's delayed answers to commands and actions.
  router.post('/response/*rest', express.json({ limit: '1mb' }), express.urlencoded({ extended: false }), (req: Request, res: Response) => {
    const rest = (req.params as Record<string, string | string[]>).rest;
    const id = Array.isArray(rest) ? rest.join('/') : String(rest);
    const target = sender.responseUrls.get(id);
    const body: Record<string, unknown> = isRecord(req.body) ? req.body : {};
    const record = () => {
      state.data.responses.push({
        id: state.nextId('R'),
        teamId: target?.teamId ?? '',
        channel: target?.channel,
        user: target?.user ?? '',
        body,
        at: Date.now(),
      });
      if (state.data.responses.length > MAX_KEPT) state.data.responses.splice(0, state.data.responses.length - MAX_KEPT);
      state.changed();
    };
    if (!target) {
      res.status(404).json({ ok: false, error: 'invalid_url' });
      return;
    }
    if (Date.now() > target.expiresAt) {
      res.status(404).json({ ok: false, error: 'expired_url' });
      return;
    }
    if (target.usesLeft <= 0) {
      res.status(404).json({ ok: false, error: 'used_url' });
      return;
    }
    try {
      sender.applyResponse(target, body, 'response_url');
      target.usesLeft -= 1;
      record();
      res.status(200).json({ ok: true });
    } catch (err) {
      const code = err instanceof SlackApiError ? err.error : 'invalid_payload';
      res.status(400).json({ ok: false, error: code });
    }
  });

  // Permalinks (chat.getPermalink, workspace URLs) open the operator page at the message.
  router.get('/workspaces/:domain/archives/:channel/:p', (req: Request, res: Response) => {
    const ws = state.data.workspaces.find((w) => w.domain === req.params.domain);
    const p = String(req.params.p);
    const ts = /^p(\d{10})(\d{6})$/.exec(p);
    const msgTs = ts ? `${ts[1]}.${ts[2]}` : '';
    const thread = typeof req.query.thread_ts === 'string' ? req.query.thread_ts : msgTs;
    res.redirect(
      302,
      `${ctx.baseUrl}/?team=${ws?.id ?? ''}&channel=${encodeURIComponent(String(req.params.channel))}&thread=${encodeURIComponent(thread)}`,
    );
  });
  router.get('/workspaces/:domain/', (req: Request, res: Response) => {
    const ws = state.data.workspaces.find((w) => w.domain === req.params.domain);
    res.redirect(302, `${ctx.baseUrl}/?team=${ws?.id ?? ''}`);
  });

  return router;
}
