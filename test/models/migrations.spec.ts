import { expect } from 'chai';
import { Types } from 'mongoose';
import { inboxStateOf } from '../../server/conversations/inbox';
import { runMigrations } from '../../server/models/migrations';
import { reportRange } from '../../server/reports/range';
import { teamReport } from '../../server/reports/team';
import { useStore } from '../commands/helpers';

describe('migrations run at start', () => {
  const store = useStore();

  it('moves thread posts of the old queue into the outbox once, in order, keeping their ids; given-up ones are dropped', async () => {
    const conversation = await store.models.Conversation.collection.insertOne({
      accountId: new Types.ObjectId(),
      ceId: new Types.ObjectId(),
      visitorId: new Types.ObjectId(),
      number: 1,
      status: 'open',
      slackChannel: 'C0SUPPORT',
    });
    const conversationId = conversation.insertedId;
    const old = store.connection.collection('threadposts');
    const first = new Types.ObjectId();
    const second = new Types.ObjectId();
    await old.insertMany([
      { _id: first, conversationId, text: 'first', blocks: [], failedAt: null },
      { _id: second, conversationId, text: 'second', blocks: [], username: 'Parley', failedAt: null },
      { _id: new Types.ObjectId(), conversationId, text: 'given up', blocks: [], failedAt: new Date() },
      { _id: new Types.ObjectId(), conversationId: new Types.ObjectId(), text: 'of a gone conversation', blocks: [], failedAt: null },
    ]);
    expect(await runMigrations(store.connection, store.models)).to.deep.include({ threadPosts: 2 });
    const jobs = await store.models.OutboxJob.find({ conversationId }).sort({ _id: 1 }).lean();
    expect(jobs.map((j) => [String(j._id), j.kind, j.channel, j.payload.text])).to.deep.equal([
      [String(first), 'slack.threadPost', 'C0SUPPORT', 'first'],
      [String(second), 'slack.threadPost', 'C0SUPPORT', 'second'],
    ]);
    expect(await old.countDocuments({})).to.equal(0);
    // Every later start finds nothing to move.
    expect(await runMigrations(store.connection, store.models)).to.deep.include({ threadPosts: 0 });
    expect(await store.models.OutboxJob.countDocuments({ conversationId })).to.equal(2);
  });

  it('gives widgets stored before quiet reminders the new defaults once: no @here, and the old 60 s pace becomes 120 s', async () => {
    const stored = (freq: number) => ({
      accountId: new Types.ObjectId(),
      userId: new Types.ObjectId(),
      Uuid: `u-${freq}`,
      responseReminders: true,
      responseRemindersFreq: freq,
    });
    const old = await store.models.ChatEndpoint.collection.insertMany([stored(60), stored(30)]);
    const [atDefault, chosen] = Object.values(old.insertedIds);
    expect((await runMigrations(store.connection, store.models)).quietReminders).to.equal(2);
    const read = async (id: Types.ObjectId) => store.models.ChatEndpoint.collection.findOne({ _id: id });
    expect(await read(atDefault)).to.include({ responseRemindersFreq: 120, responseRemindersMention: false });
    expect(await read(chosen)).to.include({ responseRemindersFreq: 30, responseRemindersMention: false });
    // An owner who sets 60 afterwards, and @here, keeps them over every later start.
    await store.models.ChatEndpoint.collection.updateOne(
      { _id: atDefault },
      { $set: { responseRemindersFreq: 60, responseRemindersMention: true } },
    );
    expect((await runMigrations(store.connection, store.models)).quietReminders).to.equal(0);
    expect(await read(atDefault)).to.include({ responseRemindersFreq: 60, responseRemindersMention: true });
  });

  it('moves queued jobs of the retired slack.note and slack.offline kinds to their successors once, in place', async () => {
    const conversationId = new Types.ObjectId();
    const jobs = store.models.OutboxJob.collection;
    const stored = { channel: 'C0SUPPORT', runAt: new Date(), lockedUntil: null, lockedBy: '', lastError: '', failedAt: null };
    const inserted = await jobs.insertMany([
      {
        ...stored,
        kind: 'slack.note',
        key: String(conversationId),
        conversationId,
        attempts: 2,
        payload: { teamId: 'T1', channel: 'C0SUPPORT', threadTs: '1.000100', text: 'a note', slackMaybePosted: ['p1'] },
      },
      {
        ...stored,
        kind: 'slack.offline',
        key: 'offline:1:slack',
        conversationId: null,
        attempts: 0,
        payload: { teamId: 'T1', channel: 'C0SUPPORT', text: 'offline' },
      },
      {
        ...stored,
        kind: 'slack.threadPost',
        key: String(conversationId),
        conversationId,
        attempts: 0,
        payload: { conversationId: String(conversationId), text: 'after', look: 'note' },
      },
    ]);
    expect((await runMigrations(store.connection, store.models)).retiredJobs).to.equal(2);
    const after = await jobs
      .find({ _id: { $in: Object.values(inserted.insertedIds) } })
      .sort({ _id: 1 })
      .toArray();
    // Same ids (so the same order and the same post ids in Slack), same attempts, and a post that may be in Slack still marked.
    expect(after.map((j) => [String(j._id), j.kind, j.key, j.attempts])).to.deep.equal([
      [String(inserted.insertedIds[0]), 'slack.threadPost', String(conversationId), 2],
      [String(inserted.insertedIds[1]), 'slack.channelPost', 'offline:1:slack', 0],
      [String(inserted.insertedIds[2]), 'slack.threadPost', String(conversationId), 0],
    ]);
    expect(after[0].payload).to.deep.equal({
      conversationId: String(conversationId),
      text: 'a note',
      look: 'note',
      slackMaybePosted: ['p1'],
    });
    expect(after[1].payload).to.deep.equal({ teamId: 'T1', channel: 'C0SUPPORT', text: 'offline' });
    expect((await runMigrations(store.connection, store.models)).retiredJobs).to.equal(0);
  });

  it('gives conversations stored before the shared inbox their state once: open or ended, unassigned, untagged', async () => {
    const stored = (status: 'open' | 'ended', number: number) => ({
      accountId: new Types.ObjectId(),
      ceId: new Types.ObjectId(),
      visitorId: new Types.ObjectId(),
      number,
      status,
      startedAt: new Date(),
    });
    const old = await store.models.Conversation.collection.insertMany([stored('open', 1), stored('ended', 2)]);
    const [open, ended] = Object.values(old.insertedIds);
    // Read before the migration: inboxStateOf already says open or ended.
    const before = await store.models.Conversation.findById(open).orFail();
    expect(inboxStateOf(before)).to.equal('open');
    expect((await runMigrations(store.connection, store.models)).inboxStates).to.equal(2);
    const read = async (id: Types.ObjectId) => store.models.Conversation.collection.findOne({ _id: id });
    expect(await read(open)).to.deep.include({ inboxState: 'open', assigneeId: '', snoozedUntil: null, tags: [] });
    expect(await read(ended)).to.deep.include({ inboxState: 'ended', assigneeId: '', snoozedUntil: null, tags: [] });
    await store.models.Conversation.collection.updateOne({ _id: open }, { $set: { inboxState: 'waiting', assigneeId: 'U0ALICE001' } });
    expect((await runMigrations(store.connection, store.models)).inboxStates).to.equal(0);
    expect(await read(open)).to.deep.include({ inboxState: 'waiting', assigneeId: 'U0ALICE001' });
  });

  it('tallies the shared inbox events stored before the Team report read tallies, once', async () => {
    const ceId = new Types.ObjectId();
    const conversationId = new Types.ObjectId();
    const event = (kind: string, at: string, extra: Record<string, unknown> = {}) => ({
      accountId: new Types.ObjectId(),
      ceId,
      conversationId,
      kind,
      at: new Date(at),
      teamId: 'T0',
      operatorId: 'U0ALICE001',
      ...extra,
    });
    // Assigned twice the same day (once in the day's figure), answered on two days, tagged (not a figure).
    await store.models.InboxEvent.collection.insertMany([
      event('assigned', '2026-03-02T10:00:00Z'),
      event('assigned', '2026-03-02T11:00:00Z'),
      event('response', '2026-03-02T10:05:00Z', { responseKind: 'first', waitSecs: 42, withinTarget: true }),
      event('response', '2026-03-03T09:00:00Z', { responseKind: 'next', waitSecs: 7.5, withinTarget: null }),
      event('tagged', '2026-03-03T09:01:00Z', { operatorId: '', tag: 'billing' }),
    ]);
    expect((await runMigrations(store.connection, store.models)).inboxTallies).to.equal(5);
    const tally = async (day: string) =>
      store.models.InboxTally.findOne({ ceId, day: new Date(day), team: false, operatorId: 'U0ALICE001' })
        .lean()
        .orFail();
    expect(await tally('2026-03-02')).to.deep.include({
      n: { assigned: 1, answered: 1 },
      firstResponses: 1,
      firstWaits: { w42: 1 },
      targeted: 1,
      withinTarget: 1,
    });
    // The second day's answer remembers the first day's, so a range over both counts the conversation once.
    expect(await tally('2026-03-03')).to.deep.include({
      n: { answered: 1 },
      since: { answered: [new Date('2026-03-02T10:05:00Z')] },
      nextResponses: 1,
      nextWaits: { w7_5: 1 },
    });
    expect((await runMigrations(store.connection, store.models)).inboxTallies).to.equal(0);
    expect(await store.models.InboxTally.countDocuments({ ceId })).to.equal(4);
    // March is closed: a report over it reads the month's rows, built from the days the upgrade tallied, the
    // conversation once in the month (its second day's answer repeats the first's).
    const march = await teamReport(
      store.models,
      { _id: ceId, slackTeamId: '' },
      reportRange({ tz: 'UTC', startDate: '2026-03-01T00:00:00', endDate: '2026-03-31T23:59:59' }),
    );
    expect(march.operators.map((o) => [o.id, o.assigned, o.answered, o.medianFirstResponseSecs, o.medianNextResponseSecs])).to.deep.equal([
      ['U0ALICE001', 1, 1, 42, 8],
    ]);
    const month = await store.models.InboxTally.findOne({ ceId, month: true, day: new Date('2026-03-01'), operatorId: 'U0ALICE001' })
      .lean()
      .orFail();
    expect(month).to.deep.include({
      n: { assigned: 1, answered: 1 },
      since: {},
      firstResponses: 1,
      nextResponses: 1,
      firstWaits: { w42: 1 },
      nextWaits: { w7_5: 1 },
      targeted: 1,
      withinTarget: 1,
    });
  });
});
