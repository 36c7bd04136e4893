/**
 * Changes a widget's settings, whoever asks: the console (`PUT /v1/chat_endpoints/{id}/update_config`) or an
 * operator in Slack (`/parley off`, the App Home buttons, the operating hours modal). Validated with the rules
 * of the settings specification; open widgets learn the new visitor-visible settings and presence at once.
 */
import { z } from 'zod';
import type { FramePublisher } from '../conversations/context';
import { publicSettings } from '../conversations/publicSettings';
import { ValidationError } from '../errors';
import type { Models } from '../models';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';
import { CHAT_ENDPOINT_DEFAULTS } from '../models/ChatEndpoint';
import {
  EMAIL_UNSEEN_AFTER_MINS,
  HOURS_ORDER_MESSAGE,
  HOURS_STEP_MESSAGE,
  INACTIVE_GRACE_MINS,
  INVALID_FILTER,
  invalidCountries,
  invalidFilters,
  isTimeChoice,
  MAX_CONCURRENT_LIMIT,
  NO_ANSWER_AFTER_SECS,
  RESPONSE_REMINDER_FREQS,
  TEAM_AVATAR_NEEDED,
  usesTeamAvatar,
} from '../shared/settings';
import { readTriggerJson, TriggerJsonSchema } from '../shared/triggers';
import { parse } from '../validation';
import { recomputeDueTimes } from './conversationDueTimes';
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

/** Select fields with a fixed list of choices (spec section 9), and what their 400 says. */
const CHOICES: Record<string, { values: readonly number[]; label: string }> = {
  responseRemindersFreq: { values: RESPONSE_REMINDER_FREQS, label: 'Response reminder frequency' },
  noAnswerMessageAfterSecs: { values: NO_ANSWER_AFTER_SECS, label: 'No-answer message delay' },
  maxVisitorInactiveMins: { values: INACTIVE_GRACE_MINS, label: 'Inactive visitor grace period' },
  emailUnseenAfterMinutes: { values: EMAIL_UNSEEN_AFTER_MINS, label: 'Unseen replies by e-mail after' },
};

// "Select fields convert to numbers; a non-numeric value becomes 0."
const selectNumber = (v: unknown) => (typeof v === 'string' ? Number(v) || 0 : v);

function fieldSchema(name: string, value: unknown): z.ZodType {
  if (ENUMS[name]) return z.enum(ENUMS[name]);
  const choice = CHOICES[name];
  if (choice) {
    const message = `${choice.label} must be one of ${choice.values.join(', ')}`;
    return z.preprocess(
      selectNumber,
      z.number(message).refine((n) => choice.values.includes(n), message),
    );
  }
  if (name === 'maxConcurrentConvos') {
    const message = `Concurrent chat limit must be a whole number from 0 (unlimited) to ${MAX_CONCURRENT_LIMIT}`;
    return z.preprocess(selectNumber, z.number(message).int(message).min(0, message).max(MAX_CONCURRENT_LIMIT, message));
  }
  if (typeof value === 'boolean') return z.boolean();
  // "Select fields convert to numbers; a non-numeric value becomes 0."
  if (typeof value === 'number') return z.preprocess(selectNumber, z.number().int().min(0).max(100_000));
  if (URL_FIELDS.has(name)) return httpUrl;
  if (name === 'transcriptRecipient') return z.union([z.literal(''), z.email().max(254)]);
  if (name === 'triggerJson') return TriggerJsonSchema;
  if (name === 'tz') return z.string().trim().min(1).max(100).refine(isTimeZone, 'Unknown time zone');
  return z.string().max(4000);
}

const settingsShape: Record<string, z.ZodType> = {};
for (const [name, value] of Object.entries(CHAT_ENDPOINT_DEFAULTS)) settingsShape[name] = fieldSchema(name, value).optional();

const HHMM = z.number(HOURS_STEP_MESSAGE).int(HOURS_STEP_MESSAGE).refine(isTimeChoice, HOURS_STEP_MESSAGE);

/**
 * One operating hour entry: weekday 0 (Sunday) to 6, start and end as HHMM numbers in 15-minute steps, the end
 * after the start. Pairs with equal start and end are dropped before this (spec section 5).
 */
export const OperatingHourSchema = z
  .object({
    weekday: z
      .number('Operating hours: weekday must be 0 (Sunday) to 6')
      .int()
      .min(0, 'Operating hours: weekday must be 0 (Sunday) to 6')
      .max(6, 'Operating hours: weekday must be 0 (Sunday) to 6'),
    start: HHMM,
    end: HHMM,
  })
  .refine((h) => h.end > h.start, HOURS_ORDER_MESSAGE);

/** Drops operating hour entries whose start equals their end; anything else is left for the schema to judge. */
function withoutEmptyPairs(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.filter((h: unknown) => !(h && typeof h === 'object' && 'start' in h && 'end' in h && h.start === h.end));
}

/** The settings a console save or a Slack command may change; fields left out keep their value. */
export const WidgetSettingsSchema = z
  .object({
    ...settingsShape,
    off: z.boolean().optional(),
    operatingHours: z.preprocess(withoutEmptyPairs, z.array(OperatingHourSchema).max(100, 'At most 100 operating hour pairs')).optional(),
  })
  .superRefine((body, ctx) => {
    const b = body as Record<string, unknown>;
    for (const [list, label] of [
      ['countryAllowList', 'Allowed countries'],
      ['countryDenyList', 'Blocked countries'],
    ] as const) {
      const value = b[list];
      const bad = typeof value === 'string' ? invalidCountries(value) : [];
      if (bad.length > 0) {
        ctx.addIssue({
          code: 'custom',
          path: [list],
          message: `${label}: ${bad.slice(0, 3).join(', ').slice(0, 50)} is not an ISO two-letter country code (use commas between codes, e.g. US, CA)`,
        });
      }
    }
    if (typeof b.blacklistedUrls === 'string') {
      const bad = invalidFilters(b.blacklistedUrls)[0];
      // No path: the message says which entry, and the spec's wording 'Invalid filter' must not get a field prefix.
      if (bad !== undefined) ctx.addIssue({ code: 'custom', path: [], message: `${INVALID_FILTER}: ${bad.slice(0, 50)}` });
    }
  });

/** What a settings change needs: the database, the open widgets (and other processes) to tell, the presence to recheck. */
export type SettingsDeps = {
  models: Models;
  pubsub: FramePublisher & { signal(signal: { kind: 'widget'; ceId: string }): void };
  presence: { recheck(ceId: string): Promise<unknown> };
};

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
  const usesAvatar = usesTeamAvatar({
    showTeamAvatarPreChat: next.showTeamAvatarPreChat === true,
    teamAvatarOn: next.teamAvatarOn === true,
  });
  if (usesAvatar && String(next.teamAvatarUrl ?? '') === '' && ('showTeamAvatarPreChat' in changes || 'teamAvatarOn' in changes)) {
    throw new ValidationError(TEAM_AVATAR_NEEDED);
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
  // Edited hours apply at once; only the scheduled ON and OFF times that follow are announced in the channel.
  if (ce.isModified('onOffSchedule') || ce.isModified('operatingHours') || ce.isModified('tz')) ce.scheduleOpen = null;
  const dueTimesMove = ce.isModified('maxVisitorInactiveMins') || ce.isModified('noAnswerMessageAfterSecs');
  await ce.save();
  // Open conversations are ended for inactivity and reported unanswered by the new grace periods.
  if (dueTimesMove) await recomputeDueTimes(deps.models, ce);
  deps.pubsub.publish(`widget:${ce._id.toHexString()}`, {
    t: 'config',
    config: { ...publicSettings(ce), hideWhenOffline: ce.hideWhenOffline },
  });
  await deps.presence.recheck(ce._id.toHexString());
  // Other processes drop their cached copy and tell the widgets open there.
  deps.pubsub.signal({ kind: 'widget', ceId: ce._id.toHexString() });
  return ce;
}
