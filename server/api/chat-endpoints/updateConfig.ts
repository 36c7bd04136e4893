/**
 * `PUT /v1/chat_endpoints/{id}/update_config`: saves a widget's settings (the body may be the whole widget as
 * the console holds it; only settings fields are read, identity and Slack fields are ignored). The rules and
 * the push to open widgets live in `updateWidgetSettings`, which Slack commands call too.
 */
import express, { Router } from 'express';
import type { Config } from '../../config';
import type { Models } from '../../models';
import { requireAuth } from '../../http/auth';
import type { Relay } from '../../relay';
import { updateWidgetSettings, WidgetSettingsSchema } from '../../commands/updateWidgetSettings';
import { presentChatEndpoint } from '../presenters/chatEndpoint';
import { ownChatEndpoint } from './access';

export const UpdateConfigSchema = WidgetSettingsSchema;

export function updateConfigRouter(deps: { models: Models; config: Config; relay: Relay }): Router {
  const router = Router();
  const auth = requireAuth(deps.models, deps.config.jwtSecret);
  router.put('/chat_endpoints/:id/update_config', express.json({ limit: '200kb' }), auth, async (req, res) => {
    res.set('Cache-Control', 'no-store');
    const ce = await ownChatEndpoint(deps.models, res, String(req.params.id));
    res.json(presentChatEndpoint(await updateWidgetSettings(deps.relay, ce, req.body)));
  });
  return router;
}
