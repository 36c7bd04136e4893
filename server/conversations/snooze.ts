/**
 * When a snooze ends, read from what an operator chose or typed: the header's presets (an hour, tomorrow 9:00 and next
 * Monday 9:00 in the operator's Slack time zone), a date from the date picker (9:00 that day), or words after
 * `/parley snooze N`: a duration (`2h`, `30m`, `1d 4h`, read by parse-duration) or a time (`tomorrow 3pm`,
 * `friday 10:00`, `2026-12-01 9:00`, read by chrono-node in the operator's time zone).
 */
import * as chrono from 'chrono-node';
import { DateTime } from 'luxon';
import parseDuration from 'parse-duration';

export const SNOOZE_PRESETS = ['1h', 'tomorrow', 'next-week'] as const;
export type SnoozePreset = (typeof SNOOZE_PRESETS)[number];

/** The forms `/parley snooze N …` understands, for the explanation of one it could not read. */
export const SNOOZE_FORMS =
  'a duration such as `30m`, `2h` or `1d 4h`, or a time such as `tomorrow`, `tomorrow 3pm`, `friday 10:00` or `2026-12-01 9:00`';

/** The longest snooze: a conversation is not put away for more than 90 days. */
export const MAX_SNOOZE_DAYS = 90;

const zone = (tz: string) => (tz && DateTime.local().setZone(tz).isValid ? tz : 'UTC');

/** `now` in `tz`, moved `days` days on, at hh:mm local time. */
function localAt(now: Date, tz: string, days: number, hour: number, minute = 0): Date {
  return DateTime.fromJSDate(now, { zone: zone(tz) })
    .plus({ days })
    .set({ hour, minute, second: 0, millisecond: 0 })
    .toJSDate();
}

/** When a header preset ends. */
export function presetUntil(preset: SnoozePreset, now: Date, tz: string): Date {
  switch (preset) {
    case '1h':
      return new Date(now.getTime() + 60 * 60_000);
    case 'tomorrow':
      return localAt(now, tz, 1, 9);
    case 'next-week': {
      // Monday 9:00 of the coming week (from a Monday, the next one).
      const weekday = DateTime.fromJSDate(now, { zone: zone(tz) }).weekday;
      return localAt(now, tz, 8 - weekday, 9);
    }
  }
}

/** 9:00 on a date picked in the date picker (YYYY-MM-DD), in the operator's time zone. */
export function dateUntil(date: string, tz: string): Date | null {
  const day = DateTime.fromISO(date, { zone: zone(tz) });
  return day.isValid ? day.set({ hour: 9, minute: 0, second: 0, millisecond: 0 }).toJSDate() : null;
}

export type SnoozeReading = { until: Date } | { problem: string };

/** Checks a snooze's end: in the future, within MAX_SNOOZE_DAYS. */
export function checkUntil(until: Date, now: Date): SnoozeReading {
  if (until.getTime() <= now.getTime()) return { problem: 'That time has already passed. Choose a time in the future.' };
  if (until.getTime() - now.getTime() > MAX_SNOOZE_DAYS * 24 * 60 * 60_000) {
    return { problem: `Snooze for at most ${MAX_SNOOZE_DAYS} days.` };
  }
  return { until };
}

/** Words an operator typed after `/parley snooze N`, read in their time zone; or why they could not be read. */
export function readSnooze(words: string, now: Date, tz: string): SnoozeReading {
  const text = words.trim();
  if (!text) return { problem: `Say how long: ${SNOOZE_FORMS}.` };
  const unreadable = { problem: `Parley cannot read “${text.slice(0, 60)}” as a time. Give ${SNOOZE_FORMS}.` };
  // A bare duration first ("2h", "90m", "1d 4h"): parse-duration reads units chrono would take for clock times.
  if (/^(\d+(\.\d+)?\s*[a-z]+\s*)+$/i.test(text)) {
    const ms = parseDuration(text);
    if (typeof ms === 'number' && Number.isFinite(ms) && ms > 0) return checkUntil(new Date(now.getTime() + ms), now);
  }
  if (/^tomorrow$/i.test(text)) return checkUntil(presetUntil('tomorrow', now, tz), now);
  if (/^next\s+week$/i.test(text)) return checkUntil(presetUntil('next-week', now, tz), now);
  const offset = DateTime.fromJSDate(now, { zone: zone(tz) }).offset;
  const [result] = chrono.parse(text, { instant: now, timezone: offset }, { forwardDate: true });
  // The whole text must be the time: "soonish" or "after lunch maybe" is not read as a part of it.
  if (!result || result.text.trim().length < text.replace(/^(on|at|until|till)\s+/i, '').length) return unreadable;
  const start = result.start;
  // A day without a time ("friday", "2026-12-01") means 9:00 that day, as the header's presets do.
  const until = start.isCertain('hour')
    ? start.date()
    : DateTime.fromJSDate(start.date(), { zone: zone(tz) })
        .set({ hour: 9, minute: 0, second: 0, millisecond: 0 })
        .toJSDate();
  return checkUntil(until, now);
}

/** How Slack shows the end to each reader in their own time zone, with a UTC fallback. */
export function slackTime(until: Date): string {
  const seconds = Math.floor(until.getTime() / 1000);
  const fallback = `${until.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return `<!date^${seconds}^{date_short_pretty} at {time}|${fallback}>`;
}
