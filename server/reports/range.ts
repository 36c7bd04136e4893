/**
 * A report's time range: local start and end times in an IANA time zone, turned into instants with luxon
 * (DST-aware), and the calendar days of the range in that zone (a day is 23, 24 or 25 hours long).
 */
import { DateTime, IANAZone } from 'luxon';
import { ValidationError } from '../errors';
import { MAX_RANGE_DAYS, REPORT_DATE } from '../shared/reports';

export type ReportDay = {
  /** yyyy-mm-dd in the report's zone. */
  date: string;
  /** Short month and day ("Mar 8"). */
  label: string;
  /** The day's start and end (exclusive) as instants, clipped to the range. */
  start: Date;
  end: Date;
  /** The whole local day, not clipped (its length is what a day's percentages are of). */
  dayStart: Date;
  dayEnd: Date;
};

export type ReportRange = {
  tz: string;
  /** First instant inside the range. */
  start: Date;
  /** First instant after it (endDate's second is included). */
  end: Date;
  days: ReportDay[];
};

function localTime(value: string, field: string, tz: string): DateTime {
  if (!REPORT_DATE.test(value)) throw new ValidationError(`${field} must be a date and time as YYYY-MM-DDTHH:mm:ss`);
  const parsed = DateTime.fromISO(value, { zone: tz });
  // Luxon accepts 2026-02-30 as invalid; a time skipped by a DST change moves forward, as clocks do.
  if (!parsed.isValid) throw new ValidationError(`${field} is not a valid date: ${value}`);
  return parsed;
}

/** Parses tz, startDate and endDate (YYYY-MM-DDTHH:mm:ss in tz); answers 400 with a Message when they are wrong. */
export function reportRange(input: { tz: string; startDate: string; endDate: string }): ReportRange {
  if (!IANAZone.isValidZone(input.tz)) throw new ValidationError(`Unknown time zone: ${input.tz}`);
  const tz = new IANAZone(input.tz).name;
  const first = localTime(input.startDate, 'startDate', tz);
  const last = localTime(input.endDate, 'endDate', tz);
  if (last < first) throw new ValidationError('endDate must not be before startDate');
  const after = last.plus({ seconds: 1 });
  if (after.diff(first, 'days').days > MAX_RANGE_DAYS) throw new ValidationError(`A report covers at most ${MAX_RANGE_DAYS} days`);
  const start = first.toJSDate();
  const end = after.toJSDate();
  const days: ReportDay[] = [];
  for (let day = first.startOf('day'); day < after; day = day.plus({ days: 1 }).startOf('day')) {
    const next = day.plus({ days: 1 }).startOf('day');
    days.push({
      date: day.toISODate() ?? '',
      label: day.setLocale('en-US').toFormat('LLL d'),
      start: new Date(Math.max(day.toMillis(), start.getTime())),
      end: new Date(Math.min(next.toMillis(), end.getTime())),
      dayStart: day.toJSDate(),
      dayEnd: next.toJSDate(),
    });
  }
  return { tz, start, end, days };
}
