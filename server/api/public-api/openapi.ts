/**
 * The OpenAPI 3.1 document of /v1/api, generated (zod-openapi) from the zod schemas in ./schema.ts: the request
 * schemas are the very objects the routes validate with, the response schemas type the presenters. Served at
 * GET /v1/api/openapi.json and rendered on /docs/api.
 */
import { z } from 'zod';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiResponsesObject } from 'zod-openapi';
import {
  ApiArticleSchema,
  ApiConversationWithMessagesSchema,
  ApiErrorSchema,
  ApiMeSchema,
  ApiNewRestHookSchema,
  ApiRestHookSchema,
  ApiVisitorSchema,
  ArticlePageSchema,
  ArticlesQuerySchema,
  ConversationPageSchema,
  ConversationsQuerySchema,
  IdParamsSchema,
  OfflineMessagePageSchema,
  OfflineMessagesQuerySchema,
  SubscribeHookSchema,
  VisitorPageSchema,
  VisitorsQuerySchema,
} from './schema';

const json = (schema: z.ZodType) => ({ 'application/json': { schema } });

const rateLimitHeaders = z.object({
  RateLimit: z.string().meta({ description: 'What is left of the window: `"api-key";r=<remaining>;t=<seconds to reset>`.' }),
  'RateLimit-Policy': z.string().meta({ description: 'The limit: `"api-key";q=<requests>;w=60`.' }),
});

const errors = {
  '401': {
    description: 'No key, a wrong key, a revoked key, or a key of the other kind.',
    headers: z.object({ 'WWW-Authenticate': z.string() }),
    content: json(ApiErrorSchema),
  },
  '429': {
    description: 'The key made more requests this minute than its limit; retry after `Retry-After` seconds.',
    headers: rateLimitHeaders.extend({ 'Retry-After': z.string().meta({ description: 'Seconds to wait.' }) }),
    content: json(ApiErrorSchema),
  },
} satisfies ZodOpenApiResponsesObject;
const badRequest = { '400': { description: 'A parameter or the body is not valid; `Message` says which.', content: json(ApiErrorSchema) } };
const notFound = { '404': { description: 'Nothing with this id in your account.', content: json(ApiErrorSchema) } };
const ok = (description: string, schema: z.ZodType) => ({ '200': { description, headers: rateLimitHeaders, content: json(schema) } });

const READ: Record<string, string[]>[] = [{ apiKey: [] }, { zapierKey: [] }];
const HOOKS: Record<string, string[]>[] = [{ zapierKey: [] }];

const operation = (op: ZodOpenApiOperationObject): ZodOpenApiOperationObject => op;

/** The document, with `serverUrl` (Parley's public URL + /v1/api) as its server. */
export function openApiDocument(serverUrl: string) {
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Parley API',
      version: '1.0.0',
      description:
        'Read conversations, their messages, visitors, offline messages and help-center articles, and subscribe REST hooks to conversation events. ' +
        'Send a key as `Authorization: Bearer <key>`: the API key (`pk_…`) reads; the Zapier key (`zk_…`) reads and manages REST hooks. ' +
        'Each key may make a limited number of requests a minute (120 by default); beyond it Parley answers 429. ' +
        'Lists are pages, newest first: pass `nextCursor` as `cursor` until it is null. Every error answers `{ Message, Error }`.',
    },
    servers: [{ url: serverUrl }],
    security: READ,
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'The API key (`pk_…`), from the Account page.' },
        zapierKey: { type: 'http', scheme: 'bearer', description: 'The Zapier API key (`zk_…`), from the Account page.' },
      },
    },
    tags: [
      { name: 'Account' },
      { name: 'Conversations' },
      { name: 'Visitors' },
      { name: 'Offline messages' },
      { name: 'Articles', description: 'The help centers of your widgets: every article, drafts included.' },
      { name: 'REST hooks', description: 'Subscriptions: Parley POSTs every payload of the event to `targetUrl`, signed.' },
    ],
    paths: {
      '/me': {
        get: operation({
          operationId: 'getMe',
          tags: ['Account'],
          summary: 'The account of the key and its widgets',
          responses: { ...ok('The account.', ApiMeSchema), ...errors },
        }),
      },
      '/conversations': {
        get: operation({
          operationId: 'listConversations',
          tags: ['Conversations'],
          summary: 'Conversations, newest first',
          requestParams: { query: ConversationsQuerySchema },
          responses: { ...ok('A page of conversations.', ConversationPageSchema), ...badRequest, ...errors },
        }),
      },
      '/conversations/{id}': {
        get: operation({
          operationId: 'getConversation',
          tags: ['Conversations'],
          summary: 'One conversation with its messages',
          requestParams: { path: IdParamsSchema },
          responses: { ...ok('The conversation.', ApiConversationWithMessagesSchema), ...badRequest, ...notFound, ...errors },
        }),
      },
      '/visitors': {
        get: operation({
          operationId: 'listVisitors',
          tags: ['Visitors'],
          summary: 'Visitors, newest first',
          requestParams: { query: VisitorsQuerySchema },
          responses: { ...ok('A page of visitors.', VisitorPageSchema), ...badRequest, ...errors },
        }),
      },
      '/visitors/{id}': {
        get: operation({
          operationId: 'getVisitor',
          tags: ['Visitors'],
          summary: 'One visitor',
          requestParams: { path: IdParamsSchema },
          responses: { ...ok('The visitor.', ApiVisitorSchema), ...badRequest, ...notFound, ...errors },
        }),
      },
      '/offline-messages': {
        get: operation({
          operationId: 'listOfflineMessages',
          tags: ['Offline messages'],
          summary: 'Messages left through the offline form, newest first',
          requestParams: { query: OfflineMessagesQuerySchema },
          responses: { ...ok('A page of offline messages.', OfflineMessagePageSchema), ...badRequest, ...errors },
        }),
      },
      '/articles': {
        get: operation({
          operationId: 'listArticles',
          tags: ['Articles'],
          summary: 'Help-center articles, newest first',
          requestParams: { query: ArticlesQuerySchema },
          responses: { ...ok('A page of articles.', ArticlePageSchema), ...badRequest, ...errors },
        }),
      },
      '/articles/{id}': {
        get: operation({
          operationId: 'getArticle',
          tags: ['Articles'],
          summary: 'One article',
          requestParams: { path: IdParamsSchema },
          responses: { ...ok('The article.', ApiArticleSchema), ...badRequest, ...notFound, ...errors },
        }),
      },
      '/hooks': {
        get: operation({
          operationId: 'listHooks',
          tags: ['REST hooks'],
          summary: "The Zapier key's subscriptions",
          security: HOOKS,
          responses: { ...ok('The subscriptions, oldest first.', z.array(ApiRestHookSchema)), ...errors },
        }),
        post: operation({
          operationId: 'subscribeHook',
          tags: ['REST hooks'],
          summary: 'Subscribe a URL to an event',
          security: HOOKS,
          requestBody: { content: json(SubscribeHookSchema) },
          responses: {
            '201': { description: 'Subscribed.', headers: rateLimitHeaders, content: json(ApiNewRestHookSchema) },
            ...badRequest,
            ...errors,
          },
        }),
      },
      '/hooks/{id}': {
        delete: operation({
          operationId: 'unsubscribeHook',
          tags: ['REST hooks'],
          summary: 'Unsubscribe',
          security: HOOKS,
          requestParams: { path: IdParamsSchema },
          responses: { '204': { description: 'Unsubscribed.', headers: rateLimitHeaders }, ...badRequest, ...notFound, ...errors },
        }),
      },
    },
  });
}
