/**
 * `PUT /v1/chat_endpoints/{id}/update_config`: saves a widget's settings (the body may be the whole widget as
 * the console holds it; only settings fields are read, identity and Slack fields are ignored). Validated with the
 * rules of the settings specification; open widgets learn the new visitor-visible settings and presence at once.
 */
import express, { Router } from 'express';
import { z } from 'zod';
import type { Config } from '../../config';
import type { Models } from '../../models';
import { CHAT_ENDPOINT_DEFAULTS } from '../../models/ChatEndpoint';
import { requireAuth } from '../../http/auth';
import { parse } from '../../http/validate';
import { ValidationError } from '../../errors';
import type { Relay } from '../../relay';
import { publicSettings } from '../widget/presenter';
import { presentChatEndpoint } from '../presenters/chatEndpoint';
import { ownChatEndpoint } from './access';

const ENUMS: Record<string, readonly [string, ...string[]]> = {
  collapsedMode: ['chip', 'button', 'tab', 'hidden', 'default'],
  metaInfoInMainChannel: ['compact', 'full', 'none'],
  widgetAlignment: ['bottomRight', 'bottomLeft'],
};
const URL_FIELDS = new Set([
  'offlineMessageWebhookURL',
  'webhookUrl',
  'newConversationWebhookURL',
  'noAnswerWebhookUrl',
  'feedbackWebhookUrl',
  'privacyPolicyLinkURL',
  'teamAvatarUrl',
]);
const httpUrl = z.union([z.literal(''), z.url({ protocol: /^https?$/ }).max(2048)]);

function fieldSchema(name: string, value: unknown): z.ZodType {
  if (ENUMS[name]) return z.enum(ENUMS[name]);
  if (typeof value === 'boolean') return z.boolean();
  // "Select fields convert to numbers; a non-numeric value becomes 0."
  if (typeof value === 'number') return z.preprocess((v) => (typeof v === 'string' ? Number(v) || 0 : v), z.number().int().min(0).max(100_000));
  if (URL_FIELDS.has(name)) return httpUrl;
  if (name === 'transcriptRecipient') return z.union([z.literal(''), z.email().max(254)]);
  if (name === 'triggerJson') return z.string().max(100_000);
  return z.string().max(4000);
}

const settingsShape: Record<string, z.ZodType> = {};
for (const [name, value] of Object.entries(CHAT_ENDPOINT_DEFAULTS)) settingsShape[name] = fieldSchema(name, value).optional();

const HHMM = z.number().int().min(0).max(2400).refine((n) => n % 100 < 60, 'must be HHMM');
export const UpdateConfigSchema = z
  .object({
    ...settingsShape,
    off: z.boolean().optional(),
    operatingHours: z.array(z.object({ weekday: z.number().int().min(0).max(6), start: HHMM, end: HHMM })).max(100).optional(),
  })
  .superRefine((body, ctx) => {
    const b = body as Record<string, unknown>;
    for (const list of ['countryAllowList', 'countryDenyList']) {
      const value = b[list];
      if (typeof value === 'string' && value.trim() !== '' && !value.split(/[\s,]+/).filter(Boolean).every((c) => /^[A-Za-z]{2}$/.test(c))) {
        ctx.addIssue({ code: 'custom', path: [list], message: 'must be two-letter country codes separated by commas' });
      }
    }
    if (typeof b.blacklistedUrls === 'string') {
      for (const entry of b.blacklistedUrls.split(/[\s,]+/).filter(Boolean)) {
        try {
          new RegExp(entry);
        } catch {
          ctx.addIssue({ code: 'custom', path: ['blacklistedUrls'], message: `Invalid filter: ${entry.slice(0, 50)}` });
        }
      }
    }
  });

export function updateConfigRouter(deps: { models: Models; config: Config; relay: Relay }): Router {
  const router = Router();
  const auth = requireAuth(deps.models, deps.config.jwtSecret);
  router.put('/chat_endpoints/:id/update_config', express.json({ limit: '200kb' }), auth, async (req, res) => {
    res.set('Cache-Control', 'no-store');
    const ce = await ownChatEndpoint(deps.models, res, String(req.params.id));
    const changes = parse(UpdateConfigSchema, req.body ?? {}) as Record<string, unknown>;
    const next = { ...ce.toObject(), ...changes } as Record<string, unknown>;
    if (next.requireAcceptance === true && String(next.acceptanceText ?? '').trim().length < 3) {
      throw new ValidationError('Must be at least three characters for Acceptance text to be displayed.');
    }
    const countries = `${String(next.countryAllowList ?? '')}${String(next.countryDenyList ?? '')}`.trim();
    if (countries !== '' && next.collectVisitorMetaData !== true) {
      throw new ValidationError('Country lists need the collect personal data privacy setting on.');
    }
    ce.set(changes);
    await ce.save();
    deps.relay.pubsub.publish(`widget:${ce._id.toHexString()}`, {
      t: 'config',
      config: { ...publicSettings(ce), hideWhenOffline: ce.hideWhenOffline },
    });
    await deps.relay.presence.recheck(ce._id.toHexString());
    res.json(presentChatEndpoint(ce));
  });
  return router;
}
