/** The embedded database as its own process (as `npm run db` runs it), so a benchmark measures Parley's memory alone. */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * `nodeArgs` go to node before the script (e.g. `--cpu-prof`), `storeArgs` to the store after it (e.g.
 * `--compact-bytes`); `pid` lets a benchmark read the process's CPU time.
 */
export async function startDatabase(
  name: string,
  options: { nodeArgs?: string[]; storeArgs?: string[] } = {},
): Promise<{ uri: string; pid: number; stop(): Promise<void> }> {
  const dbpath = mkdtempSync(path.join(tmpdir(), `parley-bench-${name}-`));
  const cli = path.resolve(__dirname, '../../server/embedded-mongo/cli.ts');
  const child = spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), '--import', 'tsx', cli, '--port', '0', '--dbpath', dbpath, ...(options.storeArgs ?? [])],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const uri = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += String(chunk);
      const found = /listening on (mongodb:\/\/\S+)/.exec(out);
      if (found?.[1]) resolve(found[1]);
    });
    child.once('exit', (code) => reject(new Error(`database exited with ${code}`)));
  });
  return {
    uri,
    pid: child.pid ?? 0,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      rmSync(dbpath, { recursive: true, force: true });
    },
  };
}
