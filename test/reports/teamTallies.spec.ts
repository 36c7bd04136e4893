/**
 * Reports → Team reads day tallies kept as the shared inbox's events are written (recordInboxEvents) and only the
 * hours around the range's whole UTC days from the events: its figures stay those of the events themselves. Checked
 * against a count over the stored events for ranges that start and end at any second, in zones with half- and
 * quarter-hour offsets, with conversations whose events span several days; two operators recording at once count
 * a conversation once; events stored before the tallies are tallied once at start (models/migrations.ts).
 */
import { expect } from 'chai';
import { Types } from 'mongoose';
import { type NewInboxEvent, recordInboxEvent, recordInboxEvents } from '../../server/conversations/inboxEvents';
import type { InboxEvent } from '../../server/models/InboxEvent';
import { tallyStoredInboxEvents } from '../../server/models/inboxTallies';
import { runMigrations } from '../../server/models/migrations';
import { reportRange } from '../../server/reports/range';
import { medianOf, teamReport } from '../../server/reports/team';
import type { TeamFigures } from '../../server/shared/reports';
import { useStore } from '../commands/helpers';

const OPERATORS = ['U0ANA', 'U0BEN', 'U0CLO'];
const FIRST_DAY = Date.parse('2026-03-01T00:00:00Z');
const HOUR = 3_600_000;

/** A small deterministic generator (mulberry32), so a failure can be read again. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Forty conversations over ten days (or `over` another span, with pauses up to `pause` long): assigned (some
 * reassigned, some back to the same operator days later), answered first and again (some by another operator, some on
 * a later day), ended with or without an assignee, tagged.
 */
function conversationEvents(
  ceId: Types.ObjectId,
  accountId: Types.ObjectId,
  seed: number,
  over: { first: number; days: number; pause: number; conversations: number } = {
    first: FIRST_DAY,
    days: 9,
    pause: 40 * HOUR,
    conversations: 40,
  },
): NewInboxEvent[] {
  const next = random(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  const events: NewInboxEvent[] = [];
  for (let c = 0; c < over.conversations; c++) {
    const conversationId = new Types.ObjectId();
    let t = over.first + next() * over.days * 24 * HOUR;
    const event = (e: Omit<NewInboxEvent, 'accountId' | 'ceId' | 'conversationId' | 'teamId'>) => {
      t += next() < 0.2 ? next() * over.pause : next() * 2 * HOUR;
      events.push({ accountId, ceId, conversationId, teamId: 'T0', ...e, at: new Date(Math.round(t / 1000) * 1000) });
    };
    let assignee = next() < 0.8 ? pick(OPERATORS) : '';
    if (assignee) event({ kind: 'assigned', operatorId: assignee, byId: '' });
    const answers = Math.floor(next() * 4);
    for (let a = 0; a < answers; a++) {
      const withinTarget = next() < 0.3 ? null : next() < 0.7;
      event({
        kind: 'response',
        operatorId: next() < 0.7 && assignee ? assignee : pick(OPERATORS),
        responseKind: a === 0 ? 'first' : 'next',
        waitSecs: Math.floor(next() * 600),
        withinTarget,
      });
      if (next() < 0.3) {
        if (assignee) event({ kind: 'unassigned', operatorId: assignee, byId: assignee });
        assignee = next() < 0.5 ? assignee || pick(OPERATORS) : pick(OPERATORS);
        event({ kind: 'assigned', operatorId: assignee, byId: '' });
      }
    }
    if (next() < 0.5) event({ kind: 'tagged', operatorId: '', byId: 'U0ANA', tag: 'billing' });
    if (next() < 0.8) event({ kind: 'ended', operatorId: assignee });
  }
  return events;
}

type Counted = Omit<TeamFigures, 'ratedUp' | 'ratedDown'>;

/** The figures counted straight from the events of the range, as docs/reports.md defines them. */
function countEvents(events: readonly InboxEvent[], start: Date, end: Date): { team: Counted; operators: Map<string, Counted> } {
  type Acc = { convs: Record<string, Set<string>>; first: Map<number, number>; next: Map<number, number>; f: Counted };
  const empty = (): Acc => ({
    convs: { assigned: new Set(), response: new Set(), ended: new Set() },
    first: new Map(),
    next: new Map(),
    f: {
      assigned: 0,
      answered: 0,
      ended: 0,
      firstResponses: 0,
      medianFirstResponseSecs: null,
      nextResponses: 0,
      medianNextResponseSecs: null,
      targeted: 0,
      withinTarget: 0,
      withinTargetPercent: null,
    },
  });
  const team = empty();
  const byOperator = new Map<string, Acc>();
  for (const e of events) {
    if (e.at < start || e.at >= end || !['assigned', 'response', 'ended'].includes(e.kind)) continue;
    const accs = e.operatorId ? [team, byOperator.get(e.operatorId) ?? empty()] : [team];
    if (e.operatorId) byOperator.set(e.operatorId, accs[1]);
    for (const a of accs) {
      a.convs[e.kind].add(String(e.conversationId));
      if (e.kind !== 'response' || !e.responseKind) continue;
      if (e.responseKind === 'first') a.f.firstResponses += 1;
      else a.f.nextResponses += 1;
      const counts = e.responseKind === 'first' ? a.first : a.next;
      counts.set(e.waitSecs ?? 0, (counts.get(e.waitSecs ?? 0) ?? 0) + 1);
      if (typeof e.withinTarget === 'boolean') a.f.targeted += 1;
      if (e.withinTarget === true) a.f.withinTarget += 1;
    }
  }
  const finish = (a: Acc): Counted => ({
    ...a.f,
    assigned: a.convs.assigned.size,
    answered: a.convs.response.size,
    ended: a.convs.ended.size,
    medianFirstResponseSecs: medianOf(a.first),
    medianNextResponseSecs: medianOf(a.next),
    withinTargetPercent: a.f.targeted ? Math.round((a.f.withinTarget / a.f.targeted) * 1000) / 10 : null,
  });
  return { team: finish(team), operators: new Map([...byOperator].map(([id, a]) => [id, finish(a)])) };
}

const withoutRatings = ({ ratedUp: _up, ratedDown: _down, ...rest }: TeamFigures): Counted => rest;

/** Ranges from any second to any second, in zones with whole-, half- and quarter-hour offsets. */
const RANGES: [string, string, string][] = [
  ['UTC', '2026-03-01T00:00:00', '2026-03-11T23:59:59'],
  ['America/New_York', '2026-03-02T00:00:00', '2026-03-09T23:59:59'],
  ['Asia/Kolkata', '2026-03-03T07:13:09', '2026-03-06T18:40:00'],
  ['Asia/Kathmandu', '2026-03-04T00:00:00', '2026-03-04T23:59:59'],
  ['Pacific/Chatham', '2026-03-02T12:00:00', '2026-03-10T03:15:27'],
  ['Europe/Paris', '2026-03-05T23:59:58', '2026-03-06T00:00:01'],
];

/**
 * Ranges over several months: whole UTC months read from their month rows, the days around them from day rows, in
 * zones whose months start hours before or after UTC's (a zone's month is never a UTC month there).
 */
const MONTH_RANGES: [string, string, string][] = [
  ['UTC', '2026-01-01T00:00:00', '2026-04-30T23:59:59'],
  ['America/New_York', '2026-01-15T08:00:00', '2026-04-10T17:30:00'],
  ['Asia/Kolkata', '2026-02-01T00:00:00', '2026-03-31T23:59:59'],
  ['Pacific/Chatham', '2026-01-31T23:00:00', '2026-03-01T00:30:00'],
  ['Asia/Kathmandu', '2026-02-28T05:45:00', '2026-04-01T00:00:00'],
  ['Europe/Paris', '2026-03-01T00:00:00', '2026-05-31T23:59:59'],
];

describe('Team report tallies', () => {
  const store = useStore();

  async function expectEventFigures(ceId: Types.ObjectId, ranges = RANGES, now = new Date()): Promise<void> {
    const events = await store.models.InboxEvent.find({ ceId }).lean<InboxEvent[]>();
    for (const [tz, startDate, endDate] of ranges) {
      const range = reportRange({ tz, startDate, endDate });
      const report = await teamReport(store.models, { _id: ceId, slackTeamId: '' }, range, undefined, now);
      const counted = countEvents(events, range.start, range.end);
      const where = `${tz} ${startDate} – ${endDate} at ${now.toISOString()}`;
      expect(withoutRatings(report.team), where).to.deep.equal(counted.team);
      expect(
        Object.fromEntries(report.operators.map(({ id, name: _name, avatarUrl: _avatar, ...o }) => [id, withoutRatings(o)])),
        where,
      ).to.deep.equal(Object.fromEntries(counted.operators));
    }
  }

  it('gives the figures of the events themselves for ranges from any second in any zone, however many days a conversation spans', async () => {
    const ceId = new Types.ObjectId();
    const events = conversationEvents(ceId, new Types.ObjectId(), 7);
    // As the inbox records them: each change on its own, in the order of their times.
    for (const e of [...events].sort((a, b) => (a.at?.getTime() ?? 0) - (b.at?.getTime() ?? 0))) await recordInboxEvent(store.models, e);
    const spanning = await store.models.InboxTally.countDocuments({ ceId, 'since.answered.0': { $exists: true } });
    expect(spanning, 'conversations answered by one operator on several days').to.be.greaterThan(0);
    await expectEventFigures(ceId);
  });

  it('counts a conversation once when two operators record the same figure of it at the same moment', async () => {
    const ceId = new Types.ObjectId();
    const conversationId = new Types.ObjectId();
    const at = new Date('2026-03-03T10:00:00Z');
    const event = (byId: string): NewInboxEvent => ({
      accountId: new Types.ObjectId(),
      ceId,
      conversationId,
      kind: 'assigned',
      at,
      teamId: 'T0',
      operatorId: 'U0ANA',
      byId,
    });
    await Promise.all([recordInboxEvent(store.models, event('U0ANA')), recordInboxEvent(store.models, event('U0BEN'))]);
    const report = await teamReport(
      store.models,
      { _id: ceId, slackTeamId: '' },
      reportRange({ tz: 'UTC', startDate: '2026-03-01T00:00:00', endDate: '2026-03-05T23:59:59' }),
    );
    expect(report.team.assigned).to.equal(1);
    expect(report.operators.map((o) => [o.id, o.assigned])).to.deep.equal([['U0ANA', 1]]);
  });

  it('counts a conversation answered on two days once over both, when each answer names when the conversation opened', async () => {
    const ceId = new Types.ObjectId();
    const accountId = new Types.ObjectId();
    const openedAt = new Date('2026-03-02T22:00:00Z');
    const answer = (at: string): NewInboxEvent => ({
      accountId,
      ceId,
      conversationId: new Types.ObjectId(conversationId),
      kind: 'response',
      at: new Date(at),
      teamId: 'T0',
      operatorId: 'U0ANA',
      responseKind: 'next',
      waitSecs: 60,
      withinTarget: null,
    });
    const conversationId = new Types.ObjectId().toHexString();
    // Answered late on the day it opened and again the next morning, as operators' replies record it.
    await recordInboxEvents(store.models, [answer('2026-03-02T23:00:00Z')], { openedAt });
    await recordInboxEvents(store.models, [answer('2026-03-03T09:00:00Z')], { openedAt });
    const range = (startDate: string, endDate: string) => reportRange({ tz: 'UTC', startDate, endDate });
    const answered = async (startDate: string, endDate: string) =>
      (await teamReport(store.models, { _id: ceId, slackTeamId: '' }, range(startDate, endDate))).team.answered;
    expect(await answered('2026-03-02T00:00:00', '2026-03-03T23:59:59')).to.equal(1);
    expect(await answered('2026-03-03T00:00:00', '2026-03-03T23:59:59')).to.equal(1);
    expect(await answered('2026-03-02T00:00:00', '2026-03-02T23:59:59')).to.equal(1);
  });

  it('tallies the events stored before the tallies once, at start, and reports them as the events say', async () => {
    const ceId = new Types.ObjectId();
    const events = conversationEvents(ceId, new Types.ObjectId(), 11);
    // As an earlier version stored them: straight into the collection, no tally.
    await store.models.InboxEvent.collection.insertMany(events.map((e) => ({ operatorId: '', ...e })));
    const empty = await teamReport(
      store.models,
      { _id: ceId, slackTeamId: '' },
      reportRange({ tz: 'UTC', startDate: '2026-03-02T00:00:00', endDate: '2026-03-09T23:59:59' }),
    );
    expect(empty.team.answered, 'no tally before the start').to.equal(0);
    const first = await runMigrations(store.connection, store.models);
    expect(first.inboxTallies).to.equal(events.length);
    await expectEventFigures(ceId);
    // Every later start finds nothing to tally, and events recorded since count on top of them.
    expect((await runMigrations(store.connection, store.models)).inboxTallies).to.equal(0);
    const answered = events.find((e) => e.kind === 'response');
    if (!answered) throw new Error('the seed has answers');
    // Another answer a day after the conversation's last event (events are recorded as they happen).
    const last = Math.max(...events.filter((e) => e.conversationId === answered.conversationId).map((e) => e.at?.getTime() ?? 0));
    await recordInboxEvents(store.models, [{ ...answered, at: new Date(last + 24 * HOUR), operatorId: 'U0DEV' }]);
    await expectEventFigures(ceId);
  });

  it('tallies a stored history page by page: conversations across pages, longer than a page, or with events recorded since', async () => {
    const ceId = new Types.ObjectId();
    const events = conversationEvents(ceId, new Types.ObjectId(), 31);
    await store.models.InboxEvent.collection.insertMany(events.map((e) => ({ operatorId: '', ...e })));
    // Events recorded since the upgrade (tallied as they happen) after the stored ones of two conversations.
    const since = [events[0], events[events.length - 1]].map((e) => ({ ...e, at: new Date((e.at?.getTime() ?? 0) + 30 * 24 * HOUR) }));
    await recordInboxEvents(store.models, since);
    const perConversation = new Map<string, number>();
    for (const e of events) perConversation.set(String(e.conversationId), (perConversation.get(String(e.conversationId)) ?? 0) + 1);
    const pageSize = 4;
    expect(Math.max(...perConversation.values()), 'a conversation longer than a page').to.be.greaterThan(pageSize);
    expect(await tallyStoredInboxEvents(store.models, pageSize)).to.equal(events.length);
    await expectEventFigures(ceId, [...RANGES, ['UTC', '2026-03-01T00:00:00', '2026-05-31T23:59:59']]);
    expect(await tallyStoredInboxEvents(store.models, pageSize)).to.equal(0);
  });

  it('counts a conversation once when the start tallies its stored events while a process already upgraded records one of the same day', async () => {
    const ceId = new Types.ObjectId();
    const accountId = new Types.ObjectId();
    const at = new Date('2026-03-04T09:00:00Z');
    const assigned = (conversationId: Types.ObjectId, minutes: number, byId: string): NewInboxEvent => ({
      accountId,
      ceId,
      conversationId,
      kind: 'assigned',
      at: new Date(at.getTime() + minutes * 60_000),
      teamId: 'T0',
      operatorId: 'U0ANA',
      byId,
    });
    // Rounds of conversations, each assigned before the upgrade (stored without its tally) and again the same day by a
    // process already running the new version while the start tallies the first.
    for (let round = 0; round < 6; round++) {
      const conversations = Array.from({ length: 12 }, () => new Types.ObjectId());
      await store.models.InboxEvent.collection.insertMany(conversations.map((c, i) => ({ ...assigned(c, round * 20 + i, 'U0ANA') })));
      await Promise.all([
        tallyStoredInboxEvents(store.models, 5),
        // Spread over the start's reads and writes, as live events come.
        ...conversations.map(async (c, i) => {
          await new Promise((resolve) => setTimeout(resolve, i * 3));
          await recordInboxEvent(store.models, assigned(c, round * 20 + i + 1, 'U0BEN'));
        }),
      ]);
    }
    const report = await teamReport(
      store.models,
      { _id: ceId, slackTeamId: '' },
      reportRange({ tz: 'UTC', startDate: '2026-03-04T00:00:00', endDate: '2026-03-04T23:59:59' }),
    );
    expect(report.team.assigned).to.equal(6 * 12);
    expect(report.operators.map((o) => [o.id, o.assigned])).to.deep.equal([['U0ANA', 6 * 12]]);
  });

  it('counts each conversation once over ranges of several months, reading closed UTC months from their month rows', async () => {
    const ceId = new Types.ObjectId();
    // Conversations from January to April whose events pause up to three weeks: many span a month's end.
    const events = conversationEvents(ceId, new Types.ObjectId(), 23, {
      first: Date.parse('2026-01-01T00:00:00Z'),
      days: 115,
      pause: 21 * 24 * HOUR,
      conversations: 60,
    });
    await store.models.InboxEvent.collection.insertMany(events.map((e) => ({ operatorId: '', ...e })));
    await runMigrations(store.connection, store.models);
    const spanning = await store.models.InboxTally.countDocuments({ ceId, 'since.answered.0': { $lt: new Date('2026-03-01') } });
    expect(spanning, 'conversations answered again in a later month').to.be.greaterThan(0);
    // In May every month before is closed; on April 1st, 12:00 UTC, March is not yet (a day after its end) nor April.
    for (const now of [new Date('2026-05-20T00:00:00Z'), new Date('2026-04-01T12:00:00Z')])
      await expectEventFigures(ceId, MONTH_RANGES, now);
    const months = await store.models.InboxTally.find({ ceId, month: true }, { day: 1, team: 1 }).lean();
    expect([...new Set(months.filter((m) => m.team).map((m) => m.day.toISOString().slice(0, 7)))].sort()).to.deep.equal([
      '2026-01',
      '2026-02',
      '2026-03',
      '2026-04',
    ]);
    // An answer recorded late in February (a closed month) drops February's rows; the next report builds them again.
    const answered = events.find((e) => e.kind === 'response' && e.at && e.at < new Date('2026-02-20'));
    if (!answered) throw new Error('the seed has answers in February');
    await recordInboxEvents(store.models, [
      { ...answered, at: new Date('2026-02-27T10:00:00Z'), operatorId: 'U0DEV', responseKind: 'next' },
    ]);
    await expectEventFigures(ceId, MONTH_RANGES, new Date('2026-05-20T00:00:00Z'));
    const report = await teamReport(
      store.models,
      { _id: ceId, slackTeamId: '' },
      reportRange({ tz: 'UTC', startDate: '2026-02-01T00:00:00', endDate: '2026-02-28T23:59:59' }),
    );
    expect(report.operators.map((o) => o.id)).to.include('U0DEV');
  });
});
