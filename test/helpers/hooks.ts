/**
 * Mocha root hooks (loaded by .mocharc.json): after the last test, stops the shared test database, so the run
 * ends by itself with nothing left open (mocha runs without `exit: true`). With PARLEY_TEST_HANDLES=1 it lists
 * whatever still keeps the process alive, to find a leak.
 */
import { stopTestMongo } from './mongo';

export const mochaHooks = {
  async afterAll(): Promise<void> {
    await stopTestMongo();
    if (process.env.PARLEY_TEST_HANDLES) {
      setTimeout(() => {
        process.stderr.write(`still open after the run: ${JSON.stringify(process.getActiveResourcesInfo())}\n`);
      }, 2000).unref();
    }
  },
};
