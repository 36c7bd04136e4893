/**
 * `npm run db:restore -- --uri <mongodb uri> --dir <dir> [--drop]`: loads a dump in mongodump's layout (from
 * `npm run db:dump` or mongodump, gzipped or not) into a MongoDB or Parley's embedded store (server/backup). A
 * database in the URI's path receives the dump's one database (whatever it was called); without one, each
 * database keeps its name. Progress on a terminal, then one summary line.
 */
import { MongoClient } from 'mongodb';
import { restore } from '../server/backup/restore';
import { databaseInUri, describeRestore } from '../server/backup/summary';
import { readDbArgs } from './db-cli';
import { progressLine, progressText } from './db-progress';

const USAGE = `Usage: npm run db:restore -- --uri <mongodb uri> --dir <dir> [--drop]
  --uri <uri>   the MongoDB (or Parley's embedded store) to load into; a database in its path receives the dump's database
  --dir <dir>   a dump: <dir>/<db>/<collection>.bson(.gz) and .metadata.json(.gz), or one database's folder
  --drop        drop each collection of the dump before loading it (otherwise documents already there are kept)
  -h, --help    show this help`;

async function main(): Promise<void> {
  const { uri, folder, flag } = readDbArgs(USAGE, { folder: 'dir', flag: 'drop' });
  const client = new MongoClient(uri);
  const progress = progressLine(process.stderr);
  try {
    await client.connect();
    const summary = await restore({
      client,
      dir: folder,
      db: databaseInUri(uri),
      drop: flag,
      onProgress: (p) => progress.update(progressText(`${p.db}.${p.collection}`, p.documents, undefined, p.totalBytes)),
      warn: (message) => {
        progress.done();
        process.stderr.write(`warning: ${message}\n`);
      },
    });
    progress.done();
    process.stdout.write(`${describeRestore(summary)}\n`);
  } finally {
    await client.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`\ndb:restore failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
