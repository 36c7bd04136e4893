/**
 * Changes a widget's settings, whoever asks: the console (`PUT /v1/chat_endpoints/{id}/update_config`) or an
 * operator in Slack (`/parley off`, the App Home buttons, the operating hours modal). Validated with the rules
 * of the settings specification; open widgets learn the new visitor-visible settings and presence at once.
 */
import { z } from 'zod';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';
import { CHAT_ENDPOINT_DEFAULTS } from '../models/ChatEndpoint';
import type { RelayContext } from '../relay/context';
import { ValidationError } from '../errors';
import { parse } from '../http/validate';
import { publicSettings } from '../api/widget/presenter';
import { readTriggerJson, TriggerJsonSchema } from '../shared/triggers';
import { requirePlanFeature } from './planFeature';

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

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

function fieldSchema(name: string, value: unknown): z.ZodType {
  if (ENUMS[name]) return z.enum(ENUMS[name]);
  if (typeof value === 'boolean') return z.boolean();
  // "Select fields convert to numbers; a non-numeric value becomes 0."
  if (typeof value === 'number') return z.preprocess((v) => (typeof v === 'string' ? Number(v) || 0 : v), z.number().int().min(0).max(100_000));
  if (URL_FIELDS.has(name)) return httpUrl;
  if (name === 'transcriptRecipient') return z.union([z.literal(''), z.email().max(254)]);
  if (name === 'triggerJson') return TriggerJsonSchema;
  if (name === 'tz') return z.string().trim().min(1).max(100).refine(isTimeZone, 'Unknown time zone');
  return z.string().max(4000);
}

const settingsShape: Record<string, z.ZodType> = {};
for (const [name, value] of Object.entries(CHAT_ENDPOINT_DEFAULTS)) settingsShape[name] = fieldSchema(name, value).optional();

const HHMM = z.number().int().min(0).max(2400).refine((n) => n % 100 < 60, 'must be HHMM');

/** One operating hour entry: weekday 0 (Sunday) to 6, start and end as HHMM numbers. */
export const OperatingHourSchema = z.object({ weekday: z.number().int().min(0).max(6), start: HHMM, end: HHMM });

/** The settings a console save or a Slack command may change; fields left out keep their value. */
export const WidgetSettingsSchema = z
  .object({
    ...settingsShape,
    off: z.boolean().optional(),
    operatingHours: z.array(OperatingHourSchema).max(100).optional(),
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

export type SettingsDeps = Pick<RelayContext, 'models' | 'pubsub' | 'presence'>;

/**
 * Validates `input` (a whole widget as the console holds it, or just the fields to change), saves the
 * changes and tells open widgets. Throws ValidationError (400) with the first problem.
 */
export async function updateWidgetSettings(deps: SettingsDeps, ce: ChatEndpointDocument, input: unknown): Promise<ChatEndpointDocument> {
  const changes = parse(WidgetSettingsSchema, input ?? {}) as Record<string, unknown>;
  const next = { ...ce.toObject(), ...changes } as Record<string, unknown>;
  if (next.requireAcceptance === true && String(next.acceptanceText ?? '').trim().length < 3) {
    throw new ValidationError('Must be at least three characters for Acceptance text to be displayed.');
  }
  const countries = `${String(next.countryAllowList ?? '')}${String(next.countryDenyList ?? '')}`.trim();
  if (countries !== '' && next.collectVisitorMetaData !== true) {
    throw new ValidationError('Country lists need the collect personal data privacy setting on.');
  }
  if (typeof changes.triggerJson === 'string') {
    // Owners whose plan lost triggers may still remove them; adding or changing needs the feature.
    const before = JSON.stringify(readTriggerJson(ce.triggerJson));
    if (changes.triggerJson !== before && readTriggerJson(changes.triggerJson).triggers.length > 0) {
      await requirePlanFeature(deps.models, ce.accountId, 'triggers');
    }
  }
  ce.set(changes);
  await ce.save();
  deps.pubsub.publish(`widget:${ce._id.toHexString()}`, {
    t: 'config',
    config: { ...publicSettings(ce), hideWhenOffline: ce.hideWhenOffline },
  });
  await deps.presence.recheck(ce._id.toHexString());
  return ce;
}
