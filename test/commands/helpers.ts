/**
 * The store a command spec works on: the real embedded store (the one the test process shares), a database of
 * the describe block's own, Parley's models on it and the plans seeded, as startParley does, without the rest
 * of a server. Commands that need transports (the relay, Slack, mail) use useServer() instead.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mongoose, { type Connection } from 'mongoose';
import { type Config, loadConfig } from '../../server/config';
import { createMailer, type Mailer } from '../../server/mail';
import type { Outbox } from '../../server/mail/outbox';
import { createModels, type Models } from '../../server/models';
import { seedPlans } from '../../server/models/Plan';
import { TEST_PASSWORD_HASHING } from '../helpers/app';
import { testMongoUri, uniqueDbName } from '../helpers/mongo';

/** `mailer`: the development outbox in the store's data folder (a real transport, read back with `mailer.outbox`). */
export type Store = { models: Models; config: Config; connection: Connection; dataDir: string; mailer: Mailer & { outbox: Outbox } };

/** One database for the enclosing describe: opened before its first test, dropped after its last. */
export function useStore(): Store {
  let current: Store | undefined;
  before(async () => {
    const connection = await mongoose.createConnection(await testMongoUri(), { dbName: uniqueDbName('commands') }).asPromise();
    const models = createModels(connection);
    await Promise.all(Object.values(models).map((model) => model.init()));
    await seedPlans(models.Plan);
    const dataDir = mkdtempSync(path.join(tmpdir(), 'parley-commands-'));
    const config: Config = { ...loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir }), passwordHashing: TEST_PASSWORD_HASHING };
    const mailer = createMailer(config.mail);
    if (!mailer.outbox) throw new Error('command specs mail to the outbox, not to SMTP');
    current = { models, config, connection, dataDir, mailer: mailer as Mailer & { outbox: Outbox } };
  });
  after(async () => {
    const store = current;
    current = undefined;
    if (!store) return;
    await store.connection.dropDatabase();
    store.mailer.close();
    await store.connection.close();
    rmSync(store.dataDir, { recursive: true, force: true });
  });
  return new Proxy({} as Store, {
    get(_target, key) {
      if (!current) throw new Error(`the store is used (${String(key)}) outside the tests of its describe block`);
      return Reflect.get(current, key) as unknown;
    },
  });
}

/** What a settings change tells open widgets and other processes, recorded (the relay's pub/sub is a transport). */
export function recordingSettingsDeps(models: Models, online = true) {
  const published: { channel: string; frame: unknown }[] = [];
  const signals: { kind: 'widget'; ceId: string }[] = [];
  const rechecked: string[] = [];
  return {
    published,
    signals,
    rechecked,
    deps: {
      models,
      pubsub: {
        publish: (channel: string, frame: unknown) => {
          published.push({ channel, frame });
        },
        signal: (signal: { kind: 'widget'; ceId: string }) => {
          signals.push(signal);
        },
      },
      presence: {
        recheck: async (ceId: string) => {
          rechecked.push(ceId);
          return online;
        },
      },
    },
  };
}

/**
 * The account after its trial, paying for `tier` monthly: a new account's trial has every Business feature, so a
 * spec about a plan's limits looks at a paying account.
 */
export async function payingAfterTrial(models: Models, accountId: unknown, tier = 'basic'): Promise<void> {
  await models.Account.updateOne(
    { _id: accountId },
    { $set: { planStripeId: `parley_${tier}_monthly`, subscriptionStatus: 'active', paymentType: 'card' } },
  );
}
