import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { Types } from 'mongoose';
import request from 'supertest';
import { conversationsThisMonth } from '../../server/billing/quota';
import { eraseVisitor } from '../../server/commands/gdprErasure';
import { purgeExpired } from '../../server/commands/retention';
import type { UserDocument } from '../../server/models/User';
import { RETENTION_MESSAGES } from '../../server/shared/retention';
import { createUserInDb } from '../factories';
import { useServer } from '../helpers/app';

const DAY = 24 * 60 * 60 * 1000;

describe('data retention (purgeExpired, PUT /v1/accounts/{id}/retention)', () => {
  const server = useServer();

  /** A conversation started `startedDaysAgo` and ended `endedDaysAgo` (null: still open), with two messages and a file. */
  async function seedConversation(
    admin: UserDocument,
    ceId: Types.ObjectId,
    startedDaysAgo: number,
    endedDaysAgo: number | null,
    now: Date,
  ) {
    const { models } = server;
    const startedAt = new Date(now.getTime() - startedDaysAgo * DAY);
    const visitor = await models.Visitor.create({
      accountId: admin.accountId,
      ceId,
      tokenHash: new Types.ObjectId().toHexString(),
      name: `Visitor ${startedDaysAgo}`,
      email: `v${startedDaysAgo}@visitor.test`,
      lastSeenAt: new Date(now.getTime() - (endedDaysAgo ?? 0) * DAY),
    });
    // An id of that time (as the driver makes them), unique by its random part.
    const _id = new Types.ObjectId(
      Types.ObjectId.createFromTime(Math.floor(startedAt.getTime() / 1000))
        .toHexString()
        .slice(0, 8) + randomBytes(8).toString('hex'),
    );
    const number = (await models.Conversation.countDocuments({ ceId })) + 1;
    await models.Conversation.collection.insertOne({
      _id,
      accountId: admin.accountId,
      ceId,
      number,
      visitorId: visitor._id,
      status: endedDaysAgo === null ? 'open' : 'ended',
      startedAt,
      endedAt: endedDaysAgo === null ? null : new Date(now.getTime() - endedDaysAgo * DAY),
      createdAt: startedAt,
      updatedAt: startedAt,
    });
    await models.Message.create([
      { conversationId: _id, seq: 1, from: 'visitor', kind: 'msg', text: 'hello' },
      { conversationId: _id, seq: 2, from: 'operator', kind: 'msg', text: 'hi' },
    ]);
    await models.WidgetFile.create({
      ceId,
      source: 'visitor',
      visitorId: visitor._id,
      conversationId: _id,
      name: 'shot.png',
      mimetype: 'image/png',
      size: 3,
      data: Buffer.from('png'),
    });
    return { id: _id, visitorId: visitor._id };
  }

  async function setUp(retentionDays: number | null) {
    const { user, account, token } = await createUserInDb(server);
    const ce = await server.models.ChatEndpoint.findOne({ accountId: account._id });
    if (!ce) throw new Error('no widget');
    await request(server.url)
      .put(`/v1/accounts/${account.id}/retention`)
      .set('Authorization', `Bearer ${token}`)
      .send({ retentionDays })
      .expect(200);
    return { user, account, token, ceId: ce._id };
  }

  it('deletes exactly the ended conversations older than the period, with their messages, files and visitors, and leaves the rest', async () => {
    const now = new Date();
    const { user, ceId } = await setUp(30);
    const old = await seedConversation(user, ceId, 45, 40, now);
    const oldButOpen = await seedConversation(user, ceId, 50, null, now);
    const endedInside = await seedConversation(user, ceId, 35, 20, now);
    const recent = await seedConversation(user, ceId, 2, 1, now);
    // Another account without retention keeps its old conversation.
    const other = await setUp(null);
    const othersOld = await seedConversation(other.user, other.ceId, 400, 399, now);
    await server.models.OfflineMessage.create([
      { accountId: user.accountId, ceId, email: 'old@visitor.test', message: 'old', createdAt: new Date(now.getTime() - 31 * DAY) },
      { accountId: user.accountId, ceId, email: 'new@visitor.test', message: 'new' },
    ]);

    const search = (accountId: Types.ObjectId, daysAgo: number, query: string) => ({
      accountId,
      ceId,
      kind: 'search' as const,
      query,
      hits: 0,
      at: new Date(now.getTime() - daysAgo * DAY),
    });
    await server.models.AnswerEvent.create([
      search(user.accountId, 31, 'old question'),
      search(user.accountId, 29, 'recent question'),
      search(other.user.accountId, 400, 'kept without retention'),
    ]);

    const pass = await purgeExpired(server.models, { now, batch: 1 });

    expect(pass).to.include({ conversations: 1, messages: 2, files: 1, offlineMessages: 1, answerEvents: 1 });
    expect((await server.models.AnswerEvent.find({}, { query: 1 }).sort({ at: 1 }).lean()).map((e) => e.query)).to.deep.equal([
      'kept without retention',
      'recent question',
    ]);
    const left = (await server.models.Conversation.find({}, { _id: 1 }).lean()).map((c) => String(c._id));
    expect(left).to.not.include(String(old.id));
    expect(left).to.include.members([oldButOpen.id, endedInside.id, recent.id, othersOld.id].map(String));
    expect(await server.models.Message.countDocuments({ conversationId: old.id })).to.equal(0);
    expect(await server.models.Message.countDocuments({ conversationId: recent.id })).to.equal(2);
    expect(await server.models.WidgetFile.countDocuments({ conversationId: old.id })).to.equal(0);
    expect(await server.models.WidgetFile.countDocuments({ conversationId: endedInside.id })).to.equal(1);
    expect(await server.models.Visitor.exists({ _id: old.visitorId })).to.equal(null);
    expect(await server.models.Visitor.exists({ _id: recent.visitorId })).to.not.equal(null);
    expect((await server.models.OfflineMessage.find({ accountId: user.accountId })).map((m) => m.message)).to.deep.equal(['new']);
  });

  it('keeps counting deleted conversations in the month they started, once, however many passes run at once', async () => {
    const now = new Date();
    const { user, ceId } = await setUp(30);
    // Started more than 30 days ago but within the quota's month only on 31-day months: count against the month it started in.
    const startedAt = new Date(now.getTime() - 45 * DAY);
    for (let i = 0; i < 5; i++) await seedConversation(user, ceId, 45, 40, now);
    const before = await conversationsThisMonth(server.models, user.accountId, startedAt);
    expect(before).to.equal(5);
    const passes = await Promise.all([1, 2, 3].map(() => purgeExpired(server.models, { now, batch: 2 })));
    expect(passes.reduce((sum, p) => sum + p.conversations, 0)).to.equal(5);
    expect(await server.models.Conversation.countDocuments({ accountId: user.accountId })).to.equal(0);
    expect(await conversationsThisMonth(server.models, user.accountId, startedAt)).to.equal(5);
  });

  it('keeps the presence transition in force at the cutoff so availability still starts in the right state', async () => {
    const now = new Date();
    const { user, ceId } = await setUp(30);
    const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * DAY);
    await server.models.PresenceChange.create([
      { accountId: user.accountId, ceId, at: at(60), online: true, cause: 'slack-activity', n: 1 },
      { accountId: user.accountId, ceId, at: at(40), online: false, cause: 'operating-hours', n: 2 },
      { accountId: user.accountId, ceId, at: at(5), online: true, cause: 'operating-hours', n: 3 },
    ]);
    await purgeExpired(server.models, { now });
    const left = await server.models.PresenceChange.find({ ceId }).sort({ n: 1 }).lean();
    expect(left.map((p) => p.n)).to.deep.equal([2, 3]);
  });

  it('leaves GDPR erasure working on what is kept', async () => {
    const now = new Date();
    const { user, ceId } = await setUp(30);
    await seedConversation(user, ceId, 45, 40, now);
    const kept = await seedConversation(user, ceId, 3, 2, now);
    await purgeExpired(server.models, { now });
    const erasure = await eraseVisitor(server.models, user, String(kept.visitorId));
    expect(erasure.conversations).to.equal(1);
    expect(erasure.messages).to.equal(2);
  });

  describe('PUT /v1/accounts/{id}/retention', () => {
    it('saves the period for an admin, answers it in the account, and turns it off with null', async () => {
      const { account, token } = await createUserInDb(server);
      const put = (retentionDays: unknown) =>
        request(server.url).put(`/v1/accounts/${account.id}/retention`).set('Authorization', `Bearer ${token}`).send({ retentionDays });
      expect((await put(90).expect(200)).body.account.retentionDays).to.equal(90);
      expect((await put(null).expect(200)).body.account.retentionDays).to.equal(null);
    });

    it('answers 400 with a Message outside 30 to 3650 days and for anything but a whole number', async () => {
      const { account, token } = await createUserInDb(server);
      for (const bad of [29, 3651, 45.5, '90', -1]) {
        const res = await request(server.url)
          .put(`/v1/accounts/${account.id}/retention`)
          .set('Authorization', `Bearer ${token}`)
          .send({ retentionDays: bad })
          .expect(400);
        expect(res.body.Message).to.include(RETENTION_MESSAGES.range);
      }
      await request(server.url)
        .put(`/v1/accounts/${account.id}/retention`)
        .set('Authorization', `Bearer ${token}`)
        .send({ retentionDays: 90, extra: 1 })
        .expect(400);
      expect((await server.models.Account.findById(account._id))?.retentionDays).to.equal(null);
    });

    it('answers 403 without a session and to a non-admin, and 404 for another account', async () => {
      const { account } = await createUserInDb(server);
      await request(server.url).put(`/v1/accounts/${account.id}/retention`).send({ retentionDays: 90 }).expect(403);
      const member = await createUserInDb(server, { account, admin: false });
      await request(server.url)
        .put(`/v1/accounts/${account.id}/retention`)
        .set('Authorization', `Bearer ${member.token}`)
        .send({ retentionDays: 90 })
        .expect(403);
      const stranger = await createUserInDb(server);
      await request(server.url)
        .put(`/v1/accounts/${account.id}/retention`)
        .set('Authorization', `Bearer ${stranger.token}`)
        .send({ retentionDays: 90 })
        .expect(404);
      expect((await server.models.Account.findById(account._id))?.retentionDays).to.equal(null);
    });
  });
});
