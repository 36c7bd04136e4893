/**
 * The Bolt app on Parley's Express app. ExpressReceiver verifies every request's signature and
 * timestamp (401 for a bad or stale one) from the raw body, so nothing in front of /slack/events
 * may parse bodies. Tokens come from the installation store, per workspace.
 */
import { App, type Authorize, ErrorCode, ExpressReceiver, isValidSlackRequest, LogLevel } from '@slack/bolt';
import express, { type RequestHandler, Router } from 'express';
import { slackLogger } from './boltLogger';
import type { SlackDeps } from './deps';
import { registerActionListeners } from './listeners/actions';
import { registerEventListeners } from './listeners/events';
import { registerSlashCommandListeners } from './listeners/slashCommands';
import { registerSuggestionListeners } from './listeners/suggestions';
import { registerViewListeners } from './listeners/views';
import { refusingWhenNotInstalled } from './notInstalled';
import { acknowledgingMalformedPayloads } from './payloadShapes';
import type { SlackClients } from './slackClients';

export const EVENTS_PATH = '/slack/events';

/**
 * Bolt's authorize: the bot token of the team's active installation, from the background Slack clients
 * (slackClients.ts: cached per team, dropped here and in every process when an installation changes), so an event
 * costs no database read.
 */
export function authorizeFromStore(teams: Pick<SlackClients, 'forTeam'>): Authorize<boolean> {
  return async ({ teamId }) => {
    const team = teamId ? await teams.forTeam(teamId) : null;
    if (!team || !teamId) throw new Error(`Parley is not installed in team ${teamId ?? '(none)'}`);
    return { botToken: team.token, botUserId: team.botUserId, botId: team.botId, teamId };
  };
}

/** The largest request body Slack sends to the events endpoint is well below this. */
const EVENT_BODY_LIMIT = '1mb';

type OwnPostProbe = { type?: unknown; team_id?: unknown; event?: { type?: unknown; subtype?: unknown; bot_id?: unknown; user?: unknown } };

/**
 * Every post Parley makes in a channel comes back as a `message` event, one per relayed line. Bolt would
 * authorize each and then drop it (its ignoreSelf middleware); this acknowledges them before Bolt, by the same
 * rule, once the request's signature holds (anything else goes on to Bolt, which answers as always). The body
 * read here is handed to Bolt as `rawBody`, which it verifies and parses itself.
 */
export function acknowledgingOwnPosts(teams: Pick<SlackClients, 'forTeam'>, signingSecret: string): RequestHandler[] {
  const readBody = express.raw({ type: () => true, limit: EVENT_BODY_LIMIT });
  const skip: RequestHandler = async (req, res, next) => {
    const raw = req.body;
    if (!Buffer.isBuffer(raw)) return next();
    // Bolt reads a body already taken from the request here (ExpressReceiver's parseExpressRequestRawBody).
    (req as { rawBody?: Buffer }).rawBody = raw;
    const body = raw.toString();
    if (!req.is('application/json') || !body.includes('"bot_id"')) return next();
    try {
      const parsed = JSON.parse(body) as OwnPostProbe;
      const event = parsed.event;
      if (parsed.type !== 'event_callback' || event?.type !== 'message' || typeof parsed.team_id !== 'string') return next();
      const team = await teams.forTeam(parsed.team_id);
      const own = team !== null && ((event.subtype === 'bot_message' && event.bot_id === team.botId) || event.user === team.botUserId);
      // Only an own post is answered here; anything else is verified once, by Bolt.
      const signed =
        own &&
        isValidSlackRequest({
          signingSecret,
          body,
          headers: {
            'x-slack-signature': req.header('x-slack-signature') ?? '',
            'x-slack-request-timestamp': Number(req.header('x-slack-request-timestamp')),
          },
        });
      if (signed) {
        res.status(200).send();
        return;
      }
    } catch {
      // Not JSON, or the team could not be read now: Bolt answers it as it would any request.
    }
    next();
  };
  return [readBody, skip];
}

/** Every listener Parley registers; `registeredListeners()` replays this against a recorder. */
export function registerListeners(app: App, deps: SlackDeps): void {
  registerEventListeners(app, deps);
  registerSlashCommandListeners(app, deps);
  registerActionListeners(app, deps);
  registerViewListeners(app, deps);
  registerSuggestionListeners(app, deps);
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
  const logLevel = deps.config.env === 'test' ? LogLevel.ERROR : LogLevel.WARN;
  const receiver = new ExpressReceiver({
    signingSecret: deps.config.slack.signingSecret,
    endpoints: EVENTS_PATH,
    logger: slackLogger(deps.relay.logger, 'bolt-receiver', logLevel),
    logLevel,
  });
  const app = new App({
    receiver,
    authorize: refusingWhenNotInstalled(authorizeFromStore(deps.slack)),
    // The listeners' clients reach Slack as the background clients do: every call counted in the metrics.
    clientOptions: {
      slackApiUrl: deps.config.slack.apiUrl,
      fetch: deps.slack.fetch,
      logger: slackLogger(deps.relay.logger, 'slack-web-api', logLevel),
    },
    logger: slackLogger(deps.relay.logger, 'bolt', logLevel),
    logLevel,
  });
  // A workspace without an active installation was told why (refusingWhenNotInstalled); Slack gets its 200.
  app.error(async (error) => {
    if (error.code === ErrorCode.AuthorizationError) return;
    throw error;
  });
  registerListeners(app, deps);
  const router = Router();
  router.post(
    EVENTS_PATH,
    refusingFutureTimestamps(),
    ...acknowledgingOwnPosts(deps.slack, deps.config.slack.signingSecret),
    acknowledgingMalformedPayloads({
      signingSecret: deps.config.slack.signingSecret,
      logger: deps.relay.logger,
      slackApiUrl: deps.config.slack.apiUrl,
      fetch: globalThis.fetch,
    }),
  );
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
