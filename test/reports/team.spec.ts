/**
 * The Team report API on the seeded account (seed.ts) and its shared-inbox facts (teamSeed.ts), the widget's
 * workspace installed in the Slack sandbox: per operator (named and pictured as Slack says, or as the conversations
 * stored for someone Slack no longer knows) conversations assigned, answered and ended, median first and next
 * business-time waits, the share within target and the ratings; the whole team; per tag the conversations and the
 * trend, in New York and in UTC; the CSV and JSON downloads, and access (403, 404, 400) as the other reports.
 */
import { expect } from 'chai';
import { parse as parseCsv } from 'csv-parse/sync';
import type { TeamReport } from '../../server/shared/reports';
import { useServer } from '../helpers/app';
import { ALICE, BOB } from '../slack/helpers';
import { rangeReportAccessSpecs } from './rangeReportAccess';
import { CUSTOM_RANGE, reportRequest, type Seeded, ZONE } from './seed';
import { GUS, seedTeamAccount } from './teamSeed';

describe('Team report API', () => {
  const server = useServer();
  let seeded: Seeded;
  before(async () => {
    seeded = await seedTeamAccount(server);
  });

  const get = (path: string, query: Record<string, string | number> = {}, token: string | undefined = seeded.token) =>
    reportRequest(server, seeded.ceId, path, query, token);
  const custom = CUSTOM_RANGE;

  it('gives each operator’s conversations, median waits, share within target and ratings, named as in Slack', async () => {
    const report = (await get('team', custom).expect(200)).body as TeamReport;
    const [alice, bob, gus] = report.operators;
    expect(report.operators.map((o) => [o.id, o.name])).to.deep.equal([
      [ALICE, 'Alice'],
      [BOB, 'Bob'],
      // Slack does not know Gus any more: the name his conversation stored.
      [GUS, 'Gus'],
    ]);
    expect(alice.avatarUrl).to.match(/^data:image\/svg\+xml;base64,/);
    expect(gus.avatarUrl).to.equal('');
    const figures = ({ id: _id, name: _name, avatarUrl: _avatar, ...rest }: TeamReport['operators'][number]) => rest;
    expect(figures(alice)).to.deep.equal({
      assigned: 2,
      answered: 2,
      ended: 2,
      firstResponses: 2,
      medianFirstResponseSecs: 105,
      nextResponses: 3,
      medianNextResponseSecs: 90,
      targeted: 4,
      withinTarget: 3,
      withinTargetPercent: 75,
      ratedUp: 1,
      ratedDown: 1,
    });
    expect(figures(bob)).to.deep.equal({
      assigned: 2,
      answered: 2,
      ended: 1,
      firstResponses: 2,
      medianFirstResponseSecs: 25,
      nextResponses: 1,
      medianNextResponseSecs: 600,
      targeted: 3,
      withinTarget: 2,
      withinTargetPercent: 66.7,
      ratedUp: 1,
      ratedDown: 0,
    });
    expect(figures(gus)).to.deep.include({
      assigned: 0,
      answered: 1,
      medianFirstResponseSecs: 20,
      medianNextResponseSecs: null,
      ratedUp: 1,
    });
    // The team counts each conversation once (chat 1 was assigned twice) and the ends nobody had.
    expect(report.team).to.deep.equal({
      assigned: 4,
      answered: 5,
      ended: 5,
      firstResponses: 5,
      medianFirstResponseSecs: 30,
      nextResponses: 4,
      medianNextResponseSecs: 105,
      targeted: 8,
      withinTarget: 6,
      withinTargetPercent: 75,
      ratedUp: 3,
      ratedDown: 1,
    });
  });

  it('asks Slack about an operator it no longer knows once, not on every report', async () => {
    const asked = () => server.slack.state.callsOf('users.info').filter((c) => c.args.user === GUS).length;
    const before = asked();
    for (let i = 0; i < 3; i++) {
      const report = (await get('team', custom).expect(200)).body as TeamReport;
      expect(report.operators.find((o) => o.id === GUS)?.name).to.equal('Gus');
    }
    expect(asked() - before).to.be.at.most(1);
  });

  it('counts each tag’s conversations per day of the range in its zone, and moves what crosses midnight in UTC', async () => {
    const ny = (await get('team', custom).expect(200)).body as TeamReport;
    expect(ny.conversations).to.equal(6);
    expect(ny.tagged).to.equal(5);
    expect(ny.step).to.equal('day');
    expect(ny.buckets).to.deep.equal([
      { start: '2026-03-07', label: 'Mar 7' },
      { start: '2026-03-08', label: 'Mar 8' },
      { start: '2026-03-09', label: 'Mar 9' },
    ]);
    expect(ny.tags).to.deep.equal([
      { tag: 'billing', conversations: 4, trend: [2, 1, 1] },
      { tag: 'bug', conversations: 2, trend: [0, 1, 1] },
      { tag: 'refund', conversations: 1, trend: [1, 0, 0] },
    ]);
    const utc = (await get('team', { ...custom, tz: 'UTC' }).expect(200)).body as TeamReport;
    // Sat 23:30 in New York is Sunday in UTC; Bob's answer at Mon 23:50 in New York is Tuesday in UTC.
    expect(utc.tags[0]).to.deep.equal({ tag: 'billing', conversations: 4, trend: [1, 2, 1] });
    const bob = utc.operators.find((o) => o.id === BOB);
    expect(bob).to.deep.include({
      answered: 1,
      firstResponses: 1,
      medianFirstResponseSecs: 10,
      targeted: 2,
      withinTarget: 1,
      withinTargetPercent: 50,
    });
  });

  it('cuts a longer range’s trend into weeks from Monday, and has no figures where nothing happened', async () => {
    const weeks = (await get('team', { tz: ZONE, startDate: '2026-02-01T00:00:00', endDate: '2026-03-31T23:59:59' }).expect(200))
      .body as TeamReport;
    expect(weeks.step).to.equal('week');
    // Sun Feb 1 opens the first week; then every Monday.
    expect(weeks.buckets.slice(0, 3)).to.deep.equal([
      { start: '2026-02-01', label: 'Feb 1' },
      { start: '2026-02-02', label: 'Feb 2' },
      { start: '2026-02-09', label: 'Feb 9' },
    ]);
    const march2 = weeks.buckets.findIndex((b) => b.start === '2026-03-02');
    const billing = weeks.tags.find((t) => t.tag === 'billing');
    // Chat 7 (Sun Mar 1) is in the week of Feb 23; chats 0, 1 and 3 (Sat and Sun) in the week of Mar 2; chat 5
    // (Mon Mar 9) in the next.
    expect(billing?.trend.slice(march2 - 1, march2 + 2)).to.deep.equal([1, 3, 1]);
    const empty = (await get('team', { tz: ZONE, startDate: '2026-02-02T00:00:00', endDate: '2026-02-03T23:59:59' }).expect(200))
      .body as TeamReport;
    expect(empty.operators).to.deep.equal([]);
    expect(empty.tags).to.deep.equal([]);
    expect(empty.conversations).to.equal(0);
    expect(empty.team).to.include({ assigned: 0, medianFirstResponseSecs: null, withinTargetPercent: null });
  });

  it('downloads the report as CSV (a row per operator, the team, then a row per tag and day) and as JSON', async () => {
    const csv = await get('team/download', { ...custom, format: 'csv' })
      .buffer(true)
      .expect(200);
    expect(csv.headers['content-type']).to.match(/^text\/csv/);
    expect(csv.headers['content-disposition']).to.match(/Z_support_team_parley_output\.csv"?$/);
    const rows = parseCsv(csv.text, { relax_column_count: true, skip_empty_lines: true }) as string[][];
    expect(rows[0]).to.deep.equal([
      'Operator',
      'Slack user ID',
      'Assigned',
      'Answered',
      'Ended',
      'First responses',
      'Median first response (s)',
      'Next responses',
      'Median next response (s)',
      'Answers with a target',
      'Within target',
      'Within target %',
      'Rated up',
      'Rated down',
    ]);
    expect(rows[1]).to.deep.equal(['Alice', ALICE, '2', '2', '2', '2', '105', '3', '90', '4', '3', '75', '1', '1']);
    // Nothing to measure is an empty cell, not 0.
    expect(rows[3]).to.deep.equal(['Gus', GUS, '0', '1', '0', '1', '20', '0', '', '1', '1', '100', '1', '0']);
    expect(rows[4].slice(0, 5)).to.deep.equal(['Whole team', '', '4', '5', '5']);
    expect(rows[5]).to.deep.equal(['Tag', 'Conversations', '2026-03-07', '2026-03-08', '2026-03-09']);
    expect(rows[6]).to.deep.equal(['billing', '4', '2', '1', '1']);
    const json = await get('team/download', { ...custom, format: 'json' }).expect(200);
    expect(json.headers['content-disposition']).to.match(/Z_support_team_parley_output\.json"?$/);
    expect(JSON.parse(json.text).team.answered).to.equal(5);
  });

  rangeReportAccessSpecs('team', server, () => seeded);
});
