/**
 * Parley's Slack side on the Express app: Bolt at /slack/events and the OAuth routes.
 * Mount before any body parser.
 */
import { Router } from 'express';
import type { Config } from '../config';
import type { Models } from '../models';
import type { Logger } from '../http/errorHandler';
import { boltRouter } from './app';
import { oauthRouter } from './oauth';

export { registeredListeners, EVENTS_PATH } from './app';
export { slackAuthorizeUrl, OAUTH_REDIRECT_PATH } from './oauth';
export { startSlackSandbox, SANDBOX_PATH } from './sandbox';

export function slackRouter(deps: { config: Config; models: Models; logger: Logger }): Router {
  const router = Router();
  router.use(boltRouter(deps).router);
  router.use(oauthRouter(deps));
  return router;
}
