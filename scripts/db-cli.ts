/**
 * The command line `db:dump` and `db:restore` share: `--uri <mongodb uri>`, one folder option, one flag and
 * `-h/--help`. A malformed line stops with the message and the usage (exit 2); `--help` prints the usage and exits 0.
 */
import { parseArgs } from 'node:util';

export type DbArgs = { uri: string; folder: string; flag: boolean };

export function readDbArgs(usage: string, options: { folder: string; flag: string }): DbArgs {
  const fail = (message: string): never => {
    process.stderr.write(`${message}\n\n${usage}\n`);
    process.exit(2);
  };
  let values: Record<string, string | boolean | undefined> = {};
  try {
    ({ values } = parseArgs({
      args: process.argv.slice(2),
      strict: true,
      options: {
        uri: { type: 'string' },
        [options.folder]: { type: 'string' },
        [options.flag]: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (err) {
    fail((err as Error).message);
  }
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  const uri = values.uri;
  if (typeof uri !== 'string' || !/^mongodb(\+srv)?:\/\//.test(uri)) fail('--uri must be a mongodb:// or mongodb+srv:// URI');
  const folder = values[options.folder];
  if (typeof folder !== 'string' || !folder) fail(`--${options.folder} is required`);
  return { uri: uri as string, folder: folder as string, flag: values[options.flag] === true };
}
