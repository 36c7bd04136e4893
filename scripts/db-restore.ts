/**
 * `npm run db:restore -- --uri <mongodb uri> --dir <dir> [--drop]`: loads a dump in mongodump's layout (from
 * `npm run db:dump` or mongodump, gzipped or not) into a MongoDB or Parley's embedded store (server/backup). A
 * database in the URI's path receives the dump's one database (whatever it was called); without one, each
 * database keeps its name. Progress on a terminal, then one summary line.
 */
import { parseArgs } from 'node:util';
import { MongoClient } from 'mongodb';
import { restore } from '../server/backup/restore';
import { databaseInUri, describeRestore } from '../server/backup/summary';
import { progressLine, progressText } from './db-progress';

const USAGE = `Usage: npm run db:restore -- --uri <mongodb uri> --dir <dir> [--drop]
  --uri <uri>   the MongoDB (or Parley's embedded store) to load into; a database in its path receives the dump's database
  --dir <dir>   a dump: <dir>/<db>/<collection>.bson(.gz) and .metadata.json(.gz), or one database's folder
  --drop        drop each collection of the dump before loading it (otherwise documents already there are kept)
  -h, --help    show this help`;

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  let values: { uri?: string; dir?: string; drop?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: process.argv.slice(2),
      strict: true,
      options: {
        uri: { type: 'string' },
        dir: { type: 'string' },
        drop: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (err) {
    fail((err as Error).message);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (!values.uri || !/^mongodb(\+srv)?:\/\//.test(values.uri)) fail('--uri must be a mongodb:// or mongodb+srv:// URI');
  if (!values.dir) fail('--dir is required');
  const client = new MongoClient(values.uri);
  const progress = progressLine(process.stderr);
  try {
    await client.connect();
    const summary = await restore({
      client,
      dir: values.dir,
      db: databaseInUri(values.uri),
      drop: values.drop,
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
