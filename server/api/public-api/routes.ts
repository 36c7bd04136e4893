/**
 * The public API under /v1/api, for programs: with the API key (`Authorization: Bearer pk_…`) or the Zapier key
 * (`zk_…`) the account's conversations, one conversation with its messages, visitors, offline messages and
 * help-center articles; with
 * the Zapier key alone REST hook subscriptions (a Zapier app thus needs one key). Every key is limited per
 * minute; a regenerated key fails on its next request. Its contract is GET /v1/api/openapi.json (./openapi.ts).
 */

import { randomBytes } from 'node:crypto';
import { type Response, Router } from 'express';
import type { QueryFilter, Types } from 'mongoose';
import { inSlackOrder } from '../../conversations/history';
import { inboxStateFilter } from '../../conversations/inbox';
import { restHooksChanged } from '../../conversations/webhooks';
import { apiKeyOf, requireApiKey } from '../../http/auth';
import { type Validated, validate, validated } from '../../http/validate';
import type { Article } from '../../models/Article';
import type { Conversation } from '../../models/Conversation';
import type { Visitor } from '../../models/Visitor';
import type { OperatorDirectory } from '../../reports/team';
import { findOwned } from '../ownership';
import {
  presentApiArticle,
  presentApiConversation,
  presentApiMessage,
  presentApiOfflineMessage,
  presentApiVisitor,
  presentRestHook,
} from '../presenters/publicApi';
import type { ApiDeps } from '../users/routes';
import { openApiDocument } from './openapi';
import {
  type ApiMe,
  ArticlesQuerySchema,
  ConversationsQuerySchema,
  IdParamsSchema,
  OfflineMessagesQuerySchema,
  SubscribeHookSchema,
  VisitorsQuerySchema,
} from './schema';

const DEFAULT_PER_MINUTE = 120;

type Widgets = Map<string, { uuid: string; name: string; _id: Types.ObjectId }>;

/** The widget named by a `widgetId` filter: undefined when none was given, null when it is not the account's. */
function widgetFilter(widgets: Widgets, widgetId: string | undefined): Types.ObjectId | undefined | null {
  if (widgetId === undefined) return undefined;
  return [...widgets.values()].find((w) => w.uuid === widgetId)?._id ?? null;
}

/** What a list of the public API reads under: the key's account, the widget asked for, the page's cursor. */
type ListScope = { accountId: Types.ObjectId; ceId?: Types.ObjectId; _id?: { $lt: string } };

/**
 * One page of a list, newest first: `limit` items after the cursor, and the cursor of the next page (null at the end).
 * `find` gets the cursor's condition on _id and how many to read (one more than a page, to know whether more follow).
 */
async function newestFirst<T extends { _id: unknown }>(
  query: { cursor?: string; limit: number },
  find: (after: { _id?: { $lt: string } }, limit: number) => Promise<T[]>,
): Promise<{ items: T[]; nextCursor: string | null }> {
  const found = await find(query.cursor ? { _id: { $lt: query.cursor } } : {}, query.limit + 1);
  const items = found.slice(0, query.limit);
  return { items, nextCursor: found.length > query.limit ? String(items[items.length - 1]?._id) : null };
}

/**
 * The Slack names of the conversations' assignees (Slack user id → name), read through the operators' directory
 * (cached there); '' for one Slack does not know, and none without a directory.
 */
async function assigneeNames(
  operators: OperatorDirectory | undefined,
  conversations: Pick<Conversation, 'slackTeamId' | 'assigneeId'>[],
): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  if (!operators) return names;
  for (const c of conversations) {
    if (!c.assigneeId || names.has(c.assigneeId)) continue;
    const profile = await operators.lookup(c.slackTeamId, c.assigneeId);
    names.set(c.assigneeId, profile.known ? profile.slackName : '');
  }
  return names;
}

export function publicApiRouter({ config, models, limiters, operators }: ApiDeps): Router {
  const router = Router();
  const limit = limiters.perApiKey(config.apiKeyRequestsPerMinute ?? DEFAULT_PER_MINUTE, (res) => String(apiKeyOf(res)._id));
  const read = [requireApiKey(models, ['api', 'zapier']), limit];
  const hooks = [requireApiKey(models, ['zapier']), limit];
  // Built once: it depends only on the schemas and the public URL.
  const document = JSON.stringify(openApiDocument(`${config.publicUrl}/v1/api`));

  router.get('/api/openapi.json', (_req, res) => {
    res.type('json').set('Cache-Control', 'public, max-age=300').set('Access-Control-Allow-Origin', '*').send(document);
  });

  /** Widget ids (Uuid) by internal id, for the account of the request's key. */
  const widgetsOf = async (res: Response): Promise<Widgets> => {
    const ces = await models.ChatEndpoint.find({ accountId: apiKeyOf(res).accountId }, { Uuid: 1, RoomName: 1 });
    return new Map(ces.map((ce) => [String(ce._id), { uuid: ce.Uuid, name: ce.RoomName, _id: ce._id }]));
  };

  const idParams = { params: IdParamsSchema };

  router.get('/api/me', ...read, async (_req, res) => {
    const key = apiKeyOf(res);
    const account = await models.Account.findById(key.accountId);
    const widgets = await widgetsOf(res);
    const me: ApiMe = {
      accountId: String(key.accountId),
      orgName: account?.orgName ?? '',
      key: key.kind,
      widgets: [...widgets.values()].map((w) => ({ widgetId: w.uuid, channel: w.name })),
    };
    res.json(me);
  });

  /**
   * One page of the key's account's documents, newest first, as `{ data, nextCursor }`: `find` reads them under
   * `scope` (the account, the widget the query's `widgetId` names, the page's cursor), newest first, `limit` at most; an
   * empty page when the widget is not the account's. `present` makes the page's items, given each one's widget id.
   */
  const widgetListPage = async <T extends { _id: Types.ObjectId; ceId: Types.ObjectId }>(
    res: Response,
    query: { widgetId?: string; cursor?: string; limit: number },
    find: (scope: ListScope, limit: number) => Promise<T[]>,
    present: (items: T[], widgetIdOf: (item: T) => string) => unknown[] | Promise<unknown[]>,
  ): Promise<void> => {
    const widgets = await widgetsOf(res);
    const ceId = widgetFilter(widgets, query.widgetId);
    if (ceId === null) {
      res.json({ data: [], nextCursor: null });
      return;
    }
    const { accountId } = apiKeyOf(res);
    const { items, nextCursor } = await newestFirst(query, (after, limit) =>
      find({ accountId, ...(ceId ? { ceId } : {}), ...after }, limit),
    );
    res.json({ data: await present(items, (item) => widgets.get(String(item.ceId))?.uuid ?? ''), nextCursor });
  };

  const conversationsQuery = { query: ConversationsQuerySchema };
  router.get(
    '/api/conversations',
    ...read,
    validated(conversationsQuery, async (req, res) => {
      const { query } = req;
      const accountId = apiKeyOf(res).accountId;
      const find = async (scope: ListScope, limit: number) => {
        const filter: QueryFilter<Conversation> = { ...scope };
        if (query.status) filter.status = query.status;
        if (query.state) Object.assign(filter, inboxStateFilter(query.state));
        if (query.assignee) filter.assigneeId = query.assignee === 'none' ? { $in: ['', null] } : query.assignee;
        if (query.since || query.until)
          filter.startedAt = { ...(query.since ? { $gte: query.since } : {}), ...(query.until ? { $lt: query.until } : {}) };
        if (query.email !== undefined) {
          const visitors = await models.Visitor.find({ accountId, email: query.email });
          filter.visitorId = { $in: visitors.map((v) => v._id) };
        }
        return models.Conversation.find(filter).sort({ _id: -1 }).limit(limit);
      };
      await widgetListPage(res, query, find, async (items, widgetIdOf) => {
        const visitors = await models.Visitor.find({ _id: { $in: items.map((c) => c.visitorId) } });
        const visitorById = new Map(visitors.map((v) => [String(v._id), v]));
        const names = await assigneeNames(operators, items);
        return items.map((c) =>
          presentApiConversation(c, widgetIdOf(c), visitorById.get(String(c.visitorId)), names.get(c.assigneeId) ?? ''),
        );
      });
    }),
  );

  router.get('/api/conversations/:id', ...read, validate(idParams), async (req: Validated<typeof idParams>, res) => {
    const { id } = req.params;
    const conversation = await findOwned(models.Conversation, id, apiKeyOf(res).accountId);
    const [widgets, visitor, messages, names] = await Promise.all([
      widgetsOf(res),
      models.Visitor.findById(conversation.visitorId),
      models.Message.find({ conversationId: conversation._id }).then(inSlackOrder),
      assigneeNames(operators, [conversation]),
    ]);
    res.json({
      ...presentApiConversation(
        conversation,
        widgets.get(String(conversation.ceId))?.uuid ?? '',
        visitor ?? undefined,
        names.get(conversation.assigneeId) ?? '',
      ),
      messages: messages.map(presentApiMessage),
    });
  });

  const visitorsQuery = { query: VisitorsQuerySchema };
  router.get(
    '/api/visitors',
    ...read,
    validated(visitorsQuery, async (req, res) => {
      const { query } = req;
      const narrow: QueryFilter<Visitor> = query.email !== undefined ? { email: query.email } : {};
      const find = (scope: ListScope, limit: number) =>
        models.Visitor.find({ ...scope, ...narrow })
          .sort({ _id: -1 })
          .limit(limit);
      await widgetListPage(res, query, find, (items, widgetIdOf) => items.map((v) => presentApiVisitor(v, widgetIdOf(v))));
    }),
  );

  router.get('/api/visitors/:id', ...read, validate(idParams), async (req: Validated<typeof idParams>, res) => {
    const { id } = req.params;
    const visitor = await findOwned(models.Visitor, id, apiKeyOf(res).accountId);
    const widgets = await widgetsOf(res);
    res.json(presentApiVisitor(visitor, widgets.get(String(visitor.ceId))?.uuid ?? ''));
  });

  const offlineQuery = { query: OfflineMessagesQuerySchema };
  router.get(
    '/api/offline-messages',
    ...read,
    validated(offlineQuery, async (req, res) => {
      const find = (scope: ListScope, limit: number) => models.OfflineMessage.find(scope).sort({ _id: -1 }).limit(limit);
      await widgetListPage(res, req.query, find, (items, widgetIdOf) => items.map((m) => presentApiOfflineMessage(m, widgetIdOf(m))));
    }),
  );

  const articlesQuery = { query: ArticlesQuerySchema };
  router.get(
    '/api/articles',
    ...read,
    validated(articlesQuery, async (req, res) => {
      const { query } = req;
      const narrow: QueryFilter<Article> = query.language ? { language: query.language } : {};
      const find = (scope: ListScope, limit: number) =>
        models.Article.find({ ...scope, ...narrow })
          .sort({ _id: -1 })
          .limit(limit);
      await widgetListPage(res, query, find, (items, widgetIdOf) =>
        items.map((a) => presentApiArticle(a, widgetIdOf(a), config.publicUrl)),
      );
    }),
  );

  router.get('/api/articles/:id', ...read, validate(idParams), async (req: Validated<typeof idParams>, res) => {
    const article = await findOwned(models.Article, req.params.id, apiKeyOf(res).accountId);
    const widgets = await widgetsOf(res);
    res.json(presentApiArticle(article, widgets.get(String(article.ceId))?.uuid ?? '', config.publicUrl));
  });

  router.get('/api/hooks', ...hooks, async (_req, res) => {
    const key = apiKeyOf(res);
    res.json((await models.RestHook.find({ accountId: key.accountId, apiKeyId: key._id }).sort({ _id: 1 })).map(presentRestHook));
  });

  router.post('/api/hooks', ...hooks, validate(SubscribeHookSchema), async (req: Validated<typeof SubscribeHookSchema>, res) => {
    const key = apiKeyOf(res);
    const hook = await models.RestHook.create({
      accountId: key.accountId,
      apiKeyId: key._id,
      event: req.body.event,
      targetUrl: req.body.targetUrl,
      secret: `whsec_${randomBytes(24).toString('base64url')}`,
    });
    restHooksChanged(models, key.accountId);
    // The secret is handed out once, here: the subscriber verifies X-Parley-Signature with it.
    res.status(201).json({ ...presentRestHook(hook), secret: hook.secret });
  });

  router.delete('/api/hooks/:id', ...hooks, validate(idParams), async (req: Validated<typeof idParams>, res) => {
    const { id } = req.params;
    const hook = await findOwned(models.RestHook, id, apiKeyOf(res).accountId);
    await hook.deleteOne();
    restHooksChanged(models, hook.accountId);
    res.status(204).end();
  });

  return router;
}
