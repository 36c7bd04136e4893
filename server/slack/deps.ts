import type { Config } from '../config';
import type { Models } from '../models';
import type { RateLimiters } from '../rateLimits';
import type { Relay } from '../relay';
import type { SlackAuthors } from './authors';
import type { HomeTabs } from './home';
import type { SlackClients } from './slackClients';

/** What the Slack listeners work with, built once by main.ts and passed in. */
export type SlackDeps = {
  models: Models;
  config: Config;
  /** The visitor relay: its outbox, presence, widgets and pub/sub. */
  relay: Relay;
  /** Bot clients of the installed workspaces (cached per team), and the fetch every Slack call goes through. */
  slack: SlackClients;
  /** Operators' Slack names and avatars. */
  authors: SlackAuthors;
  /** Keeps open App Home tabs up to date. */
  homeTabs: HomeTabs;
  /** Per-client limits on public calls, counted over every process of the deployment. */
  limiters: RateLimiters;
};
