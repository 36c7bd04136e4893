/**
 * A Parley process that dies right after storing a job (test/outbox/claimed.spec.ts runs it): `node --import tsx
 * test/outbox/dyingOutbox.ts <mongodb uri> <database> <key> <lease ms>` starts an outbox on that database, stores one
 * job in `key` (stored claimed by this process, as every job due now is) and kills itself with SIGKILL once the
 * insert is acknowledged: before its outbox ran the job, or while it runs it (its post never gets an answer).
 */
import mongoose from 'mongoose';
import { createLogger } from '../../server/logger';
import { outboxJobModel } from '../../server/models/OutboxJob';
import { Outbox } from '../../server/outbox/engine';
import { DEFAULT_RELAY_TUNING } from '../../server/relay/tuning';

type Payloads = { post: { text: string } };

async function main(): Promise<void> {
  const [uri, dbName, key, leaseMs] = process.argv.slice(2);
  const connection = await mongoose.createConnection(uri, { dbName }).asPromise();
  const OutboxJob = outboxJobModel(connection);
  const host = {
    models: { OutboxJob },
    tuning: { ...DEFAULT_RELAY_TUNING, outboxLeaseMs: Number(leaseMs) },
    logger: createLogger({ level: 'error' }),
  };
  const box = new Outbox<typeof host, Payloads>(
    host,
    {
      // Never answers: a post whose process dies before Slack's answer (its first poll may find the job and start it).
      post: () => new Promise<void>(() => {}),
    },
    { rules: { post: { pace: 'none', maxAttempts: Number.POSITIVE_INFINITY } }, context: () => host },
  );
  box.start();
  await box.enqueue('post', key, { text: 'stored by the process that died' });
  // Its outbox runs the job after this turn of the event loop, which never comes.
  process.kill(process.pid, 'SIGKILL');
}

if (require.main === module) void main();
