/**
 * Rules of the per-widget settings that the console and the server both apply (settings spec sections 4, 5, 9):
 * the avatar setting and its four flags, choice lists, the hide-on-pages filter, country lists, operating hours.
 * Pure functions, no imports: the console bundles them without zod.
 */

/** Avatar setting ↔ the four stored flags (spec section 4). */
export const AVATAR_SETTINGS = {
  'no-avatar': { forwardSlackUserName: false, showAvatarPreChat: false, showTeamAvatarPreChat: false, teamAvatarOn: false },
  'team-avatar': { forwardSlackUserName: true, showAvatarPreChat: false, showTeamAvatarPreChat: true, teamAvatarOn: true },
  'slack-avatars': { forwardSlackUserName: true, showAvatarPreChat: true, showTeamAvatarPreChat: false, teamAvatarOn: false },
  'team-avatar-slack-avatars': { forwardSlackUserName: true, showAvatarPreChat: false, showTeamAvatarPreChat: true, teamAvatarOn: false },
  'team-avatar-default-label': { forwardSlackUserName: false, showAvatarPreChat: false, showTeamAvatarPreChat: true, teamAvatarOn: true },
} as const;
export type AvatarSetting = keyof typeof AVATAR_SETTINGS;
export type AvatarFlags = {
  forwardSlackUserName: boolean;
  showAvatarPreChat: boolean;
  showTeamAvatarPreChat: boolean;
  teamAvatarOn: boolean;
};

/** The setting the flags describe; an unmatched combination reads as no-avatar. */
export function avatarSettingOf(flags: AvatarFlags): AvatarSetting {
  for (const [setting, f] of Object.entries(AVATAR_SETTINGS) as [AvatarSetting, AvatarFlags][]) {
    if (
      f.forwardSlackUserName === flags.forwardSlackUserName &&
      f.showAvatarPreChat === flags.showAvatarPreChat &&
      f.showTeamAvatarPreChat === flags.showTeamAvatarPreChat &&
      f.teamAvatarOn === flags.teamAvatarOn
    ) {
      return setting;
    }
  }
  return 'no-avatar';
}

/** True when the flags show the uploaded team avatar somewhere (such options need an avatar). */
export function usesTeamAvatar(flags: Pick<AvatarFlags, 'showTeamAvatarPreChat' | 'teamAvatarOn'>): boolean {
  return flags.showTeamAvatarPreChat || flags.teamAvatarOn;
}

export const AVATAR_REMOVAL_REFUSED = 'Please choose a non "team avatar" option above before removing your team avatar';
export const TEAM_AVATAR_NEEDED = 'Upload a team avatar before choosing a team avatar option.';
/** Team avatars: images up to this size. */
export const TEAM_AVATAR_MAX_BYTES = 1024 * 1024;
export const TEAM_AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/** Choice lists (spec section 9). */
export const RESPONSE_REMINDER_FREQS = [30, 60, 90, 120] as const;
/**
 * A wait's response reminders, in multiples of responseRemindersFreq counted from the visitor's message: spaced
 * further apart each time and a handful at most, the last one saying so. With the default 120 s: after 5, 15, 30
 * and 60 minutes; with 30 s, the fastest: after 1¼, 3¾, 7½ and 15 minutes.
 */
export const RESPONSE_REMINDER_STEPS = [2.5, 7.5, 15, 30] as const;

/** Seconds after the visitor's message of each reminder of a wait, for a responseRemindersFreq. */
export function reminderScheduleSecs(freqSecs: number): number[] {
  return RESPONSE_REMINDER_STEPS.map((step) => step * freqSecs);
}

const QUARTERS = ['', '¼', '½', '¾'];
/** "5, 15, 30 and 60 minutes" (quarters of a minute as ¼ ½ ¾): when a wait's reminders come, for a responseRemindersFreq. */
export function reminderScheduleLabel(freqSecs: number): string {
  const minutes = reminderScheduleSecs(freqSecs).map((secs) => {
    const quarters = Math.round(secs / 15);
    const whole = Math.floor(quarters / 4);
    return `${whole > 0 || quarters % 4 === 0 ? whole : ''}${QUARTERS[quarters % 4]}`;
  });
  return `${minutes.slice(0, -1).join(', ')} and ${minutes[minutes.length - 1]} minutes`;
}
export const NO_ANSWER_AFTER_SECS = [30, 60, 90, 120, 180, 240, 300] as const;
export const INACTIVE_GRACE_MINS = [0, 1, 2, 3, 4, 5, 10, 15] as const;
/** Minutes after which operator replies the visitor has not seen are mailed to them; 0 = never. */
export const EMAIL_UNSEEN_AFTER_MINS = [0, 1, 2, 5, 10, 15, 30, 60] as const;
/**
 * Seconds a new conversation waits for an operator before Parley answers from the help center (0 = never); the API
 * takes any whole number in 0–AUTO_ANSWER_MAX_SECS, the console offers these.
 */
export const AUTO_ANSWER_AFTER_SECS = [0, 15, 30, 45, 60, 90, 120, 180, 300, 600, 1800, 3600] as const;
export const AUTO_ANSWER_MAX_SECS = 3600;
/** The concurrent-chat limit set when the limit is switched on; 0 means unlimited. */
export const DEFAULT_CONCURRENT_LIMIT = 5;
export const MAX_CONCURRENT_LIMIT = 1000;

/** Select fields convert to numbers; a non-numeric value becomes 0. */
export function selectNumber(value: unknown): number {
  const n = Number(value);
  return Number.isFinite(n) ? n : 0;
}

/** Hide-on-pages entries: split on whitespace or commas. */
export function filterEntries(text: string): string[] {
  return text.split(/[\s,]+/).filter(Boolean);
}

/** The entries that are not valid regular expressions. */
export function invalidFilters(text: string): string[] {
  return filterEntries(text).filter((entry) => {
    try {
      new RegExp(entry);
      return false;
    } catch {
      return true;
    }
  });
}

export const INVALID_FILTER = 'Invalid filter';

/** Country list entries: split on commas (and whitespace), upper-cased. */
export function countryCodes(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((c) => c.toUpperCase());
}

let regionNames: Intl.DisplayNames | null = null;
/** Region codes Intl names that are no country a visitor's address resolves to (UK is an alias of GB). */
const NOT_COUNTRIES = new Set(['ZZ', 'EU', 'EZ', 'UN', 'QO', 'UK']);
/** An ISO 3166-1 alpha-2 country code the platform knows (Intl has no name for unknown codes). */
export function isIsoCountry(code: string): boolean {
  if (!/^[A-Z]{2}$/.test(code) || NOT_COUNTRIES.has(code)) return false;
  regionNames ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  try {
    return regionNames.of(code) !== undefined;
  } catch {
    return false;
  }
}

/** The entries of a country list that are not ISO codes. */
export function invalidCountries(text: string): string[] {
  return countryCodes(text).filter((c) => !isIsoCountry(c));
}

/** Operating hours: HHMM times every 15 minutes from 0:00; 2400 is the end of the day. */
export const HOUR_STEP_MINUTES = 15;
export const TIME_CHOICES: readonly number[] = Array.from({ length: (24 * 60) / HOUR_STEP_MINUTES + 1 }, (_, i) => {
  const minutes = i * HOUR_STEP_MINUTES;
  return Math.floor(minutes / 60) * 100 + (minutes % 60);
});

export function isTimeChoice(hhmm: number): boolean {
  return TIME_CHOICES.includes(hhmm);
}

/** 930 → "09:30"; 2400 → "24:00". */
export function formatHhmm(hhmm: number): string {
  return `${String(Math.floor(hhmm / 100)).padStart(2, '0')}:${String(hhmm % 100).padStart(2, '0')}`;
}

export const HOURS_STEP_MESSAGE = 'Operating hours must be chosen in 15-minute steps from 00:00 to 24:00.';
export const HOURS_ORDER_MESSAGE = 'Operating hours: each end time must be after its start time.';

/** Settings whose name is not said well by splitting it into words (messages name a setting as the console does). */
const SETTING_LABELS: Record<string, string> = {
  offlineMessageWebhookURL: 'Offline message webhook URL',
  webhookUrl: 'Transcript webhook URL',
  newConversationWebhookURL: 'New conversation webhook URL',
  noAnswerWebhookUrl: 'No-answer webhook URL',
  feedbackWebhookUrl: 'Feedback webhook URL',
  privacyPolicyLinkURL: 'Privacy policy link URL',
  teamAvatarUrl: 'Team avatar URL',
  onlineTitle: 'Online title',
  offlineTitle: 'Offline title',
  tz: 'Time zone',
};

/** A setting's name in words, for messages: 'offlineMessageWebhookURL' → 'Offline message webhook URL'. */
export function settingLabel(name: string): string {
  const known = SETTING_LABELS[name];
  if (known) return known;
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(' ')
    .map((w, i) => (/^[A-Z]{2,}$/.test(w) ? w : i === 0 ? w.charAt(0).toUpperCase() + w.slice(1) : w.toLowerCase()));
  return words.join(' ');
}

/** Web addresses of the settings (webhooks, the privacy policy link): http or https, at most this long. */
export const URL_MAX_CHARS = 2048;
export const URL_FIELDS = [
  'offlineMessageWebhookURL',
  'webhookUrl',
  'newConversationWebhookURL',
  'noAnswerWebhookUrl',
  'feedbackWebhookUrl',
  'privacyPolicyLinkURL',
  'teamAvatarUrl',
] as const;

/**
 * What is wrong with a web address typed in a setting, said to the owner, or null when it is fine (blank is fine:
 * the setting is off). The console shows it under the field; the API answers it after the setting's name.
 */
export function webAddressProblem(value: string): string | null {
  const text = value.trim();
  if (text === '') return null;
  if (text.length > URL_MAX_CHARS) return `Use at most ${URL_MAX_CHARS} characters.`;
  let url: URL | null = null;
  try {
    url = new URL(text);
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.hostname === '' || /\s/.test(text)) {
    return 'Enter a full web address starting with https://, like https://example.com/parley-hook.';
  }
  return null;
}

export const EMAIL_PROBLEM = 'Enter one e-mail address, like team@example.com.';

/** E-mail addresses of the settings (transcript recipient): blank, or one address (no list, no display name). */
export function emailAddressProblem(value: string): string | null {
  const text = value.trim();
  if (text === '') return null;
  const part = '[^\\s@,;:<>"()[\\]\\\\]+';
  if (text.length > 254 || !new RegExp(`^${part}@${part}\\.${part}$`).test(text)) return EMAIL_PROBLEM;
  return null;
}

/**
 * The widget's titles (online and offline): required, since an empty one would show a stock text instead, and
 * no longer than the widget's header shows in full (two lines at its narrowest).
 */
export const TITLE_MAX_CHARS = 50;
export const TITLE_FIELDS = ['onlineTitle', 'offlineTitle'] as const;

/** The longest sender name of visitors' mails (a mail client's list shows about this much). */
export const SENDER_NAME_CHARS = 60;

/** What is wrong with a sender name, or null: one line of at most SENDER_NAME_CHARS (blank: the widget's title). */
export function senderNameProblem(value: string): string | null {
  if (value.length > SENDER_NAME_CHARS) return `Use at most ${SENDER_NAME_CHARS} characters.`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(value)) return 'Use one line, without control characters.';
  return null;
}

/** The most the widget's footer line holds (white label plans' own footer text). */
export const FOOTER_TEXT_CHARS = 120;

export function titleProblem(value: string): string | null {
  if (value.trim() === '') return 'Enter a title: visitors see it at the top of the widget.';
  if (value.length > TITLE_MAX_CHARS) return `Use at most ${TITLE_MAX_CHARS} characters: the widget's header shows no more.`;
  return null;
}

/** A problem of a setting as the API says it: the setting's name, then the problem ('Offline title: Enter …'). */
export function settingMessage(name: string, problem: string): string {
  return `${settingLabel(name)}: ${problem}`;
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/**
 * The first two operating hour pairs of one day that overlap (Tue 09:00–17:00 and 10:00–10:15), said in words,
 * or null. Pairs that only touch (09:00–12:00 and 12:00–17:00) do not overlap.
 */
export function hoursOverlap(hours: readonly { weekday: number; start: number; end: number }[]): string | null {
  return hoursOverlapAt(hours)?.message ?? null;
}

/** The same, with the weekday it is on, so the console can say it on that day's row. */
export function hoursOverlapAt(
  hours: readonly { weekday: number; start: number; end: number }[],
): { weekday: number; message: string } | null {
  const sorted = [...hours].filter((h) => h.end > h.start).sort((a, b) => a.weekday - b.weekday || a.start - b.start);
  for (let i = 1; i < sorted.length; i += 1) {
    const before = sorted[i - 1];
    const pair = sorted[i];
    if (before && pair && before.weekday === pair.weekday && pair.start < before.end) {
      const span = (h: { start: number; end: number }) => `${formatHhmm(h.start)}–${formatHhmm(h.end)}`;
      return {
        weekday: pair.weekday,
        message: `Operating hours overlap on ${WEEKDAYS[pair.weekday] ?? 'one day'}: ${span(before)} and ${span(pair)}. Join them into one or change one.`,
      };
    }
  }
  return null;
}
