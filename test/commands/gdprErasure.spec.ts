import { expect } from 'chai';
import { Types } from 'mongoose';
import { eraseVisitor, presentErasure } from '../../server/commands/gdprErasure';
import { NotFoundError } from '../../server/errors';
import { TEAM_MESSAGES } from '../../server/shared/teamMessages';
import { createUserInDb } from '../factories';
import { useStore } from './helpers';

describe('gdprErasure', () => {
  const store = useStore();

  async function seed(accountId: Types.ObjectId, email: string) {
    const ceId = new Types.ObjectId();
    const visitor = await store.models.Visitor.create({
      accountId,
      ceId,
      tokenHash: new Types.ObjectId().toHexString(),
      name: 'Vera',
      email,
    });
    const { insertedId } = await store.models.Conversation.collection.insertOne({
      accountId,
      ceId,
      number: 1,
      visitorId: visitor._id,
      status: 'open',
      startedAt: new Date(),
      endedAt: null,
      pageUrl: 'https://shop.example/private',
      firstLine: 'my address is 1 Main St',
    });
    await store.models.Message.create({
      conversationId: insertedId,
      seq: 1,
      from: 'visitor',
      kind: 'msg',
      text: 'my address is 1 Main St',
    });
    await store.models.WidgetFile.create({
      ceId,
      source: 'visitor',
      visitorId: visitor._id,
      conversationId: insertedId,
      name: 'id.png',
      mimetype: 'image/png',
      size: 1,
      data: Buffer.from('x'),
    });
    await store.models.OfflineMessage.create({ accountId, ceId, email, message: 'call me' });
    return { visitor, conversationId: insertedId };
  }

  it('erases by e-mail (any case) the visitor, their messages, files and offline messages; the conversation stays as an anonymous count', async () => {
    const { user: admin } = await createUserInDb(store);
    const { visitor, conversationId } = await seed(admin.accountId, 'vera@visitor.test');
    const erasure = await eraseVisitor(store.models, admin, '  Vera@Visitor.TEST ');
    expect(presentErasure(erasure)).to.include({ by: 'email', visitors: 1, conversations: 1, messages: 1, files: 1, offlineMessages: 1 });
    expect(await store.models.Visitor.exists({ _id: visitor._id })).to.equal(null);
    expect(await store.models.Message.countDocuments({ conversationId })).to.equal(0);
    expect(await store.models.WidgetFile.countDocuments({ conversationId })).to.equal(0);
    expect(await store.models.OfflineMessage.countDocuments({ email: 'vera@visitor.test' })).to.equal(0);
    const conversation = await store.models.Conversation.collection.findOne({ _id: conversationId });
    expect(conversation).to.include({ status: 'ended', pageUrl: '', firstLine: '' });
    expect(conversation?.erasedAt).to.be.instanceOf(Date);
    expect(conversation?.endedAt).to.be.instanceOf(Date);
    expect(JSON.stringify(await store.models.GdprErasure.findById(erasure._id).lean())).to.not.include('vera@visitor.test');
  });

  it('deletes the help center’s events tied to the erased conversations, and only those', async () => {
    const { user: admin } = await createUserInDb(store);
    const { conversationId } = await seed(admin.accountId, 'ada@visitor.test');
    const kept = await seed(admin.accountId, 'bob@visitor.test');
    const articleId = new Types.ObjectId();
    const event = (conversation: Types.ObjectId) => ({
      accountId: admin.accountId,
      ceId: new Types.ObjectId(),
      kind: 'resolved' as const,
      articleId,
      conversationId: conversation,
    });
    await store.models.AnswerEvent.create([event(conversationId), event(kept.conversationId)]);
    await eraseVisitor(store.models, admin, 'ada@visitor.test');
    expect(await store.models.AnswerEvent.countDocuments({ conversationId })).to.equal(0);
    expect(await store.models.AnswerEvent.countDocuments({ conversationId: kept.conversationId })).to.equal(1);
  });

  it('erases by visitor id, and never touches another account’s visitor', async () => {
    const { user: admin } = await createUserInDb(store);
    const { user: stranger } = await createUserInDb(store);
    const { visitor } = await seed(admin.accountId, 'sam@visitor.test');
    const error = await eraseVisitor(store.models, stranger, String(visitor._id)).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(NotFoundError);
    expect((error as Error).message).to.equal(TEAM_MESSAGES.erasureNotFound);
    expect(await store.models.Visitor.exists({ _id: visitor._id })).to.not.equal(null);
    const erasure = await eraseVisitor(store.models, admin, String(visitor._id));
    expect(erasure.by).to.equal('visitorId');
    expect(await store.models.Visitor.exists({ _id: visitor._id })).to.equal(null);
  });
});
