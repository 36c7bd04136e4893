/**
 * The settings calls of a widget, with the relay so open widgets learn every change at once:
 * - `PUT /v1/chat_endpoints/{id}/update_config`: saves settings (the body may be the whole widget as the console
 *   holds it; only settings fields are read, identity and Slack fields are ignored, and a field no widget has is a
 *   400 naming it). The rules and the push to open widgets live in `updateWidgetSettings`, which Slack commands
 *   call too.
 * - `PUT /v1/chat_endpoints/{id}/toggle/{on|off}`: the widget's on/off switch.
 * - `POST|DELETE /v1/chat_endpoints/{id}/team-avatar`: the team avatar (multipart field "file").
 * - `PUT /v1/chat_endpoints/{id}/identity_secret`: admins only; a new identity secret, answered as
 *   `{ identitySecret }` this once (no other call returns it).
 * - `GET /widget/team-avatar/{fileId}`: the avatar image, public, for visitors' browsers on any site.
 */
import express, { type Response, Router } from 'express';
import { isValidObjectId } from 'mongoose';
import { type IdentitySecretDeps, regenerateIdentitySecret } from '../../commands/identitySecret';
import { removeTeamAvatar, setTeamAvatar } from '../../commands/teamAvatar';
import { type SettingsDeps, updateWidgetSettings, WidgetSettingsSchema } from '../../commands/updateWidgetSettings';
import type { Config } from '../../config';
import { ValidationError } from '../../errors';
import { requireAdmin, requireAuth } from '../../http/auth';
import { validated } from '../../http/validate';
import type { Models } from '../../models';
import { TEAM_AVATAR_MAX_BYTES } from '../../shared/settings';
import { presentChatEndpoint } from '../presenters/chatEndpoint';
import { ownChatEndpoint } from './access';
import { ToggleParamsSchema } from './schema';

export const UpdateConfigSchema = WidgetSettingsSchema;

/** What the settings calls use of the relay: settings saved and told to open widgets (the relay has it all). */
export type SettingsRelay = SettingsDeps & IdentitySecretDeps & { publicUrl: string };

type Deps = { models: Models; config: Config; relay: SettingsRelay };

export function updateConfigRouter(deps: Deps): Router {
  const router = Router();
  const auth = requireAuth(deps.models, deps.config.jwtSecret);
  router.use('/chat_endpoints/:id', (_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });

  router.put('/chat_endpoints/:id/update_config', express.json({ limit: '200kb' }), auth, async (req, res) => {
    const ce = await ownChatEndpoint(deps.models, res, String(req.params.id));
    res.json(presentChatEndpoint(await updateWidgetSettings(deps.relay, ce, req.body)));
  });

  const toggle = { params: ToggleParamsSchema };
  router.put(
    '/chat_endpoints/:id/toggle/:state',
    auth,
    validated(toggle, async (req, res) => {
      const ce = await ownChatEndpoint(deps.models, res, req.params.id);
      res.json(presentChatEndpoint(await updateWidgetSettings(deps.relay, ce, { off: req.params.state === 'off' })));
    }),
  );

  // Admins only, checked before the widget is looked up: a member learns nothing, not even whether the id exists.
  router.put('/chat_endpoints/:id/identity_secret', auth, requireAdmin, async (req, res: Response<{ identitySecret: string }>) => {
    const ce = await ownChatEndpoint(deps.models, res, String(req.params.id));
    res.json({ identitySecret: await regenerateIdentitySecret(deps.relay, ce) });
  });

  router.post(
    '/chat_endpoints/:id/team-avatar',
    auth,
    // Read well past the limit so a too-large image gets the avatar's own message rather than the generic one.
    express.raw({ type: () => true, limit: TEAM_AVATAR_MAX_BYTES * 8 }),
    async (req, res) => {
      const ce = await ownChatEndpoint(deps.models, res, String(req.params.id));
      const file = await uploadedFile(req.get('content-type') ?? '', req.body);
      res.json({ teamAvatarUrl: (await setTeamAvatar(deps.relay, ce, file)).teamAvatarUrl });
    },
  );

  router.delete('/chat_endpoints/:id/team-avatar', auth, async (req, res) => {
    const ce = await ownChatEndpoint(deps.models, res, String(req.params.id));
    res.json(presentChatEndpoint(await removeTeamAvatar(deps.relay, ce)));
  });
  return router;
}

/** The "file" field of a multipart body. */
async function uploadedFile(contentType: string, body: unknown): Promise<{ name: string; bytes: Uint8Array }> {
  if (!contentType.startsWith('multipart/form-data') || !Buffer.isBuffer(body)) {
    throw new ValidationError('Send the image as multipart/form-data in the field "file".');
  }
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw new ValidationError('The upload could not be read.');
  }
  const file = form.get('file');
  if (!file || typeof file === 'string') throw new ValidationError('Send the image in the field "file".');
  return { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) };
}

/** GET /widget/team-avatar/{fileId}: public, cacheable, never anything but the stored image type. */
export function teamAvatarFilesRouter(models: Models): Router {
  const router = Router();
  router.get('/widget/team-avatar/:fileId', async (req, res) => {
    const id = req.params.fileId;
    const file = isValidObjectId(id) ? await models.WidgetFile.findOne({ _id: id, source: 'team-avatar' }) : null;
    if (!file?.data) {
      res.status(404).type('text/plain').send('Not found');
      return;
    }
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    res.setHeader('Cache-Control', 'public, max-age=86400, immutable');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Content-Security-Policy', "default-src 'none'");
    res.type(file.mimetype).send(file.data);
  });
  return router;
}
