/**
 * `npm run db:dump -- --uri <mongodb uri> --out <dir> [--gzip]`: a dump in mongodump's layout (server/backup),
 * `<dir>/<db>/<collection>.bson` and `.metadata.json`, that mongorestore and `npm run db:restore` load. The URI's
 * database is dumped alone; a URI without one dumps every database but admin, local and config. Progress on a
 * terminal, then one summary line.
 */
import { parseArgs } from 'node:util';
import { MongoClient } from 'mongodb';
import { dump } from '../server/backup/dump';
import { databaseInUri, describeDump } from '../server/backup/summary';
import { progressLine, progressText } from './db-progress';

const USAGE = `Usage: npm run db:dump -- --uri <mongodb uri> --out <dir> [--gzip]
  --uri <uri>   the MongoDB (or Parley's embedded store) to dump; a database in its path dumps that one only
  --out <dir>   where to write <dir>/<db>/<collection>.bson and .metadata.json (created if missing)
  --gzip        gzip every file (<collection>.bson.gz, .metadata.json.gz), as mongodump --gzip
  -h, --help    show this help`;

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  let values: { uri?: string; out?: string; gzip?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: process.argv.slice(2),
      strict: true,
      options: {
        uri: { type: 'string' },
        out: { type: 'string' },
        gzip: { type: 'boolean', default: false },
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
  if (!values.out) fail('--out is required');
  const client = new MongoClient(values.uri);
  const progress = progressLine(process.stderr);
  try {
    await client.connect();
    const summary = await dump({
      client,
      db: databaseInUri(values.uri),
      out: values.out,
      gzip: values.gzip,
      onProgress: (p) => progress.update(progressText(`${p.db}.${p.collection}`, p.documents, p.expected, p.totalBytes)),
      warn: (message) => {
        progress.done();
        process.stderr.write(`warning: ${message}\n`);
      },
    });
    progress.done();
    process.stdout.write(`${describeDump(summary)}\n`);
  } finally {
    await client.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`\ndb:dump failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
