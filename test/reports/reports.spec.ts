/**
 * Reports API on a seeded account (test/reports/seed.ts) with a controlled clock: every figure equals the value
 * worked out by hand in the comments, for presets and a custom range, across the 2026 DST change in New York.
 */
import { expect } from 'chai';
import { parse as parseCsv } from 'csv-parse/sync';
import { createReportRecorder } from '../../server/reports/recorder';
import {
  type AvailabilityReport,
  type ChatsPage,
  type OverviewReport,
  presetDates,
  rangeQuery,
  todayIn,
} from '../../server/shared/reports';
import { createUserInDb } from '../factories';
import { useServer } from '../helpers/app';
import { CUSTOM_RANGE, NOW, reportRequest, type Seeded, seedReportAccount, WIDGET_CREATED, ZONE } from './seed';

describe('reports API', () => {
  let seeded: Seeded;
  const server = useServer();
  before(async () => {
    seeded = await seedReportAccount(server);
  });

  const get = (path: string, query: Record<string, string | number> = {}, token: string | undefined = seeded.token) =>
    reportRequest(server, seeded.ceId, path, query, token);
  const custom = CUSTOM_RANGE;
  const preset = (name: 'yesterday' | 'last7' | 'last30') => rangeQuery(presetDates(name, todayIn(ZONE, NOW)), ZONE);
  const overview = async (query: Record<string, string>) => (await get('overview', query).expect(200)).body as OverviewReport;
  const agent = (report: OverviewReport, name: string) => report.stats.find((s) => s.agentName === name);

  describe('overview', () => {
    it('computes every figure of a custom range of three days, one of them 23 hours long', async () => {
      const report = await overview(custom);
      expect(report.days).to.equal(3);
      // Chats 1–6; the discarded chat and chat 8 (Mar 1) are out. Replies 60+180+30+300 s; durations 600+1200+300+900+3600 s;
      // messages 5+3+8+1+2+10; offline messages Mar 7 and Mar 8 (20:00 EDT).
      expect(report.totalStats).to.deep.equal({
        totalChats: 6,
        avgChatsPerDay: 2,
        chatsFromTrigger: 3,
        upRatingPercent: 75,
        upRatingCount: 3,
        lateReply: 2,
        avgTimeToFirstReply: 143,
        avgChatDuration: 1320,
        avgMsgsPerChat: 4.8,
        totalOfflineMsgs: 2,
      });
      expect(report.stats.map((s) => s.agentName)).to.deep.equal(['Ana', 'Ben', '']);
      expect(agent(report, 'Ana')).to.deep.equal({
        agentName: 'Ana',
        totalChats: 2,
        avgChatsPerDay: 0.67,
        chatsFromTrigger: 1,
        upRatingPercent: 50,
        upRatingCount: 1,
        lateReply: 1,
        avgTimeToFirstReply: 120,
        avgChatDuration: 900,
        avgMsgsPerChat: 4,
        totalOfflineMsgs: 0,
      });
      expect(agent(report, 'Ben')).to.deep.equal({
        agentName: 'Ben',
        totalChats: 2,
        avgChatsPerDay: 0.67,
        chatsFromTrigger: 1,
        upRatingPercent: 100,
        upRatingCount: 2,
        lateReply: 1,
        avgTimeToFirstReply: 165,
        avgChatDuration: 1950,
        avgMsgsPerChat: 9,
        totalOfflineMsgs: 0,
      });
      // Missed chats: 4 (ended after 900 s) and 5 (still open).
      expect(agent(report, '')).to.deep.equal({
        agentName: '',
        totalChats: 2,
        avgChatsPerDay: 0.67,
        chatsFromTrigger: 1,
        upRatingPercent: 0,
        upRatingCount: 0,
        lateReply: 0,
        avgTimeToFirstReply: 0,
        avgChatDuration: 900,
        avgMsgsPerChat: 1.5,
        totalOfflineMsgs: 0,
      });
      // Chat 2 (23:30 EST) counts on Mar 7 and chat 5 (23:00 EDT) on Mar 8, although both are the next day in UTC.
      expect(report.chatsPerDay).to.deep.equal([
        { day: '2026-03-07', chats: 2 },
        { day: '2026-03-08', chats: 3 },
        { day: '2026-03-09', chats: 1 },
      ]);
    });

    it('counts yesterday (the 23-hour Mar 8) seen from the controlled clock', async () => {
      expect(preset('yesterday')).to.deep.equal({ tz: ZONE, startDate: '2026-03-08T00:00:00', endDate: '2026-03-08T23:59:59' });
      const report = await overview(preset('yesterday'));
      // Chats 3, 4, 5: one reply (30 s), durations 300 and 900 s, messages 8+1+2, offline message at 20:00 EDT.
      expect(report.totalStats).to.deep.equal({
        totalChats: 3,
        avgChatsPerDay: 3,
        chatsFromTrigger: 2,
        upRatingPercent: 100,
        upRatingCount: 1,
        lateReply: 0,
        avgTimeToFirstReply: 30,
        avgChatDuration: 600,
        avgMsgsPerChat: 3.7,
        totalOfflineMsgs: 1,
      });
      expect(report.stats.map((s) => [s.agentName, s.totalChats])).to.deep.equal([
        ['Ben', 1],
        ['', 2],
      ]);
    });

    it('spreads the same chats over seven days for last7 and adds Mar 1 for last30', async () => {
      expect(preset('last7')).to.include({ startDate: '2026-03-03T00:00:00', endDate: '2026-03-09T23:59:59' });
      const week = await overview(preset('last7'));
      expect(week.days).to.equal(7);
      expect(week.totalStats).to.include({ totalChats: 6, avgChatsPerDay: 0.86, totalOfflineMsgs: 2 });
      expect(preset('last30')).to.include({ startDate: '2026-02-08T00:00:00' });
      const month = await overview(preset('last30'));
      // Chat 8 adds a 90 s reply, a 400 s chat and 2 messages: (570+90)/5, (6600+400)/6, 31/7.
      expect(month.totalStats).to.deep.equal({
        totalChats: 7,
        avgChatsPerDay: 0.23,
        chatsFromTrigger: 3,
        upRatingPercent: 75,
        upRatingCount: 3,
        lateReply: 2,
        avgTimeToFirstReply: 132,
        avgChatDuration: 1167,
        avgMsgsPerChat: 4.4,
        totalOfflineMsgs: 3,
      });
      expect(agent(month, 'Ana')).to.include({ totalChats: 3, avgChatsPerDay: 0.1, avgTimeToFirstReply: 110 });
    });

    it('works out the other presets and the custom range rules from the controlled clock', () => {
      const today = todayIn(ZONE, NOW);
      expect(today).to.equal('2026-03-09');
      expect(presetDates('today', today)).to.deep.equal({ start: '2026-03-09', end: '2026-03-09' });
      expect(presetDates('lastweek', today)).to.deep.equal({ start: '2026-03-02', end: '2026-03-08' });
      expect(presetDates('lastmonth', today)).to.deep.equal({ start: '2026-02-01', end: '2026-02-28' });
      expect(todayIn('Asia/Tokyo', new Date('2026-03-09T16:00:00Z'))).to.equal('2026-03-10');
    });
  });

  describe('availability', () => {
    it('reports each day’s stretches and online share, the DST day being 23 hours long', async () => {
      const { stats } = (await get('availability', custom).expect(200)).body as AvailabilityReport;
      expect(stats.map((d) => [d.label, d.onlinePercent])).to.deep.equal([
        ['Mar 7', 33.3], // online 09:00–17:00 EST: 8 h of 24
        ['Mar 8', 21.7], // 01:00 EST–05:00 EDT (3 h) and 22:00–24:00 EDT (2 h): 5 h of 23
        ['Mar 9', 25], // 00:00–06:00 EDT: 6 h of 24
      ]);
      expect(stats[0].entries).to.deep.equal([
        {
          state: 'Offline',
          prevState: 'Online',
          start: '2026-03-07T05:00:00.000Z',
          end: '2026-03-07T14:00:00.000Z',
          cause: 'operating-hours',
        },
        {
          state: 'Online',
          prevState: 'Offline',
          start: '2026-03-07T14:00:00.000Z',
          end: '2026-03-07T22:00:00.000Z',
          cause: 'operating-hours',
        },
        {
          state: 'Offline',
          prevState: 'Online',
          start: '2026-03-07T22:00:00.000Z',
          end: '2026-03-08T05:00:00.000Z',
          cause: 'operating-hours',
        },
      ]);
      expect(stats[1]).to.include({ start: '2026-03-08T05:00:00.000Z', end: '2026-03-09T04:00:00.000Z' });
      expect(stats[1].entries.map((e) => [e.state, e.cause, e.start, e.end])).to.deep.equal([
        ['Offline', 'operating-hours', '2026-03-08T05:00:00.000Z', '2026-03-08T06:00:00.000Z'],
        ['Online', 'manual-mode', '2026-03-08T06:00:00.000Z', '2026-03-08T09:00:00.000Z'],
        ['Offline', 'switched-off', '2026-03-08T09:00:00.000Z', '2026-03-09T02:00:00.000Z'],
        ['Online', 'switched-on', '2026-03-09T02:00:00.000Z', '2026-03-09T04:00:00.000Z'],
      ]);
      expect(stats[2].entries.map((e) => [e.state, e.end])).to.deep.equal([
        ['Online', '2026-03-09T10:00:00.000Z'],
        ['Offline', '2026-03-10T04:00:00.000Z'],
      ]);
    });

    it('leaves out the days before the widget existed and shows nothing before its creation', async () => {
      const report = (await get('availability', { tz: ZONE, startDate: '2026-01-30T00:00:00', endDate: '2026-02-02T23:59:59' }).expect(200))
        .body as AvailabilityReport;
      expect(report.createdAt).to.equal(WIDGET_CREATED.toISOString());
      // Jan 30 and 31 were before the widget: no grey "0%" days. Feb 1 starts at its creation (12:00 EST).
      expect(report.stats.map((d) => d.label)).to.deep.equal(['Feb 1', 'Feb 2']);
      expect(report.stats[0].entries.map((e) => [e.state, e.start, e.end])).to.deep.equal([
        ['Offline', '2026-02-01T17:00:00.000Z', '2026-02-02T05:00:00.000Z'],
      ]);
      expect(report.stats[1].entries.map((e) => [e.state, e.start])).to.deep.equal([['Offline', '2026-02-02T05:00:00.000Z']]);
    });

    it('reads the same instants as other local days in another zone', async () => {
      const { stats } = (
        await get('availability', { tz: 'UTC', startDate: '2026-03-08T00:00:00', endDate: '2026-03-08T23:59:59' }).expect(200)
      ).body as AvailabilityReport;
      // UTC Mar 8: online 06:00–09:00 only (3 h of 24).
      expect(stats).to.have.length(1);
      expect(stats[0].onlinePercent).to.equal(12.5);
    });
  });

  describe('history', () => {
    it('pages the kept chats newest first with exact totals', async () => {
      const page = async (n: number) => (await get('chats', { perPage: 3, page: n }).expect(200)).body as ChatsPage;
      const [first, second, third, beyond] = await Promise.all([page(0), page(1), page(2), page(3)]);
      expect([first, second, third, beyond].map((p) => p.totalChats)).to.deep.equal([7, 7, 7, 7]);
      const visitors = (p: ChatsPage) => p.chats.map((c) => c.visitor.name);
      expect(visitors(first)).to.deep.equal(['Vera', 'Zoe', 'Yuri']);
      expect(visitors(second)).to.deep.equal(['Xena', 'Walt', 'Vera']);
      expect(visitors(third)).to.deep.equal(['Xena']);
      expect(beyond.chats).to.deep.equal([]);
      expect((await get('chats').expect(200)).body.chats).to.have.length(7);
    });

    it('shows a chat record with an empty first response when nobody answered, and opens its transcript', async () => {
      const { chats } = (await get('chats', { perPage: 15, page: 0 }).expect(200)).body as ChatsPage;
      const missed = chats.find((c) => c.visitor.name === 'Zoe');
      expect(missed).to.include({ agentName: '', firstResponseAt: '', endedAt: '', chatRating: '', channelName: 'support' });
      const answered = chats.find((c) => c.visitor.name === 'Xena' && c.agentName === 'Ben');
      expect(answered).to.include({
        chatRating: 'up',
        chatFeedback: '=SUM(A1:A9)',
        startedAt: '2026-03-08T07:30:00.000Z',
        firstResponseAt: '2026-03-08T07:30:30.000Z',
      });
      expect(answered?.visitor).to.include({
        email: 'xena@example.com',
        location: 'Boston, US',
        identUserId: 'u-Xena',
        identTraits: '{"plan":"gold"}',
      });
      const transcript = (await get(`chats/${answered?.id}`).expect(200)).body;
      expect(transcript.messages.map((m: { from: string; text: string }) => [m.from, m.text])).to.deep.equal([
        ['visitor', 'Hi, I am Xena'],
        ['operator', 'How can I help?'],
      ]);
      await get(`chats/${seeded.chatIds[6]}`).expect(404); // discarded
    });
  });

  describe('downloads', () => {
    it('streams the chat history as CSV, quoted and with formulas defused, named after the time, the room and the report', async () => {
      const res = await get('chats/download', { format: 'csv' }).buffer(true).expect(200);
      expect(res.headers['content-type']).to.match(/^text\/csv/);
      expect(res.headers['content-disposition']).to.match(
        /^attachment; filename="?\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z_support_history_parley_output\.csv"?$/,
      );
      const rows = parseCsv(res.text) as string[][];
      expect(rows[0].slice(0, 8)).to.deep.equal(['ID', 'Started', 'Ended', 'Visitor', 'Email', 'Agent', 'Rating', 'Feedback']);
      expect(rows).to.have.length(8);
      const ben = rows.find((r) => r[3] === 'Xena' && r[5] === 'Ben');
      expect(ben?.[7]).to.equal("'=SUM(A1:A9)");
      expect(ben?.[9]).to.equal('https://shop.example.com/pricing?plan=gold&ref=newsletter');
      // First Response (column 9 of 15): empty for a chat nobody answered, never a made-up date.
      expect(rows[0][8]).to.equal('First Response');
      expect(rows.filter((r) => r[3] === 'Zoe' || r[3] === 'Yuri').map((r) => r[8])).to.deep.equal(['', '']);
      expect(ben?.[8]).to.equal('2026-03-08T07:30:30.000Z');
      const limited = parseCsv((await get('chats/download', { format: 'csv', limit: 2 }).buffer(true).expect(200)).text) as string[][];
      expect(limited.map((r) => r[3])).to.deep.equal(['Visitor', 'Vera', 'Zoe']);
    });

    it('streams the chat history of a range as JSON', async () => {
      const res = await get('chats/download', { format: 'json', ...custom })
        .buffer(true)
        .expect(200);
      expect(res.headers['content-disposition']).to.match(/Z_support_history_parley_output\.json"?$/);
      const body = JSON.parse(res.text) as ChatsPage;
      expect(body.totalChats).to.equal(6);
      expect(body.chats.find((c) => c.visitor.name === 'Zoe')?.firstResponseAt).to.equal('');
      expect(body.chats.map((c) => c.visitor.name)).to.deep.equal(['Vera', 'Zoe', 'Yuri', 'Xena', 'Walt', 'Vera']);
    });

    it('downloads the overview as CSV and JSON, named after the room and the report', async () => {
      const csvRes = await get('overview/download', { format: 'csv', ...custom })
        .buffer(true)
        .expect(200);
      expect(csvRes.headers['content-disposition']).to.match(/Z_support_overview_parley_output\.csv"?$/);
      const csv = parseCsv(csvRes.text) as string[][];
      expect(csv.map((r) => [r[0], r[1], r[4]])).to.deep.equal([
        ['Agent', 'Total Chats', 'Up Rating %'],
        ['Ana', '2', '50'],
        ['Ben', '2', '100'],
        ['Missed chats', '2', '0'],
        ['All chats', '6', '75'],
      ]);
      const json = JSON.parse(
        (
          await get('overview/download', { format: 'json', ...custom })
            .buffer(true)
            .expect(200)
        ).text,
      );
      expect(json.totalStats.totalChats).to.equal(6);
      expect(json.stats).to.have.length(3);
    });
  });

  describe('access and input', () => {
    it('answers 403 without a session, to a non-admin, and to an admin whose plan has no reports', async () => {
      await get('overview', custom, '').expect(403);
      const member = await createUserInDb(server, {
        admin: false,
        account: (await server.models.Account.findById(seeded.accountId)) ?? undefined,
      });
      const refused = await get('chats', {}, member.token).expect(403);
      expect(refused.body.Message).to.equal('Reports are for account admins');
      const basic = await seedReportAccount(server, { plan: 'parley_basic_monthly' });
      const res = await reportRequest(server, basic.ceId, 'overview', custom, basic.token).expect(403);
      expect(res.body.Message).to.match(/plan does not have access to reports/);
    });

    it('answers 404 for another account’s widget and for an unknown id', async () => {
      const other = await seedReportAccount(server);
      await reportRequest(server, other.ceId, 'chats', {}, seeded.token).expect(404);
      await reportRequest(server, 'nope', 'chats', {}, seeded.token).expect(404);
      await reportRequest(server, other.ceId, 'chats/download', { format: 'csv' }, seeded.token).expect(404);
    });

    for (const [what, query, message] of [
      ['a missing zone', { startDate: custom.startDate, endDate: custom.endDate }, /tz is required/],
      ['an unknown zone', { ...custom, tz: 'Mars/Olympus' }, /Unknown time zone/],
      ['a date without time', { ...custom, startDate: '2026-03-07' }, /YYYY-MM-DDTHH:mm:ss/],
      ['a day that does not exist', { ...custom, endDate: '2026-02-30T23:59:59' }, /not a valid date/],
      ['an end before the start', { ...custom, endDate: '2026-03-06T23:59:59' }, /endDate must not be before startDate/],
      ['a range of centuries', { ...custom, startDate: '1900-01-01T00:00:00' }, /at most/],
    ] as const) {
      it(`answers 400 with a Message for ${what}`, async () => {
        const res = await get('overview', query).expect(400);
        expect(res.body.Message).to.match(message);
        await get('availability', query).expect(400);
      });
    }

    it('answers 400 for a bad page, page size or download format', async () => {
      expect((await get('chats', { page: -1 }).expect(400)).body.Message).to.match(/page must be a whole number/);
      expect((await get('chats', { perPage: 0 }).expect(400)).body.Message).to.match(/perPage must be between 1 and 1000/);
      expect((await get('chats/download', { format: 'xlsx' }).expect(400)).body.Message).to.match(/format must be csv or json/);
      expect((await get('chats/download', { format: 'csv', tz: ZONE }).expect(400)).body.Message).to.match(/go together/);
    });
  });

  describe('presence recording', () => {
    it('records a widget switched off and back on through the relay, once per transition, with its cause', async () => {
      const { user } = await createUserInDb(server);
      const ce = await server.models.ChatEndpoint.findOne({ accountId: user.accountId });
      const id = String(ce?._id);
      await server.models.ChatEndpoint.updateOne(
        { _id: ce?._id },
        { $set: { ...{ Step: 3, RoomId: 'C0SUPPORT1', slackTeamId: 'T0NOBODY', manualMode: true } } },
      );
      await server.parley.relay.presence.recheck(id);
      await server.models.ChatEndpoint.updateOne({ _id: ce?._id }, { $set: { off: true } });
      await server.parley.relay.presence.recheck(id);
      await server.parley.relay.presence.recheck(id);
      await server.models.ChatEndpoint.updateOne({ _id: ce?._id }, { $set: { off: false } });
      await server.parley.relay.presence.recheck(id);
      const changes = await server.models.PresenceChange.find({ ceId: ce?._id }).sort({ at: 1 }).lean();
      expect(changes.map((c) => [c.online, c.cause])).to.deep.equal([
        [true, 'manual-mode'],
        [false, 'switched-off'],
        [true, 'switched-on'],
      ]);
    });

    it('records a transition once when several processes see it, and each later one against the latest stored', async () => {
      const { user } = await createUserInDb(server);
      const ce = { _id: (await server.models.ChatEndpoint.findOne({ accountId: user.accountId }))!._id, accountId: user.accountId };
      const clock = new Date('2026-03-09T06:00:00Z');
      const [a, b] = [0, 1].map(() => createReportRecorder({ models: server.models, logger: server.parley.logger, now: () => clock }));
      await Promise.all([a.presence(ce, true, 'slack-activity'), b.presence(ce, true, 'slack-activity')]);
      await Promise.all([a.presence(ce, false, 'switched-off'), b.presence(ce, false, 'switched-off')]);
      // B saw the widget come back and go away again; A, which remembers it offline, then sees it online.
      await b.presence(ce, true, 'switched-on');
      await b.presence(ce, false, 'operating-hours');
      await a.presence(ce, true, 'slack-activity');
      const changes = await server.models.PresenceChange.find({ ceId: ce._id }).sort({ n: 1 }).lean();
      expect(changes.map((c) => [c.n, c.online, c.cause])).to.deep.equal([
        [1, true, 'slack-activity'],
        [2, false, 'switched-off'],
        [3, true, 'switched-on'],
        [4, false, 'operating-hours'],
        [5, true, 'operating-hours'],
      ]);
    });

    it('keeps the last recorded state across restarts of the recorder (a new process)', async () => {
      const { user } = await createUserInDb(server);
      const ce = { _id: (await server.models.ChatEndpoint.findOne({ accountId: user.accountId }))!._id, accountId: user.accountId };
      let clock = new Date('2026-03-08T06:00:00Z');
      const first = createReportRecorder({ models: server.models, logger: server.parley.logger, now: () => clock });
      await first.presence(ce, true, 'slack-activity');
      clock = new Date('2026-03-08T07:00:00Z');
      const second = createReportRecorder({ models: server.models, logger: server.parley.logger, now: () => clock });
      await second.presence(ce, true, 'slack-activity');
      await second.presence(ce, false, 'operating-hours');
      const changes = await server.models.PresenceChange.find({ ceId: ce._id }).lean();
      expect(changes.map((c) => [c.online, c.cause, c.at.toISOString()])).to.deep.equal([
        [true, 'slack-activity', '2026-03-08T06:00:00.000Z'],
        [false, 'operating-hours', '2026-03-08T07:00:00.000Z'],
      ]);
    });
  });
});
