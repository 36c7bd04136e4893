/**
 * Parley's Slack side on the Express app: Bolt at /slack/events and the OAuth routes.
 * Mount before any body parser.
 */
import { Router } from 'express';
import type { Logger } from '../logger';
import { boltRouter } from './app';
import type { SlackDeps } from './deps';
import { oauthRouter } from './oauth';

export { EVENTS_PATH, registeredListeners } from './app';
export type { SlackDeps } from './deps';
export { HomeTabs } from './home';
export { OAUTH_REDIRECT_PATH, slackAuthorizeUrl } from './oauth';
export { slackJobHandlers } from './outboxJobs';
export { SANDBOX_PATH, startSlackSandbox } from './sandbox';

export function slackRouter(deps: SlackDeps & { logger: Logger }): Router {
  const router = Router();
  router.use(boltRouter(deps).router);
  router.use(oauthRouter(deps));
  return router;
}
