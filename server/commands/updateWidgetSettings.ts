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
  AUTO_ANSWER_MAX_SECS,
  EMAIL_PROBLEM,
  EMAIL_UNSEEN_AFTER_MINS,
  emailAddressProblem,
  FOOTER_TEXT_CHARS,
  HOURS_ORDER_MESSAGE,
  HOURS_STEP_MESSAGE,
  hoursOverlap,
  INACTIVE_GRACE_MINS,
  INVALID_FILTER,
  invalidCountries,
  invalidFilters,
  isTimeChoice,
  MAX_CONCURRENT_LIMIT,
  NO_ANSWER_AFTER_SECS,
  RESPONSE_REMINDER_FREQS,
  senderNameProblem,
  settingLabel,
  settingMessage,
  TEAM_AVATAR_NEEDED,
  TITLE_FIELDS,
  TITLE_MAX_CHARS,
  titleProblem,
  URL_FIELDS,
  usesTeamAvatar,
  webAddressProblem,
} from '../shared/settings';
import { normalizeTag, RESPONSE_TARGET_MAX_MINS, tagListProblem } from '../shared/tags';
import { readTriggerJson, TriggerJsonSchema } from '../shared/triggers';
import type { ChatEndpointSettings, ChatEndpointWithStats } from '../shared/types';
import {
  isOwnerTextKey,
  isWidgetLocale,
  LOCALE_NAMES,
  OVERRIDE_MAX_CHARS,
  type TextOverrides,
  WIDGET_LOCALES,
  type WidgetLocale,
} from '../shared/widget-texts';
import { parse } from '../validation';
import { recomputeDueTimes, reviewReminders } from './conversationDueTimes';
import { planHasFeature, requirePlanFeature } from './planFeature';
import { dropUnlistedTags } from './questionGroups';

const ENUMS: Record<string, readonly [string, ...string[]]> = {
  collapsedMode: ['chip', 'button', 'tab', 'hidden', 'default'],
  metaInfoInMainChannel: ['compact', 'full', 'none'],
  widgetAlignment: ['bottomRight', 'bottomLeft'],
};
const URL_SETTINGS = new Set<string>(URL_FIELDS);
const TITLE_SETTINGS = new Set<string>(TITLE_FIELDS);

/**
 * A text setting checked by one of the shared rules (the console's), its 400 saying the setting's name and the
 * problem in words; stored without surrounding spaces.
 */
const checkedText = (name: string, problem: (value: string) => string | null) =>
  z
    .string(settingMessage(name, 'Must be text.'))
    .trim()
    .superRefine((value, ctx) => {
      const found = problem(value);
      if (found) ctx.addIssue({ code: 'custom', message: settingMessage(name, found) });
    });
/** Mail goes to this address: beyond the console's rule, zod's stricter e-mail check. */
const strictEmail = z.email();
const emailProblem = (value: string) =>
  emailAddressProblem(value) ?? (value === '' || strictEmail.safeParse(value).success ? null : EMAIL_PROBLEM);

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
  const enumValues = ENUMS[name];
  if (enumValues) return z.enum(enumValues, settingMessage(name, `Must be one of ${enumValues.join(', ')}.`));
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
  if (name === 'autoAnswerAfterSeconds') {
    const message = `Automatic answer delay must be a whole number of seconds from 0 (off) to ${AUTO_ANSWER_MAX_SECS}`;
    return z.preprocess(selectNumber, z.number(message).int(message).min(0, message).max(AUTO_ANSWER_MAX_SECS, message));
  }
  if (name === 'firstResponseTargetMins' || name === 'nextResponseTargetMins') {
    const label = name === 'firstResponseTargetMins' ? 'First-response target' : 'Next-response target';
    const message = `${label} must be a whole number of minutes from 0 (no target) to ${RESPONSE_TARGET_MAX_MINS}`;
    // Empty (or null) is no target, as the console's empty field says.
    const minutes = (v: unknown) => (v === null || (typeof v === 'string' && v.trim() === '') ? 0 : typeof v === 'string' ? Number(v) : v);
    return z.preprocess(minutes, z.number(message).int(message).min(0, message).max(RESPONSE_TARGET_MAX_MINS, message));
  }
  if (typeof value === 'boolean') return z.boolean(settingMessage(name, 'Must be true or false.'));
  // "Select fields convert to numbers; a non-numeric value becomes 0."
  if (typeof value === 'number') {
    const message = settingMessage(name, 'Must be a whole number from 0 to 100000.');
    return z.preprocess(selectNumber, z.number(message).int(message).min(0, message).max(100_000, message));
  }
  if (URL_SETTINGS.has(name)) return checkedText(name, webAddressProblem);
  if (name === 'transcriptRecipient') return checkedText(name, emailProblem);
  if (TITLE_SETTINGS.has(name)) return checkedText(name, titleProblem);
  if (name === 'footerText') {
    const message = settingMessage(name, `Use at most ${FOOTER_TEXT_CHARS} characters.`);
    return z.string(settingMessage(name, 'Must be text.')).trim().max(FOOTER_TEXT_CHARS, message);
  }
  if (name === 'senderName') return checkedText(name, senderNameProblem);
  if (name === 'triggerJson') return TriggerJsonSchema;
  if (name === 'tz') return z.string().trim().min(1).max(100).refine(isTimeZone, 'Unknown time zone');
  return z.string(settingMessage(name, 'Must be text.')).max(4000, settingMessage(name, 'Use at most 4000 characters.'));
}

const settingsShape: Record<string, z.ZodType> = {};
for (const [name, value] of Object.entries(CHAT_ENDPOINT_DEFAULTS)) settingsShape[name] = fieldSchema(name, value).optional();

/**
 * The owner's texts per language: `{ de: { onlineTitle: 'Fragen?' } }`, only the built-in languages and the
 * overridable texts, each at most OVERRIDE_MAX_CHARS (the titles: TITLE_MAX_CHARS). A blank text is no override:
 * it is dropped, and so is a language left with none.
 */
export const TextOverridesSchema = z
  .record(
    z.string(),
    z.record(z.string(), z.string('Texts per language: each text must be text.').trim()),
    'Texts per language must be an object of languages.',
  )
  .superRefine((value, ctx) => {
    for (const [locale, texts] of Object.entries(value)) {
      const language = isWidgetLocale(locale) ? LOCALE_NAMES[locale] : '';
      if (!language) {
        ctx.addIssue({
          code: 'custom',
          path: [locale],
          message: `Texts per language: ${locale.slice(0, 20)} is not a widget language (${WIDGET_LOCALES.join(', ')}).`,
        });
        continue;
      }
      for (const [key, text] of Object.entries(texts)) {
        const limit = TITLE_SETTINGS.has(key) ? TITLE_MAX_CHARS : OVERRIDE_MAX_CHARS;
        if (!isOwnerTextKey(key))
          ctx.addIssue({ code: 'custom', path: [locale, key], message: `${language}: ${key.slice(0, 60)} is not a widget text.` });
        else if (text.length > limit)
          ctx.addIssue({
            code: 'custom',
            path: [locale, key],
            message: `${language}: ${settingLabel(key)}: Use at most ${limit} characters.`,
          });
      }
    }
  })
  .transform((value) => {
    const out: TextOverrides = {};
    for (const [locale, texts] of Object.entries(value)) {
      const kept = Object.fromEntries(Object.entries(texts).filter(([, text]) => text !== ''));
      if (Object.keys(kept).length > 0) out[locale as WidgetLocale] = kept;
    }
    return out;
  });

/**
 * The tags operators may put on conversations: one word each, stored normalized (shared/tags.ts), in the owner's
 * order. Removing a tag from the list leaves it on the conversations that have it.
 */
export const TagListSchema = z
  .array(z.string('Tags: each tag must be text.'), 'Tags must be a list of words.')
  .transform((tags) => tags.map(normalizeTag))
  .superRefine((tags, ctx) => {
    const problem = tagListProblem(tags);
    if (problem) ctx.addIssue({ code: 'custom', message: `Tags: ${problem}` });
  });

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
    textOverrides: TextOverridesSchema.optional(),
    tags: TagListSchema.optional(),
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
    if (Array.isArray(b.operatingHours)) {
      const overlap = hoursOverlap(b.operatingHours as { weekday: number; start: number; end: number }[]);
      if (overlap) ctx.addIssue({ code: 'custom', path: ['operatingHours'], message: overlap });
    }
  });

/**
 * The fields of a widget as the API answers it that are no settings: the console may send the whole widget back
 * (spec: update_config takes the full chat endpoint object), and these are ignored. A Record, so the compiler
 * asks for every field the view gains.
 */
const READ_ONLY_FIELDS: Record<Exclude<keyof ChatEndpointWithStats, keyof ChatEndpointSettings | 'off'>, true> = {
  Id: true,
  Uuid: true,
  RoomId: true,
  RoomName: true,
  Step: true,
  slackBaseUrl: true,
  slackTeamId: true,
  slackMainUser: true,
  slackTeamName: true,
  slackMainUserName: true,
  online: true,
  installationRevoked: true,
  OauthV1: true,
  BotScope: true,
  Scope: true,
  requestChatWriteUserScope: true,
  topic: true,
  status: true,
  AvailableRooms: true,
  chatStats: true,
  identitySecretCreatedAt: true,
};

const SETTING_NAMES = Object.keys(WidgetSettingsSchema.shape);
const KNOWN_FIELDS = new Set([...SETTING_NAMES, ...Object.keys(READ_ONLY_FIELDS)]);

/** The words of a camelCase name, lower case and sorted: `titleOnline` and `onlineTitle` have the same. */
const wordsOf = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .sort()
    .join(' ');

/** The 400 for a field no widget has, naming it, and the setting it was probably meant to be. */
export function unknownSettingMessage(name: string): string {
  const shown = name.length > 60 ? `${name.slice(0, 60)}…` : name;
  const meant = SETTING_NAMES.find((setting) => wordsOf(setting) === wordsOf(name));
  return `Unknown setting: ${shown}${meant ? ` (did you mean ${meant}?)` : ''}`;
}

/** Refuses a body with a field no widget has: saving nothing in silence would hide a misspelt setting. */
function refuseUnknownFields(input: unknown): void {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return;
  const unknown = Object.keys(input).find((key) => !KNOWN_FIELDS.has(key));
  if (unknown !== undefined) throw new ValidationError(unknownSettingMessage(unknown));
}

/** What a settings change needs: the database, the open widgets (and other processes) to tell, the presence to recheck. */
export type SettingsDeps = {
  models: Models;
  pubsub: FramePublisher & { signal(signal: { kind: 'widget'; ceId: string }): void };
  presence: { recheck(ceId: string): Promise<boolean> };
};

/**
 * Validates `input` (a whole widget as the console holds it, or just the fields to change), saves the
 * changes and tells open widgets. Throws ValidationError (400) with the first problem.
 */
export async function updateWidgetSettings(deps: SettingsDeps, ce: ChatEndpointDocument, input: unknown): Promise<ChatEndpointDocument> {
  refuseUnknownFields(input);
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
  // An own footer line is white label; clearing it is always allowed.
  if (typeof changes.footerText === 'string' && changes.footerText !== '' && changes.footerText !== ce.footerText) {
    await requirePlanFeature(deps.models, ce.accountId, 'whiteLabel');
  }
  ce.set(changes);
  // Edited hours apply at once; only the scheduled ON and OFF times that follow are announced in the channel.
  if (ce.isModified('onOffSchedule') || ce.isModified('operatingHours') || ce.isModified('tz')) ce.scheduleOpen = null;
  const dueTimesMove =
    ce.isModified('maxVisitorInactiveMins') || ce.isModified('noAnswerMessageAfterSecs') || ce.isModified('autoAnswerAfterSeconds');
  const remindersMove = ce.isModified('responseReminders') || ce.isModified('responseRemindersFreq');
  const tagsChanged = ce.isModified('tags');
  await ce.save();
  // A tag dropped from the list leaves the articles and question groups that named it.
  if (tagsChanged) await dropUnlistedTags(deps.models, { _id: ce._id, accountId: ce.accountId, tags: ce.tags ?? [] });
  // Open conversations are ended for inactivity and reported unanswered by the new grace periods.
  if (dueTimesMove) await recomputeDueTimes(deps.models, ce);
  if (remindersMove) await reviewReminders(deps.models, ce._id, new Date());
  deps.pubsub.publish(`widget:${ce._id.toHexString()}`, {
    t: 'config',
    // Each socket gets it in its visitor's language (the gateway localizes it with the overrides, then drops them).
    config: {
      ...publicSettings(ce, { triggers: await planHasFeature(deps.models, ce.accountId, 'triggers') }),
      hideWhenOffline: ce.hideWhenOffline,
      textOverrides: ce.textOverrides ?? {},
    },
  });
  const online = await deps.presence.recheck(ce._id.toHexString());
  // Stored by recheck; the copy answered carries it too, so the console shows what visitors get now.
  ce.status = online ? 'online' : 'offline';
  // Other processes drop their cached copy and tell the widgets open there.
  deps.pubsub.signal({ kind: 'widget', ceId: ce._id.toHexString() });
  return ce;
}
