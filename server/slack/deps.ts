import type { OperatorSeats } from '../billing/operators';
import type { OperatorMessageContext } from '../commands/operatorMessages';
import type { SettingsDeps } from '../commands/updateWidgetSettings';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { Models } from '../models';
import type { RateLimiters } from '../rateLimits';
import type { Presence } from '../relay/presence';
import type { PubSub } from '../relay/pubsub';
import type { SlackAuthors } from './authors';
import type { HomeTabs } from './home';
import type { SlackClients } from './slackClients';
import type { SlackAnswers } from './suggestions';

/**
 * What the Slack listeners use of the relay: the conversation context the commands they call take, presence,
 * pub/sub, the operator seats and whether it is closing. main.ts passes the relay, which has it all.
 */
export type SlackRelay = OperatorMessageContext &
  SettingsDeps & {
    logger: Logger;
    pubsub: Pick<PubSub, 'publish' | 'signal' | 'subscribe'>;
    presence: Pick<Presence, 'state' | 'recheck'>;
    /** The plan's operator seats, taken by a reply. */
    seats: Pick<OperatorSeats, 'check'>;
    /** True once the relay began closing: work still arriving (a Slack event) is let go, Slack retries it. */
    isClosed(): boolean;
  };

/** What the Slack listeners work with, built once by main.ts and passed in. */
export type SlackDeps = {
  models: Models;
  config: Config;
  /** What the listeners use of the visitor relay. */
  relay: SlackRelay;
  /** Bot clients of the installed workspaces (cached per team), and the fetch every Slack call goes through. */
  slack: SlackClients;
  /** Operators' Slack names and avatars. */
  authors: SlackAuthors;
  /** Keeps open App Home tabs up to date. */
  homeTabs: HomeTabs;
  /** Per-client limits on public calls, counted over every process of the deployment. */
  limiters: RateLimiters;
  /** The help center's search and the past answers (suggestions, `/parley article`). */
  answers: SlackAnswers;
};
