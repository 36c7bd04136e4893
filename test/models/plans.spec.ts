import { expect } from 'chai';
import mongoose, { type Connection } from 'mongoose';
import { createWidget } from '../../server/commands/createWidget';
import { createModels, ensureIndexes, type Models } from '../../server/models';
import { CHAT_ENDPOINT_DEFAULTS } from '../../server/models/ChatEndpoint';
import { seedPlans } from '../../server/models/Plan';
import { PLAN_CATALOG, TRIAL_PLAN_STRIPE_ID } from '../../server/shared/plans';
import { testMongoUri, uniqueDbName } from '../helpers/mongo';

describe('models', () => {
  let connection: Connection;
  let models: Models;
  before(async () => {
    connection = await mongoose.createConnection(await testMongoUri(), { dbName: uniqueDbName('models') }).asPromise();
    models = createModels(connection);
    await ensureIndexes(models);
  });
  after(async () => {
    await connection?.dropDatabase();
    await connection?.close();
  });

  describe('the plan catalog', () => {
    it('has a monthly and a yearly ladder: basic, a mid plan, a top plan and a custom plan', () => {
      for (const duration of ['monthly', 'yearly'] as const) {
        const ladder = PLAN_CATALOG.filter((p) => p.duration === duration).sort((a, b) => a.rank - b.rank);
        expect(ladder.map((p) => p.label)).to.deep.equal(['Basic', 'Pro', 'Business', 'Custom']);
        expect(ladder.at(-1)?.price).to.equal(null);
        const prices = ladder.slice(0, 3).map((p) => p.price ?? 0);
        expect(prices).to.deep.equal([...prices].sort((a, b) => a - b));
        const channels = ladder.map((p) => p.maxChannels);
        expect(channels).to.deep.equal([...channels].sort((a, b) => a - b));
      }
    });

    it('prices a year at 11 months (one month free)', () => {
      for (const monthly of PLAN_CATALOG.filter((p) => p.duration === 'monthly')) {
        const yearly = PLAN_CATALOG.find((p) => p.duration === 'yearly' && p.label === monthly.label);
        expect(yearly?.price).to.equal(monthly.price === null ? null : monthly.price * 11);
        expect(yearly?.maxChannels).to.equal(monthly.maxChannels);
      }
    });

    it('starts trials on the basic monthly plan', () => {
      expect(PLAN_CATALOG.find((p) => p.stripeId === TRIAL_PLAN_STRIPE_ID)).to.include({ label: 'Basic', duration: 'monthly' });
    });

    it('gives the reports flag to the mid plan and above only', () => {
      const withReports = PLAN_CATALOG.filter((p) => p.duration === 'monthly' && p.reports).map((p) => p.label);
      expect(withReports).to.deep.equal(['Pro', 'Business', 'Custom']);
    });

    it('is seeded idempotently: seeding twice leaves one copy of each plan, and repairs a changed one', async () => {
      await seedPlans(models.Plan);
      await models.Plan.updateOne({ stripeId: 'parley_pro_monthly' }, { $set: { price: 1 } });
      await seedPlans(models.Plan);
      expect(await models.Plan.countDocuments()).to.equal(PLAN_CATALOG.length);
      expect((await models.Plan.findOne({ stripeId: 'parley_pro_monthly' }).lean())?.price).to.equal(7900);
    });
  });

  describe('ChatEndpoint', () => {
    it('starts a new widget at Step 1 with every setting at its default and a random Uuid', async () => {
      const owner = { accountId: new mongoose.Types.ObjectId(), userId: new mongoose.Types.ObjectId() };
      const first = await createWidget(models, owner);
      const second = await createWidget(models, owner);
      expect(first.Step).to.equal(1);
      expect(first.Uuid).not.to.equal(second.Uuid);
      const stored = await models.ChatEndpoint.findById(first._id).lean();
      for (const [key, value] of Object.entries(CHAT_ENDPOINT_DEFAULTS)) {
        expect(stored, key).to.have.property(key, value);
      }
      expect(stored).to.include({
        onlineTitle: 'Questions? Chat with us!',
        widgetAlignment: 'bottomRight',
        metaInfoInMainChannel: 'compact',
        maxConcurrentConvos: 0,
        // Reminders after 5, 15, 30 and 60 minutes, without @here.
        responseRemindersFreq: 120,
        responseRemindersMention: false,
      });
      expect(JSON.parse(stored?.triggerJson ?? '')).to.deep.equal({ minDelay: 60, matchType: 'contains', triggers: [] });
    });

    it('refuses values outside the choices of a select', async () => {
      const owner = { accountId: new mongoose.Types.ObjectId(), userId: new mongoose.Types.ObjectId() };
      let failed = false;
      try {
        const widget = new models.ChatEndpoint(owner);
        widget.set('widgetAlignment', 'topLeft');
        await widget.save();
      } catch {
        failed = true;
      }
      expect(failed).to.equal(true);
    });
  });

  describe('indexes', () => {
    it('keeps e-mails unique', async () => {
      const accountId = new mongoose.Types.ObjectId();
      await models.User.create({ email: 'same@example.com', accountId });
      let code: unknown;
      try {
        await models.User.create({ email: 'same@example.com', accountId });
      } catch (error) {
        code = (error as { code?: unknown }).code;
      }
      expect(code).to.equal(11000);
    });

    it('lets the database drop expired sessions and reset tokens (TTL indexes on expiresAt)', async () => {
      for (const model of [models.Session, models.PasswordResetToken]) {
        const indexes = await model.collection.indexes();
        const ttl = indexes.find((i) => i.key.expiresAt === 1);
        expect(ttl?.expireAfterSeconds, model.modelName).to.equal(0);
      }
    });
  });
});
