import path from 'node:path';
import express from 'express';
import helmet from 'helmet';
import type { PastAnswers } from './answers/pastAnswers';
import type { ArticleSearch } from './answers/search';
import { type ApiDeps, apiRouter } from './api';
import { billingRouter } from './api/billing/routes';
import { type SettingsRelay, teamAvatarFilesRouter, updateConfigRouter } from './api/chat-endpoints/updateConfig';
import { type WidgetApiRelay, widgetApiRouter } from './api/widget/routes';
import type { Billing } from './billing';
import { STRIPE_SANDBOX_PATH } from './billing/sandbox';
import type { Config } from './config';
import { devOutboxRouter } from './http/devOutbox';
import { errorHandler } from './http/errorHandler';
import type { Health } from './http/health';
import { metricsRouter } from './http/metrics';
import { requestLog } from './http/requestLog';
import { staticConsole } from './http/staticConsole';
import { visitorAvatarRouter } from './http/visitorAvatar';
import { widgetAssets } from './http/widgetAssets';
import { type ReceiveRelay, receiveContext } from './inbound';
import { inboundRouter } from './inbound/routes';
import type { Logger } from './logger';
import type { Mailer } from './mail';
import type { Metrics } from './metrics';
import type { Models } from './models';
import { createRateLimiters, type RateLimiters } from './rateLimits';
import type { SlackSandbox } from './sandbox/slack';
import type { StripeSandbox } from './sandbox/stripe';
import { siteRouter } from './site';
import { helpRouter } from './site/help';
import { type HomeTabs, slackRouter } from './slack';
import type { SlackAuthors } from './slack/authors';
import type { SlackRelay } from './slack/deps';
import type { SlackClients } from './slack/slackClients';

/** What the routers the app mounts use of the relay, each through its own narrow type. */
export type AppRelay = SlackRelay &
  WidgetApiRelay &
  SettingsRelay &
  ReceiveRelay & {
    autoReplies: ApiDeps['autoReplies'];
    presence: ApiDeps['presence'];
  };

export type AppDeps = {
  config: Config;
  models: Models;
  mailer: Mailer;
  logger: Logger;
  /** Counted per request (and per Stripe webhook); served at GET /metrics when METRICS_TOKEN is set. */
  metrics: Metrics;
  /** Folder of the built console; dist/web/console by default. */
  consoleDir?: string;
  /** Mounted at /sandbox/slack when Parley runs without Slack credentials. */
  slackSandbox?: SlackSandbox;
  /** Its hosted pages and operator page mounted at /sandbox/stripe when Parley runs without STRIPE_SECRET_KEY. */
  stripeSandbox?: StripeSandbox;
  /** The visitor relay (main.ts passes it; it has it all): the Slack listeners and the widget and settings APIs work through it. */
  relay: AppRelay;
  /** Bot clients of the installed workspaces and the counted fetch of every Slack call. */
  slack: SlackClients;
  /** Operators' Slack names and avatars, for the replies the listeners relay. */
  slackAuthors: SlackAuthors;
  /** App Home tabs the Slack listeners keep fresh. */
  homeTabs: HomeTabs;
  billing: Billing;
  /** The help center's search (the widget's, the public pages', Slack's suggestions). */
  articleSearch: ArticleSearch;
  /** Operators' past answers, suggested in Slack threads. */
  pastAnswers: PastAnswers;
  /** The deployment's rate limiters (counted in Redis with several processes); in-process ones by default. */
  limiters?: RateLimiters;
  /** Port of the running SMTP receiver for visitors' answers (the dev outbox's "Reply as the visitor" sends there). */
  inboundSmtpPort?: number | null;
  /** GET /health for load balancers, when given. */
  health?: Health;
  /** Segment delivery status per write key, for the console's Integrations tab. */
  segment?: ApiDeps['segment'];
};

export const DEFAULT_CONSOLE_DIR = path.resolve(__dirname, '..', 'dist', 'web', 'console');

export function createApp(deps: AppDeps): express.Express {
  const { logger, metrics } = deps;
  const limiters = deps.limiters ?? createRateLimiters({ logger });
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.config.trustProxy);
  app.use(requestLog({ logger, metrics }));
  if (deps.health) app.use(deps.health.router);
  app.use(metricsRouter({ registry: metrics.registry, token: deps.config.metricsToken }));
  // The sandbox stands in for slack.com: its pages carry their own inline scripts, so Parley's CSP does not apply.
  if (deps.slackSandbox) app.use('/sandbox/slack', deps.slackSandbox.router);
  if (deps.stripeSandbox) app.use(STRIPE_SANDBOX_PATH, deps.stripeSandbox.router);
  // Loaded by other sites' pages: helmet's same-origin resource policy must not apply to the widget scripts.
  app.use(widgetAssets());
  app.use(visitorAvatarRouter());
  app.use(
    helmet({
      // Plain http in development must not be upgraded to https the browser cannot reach.
      contentSecurityPolicy: {
        directives: {
          upgradeInsecureRequests: deps.config.publicUrl.startsWith('https:') ? [] : null,
          // Operators' pictures as Slack serves them (Reports → Team): Slack's avatar hosts and Gravatar, images only.
          imgSrc: ["'self'", 'data:', 'https://*.slack-edge.com', 'https://secure.gravatar.com'],
        },
      },
      strictTransportSecurity: deps.config.publicUrl.startsWith('https:'),
    }),
  );

  // Before any body parser: Bolt verifies signatures on the raw body.
  app.use(
    slackRouter({
      config: deps.config,
      models: deps.models,
      relay: deps.relay,
      slack: deps.slack,
      authors: deps.slackAuthors,
      homeTabs: deps.homeTabs,
      limiters,
      logger,
      answers: { articleSearch: deps.articleSearch, pastAnswers: deps.pastAnswers },
    }),
  );
  app.use(widgetApiRouter(deps.relay, deps.slack, deps.articleSearch));
  app.use('/v1', updateConfigRouter({ models: deps.models, config: deps.config, relay: deps.relay }));
  app.use(teamAvatarFilesRouter(deps.models));
  // Before the API's JSON parser: Stripe's signature covers the raw body.
  app.use(billingRouter({ billing: deps.billing, models: deps.models, webhooks: metrics.stripeWebhooks }));
  app.use(
    '/v1',
    apiRouter({
      config: deps.config,
      models: deps.models,
      mailer: deps.mailer,
      billing: deps.billing,
      limiters,
      logger,
      slackFetch: deps.slack.fetch,
      autoReplies: deps.relay.autoReplies,
      presence: deps.relay.presence,
      segment: deps.segment,
      articleSearch: deps.articleSearch,
      operators: deps.slackAuthors,
    }),
  );
  app.use(inboundRouter({ config: deps.config.mail.inbound, ctx: receiveContext(deps.relay, deps.config), models: deps.models }));
  if (deps.mailer.outbox)
    app.use(devOutboxRouter(deps.mailer.outbox, { smtpPort: deps.inboundSmtpPort ?? null, domain: deps.config.mail.inbound.domain }));
  app.use(siteRouter({ publicUrl: deps.config.publicUrl }));
  app.use(helpRouter({ models: deps.models, articleSearch: deps.articleSearch, publicUrl: deps.config.publicUrl, logger, limiters }));
  app.use('/app', staticConsole(deps.consoleDir ?? DEFAULT_CONSOLE_DIR));
  app.get('/', (_req, res) => res.redirect(302, '/app/'));
  app.use((_req, res) => {
    res.status(404).type('text/plain').send('Not found');
  });

  app.use(errorHandler(logger));
  return app;
}
