import express, { Router } from 'express';
import { notFound } from '../http/errorHandler';
import { accountAdminRouter } from './accounts/adminRoutes';
import { accountsRouter } from './accounts/routes';
import { articlesRouter } from './articles/routes';
import { botsRouter } from './bots/routes';
import { chatEndpointsRouter } from './chat-endpoints/routes';
import { dashboardAdminRouter } from './dashboard-admin/routes';
import { integrationsRouter } from './integrations/routes';
import { publicApiRouter } from './public-api/routes';
import { questionGroupsRouter } from './question-groups/routes';
import { reportsRouter } from './reports/routes';
import { savedRepliesRouter } from './saved-replies/routes';
import { supportRouter } from './support/routes';
import { type ApiDeps, usersRouter } from './users/routes';

export type { ApiDeps } from './users/routes';

/** Everything under /v1. JSON bodies are parsed here only, so webhooks elsewhere keep their raw bodies. */
export function apiRouter(deps: ApiDeps): Router {
  const router = Router();
  // Answers carry tokens and personal data: no browser or proxy may keep them.
  router.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });
  // An import carries a whole file (a help center's export), an article up to 50,000 characters of any script:
  // the routes with larger bodies, parsed before the general parser (which then leaves them).
  router.use('/chat_endpoints/:id/articles/import', express.json({ limit: '10mb', strict: false }));
  router.use('/chat_endpoints/:id/articles', express.json({ limit: '1mb', strict: false }));
  router.use(express.json({ limit: '100kb', strict: false }));
  router.use(usersRouter(deps));
  router.use(chatEndpointsRouter(deps));
  // Before accountsRouter: its /accounts/:id would take /accounts/generate-api-key and /accounts/gdpr-export.
  router.use(accountAdminRouter(deps));
  router.use(accountsRouter(deps));
  router.use(savedRepliesRouter(deps));
  router.use(articlesRouter(deps));
  router.use(questionGroupsRouter(deps));
  router.use(botsRouter(deps));
  router.use(integrationsRouter(deps));
  router.use(dashboardAdminRouter(deps));
  router.use(publicApiRouter(deps));
  router.use(reportsRouter(deps));
  router.use(supportRouter(deps));
  router.use(notFound);
  return router;
}
