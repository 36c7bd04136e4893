/**
 * The Bolt app on Parley's Express app. ExpressReceiver verifies every request's signature and
 * timestamp (401 for a bad or stale one) from the raw body, so nothing in front of /slack/events
 * may parse bodies. Tokens come from the installation store, per workspace.
 */
import { App, type Authorize, ErrorCode, ExpressReceiver, LogLevel } from '@slack/bolt';
import { type RequestHandler, Router } from 'express';
import type { Models } from '../models';
import type { SlackDeps } from './deps';
import { registerActionListeners } from './listeners/actions';
import { registerCommandListeners } from './listeners/commands';
import { registerEventListeners } from './listeners/events';
import { registerViewListeners } from './listeners/views';
import { refusingWhenNotInstalled } from './notInstalled';

export const EVENTS_PATH = '/slack/events';

/** Bolt's authorize: the bot token of the team's active installation. */
export function authorizeFromStore(models: Models): Authorize<boolean> {
  return async ({ teamId }) => {
    const inst = teamId ? await models.Installation.findOne({ teamId, revokedAt: null }) : null;
    if (!inst) throw new Error(`Parley is not installed in team ${teamId ?? '(none)'}`);
    return { botToken: inst.botToken, botUserId: inst.botUserId, botId: inst.botId, teamId: inst.teamId };
  };
}

/** Every listener Parley registers; `registeredListeners()` replays this against a recorder. */
export function registerListeners(app: App, deps: SlackDeps): void {
  registerEventListeners(app, deps);
  registerCommandListeners(app, deps);
  registerActionListeners(app, deps);
  registerViewListeners(app, deps);
}

/** Slack's guidance: refuse a request whose timestamp is more than five minutes away from now, either way. */
export const SLACK_TIMESTAMP_TOLERANCE_SECONDS = 5 * 60;

/**
 * Bolt refuses only timestamps from the past; a request stamped in the future would stay replayable until
 * that time comes. This check runs before Bolt and reads only the header, never the body.
 */
export function refusingFutureTimestamps(nowSeconds: () => number = () => Math.floor(Date.now() / 1000)): RequestHandler {
  return (req, res, next) => {
    const stamp = Number(req.header('x-slack-request-timestamp'));
    if (Number.isFinite(stamp) && stamp > nowSeconds() + SLACK_TIMESTAMP_TOLERANCE_SECONDS) {
      res.status(401).send();
      return;
    }
    next();
  };
}

export function boltRouter(deps: SlackDeps): { router: Router; app: App } {
  const receiver = new ExpressReceiver({
    signingSecret: deps.config.slack.signingSecret,
    endpoints: EVENTS_PATH,
    logLevel: deps.config.env === 'test' ? LogLevel.ERROR : LogLevel.WARN,
  });
  const app = new App({
    receiver,
    authorize: refusingWhenNotInstalled(authorizeFromStore(deps.models)),
    clientOptions: { slackApiUrl: deps.config.slack.apiUrl },
    logLevel: deps.config.env === 'test' ? LogLevel.ERROR : LogLevel.WARN,
  });
  // A workspace without an active installation was told why (refusingWhenNotInstalled); Slack gets its 200.
  app.error(async (error) => {
    if (error.code === ErrorCode.AuthorizationError) return;
    throw error;
  });
  registerListeners(app, deps);
  const router = Router();
  router.post(EVENTS_PATH, refusingFutureTimestamps());
  router.use(receiver.router as Router);
  return { router, app };
}

export type RegisteredListeners = { commands: string[]; events: string[]; actions: string[]; shortcuts: string[]; views: string[] };

/** The commands, events, actions, shortcuts and view callbacks the code registers (the manifest must match). */
export function registeredListeners(): RegisteredListeners {
  const found: RegisteredListeners = { commands: [], events: [], actions: [], shortcuts: [], views: [] };
  const name = (id: unknown) => (typeof id === 'string' ? id : JSON.stringify(id));
  const recorder = {
    command: (id: unknown) => found.commands.push(name(id)),
    event: (id: unknown) => found.events.push(name(id)),
    action: (id: unknown) => found.actions.push(name(id)),
    shortcut: (id: unknown) => found.shortcuts.push(name(id)),
    view: (id: unknown) => found.views.push(name(id)),
    message: () => found.events.push('message'),
  };
  // The recorder implements only the registration methods; listeners are never run, so no dependencies are needed.
  registerListeners(recorder as unknown as App, {} as SlackDeps);
  return found;
}
