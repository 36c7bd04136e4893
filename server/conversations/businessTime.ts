/**
 * Business time: the time within a widget's operating hours, in its time zone (luxon, so days that change to or
 * from summer time have their real length). Response targets count it (issue #31): a visitor who writes at night
 * waits no business time until the hours begin. A widget that does not follow a schedule (`onOffSchedule` off) or
 * has no hours counts all the time. Pure functions of the widget's hours and two instants.
 */
import { DateTime } from 'luxon';
import type { OperatingHour } from '../shared/types';

export type BusinessHours = {
  operatingHours: readonly Pick<OperatingHour, 'weekday' | 'start' | 'end'>[];
  tz: string;
  onOffSchedule: boolean;
};

/** Days looked at before giving up on finding hours (hours that exist come back every week). */
const MAX_DAYS = 400;

const countsAllTime = (ce: BusinessHours) => !ce.onOffSchedule || !ce.operatingHours.some((h) => h.end > h.start);

function zoneOf(tz: string): string {
  return DateTime.now().setZone(tz || 'UTC').isValid ? tz || 'UTC' : 'UTC';
}

/** The open intervals (ms since the epoch, in order) of the local day `day` (its start, in the widget's zone). */
function intervalsOf(ce: BusinessHours, day: DateTime): [number, number][] {
  // Luxon's weekday is 1 (Monday) to 7 (Sunday); the hours' is 0 (Sunday) to 6.
  const weekday = day.weekday % 7;
  const at = (hhmm: number) =>
    hhmm >= 2400 ? day.plus({ days: 1 }).startOf('day') : day.set({ hour: Math.floor(hhmm / 100), minute: hhmm % 100 });
  return ce.operatingHours
    .filter((h) => h.weekday === weekday && h.end > h.start)
    .map((h): [number, number] => [at(h.start).toMillis(), at(h.end).toMillis()])
    .sort((a, b) => a[0] - b[0]);
}

/** Seconds of business time between `from` and `to` (0 when `to` is not after `from`). */
export function businessSecondsBetween(ce: BusinessHours, from: Date, to: Date): number {
  const start = from.getTime();
  const end = to.getTime();
  if (end <= start) return 0;
  if (countsAllTime(ce)) return Math.floor((end - start) / 1000);
  const zone = zoneOf(ce.tz);
  let day = DateTime.fromMillis(start, { zone }).startOf('day');
  let ms = 0;
  for (let i = 0; i < MAX_DAYS * 2 && day.toMillis() < end; i++) {
    for (const [open, close] of intervalsOf(ce, day)) {
      const a = Math.max(open, start);
      const b = Math.min(close, end);
      if (b > a) ms += b - a;
    }
    day = day.plus({ days: 1 }).startOf('day');
  }
  return Math.floor(ms / 1000);
}

/** The instant `minutes` of business time after `from` (within hours: `from` plus them; else counted from the next opening). */
export function afterBusinessMinutes(ce: BusinessHours, from: Date, minutes: number): Date {
  const start = from.getTime();
  if (countsAllTime(ce)) return new Date(start + minutes * 60_000);
  const zone = zoneOf(ce.tz);
  let left = minutes * 60_000;
  let day = DateTime.fromMillis(start, { zone }).startOf('day');
  for (let i = 0; i < MAX_DAYS; i++) {
    for (const [open, close] of intervalsOf(ce, day)) {
      const a = Math.max(open, start);
      if (close <= a) continue;
      if (close - a >= left) return new Date(a + left);
      left -= close - a;
    }
    day = day.plus({ days: 1 }).startOf('day');
  }
  // Not reached with hours that exist; counted as all time rather than never.
  return new Date(start + minutes * 60_000);
}
