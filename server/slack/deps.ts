import type { Config } from '../config';
import type { Models } from '../models';
import type { RateLimiters } from '../rateLimits';
import type { Relay } from '../relay';
import type { HomeTabs } from './home';

/** What the Slack listeners work with, built once by main.ts and passed in. */
export type SlackDeps = {
  models: Models;
  config: Config;
  /** The visitor relay: its outbox, presence, widgets and pub/sub. */
  relay: Relay;
  /** Keeps open App Home tabs up to date. */
  homeTabs: HomeTabs;
  /** Per-client limits on public calls, counted over every process of the deployment. */
  limiters: RateLimiters;
};
