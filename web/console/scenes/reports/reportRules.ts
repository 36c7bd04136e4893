/** Pure rules of the report screens: ranges, formatting, bar geometry and popover placement. */
import {
  type AvailabilityDay,
  customDates,
  POPOVER_FLIP_PX,
  presetDates,
  type RangePreset,
  rangeQuery,
  todayIn,
} from '../../../../server/shared/reports';

export type RangeChoice = { preset: RangePreset; customStart: string; customEnd: string };

/** The query of the chosen range in zone `tz`, seen from `now`. */
export function rangeOf(choice: RangeChoice, tz: string, now: Date): { tz: string; startDate: string; endDate: string } {
  const today = todayIn(tz, now);
  const dates = choice.preset === 'custom' ? customDates(choice.customStart, choice.customEnd, today) : presetDates(choice.preset, today);
  return rangeQuery(dates, tz);
}

/** The browser's zone, else UTC. */
export function browserZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** Every zone the browser knows (the spec: "the browser's list"), with `current` kept even if missing. */
export function zoneChoices(current: string): string[] {
  const intl = Intl as typeof Intl & { supportedValuesOf?: (key: string) => string[] };
  const zones = intl.supportedValuesOf?.('timeZone') ?? ['UTC'];
  return zones.includes(current) ? zones : [current, ...zones];
}

/** "Showing X to Y of Z results" of a zero-based page. */
export function showingLine(page: number, perPage: number, shown: number, total: number): string {
  if (total === 0 || shown === 0) return `Showing 0 to 0 of ${total} results`;
  const from = page * perPage + 1;
  return `Showing ${from} to ${from + shown - 1} of ${total} results`;
}

/** A date and time in a zone, as the tables show it ("Mar 8, 2026, 3:30 AM"). */
export function formatTime(iso: string, tz: string): string {
  if (!iso || iso.startsWith('0001-')) return '—';
  return new Intl.DateTimeFormat('en-US', { timeZone: tz, dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

/** Only the time of day in a zone ("3:30 AM"). */
export function formatClock(iso: string, tz: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone: tz, timeStyle: 'short' }).format(new Date(iso));
}

/**
 * A stretch of the availability bar as clock times: "9:00 AM – 5:30 PM". A stretch that runs from a time to the same
 * time on a later day (a whole day in one state: midnight to midnight) says "All day" instead of "12:00 AM – 12:00 AM".
 */
export function formatStretch(startIso: string, endIso: string, tz: string, joiner = ' – '): string {
  const start = formatClock(startIso, tz);
  const end = formatClock(endIso, tz);
  const days = (iso: string) => new Intl.DateTimeFormat('en-CA', { timeZone: tz, dateStyle: 'short' }).format(new Date(iso));
  return start === end && days(startIso) !== days(endIso) ? 'All day' : `${start}${joiner}${end}`;
}

/** Seconds as "2m 23s", "1h 05m", "45s". */
export function formatDuration(seconds: number): string {
  if (!seconds) return '0s';
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = Math.round(seconds % 60);
  if (h) return `${h}h ${String(m).padStart(2, '0')}m`;
  if (m) return `${m}m ${String(s).padStart(2, '0')}s`;
  return `${s}s`;
}

/** A bar stretch as left offset and width, in percent of the day (its real length, 23 to 25 hours). */
export function stretchGeometry(
  day: Pick<AvailabilityDay, 'start' | 'end'>,
  entry: { start: string; end: string },
): { left: number; width: number } {
  const from = Date.parse(day.start);
  const length = Date.parse(day.end) - from;
  const left = ((Date.parse(entry.start) - from) / length) * 100;
  const width = ((Date.parse(entry.end) - Date.parse(entry.start)) / length) * 100;
  return { left: Math.max(0, left), width: Math.max(0, Math.min(100 - left, width)) };
}

/** Hour labels of the day scale, every two hours: 0, 2, … 22. */
export const HOUR_LABELS = Array.from({ length: 12 }, (_, i) => i * 2);

/** The popover goes on top when the bar is under POPOVER_FLIP_PX from the bottom of the screen. */
export function popoverOnTop(barBottom: number, viewportHeight: number): boolean {
  return viewportHeight - barBottom < POPOVER_FLIP_PX;
}

/** Width one day label of the chart ("Mar 28") takes with room around it, in CSS pixels. */
export const DAY_LABEL_PX = 64;
/** Width of the chart's value axis, beside the days. */
const VALUE_AXIS_PX = 48;

/** Every how many days the chart labels a day, so that its labels never overlap at `chartWidth` pixels. */
export function dayLabelStep(days: number, chartWidth: number): number {
  const fit = Math.max(1, Math.floor((chartWidth - VALUE_AXIS_PX) / DAY_LABEL_PX));
  return Math.max(1, Math.ceil(days / fit));
}
