import { expect } from 'chai';
import { afterBusinessMinutes, type BusinessHours, businessSecondsBetween } from '../../server/conversations/businessTime';

/** Monday to Friday, 9:00 to 17:00 in `tz`. */
const weekdays = (tz: string, onOffSchedule = true): BusinessHours => ({
  tz,
  onOffSchedule,
  operatingHours: [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start: 900, end: 1700 })),
});
const at = (iso: string) => new Date(iso);

describe('business time', () => {
  it('counts all the time without hours, and when the widget does not follow its schedule', () => {
    const none: BusinessHours = { tz: 'Europe/Paris', onOffSchedule: true, operatingHours: [] };
    expect(businessSecondsBetween(none, at('2026-11-21T22:00:00Z'), at('2026-11-22T01:00:00Z'))).to.equal(3 * 3600);
    expect(afterBusinessMinutes(none, at('2026-11-21T22:00:00Z'), 30).toISOString()).to.equal('2026-11-21T22:30:00.000Z');
    const off = weekdays('UTC', false);
    expect(businessSecondsBetween(off, at('2026-11-21T22:00:00Z'), at('2026-11-22T01:00:00Z'))).to.equal(3 * 3600);
    expect(businessSecondsBetween(none, at('2026-11-22T01:00:00Z'), at('2026-11-21T22:00:00Z'))).to.equal(0);
  });

  it('counts only the hours within a day, and across a night', () => {
    const ce = weekdays('UTC');
    // Tuesday 16:30 to Wednesday 9:15: 30 minutes on Tuesday, 15 on Wednesday.
    expect(businessSecondsBetween(ce, at('2026-11-24T16:30:00Z'), at('2026-11-25T09:15:00Z'))).to.equal(45 * 60);
    expect(afterBusinessMinutes(ce, at('2026-11-24T16:30:00Z'), 45).toISOString()).to.equal('2026-11-25T09:15:00.000Z');
    // A visitor writing at night: the target counts from the opening.
    expect(afterBusinessMinutes(ce, at('2026-11-25T03:00:00Z'), 15).toISOString()).to.equal('2026-11-25T09:15:00.000Z');
    expect(afterBusinessMinutes(ce, at('2026-11-25T10:00:00Z'), 15).toISOString()).to.equal('2026-11-25T10:15:00.000Z');
    // Exactly the rest of the day ends at the closing.
    expect(afterBusinessMinutes(ce, at('2026-11-25T16:00:00Z'), 60).toISOString()).to.equal('2026-11-25T17:00:00.000Z');
  });

  it('skips the weekend', () => {
    const ce = weekdays('UTC');
    // Friday 16:00 to Monday 10:00: an hour on Friday, an hour on Monday.
    expect(businessSecondsBetween(ce, at('2026-11-27T16:00:00Z'), at('2026-11-30T10:00:00Z'))).to.equal(2 * 3600);
    expect(afterBusinessMinutes(ce, at('2026-11-27T16:30:00Z'), 60).toISOString()).to.equal('2026-11-30T09:30:00.000Z');
    expect(afterBusinessMinutes(ce, at('2026-11-28T12:00:00Z'), 1).toISOString()).to.equal('2026-11-30T09:01:00.000Z');
  });

  it('reads the hours in the widget’s time zone, on the days summer time begins and ends', () => {
    const paris = weekdays('Europe/Paris');
    // Monday 30 March 2026 (summer time since Sunday): 9:00 in Paris is 7:00 UTC.
    expect(afterBusinessMinutes(paris, at('2026-03-28T12:00:00Z'), 10).toISOString()).to.equal('2026-03-30T07:10:00.000Z');
    // Friday 27 March (winter time) 16:00 Paris = 15:00 UTC; to Monday 10:00 Paris = 8:00 UTC: 1 h + 1 h.
    expect(businessSecondsBetween(paris, at('2026-03-27T15:00:00Z'), at('2026-03-30T08:00:00Z'))).to.equal(2 * 3600);
    // Hours through the night of the change: Sunday 29 March 0:00–6:00 Paris lasts 5 hours (2:00 does not exist).
    const night: BusinessHours = { tz: 'Europe/Paris', onOffSchedule: true, operatingHours: [{ weekday: 0, start: 0, end: 600 }] };
    expect(businessSecondsBetween(night, at('2026-03-28T12:00:00Z'), at('2026-03-30T12:00:00Z'))).to.equal(5 * 3600);
    // And on 25 October, when 2:00–3:00 comes twice, it lasts 7 hours.
    expect(businessSecondsBetween(night, at('2026-10-24T12:00:00Z'), at('2026-10-26T12:00:00Z'))).to.equal(7 * 3600);
  });

  it('reads an unknown time zone as UTC, and an end at 24:00 as midnight', () => {
    const ce: BusinessHours = { tz: 'Nowhere/Atlantis', onOffSchedule: true, operatingHours: [{ weekday: 3, start: 2300, end: 2400 }] };
    expect(businessSecondsBetween(ce, at('2026-11-25T00:00:00Z'), at('2026-11-26T12:00:00Z'))).to.equal(3600);
    expect(afterBusinessMinutes(ce, at('2026-11-25T23:30:00Z'), 45).toISOString()).to.equal('2026-12-02T23:15:00.000Z');
  });
});
