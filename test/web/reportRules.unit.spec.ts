/** The report screens' pure rules: custom range rules, the pager line, bar geometry on DST days, popover placement. */
import { expect } from 'chai';
import { customDates, downloadName, shortPageUrl } from '../../server/shared/reports';
import {
  DAY_LABEL_PX,
  dayLabelStep,
  formatDuration,
  formatStretch,
  popoverOnTop,
  rangeOf,
  showingLine,
  stretchGeometry,
} from '../../web/console/scenes/reports/reportRules';

describe('report screen rules', () => {
  it('names an availability stretch by its clock times, and a whole day in one state "All day"', () => {
    const tz = 'Europe/London';
    expect(formatStretch('2026-03-09T09:00:00Z', '2026-03-09T17:30:00Z', tz)).to.equal('9:00 AM – 5:30 PM');
    expect(formatStretch('2026-03-09T00:00:00Z', '2026-03-10T00:00:00Z', tz)).to.equal('All day');
    // A DST day is 23 hours long, midnight to midnight all the same.
    expect(formatStretch('2026-03-29T00:00:00Z', '2026-03-29T23:00:00Z', tz)).to.equal('All day');
    expect(formatStretch('2026-03-09T09:00:00Z', '2026-03-10T00:00:00Z', tz, ' to ')).to.equal('9:00 AM to 12:00 AM');
  });

  const now = new Date('2026-03-09T18:00:00Z');

  it('applies the custom range rules: bad dates become today, an end before the start becomes the start, nothing after today', () => {
    expect(customDates('2026-03-07', '2026-03-09', '2026-03-09')).to.deep.equal({ start: '2026-03-07', end: '2026-03-09' });
    expect(customDates('07/03/2026', '2026-02-30', '2026-03-09')).to.deep.equal({ start: '2026-03-09', end: '2026-03-09' });
    expect(customDates('2026-03-05', '2026-03-01', '2026-03-09')).to.deep.equal({ start: '2026-03-05', end: '2026-03-05' });
    expect(customDates('2026-03-01', '2027-01-01', '2026-03-09')).to.deep.equal({ start: '2026-03-01', end: '2026-03-09' });
    expect(rangeOf({ preset: 'custom', customStart: '2026-03-07', customEnd: '2026-03-08' }, 'America/New_York', now)).to.deep.equal({
      tz: 'America/New_York',
      startDate: '2026-03-07T00:00:00',
      endDate: '2026-03-08T23:59:59',
    });
    expect(rangeOf({ preset: 'today', customStart: '', customEnd: '' }, 'Asia/Tokyo', now).startDate).to.equal('2026-03-10T00:00:00');
  });

  it('says which rows a page shows', () => {
    expect(showingLine(0, 15, 15, 40)).to.equal('Showing 1 to 15 of 40 results');
    expect(showingLine(2, 15, 10, 40)).to.equal('Showing 31 to 40 of 40 results');
    expect(showingLine(0, 15, 0, 0)).to.equal('Showing 0 to 0 of 0 results');
  });

  it('places a stretch by its share of a 23-hour day', () => {
    const day = { start: '2026-03-08T05:00:00.000Z', end: '2026-03-09T04:00:00.000Z' };
    const { left, width } = stretchGeometry(day, { start: '2026-03-08T06:00:00.000Z', end: '2026-03-08T09:00:00.000Z' });
    expect(left).to.be.closeTo((1 / 23) * 100, 1e-9);
    expect(width).to.be.closeTo((3 / 23) * 100, 1e-9);
  });

  it('opens the popover on top under 260 px from the bottom of the screen', () => {
    expect(popoverOnTop(600, 844)).to.equal(true);
    expect(popoverOnTop(500, 844)).to.equal(false);
  });

  it('formats durations, page URLs and download names', () => {
    expect([formatDuration(0), formatDuration(45), formatDuration(143), formatDuration(3900)]).to.deep.equal([
      '0s',
      '45s',
      '2m 23s',
      '1h 05m',
    ]);
    expect(shortPageUrl('https://shop.example.com/pricing?plan=gold&ref=newsletter')).to.equal('shop.example.com/pricing?plan=go…');
    expect(downloadName(now, 'csv', 'history', 'support')).to.equal('2026-03-09T18-00-00.000Z_support_history_parley_output.csv');
    expect(downloadName(now, 'json', 'overview', 'sales team/é')).to.equal(
      '2026-03-09T18-00-00.000Z_sales-team-e_overview_parley_output.json',
    );
  });

  it('labels the chart’s days so that no two labels overlap, on a phone as on a desktop', () => {
    // 30 days on a phone's chart (about 300 px wide): 3 labels fit, one every 10 days.
    expect(dayLabelStep(30, 300)).to.equal(10);
    // The same month on a desktop chart (1000 px): 14 labels fit, one every 3 days.
    expect(dayLabelStep(30, 1000)).to.equal(3);
    expect(dayLabelStep(7, 1000)).to.equal(1);
    for (const [days, width] of [
      [18, 300],
      [31, 340],
      [92, 600],
      [3, 200],
    ]) {
      const labels = Math.ceil(days / dayLabelStep(days, width));
      expect(labels * DAY_LABEL_PX, `${days} days at ${width} px`).to.be.at.most(Math.max(DAY_LABEL_PX, width - 48));
    }
  });
});
