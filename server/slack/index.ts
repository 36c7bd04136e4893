/**
 * Parley's Slack side on the Express app: Bolt at /slack/events and the OAuth routes.
 * Mount before any body parser.
 */
import { Router } from 'express';
import type { Config } from '../config';
import type { Logger } from '../http/errorHandler';
import type { Models } from '../models';
import { boltRouter } from './app';
import { oauthRouter } from './oauth';

export { EVENTS_PATH, registeredListeners } from './app';
export { OAUTH_REDIRECT_PATH, slackAuthorizeUrl } from './oauth';
export { SANDBOX_PATH, startSlackSandbox } from './sandbox';

export function slackRouter(deps: { config: Config; models: Models; logger: Logger }): Router {
  const router = Router();
  router.use(boltRouter(deps).router);
  router.use(oauthRouter(deps));
  return router;
}
