/**
 * Entry of a Parley process started by test/helpers/processes.ts: what `npm start` runs (the configuration from
 * the environment, startParley, a clean stop on SIGTERM or SIGINT), plus the values the environment does not
 * carry and tests shorten (relay timings, rate limits, password hashing) from PARLEY_TEST_CONFIG, a JSON object.
 */
import { type Config, ConfigError, loadConfig } from '../../server/config';
import { startParley, stopOnSignals } from '../../server/main';
import { type ParleyProcessConfig, TEST_CONFIG_VARIABLE } from './processes';

async function main(): Promise<void> {
  let config: Config;
  try {
    const base = loadConfig();
    // Written by processes.ts from a ParleyProcessConfig; nothing else sets this variable.
    const overrides = JSON.parse(process.env[TEST_CONFIG_VARIABLE] ?? '{}') as ParleyProcessConfig;
    config = { ...base, ...overrides, relay: { ...base.relay, ...overrides.relay } };
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  }
  const parley = await startParley(config, { host: '127.0.0.1' });
  console.log(`Parley is running: ${parley.url}/app/ (pid ${process.pid})`);
  stopOnSignals(parley);
}

main().catch((error: unknown) => {
  console.error('Parley failed to start:', error);
  process.exit(1);
});
