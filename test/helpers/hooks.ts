/**
 * Mocha root hooks (loaded by .mocharc.json). After the last test they stop the shared test database, so the run
 * ends by itself: mocha runs without `exit: true`, and every spec closes what it opened. Should something still
 * hold the process open a few seconds later (a leaked timer, socket or server), the run names it on stderr and
 * ends with mocha's own exit code rather than hang.
 */
import { stopTestMongo } from './mongo';

const GRACE_MS = 5_000;

export const mochaHooks = {
  async afterAll(): Promise<void> {
    await stopTestMongo();
    setTimeout(() => {
      const open = process.getActiveResourcesInfo().filter((kind) => kind !== 'Timeout');
      process.stderr.write(`the test run left resources open (${open.join(', ') || 'timers'}): close them in the spec that opened them\n`);
      process.exit();
    }, GRACE_MS).unref();
  },
};
