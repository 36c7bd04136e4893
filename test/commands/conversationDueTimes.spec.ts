import { expect } from 'chai';
import { Types } from 'mongoose';
import {
  inactiveAt,
  openingDueTimes,
  recomputeDueTimes,
  reminderDueAt,
  scheduleOldDueTimes,
} from '../../server/commands/conversationDueTimes';
import { CHAT_ENDPOINT_DEFAULTS } from '../../server/models/ChatEndpoint';
import { reminderScheduleLabel } from '../../server/shared/settings';
import { createUserInDb } from '../factories';
import { useStore } from './helpers';

describe('conversationDueTimes', () => {
  const store = useStore();
  const MIN = 60_000;

  it('puts the inactivity end after the grace period, and immediately for 0 (never before the last activity)', () => {
    const at = new Date('2026-01-01T10:00:00Z');
    expect(inactiveAt(at, { maxVisitorInactiveMins: 5 }).toISOString()).to.equal('2026-01-01T10:05:00.000Z');
    expect(inactiveAt(at, { maxVisitorInactiveMins: 0 }).toISOString()).to.equal(at.toISOString());
    expect(inactiveAt(at, { maxVisitorInactiveMins: -3 }).toISOString()).to.equal(at.toISOString());
    const opening = openingDueTimes({ maxVisitorInactiveMins: 10, noAnswerMessageAfterSecs: 120 }, at);
    expect(opening).to.deep.equal({
      startedAt: at,
      inactiveAt: new Date(at.getTime() + 10 * MIN),
      noAnswerAt: new Date(at.getTime() + 2 * MIN),
      autoAnswerAt: null,
    });
    // The automatic answer from the help center: autoAnswerAfterSeconds after the start, none at 0.
    const answering = { maxVisitorInactiveMins: 10, noAnswerMessageAfterSecs: 120, autoAnswerAfterSeconds: 45 };
    expect(openingDueTimes(answering, at).autoAnswerAt).to.deep.equal(new Date(at.getTime() + 45_000));
    expect(openingDueTimes({ ...answering, autoAnswerAfterSeconds: 0 }, at).autoAnswerAt).to.equal(null);
  });

  it('recomputes open conversations from their own facts: the last visitor message, and no no-answer once answered', async () => {
    const ceId = new Types.ObjectId();
    const startedAt = new Date('2026-01-01T10:00:00Z');
    const base = {
      accountId: new Types.ObjectId(),
      ceId,
      visitorId: new Types.ObjectId(),
      startedAt,
      firstResponseAt: null,
      noAnswerNotifiedAt: null,
    };
    const { insertedIds } = await store.models.Conversation.collection.insertMany([
      { ...base, number: 1, status: 'open', lastVisitorMsgAt: new Date(startedAt.getTime() + 7 * MIN) },
      { ...base, number: 2, status: 'open', lastVisitorMsgAt: null, firstResponseAt: new Date() },
      { ...base, number: 3, status: 'ended', lastVisitorMsgAt: null, inactiveAt: null },
    ]);
    const changed = await recomputeDueTimes(store.models, { _id: ceId, maxVisitorInactiveMins: 15, noAnswerMessageAfterSecs: 60 });
    expect(changed).to.equal(2);
    const [visitorWrote, answered, ended] = await Promise.all(
      [0, 1, 2].map((i) => store.models.Conversation.collection.findOne({ _id: insertedIds[i] })),
    );
    expect(visitorWrote?.inactiveAt).to.deep.equal(new Date(startedAt.getTime() + 22 * MIN));
    expect(visitorWrote?.noAnswerAt).to.deep.equal(new Date(startedAt.getTime() + MIN));
    expect(answered?.inactiveAt).to.deep.equal(new Date(startedAt.getTime() + 15 * MIN));
    expect(answered?.noAnswerAt).to.equal(null);
    expect(ended?.inactiveAt).to.equal(null);
  });

  it('schedules conversations open from before due times existed, once; those of a deleted widget get none', async () => {
    const { user } = await createUserInDb(store);
    const ce = await store.models.ChatEndpoint.findOne({ accountId: user.accountId });
    if (!ce) throw new Error('no widget');
    const startedAt = new Date('2026-01-01T10:00:00Z');
    const old = {
      accountId: user.accountId,
      visitorId: new Types.ObjectId(),
      status: 'open',
      startedAt,
      lastVisitorMsgAt: null,
      firstResponseAt: null,
      noAnswerNotifiedAt: null,
    };
    const { insertedIds } = await store.models.Conversation.collection.insertMany([
      { ...old, ceId: ce._id, number: 1 },
      // Stored before Parley kept lastVisitorMsgAt: the field is missing, not null.
      { accountId: user.accountId, visitorId: new Types.ObjectId(), status: 'open', startedAt, ceId: ce._id, number: 2 },
      { ...old, ceId: new Types.ObjectId(), number: 1 },
    ]);
    await scheduleOldDueTimes(store.models);
    const scheduled = await store.models.Conversation.collection.findOne({ _id: insertedIds[0] });
    const orphan = await store.models.Conversation.collection.findOne({ _id: insertedIds[2] });
    expect(scheduled?.inactiveAt).to.deep.equal(new Date(startedAt.getTime() + ce.maxVisitorInactiveMins * MIN));
    expect(orphan).to.include({ inactiveAt: null, noAnswerAt: null });
    const older = await store.models.Conversation.collection.findOne({ _id: insertedIds[1] });
    expect(older?.inactiveAt).to.deep.equal(new Date(startedAt.getTime() + ce.maxVisitorInactiveMins * MIN));
  });

  it('spaces a wait’s reminders further apart, 5, 15, 30 and 60 minutes by default, and has no fifth', () => {
    const asked = new Date('2026-01-01T10:00:00Z');
    const at = (sent: number, freq = CHAT_ENDPOINT_DEFAULTS.responseRemindersFreq) =>
      reminderDueAt(asked, sent, freq)?.toISOString() ?? null;
    expect([0, 1, 2, 3, 4].map((sent) => at(sent))).to.deep.equal([
      '2026-01-01T10:05:00.000Z',
      '2026-01-01T10:15:00.000Z',
      '2026-01-01T10:30:00.000Z',
      '2026-01-01T11:00:00.000Z',
      null,
    ]);
    // The fastest choice of the settings' list still waits over a minute before the first one.
    expect(at(0, 30)).to.equal('2026-01-01T10:01:15.000Z');
    expect(reminderScheduleLabel(120)).to.equal('5, 15, 30 and 60 minutes');
    expect(reminderScheduleLabel(30)).to.equal('1¼, 3¾, 7½ and 15 minutes');
  });

  it('has the due work look at once at a waiting conversation from before reminders had a due time, and only at those', async () => {
    const base = { accountId: new Types.ObjectId(), ceId: new Types.ObjectId(), visitorId: new Types.ObjectId(), startedAt: new Date() };
    const { insertedIds } = await store.models.Conversation.collection.insertMany([
      { ...base, number: 1, status: 'open', lastVisitorMsgAt: new Date(), inactiveAt: null },
      { ...base, number: 2, status: 'open', lastVisitorMsgAt: null, inactiveAt: null },
      { ...base, number: 3, status: 'ended', lastVisitorMsgAt: new Date(), inactiveAt: null },
      { ...base, number: 4, status: 'open', lastVisitorMsgAt: new Date(), inactiveAt: null, reminderAt: null },
    ]);
    const before = Date.now();
    await scheduleOldDueTimes(store.models);
    const [waiting, silent, ended, done] = await Promise.all(
      [0, 1, 2, 3].map((i) => store.models.Conversation.collection.findOne({ _id: insertedIds[i] })),
    );
    expect(waiting?.reminderAt).to.be.instanceOf(Date);
    expect(new Date(waiting?.reminderAt).getTime()).to.be.at.least(before - 1000);
    expect(silent).to.not.have.property('reminderAt');
    expect(ended).to.not.have.property('reminderAt');
    expect(done?.reminderAt).to.equal(null);
  });
});
