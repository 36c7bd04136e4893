/**
 * The outbox specs' database: a connection of its own to the test store (a unique database), the outbox
 * collection's commands recorded as they start (the driver's command monitoring), the outboxes a spec makes stopped
 * and the jobs removed after each test, the database dropped at the end. Its hooks are the describe block's.
 */
import type { CommandStartedEvent } from 'mongodb';
import mongoose, { type Connection } from 'mongoose';
import { type OutboxJobModel, outboxJobModel } from '../../server/models/OutboxJob';
import type { Outbox, OutboxHost, Payloads } from '../../server/outbox/engine';
import { testMongoUri, uniqueDbName } from '../helpers/mongo';

export type OutboxStore<P extends Payloads<P>> = {
  /** The outbox collection's commands, as they started. */
  readonly commands: CommandStartedEvent[];
  /** The outboxes the spec made: stopped after each test. */
  readonly outboxes: Outbox<OutboxHost, P>[];
  /** Set once the block's `before` ran. */
  readonly OutboxJob: OutboxJobModel;
  readonly connection: Connection;
  /** Where the database is, for a child process of its own. */
  readonly uri: string;
  readonly dbName: string;
};

export function useOutboxStore<P extends Payloads<P>>(name: string): OutboxStore<P> {
  const commands: CommandStartedEvent[] = [];
  const outboxes: Outbox<OutboxHost, P>[] = [];
  let opened: { connection: Connection; OutboxJob: OutboxJobModel; uri: string; dbName: string } | undefined;
  const get = () => {
    if (!opened) throw new Error('the outbox store is open only inside its describe block, after its before hook');
    return opened;
  };
  before(async () => {
    const uri = await testMongoUri();
    const dbName = uniqueDbName(name);
    const connection = await mongoose.createConnection(uri, { dbName, monitorCommands: true }).asPromise();
    connection.getClient().on('commandStarted', (e) => {
      if (e.command[e.commandName] === 'outboxjobs') commands.push(e);
    });
    const OutboxJob = outboxJobModel(connection);
    await OutboxJob.init();
    opened = { connection, OutboxJob, uri, dbName };
  });
  afterEach(async () => {
    await Promise.all(outboxes.splice(0).map((o) => o.stop()));
    await get().OutboxJob.deleteMany({});
  });
  after(async () => {
    const { connection } = get();
    await connection.dropDatabase();
    await connection.close();
  });
  return {
    commands,
    outboxes,
    get OutboxJob() {
      return get().OutboxJob;
    },
    get connection() {
      return get().connection;
    },
    get uri() {
      return get().uri;
    },
    get dbName() {
      return get().dbName;
    },
  };
}
