/**
 * Runs the embedded MongoDB-compatible server on its own, for mongosh, Compass or a local Parley:
 *   npm run db -- --port 27017 --dbpath ./data/db [--host 127.0.0.1] [--in-memory] [--compact-bytes N]
 *   npm run db -- --repair --dbpath ./data/db   (keeps every intact record of a damaged dbpath, then exits)
 * Prints the connection URI, stops cleanly (final snapshot, lock released) on SIGINT or SIGTERM.
 */

import path from 'node:path';
import { parseArgs } from 'node:util';
import { type EmbeddedMongo, startEmbeddedMongo } from './index';
import { configureStorage } from './storage';
import { describeRepair, repairDbPath } from './storage/repair';

const USAGE = `Usage: npm run db -- [options]
  --port <n>           TCP port, 0 for any free one (default 27017)
  --host <address>     address to listen on (default 127.0.0.1)
  --dbpath <dir>       data directory (default ./data/db)
  --in-memory          keep nothing on disk
  --compact-bytes <n>  journal size that triggers a background snapshot (default 64 MB)
  --repair             rebuild a damaged dbpath from every intact record, keep the damaged files aside, and exit
  -h, --help           show this help`;

interface CliOptions {
  port: number;
  host: string;
  dbpath: string | undefined;
  compactBytes: number | undefined;
  repair: boolean;
}

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE}\n`);
  process.exit(2);
}

/** The command line's values; a malformed one stops with the usage. */
function readArgs(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      strict: true,
      options: {
        port: { type: 'string', default: '27017' },
        host: { type: 'string', default: '127.0.0.1' },
        dbpath: { type: 'string', default: './data/db' },
        'in-memory': { type: 'boolean', default: false },
        'compact-bytes': { type: 'string' },
        repair: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values;
  } catch (err) {
    return fail((err as Error).message);
  }
}

function parseCli(argv: string[]): CliOptions {
  const values = readArgs(argv);
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be a port number, got ${values.port}`);
  let compactBytes: number | undefined;
  if (values['compact-bytes'] !== undefined) {
    compactBytes = Number(values['compact-bytes']);
    if (!Number.isInteger(compactBytes) || compactBytes <= 0) fail(`--compact-bytes must be a positive integer`);
  }
  return {
    port,
    host: values.host,
    dbpath: values['in-memory'] ? undefined : path.resolve(values.dbpath),
    compactBytes,
    repair: values.repair,
  };
}

async function main(): Promise<void> {
  const options = parseCli(process.argv.slice(2));
  if (options.repair) {
    if (!options.dbpath) fail('--repair needs a --dbpath, not --in-memory');
    try {
      process.stdout.write(`${describeRepair(await repairDbPath(options.dbpath))}\n`);
      process.exit(0);
    } catch (err) {
      process.stderr.write(`embedded MongoDB could not repair ${options.dbpath}: ${(err as Error).message}\n`);
      process.exit(1);
    }
  }
  if (options.compactBytes !== undefined) configureStorage({ compactBytes: options.compactBytes });
  const log = (msg: string): void => {
    process.stdout.write(`${new Date().toISOString()} ${msg}\n`);
  };
  let server: EmbeddedMongo;
  try {
    server = await startEmbeddedMongo({ port: options.port, host: options.host, dbpath: options.dbpath, log });
  } catch (err) {
    process.stderr.write(`embedded MongoDB could not start: ${(err as Error).message}\n`);
    process.exit(1);
  }
  const where = options.dbpath ? `dbpath ${options.dbpath}` : 'in memory only';
  process.stdout.write(`Embedded MongoDB listening on ${server.uri} (${where}); Ctrl-C stops it\n`);

  let stoppingSince = 0;
  const stop = (signal: NodeJS.Signals): void => {
    if (stoppingSince) {
      // A launcher (npm, tsx) may pass on the same Ctrl-C the terminal already sent: only a later one forces.
      if (Date.now() - stoppingSince < 1000) return;
      process.stderr.write(`${signal} again: exiting without a clean stop\n`);
      process.exit(1);
    }
    stoppingSince = Date.now();
    log(`${signal}: stopping`);
    server.stop().then(
      () => {
        log('stopped');
        process.exit(0);
      },
      (err: unknown) => {
        process.stderr.write(`embedded MongoDB did not stop cleanly: ${(err as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
