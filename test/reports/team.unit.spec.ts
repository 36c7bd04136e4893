/** The Team report's pure parts: the median of counted waits, and how a range's trend is cut into days, weeks or months. */
import { expect } from 'chai';
import { reportRange } from '../../server/reports/range';
import { medianOf, trendBuckets } from '../../server/reports/team';

/** Waits in seconds, each with how many times it was measured. */
const counts = (...pairs: [number, number][]) => new Map(pairs);

describe('Team report rules', () => {
  it('takes the median of counted waits, the mean of the two middle ones for an even count, and none of nothing', () => {
    expect(medianOf(counts())).to.equal(null);
    expect(medianOf(counts([42, 1]))).to.equal(42);
    expect(medianOf(counts([10, 1], [600, 1]))).to.equal(305);
    // 5, 5, 5, 90, 3000: three waits of 5 s outweigh one long one.
    expect(medianOf(counts([3000, 1], [5, 3], [90, 1]))).to.equal(5);
    expect(medianOf(counts([1, 1], [2, 1]))).to.equal(2);
  });

  it('cuts up to a month into days, up to a year into weeks from Monday, and longer ranges into months', () => {
    const range = (startDate: string, endDate: string) => trendBuckets(reportRange({ tz: 'Europe/Paris', startDate, endDate }));
    const days = range('2026-03-01T00:00:00', '2026-03-31T23:59:59');
    expect(days.step).to.equal('day');
    expect(days.buckets).to.have.length(31);
    // The 23-hour day of the change to summer time starts at local midnight like the others.
    expect(days.starts[28].toISOString()).to.equal('2026-03-28T23:00:00.000Z');
    expect(days.starts[29].toISOString()).to.equal('2026-03-29T22:00:00.000Z');
    const weeks = range('2026-01-01T00:00:00', '2026-12-31T23:59:59');
    expect(weeks.step).to.equal('week');
    // Thu Jan 1 opens the first week, Monday Jan 5 the second.
    expect(weeks.buckets.slice(0, 2)).to.deep.equal([
      { start: '2026-01-01', label: 'Jan 1' },
      { start: '2026-01-05', label: 'Jan 5' },
    ]);
    expect(weeks.buckets).to.have.length(53);
    const months = range('2025-01-15T00:00:00', '2026-03-10T23:59:59');
    expect(months.step).to.equal('month');
    expect(months.buckets.slice(0, 2)).to.deep.equal([
      { start: '2025-01-15', label: 'Jan 2025' },
      { start: '2025-02-01', label: 'Feb 2025' },
    ]);
    expect(months.buckets.at(-1)).to.deep.equal({ start: '2026-03-01', label: 'Mar 2026' });
  });
});
