/**
 * The public widget API (no sign-in): the configuration a visitor's widget loads, the offline form, visitor file
 * uploads, and files shown in conversations. GET config is readable from any site; POSTs check the Origin the
 * way the WebSocket does. Nothing here reveals another tenant's data: files need the visitor token of the
 * conversation they belong to.
 */
import express, { type RequestHandler, Router } from 'express';
import { isValidObjectId } from 'mongoose';
import { type ArticleSearch, articleUrl } from '../../answers/search';
import { effectivePlanOf } from '../../commands/planFeature';
import { resumeConversation } from '../../commands/resumeConversation';
import { sendOfflineMessage } from '../../commands/sendOfflineMessage';
import type { VisitorMessageContext } from '../../commands/sendVisitorMessage';
import { uploadVisitorFile } from '../../commands/uploadVisitorFile';
import type { Config, RelayTuning } from '../../config';
import { findVisitorByToken } from '../../conversations/visitors';
import { browserLanguages, localizeSettings, pickWidgetLocale, widgetLanguage } from '../../conversations/widgetLanguage';
import { AuthorizationError, NotFoundError, RateLimitError } from '../../errors';
import { type Validated, validate } from '../../http/validate';
import { leanWidget } from '../../models/ChatEndpoint';
import { articleHtml } from '../../ownerText';
import type { RateLimiters } from '../../rateLimits';
import { originAllowed, WS_PATH } from '../../relay/gateway';
import { PRESENCE_FIELDS, type Presence } from '../../relay/presence';
import { clientIp, countryAllowed, countryOf } from '../../relay/visitorIp';
import type { PublicWidgetConfig } from '../../shared/widget-config';
import { MAX_UPLOAD_BYTES } from '../../shared/widget-constants';
import type { SlackClients } from '../../slack/slackClients';
import { PUBLIC_SETTINGS_FIELDS, poweredByUrl, presentUploadedFile, publicSettings } from './presenter';
import { ArticleSearchRequest, ArticleViewRequest, OfflineMessageRequest, ResumeRequest, UploadRequest } from './schema';

/**
 * What a page view reads of its widget: its public settings and texts, its country lists, and what decides whether
 * it is online.
 */
const pageViewWidget = leanWidget([
  ...PUBLIC_SETTINGS_FIELDS,
  ...PRESENCE_FIELDS,
  'Uuid',
  'textOverrides',
  'collectVisitorMetaData',
  'countryAllowList',
  'countryDenyList',
  'hideWhenOffline',
] as const);

/** POSTs come only from sites allowed to embed the widget; their answers (errors too) carry CORS headers. */
const cors: RequestHandler = (req, res, next) => {
  const origin = req.headers.origin;
  if (!originAllowed(origin)) throw new AuthorizationError('This site may not use the chat widget.', 'not_allowed_here');
  if (origin) {
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Vary', 'Origin');
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST');
    res.setHeader('Access-Control-Allow-Headers', 'Content-Type, X-Visitor-Token');
    res.setHeader('Access-Control-Max-Age', '600');
  }
  next();
};

/**
 * What the widget's HTTP API uses of the relay: the visitor message context (offline messages and uploads post into
 * conversations), presence and the configuration (the relay has it all).
 */
export type WidgetApiRelay = VisitorMessageContext & {
  config: Config;
  presence: Pick<Presence, 'isOnline'>;
  /** Counters of the deployment (in Redis with several processes): the public search's per-IP limit. */
  limiters: Pick<RateLimiters, 'counter'>;
  tuning: Pick<RelayTuning, 'articleSearchesPerIpPerMinute'>;
};

export function widgetApiRouter(relay: WidgetApiRelay, slack: SlackClients, articles: ArticleSearch): Router {
  const { models, config } = relay;
  const router = Router();
  const wsUrl = `${config.publicUrl.replace(/^http/, 'ws')}${WS_PATH}`;
  /** An operator's file, fetched from Slack with the team's token; null when Slack no longer has it. */
  const slackFileBytes = async (teamId: string, fileId: string): Promise<Buffer | null> => {
    const team = await slack.forTeam(teamId);
    if (!team) return null;
    const info = await team.client.files.info({ file: fileId }).catch(() => null);
    const url = info?.file?.url_private_download ?? info?.file?.url_private;
    if (!url) return null;
    const upstream = await fetch(url, { headers: { Authorization: `Bearer ${team.token}` }, signal: AbortSignal.timeout(20_000) }).catch(
      () => null,
    );
    return upstream?.ok ? Buffer.from(await upstream.arrayBuffer()) : null;
  };
  const unknownWidget = () => new NotFoundError('This chat widget does not exist.', 'unknown_widget');
  // Counted over every process of the deployment, as the widget's sockets are.
  const searchesPerIp = relay.limiters.counter('article-search-ip', 60_000);
  const limitSearches: RequestHandler = (req, res, next) => {
    // Any page may search (as it may read the config); its errors (400, 429) must be readable there too.
    res.setHeader('Access-Control-Allow-Origin', '*');
    searchesPerIp
      .hit(clientIp(req, config.trustProxy))
      .then((count) => next(count > relay.tuning.articleSearchesPerIpPerMinute ? new RateLimitError() : undefined), next);
  };

  router.options('/widget/api/:uuid/:what', cors, (_req, res) => {
    res.status(204).end();
  });

  router.get('/widget/api/:uuid/config', async (req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    // Revalidated on every page load (an ETag makes that cheap): a widget turned off, or back on, must not
    // keep its old launcher text for another half minute.
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Vary', 'Accept-Language');
    const uuid = req.params.uuid;
    const ce = uuid.length <= 64 ? await pageViewWidget(models.ChatEndpoint, { Uuid: uuid }) : null;
    if (!ce) throw unknownWidget();
    const country = ce.collectVisitorMetaData ? countryOf(clientIp(req, config.trustProxy)) : '';
    const [online, plan] = await Promise.all([relay.presence.isOnline(ce).catch(() => false), effectivePlanOf(models, ce.accountId)]);
    const triggers = Boolean(plan?.triggers);
    // The widget sends its browser's languages (navigator.languages); without them, the request's Accept-Language.
    const sent = typeof req.query.lang === 'string' ? browserLanguages(req.query.lang.slice(0, 400).split(',')) : [];
    const locale = pickWidgetLocale(sent.length > 0 ? sent : req.acceptsLanguages());
    const answer: PublicWidgetConfig = {
      widgetId: ce.Uuid,
      allowed: countryAllowed(ce, country),
      online,
      hideWhenOffline: ce.hideWhenOffline,
      poweredBy: plan?.whiteLabel ? null : poweredByUrl(config.publicUrl, ce.Uuid),
      wsUrl,
      ...widgetLanguage(locale),
      settings: localizeSettings(publicSettings(ce, { triggers }), ce.textOverrides, locale),
    };
    res.json(answer);
  });

  router.get(
    '/widget/api/:uuid/articles/search',
    limitSearches,
    validate(ArticleSearchRequest),
    async (req: Validated<typeof ArticleSearchRequest>, res) => {
      res.setHeader('Cache-Control', 'no-store');
      const ce = await models.ChatEndpoint.findOne({ Uuid: req.params.uuid }).select('_id Uuid accountId');
      if (!ce) throw unknownWidget();
      const language = pickWidgetLocale(browserLanguages(req.query.lang.split(',')));
      const query = req.query.q.trim();
      const hits = query ? await articles.search(ce, query, language) : [];
      if (req.query.record === '1' && query) {
        await models.AnswerEvent.create({ accountId: ce.accountId, ceId: ce._id, kind: 'search', query, language, hits: hits.length });
      }
      res.json({ articles: hits.map(({ id, title, snippet, url, score }) => ({ id, title, snippet, url, score })) });
    },
  );

  router.get('/widget/api/:uuid/articles/:id', validate(ArticleViewRequest), async (req: Validated<typeof ArticleViewRequest>, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Cache-Control', 'no-store');
    const ce = await models.ChatEndpoint.findOne({ Uuid: req.params.uuid }).select('_id Uuid accountId');
    if (!ce) throw unknownWidget();
    const found = isValidObjectId(req.params.id)
      ? await models.Article.findOne({ _id: req.params.id, ceId: ce._id, published: true }).lean()
      : null;
    if (!found) throw new NotFoundError('This article does not exist.');
    // The same article in the visitor's language when it is translated (translations share the slug).
    const language = pickWidgetLocale(browserLanguages(req.query.lang.split(',')));
    const translated =
      req.query.lang && found.language !== language
        ? await models.Article.findOne({ ceId: ce._id, slug: found.slug, language, published: true }).lean()
        : null;
    const article = translated ?? found;
    await models.AnswerEvent.create({
      accountId: ce.accountId,
      ceId: ce._id,
      kind: 'view',
      articleId: article._id,
      language: article.language,
    });
    res.json({
      id: String(article._id),
      title: article.title,
      html: articleHtml(article.body),
      url: articleUrl(config.publicUrl, ce.Uuid, article.slug, article.language),
    });
  });

  router.post(
    '/widget/api/:uuid/offline',
    cors,
    express.json({ limit: '32kb' }),
    validate(OfflineMessageRequest),
    async (req: Validated<typeof OfflineMessageRequest>, res) => {
      const ce = await models.ChatEndpoint.findOne({ Uuid: req.params.uuid });
      if (!ce) throw unknownWidget();
      const country = countryOf(clientIp(req, config.trustProxy));
      if (!countryAllowed(ce, country)) throw new AuthorizationError('This chat is not available in your country.', 'not_allowed_here');
      await sendOfflineMessage(relay, ce, req.body, { country });
      res.json({ ok: true });
    },
  );

  router.post(
    '/widget/api/:uuid/resume',
    cors,
    // The widget posts it as a simple request (text/plain, no preflight): the body is JSON whatever its type says.
    express.json({ limit: '4kb', type: () => true }),
    validate(ResumeRequest),
    async (req: Validated<typeof ResumeRequest>, res) => {
      res.setHeader('Cache-Control', 'no-store');
      res.json(await resumeConversation({ models, secret: config.jwtSecret }, { uuid: req.params.uuid, token: req.body.token }));
    },
  );

  router.post(
    '/widget/api/:uuid/files',
    cors,
    // The multipart envelope around the file is allowed on top of the file's own limit.
    express.raw({ type: () => true, limit: MAX_UPLOAD_BYTES + 64 * 1024 }),
    validate(UploadRequest),
    async (req: Validated<typeof UploadRequest>, res) => {
      const stored = await uploadVisitorFile(relay, {
        uuid: req.params.uuid,
        visitorToken: req.get('x-visitor-token') ?? '',
        contentType: req.get('content-type') ?? '',
        body: req.body,
      });
      res.json(presentUploadedFile(stored, config.publicUrl));
    },
  );

  router.get('/widget/files/:id', async (req, res) => {
    const token = typeof req.query.v === 'string' ? req.query.v : '';
    const id = req.params.id;
    const notFound = () => new NotFoundError('File not found.');
    if (!isValidObjectId(id) || token.length < 16 || token.length > 128) throw notFound();
    const [file, visitor] = await Promise.all([models.WidgetFile.findById(id), findVisitorByToken(models.Visitor, token)]);
    if (!file || !visitor) throw notFound();
    const conversation = file.conversationId ? await models.Conversation.findById(file.conversationId) : null;
    const mine = conversation ? conversation.visitorId.equals(visitor._id) : file.visitorId?.equals(visitor._id) === true;
    if (!mine) throw notFound();
    const bytes = file.data ?? (await slackFileBytes(file.slackTeamId, file.slackFileId));
    if (!bytes) throw notFound();
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    res.setHeader('Cache-Control', 'private, max-age=3600');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    const safeName = encodeURIComponent(file.name);
    // Images may show inline; anything else downloads, so an uploaded HTML page never runs on Parley's origin.
    const inline = /^image\/(png|jpeg|gif|webp)$/.test(file.mimetype);
    res.setHeader('Content-Disposition', `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${safeName}`);
    res.type(inline ? file.mimetype : 'application/octet-stream');
    res.send(bytes);
  });

  // Errors of every route here go to the one error handler (server/http/errorHandler.ts), which answers
  // /widget paths with the widget's error codes.
  router.use('/widget/api', () => {
    throw new NotFoundError('Not found.');
  });
  return router;
}
