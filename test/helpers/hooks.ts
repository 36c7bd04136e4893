/**
 * Mocha root hooks (loaded by .mocharc.json).
 *
 * One process (`npx mocha test/x.spec.ts`): after the last test they close what the process kept across files (its
 * browser: helpers/runEnd.ts) and stop the shared test database, so the run ends by itself: mocha runs without
 * `exit: true`, and every spec closes what it opened. Should something still hold the process open a few seconds
 * later (a leaked timer, socket or server), the run names it on stderr and ends with mocha's own exit code rather
 * than hang.
 *
 * In parallel (`npm test`: mocha --parallel, one worker process per core or so, MOCHA_WORKER_ID set) root hooks run
 * around each file in the worker that runs it: the worker keeps its one test database and its one browser across the
 * files it runs, and the pool ends the worker at the end of the run (the database's folder is removed on exit, and
 * playwright kills the browser). With PARLEY_TEST_TIMINGS set to a file, each worker appends each spec file's wall
 * time to it (scripts/test.sh uses it to start the longest files first next time); with PARLEY_TEST_CPU, the CPU
 * milliseconds the worker and its descendants spent on it (helpers/cpuTime.ts).
 */
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { type CpuSnapshot, cpuSnapshot, cpuSpent } from './cpuTime';
import { stopTestMongo } from './mongo';
import { closeAtRunEnd } from './runEnd';

const GRACE_MS = 5_000;
const inWorker = process.env.MOCHA_WORKER_ID !== undefined;
const timingsFile = process.env.PARLEY_TEST_TIMINGS;
const cpuFile = process.env.PARLEY_TEST_CPU;

let fileStartedAt = 0;
let fileCpu: CpuSnapshot | undefined;

type HookContext = { test?: { parent?: { suites?: { file?: string }[]; file?: string } } };

function currentFile(ctx: HookContext): string | undefined {
  const root = ctx.test?.parent;
  return root?.file ?? root?.suites?.find((suite) => suite.file)?.file;
}

export const mochaHooks = {
  beforeAll(): void {
    fileStartedAt = Date.now();
    if (cpuFile) fileCpu = cpuSnapshot();
  },
  async afterAll(this: HookContext): Promise<void> {
    if (inWorker) {
      const file = currentFile(this);
      const name = file && path.relative(process.cwd(), file);
      if (timingsFile && name) appendFileSync(timingsFile, `${Date.now() - fileStartedAt}\t${name}\n`);
      if (cpuFile && name && fileCpu) appendFileSync(cpuFile, `${Math.round(cpuSpent(fileCpu, cpuSnapshot()))}\t${name}\n`);
      return;
    }
    await closeAtRunEnd();
    await stopTestMongo();
    setTimeout(() => {
      const open = process.getActiveResourcesInfo().filter((kind) => kind !== 'Timeout');
      process.stderr.write(`the test run left resources open (${open.join(', ') || 'timers'}): close them in the spec that opened them\n`);
      process.exit();
    }, GRACE_MS).unref();
  },
};
