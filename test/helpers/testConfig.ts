/**
 * Settings every test Parley shares, in one process (helpers/app.ts) or as its own (helpers/processes.ts):
 * short relay timings, cheap password hashing and rate limits that do not throttle a suite.
 */
import type { Config } from '../../server/config';

/** Short timings so presence and retries happen within a test. */
export const FAST_RELAY: Config['relay'] = {
  presenceTtlMs: 50,
  // Each look at a watched widget asks the database and Slack: at 100 ms an open widget cost its server 150 ms of CPU
  // a second (and Slack's rate tier for presence answers most of them with a 429 anyway); at 1 s, 37.
  presenceRefreshMs: 1000,
  // The safety poll finds jobs stored by another process or left by a dead one (a process's own jobs run on
  // timers). Each poll costs an idle in-process server about 4 ms of CPU: at 50 ms that was 90 ms of CPU a second
  // for every relay server of the suite, doing nothing; 250 ms still finds a job well within a test's wait.
  outboxPollMs: 250,
  // A process killed mid-post leaves its lease: the others take its jobs over within seconds.
  outboxLeaseMs: 3000,
  outboxMaxBackoffMs: 300,
  inactivityCheckMs: 3_600_000,
  slackBurst: 50,
  slackPostsPerSecond: 50,
};

/** Cheap enough that signing up hundreds of users costs milliseconds; production keeps argon2's defaults. */
export const TEST_PASSWORD_HASHING: Config['passwordHashing'] = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

/** Limits high enough that suites sending many requests from one address are not throttled. */
export const GENEROUS_LIMITS: Config['rateLimits'] = {
  windowMs: 60_000,
  loginPerIp: 10_000,
  loginPerEmail: 10_000,
  signUpPerIp: 10_000,
  signUpPerEmail: 10_000,
  resetEmailPerIp: 10_000,
  resetEmailPerEmail: 10_000,
};
