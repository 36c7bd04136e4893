/**
 * `npm run db:dump -- --uri <mongodb uri> --out <dir> [--gzip]`: a dump in mongodump's layout (server/backup),
 * `<dir>/<db>/<collection>.bson` and `.metadata.json`, that mongorestore and `npm run db:restore` load. The URI's
 * database is dumped alone; a URI without one dumps every database but admin, local and config. Progress on a
 * terminal, then one summary line.
 */
import { MongoClient } from 'mongodb';
import { dump } from '../server/backup/dump';
import { databaseInUri, describeDump } from '../server/backup/summary';
import { readDbArgs } from './db-cli';
import { progressLine, progressText } from './db-progress';

const USAGE = `Usage: npm run db:dump -- --uri <mongodb uri> --out <dir> [--gzip]
  --uri <uri>   the MongoDB (or Parley's embedded store) to dump; a database in its path dumps that one only
  --out <dir>   where to write <dir>/<db>/<collection>.bson and .metadata.json (created if missing)
  --gzip        gzip every file (<collection>.bson.gz, .metadata.json.gz), as mongodump --gzip
  -h, --help    show this help`;

async function main(): Promise<void> {
  const { uri, folder, flag } = readDbArgs(USAGE, { folder: 'out', flag: 'gzip' });
  const client = new MongoClient(uri);
  const progress = progressLine(process.stderr);
  try {
    await client.connect();
    const summary = await dump({
      client,
      db: databaseInUri(uri),
      out: folder,
      gzip: flag,
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
