import { expect } from 'chai';
import { Types } from 'mongoose';
import { runMigrations } from '../../server/models/migrations';
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
});
