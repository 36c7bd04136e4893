/**
 * The public API's contract: the zod schemas its routes validate requests with and the shapes its presenters
 * answer with. server/api/public-api/openapi.ts builds the OpenAPI document from these same objects, so the
 * document cannot drift from what the routes check and send.
 */
import { z } from 'zod';
import { INBOX_STATES } from '../../models/Conversation';
import { REST_HOOK_EVENTS } from '../../models/RestHook';
import { WIDGET_LOCALES } from '../../shared/widget-texts';

const OBJECT_ID = /^[0-9a-f]{24}$/i;
const ObjectIdSchema = z
  .string()
  .regex(OBJECT_ID, 'Not found')
  .meta({ description: 'An id this API gave out.', example: '6650c0ffee0000000000abcd' });
/** A page cursor is the id of the last item of the previous page. */
const CursorSchema = z
  .string()
  .regex(OBJECT_ID, 'cursor: not a cursor this API gave out')
  .meta({ description: "The previous page's `nextCursor`." });
const LimitSchema = z.coerce
  .number('limit: a number from 1 to 100')
  .int('limit: a number from 1 to 100')
  .min(1, 'limit: a number from 1 to 100')
  .max(100, 'limit: a number from 1 to 100')
  .default(50)
  .meta({ description: 'Items per page.' });
const DateSchema = (name: string, description: string) =>
  z.iso
    .datetime({ offset: true, message: `${name}: an ISO 8601 date-time, e.g. 2026-01-31T00:00:00Z` })
    .transform((s) => new Date(s))
    .meta({ description, example: '2026-05-01T00:00:00Z' });
const WidgetIdFilter = z.string().max(64).meta({ description: "Only this widget's items (the widget id of your snippet)." });
const EmailFilter = z.string().trim().toLowerCase().max(254).meta({ description: 'Only items of visitors with this e-mail (any case).' });

/** GET /api/conversations */
export const ConversationsQuerySchema = z.strictObject({
  status: z.enum(['open', 'ended'], 'status: open or ended').optional(),
  state: z
    .enum(INBOX_STATES, `state: one of ${INBOX_STATES.join(', ')}`)
    .optional()
    .meta({ description: 'Only conversations in this shared-inbox state (open: waiting for the team; waiting: for the visitor).' }),
  assignee: z
    .string()
    .regex(/^(none|[UW][A-Z0-9]{2,30})$/, 'assignee: a Slack user id (U…), or none')
    .optional()
    .meta({ description: 'Only conversations assigned to this Slack user id, or `none` for the unassigned ones.' }),
  widgetId: WidgetIdFilter.optional(),
  email: EmailFilter.optional(),
  since: DateSchema('since', 'Started at or after this time.').optional(),
  until: DateSchema('until', 'Started before this time.').optional(),
  limit: LimitSchema,
  cursor: CursorSchema.optional(),
});

/** GET /api/visitors */
export const VisitorsQuerySchema = z.strictObject({
  email: EmailFilter.optional(),
  widgetId: WidgetIdFilter.optional(),
  limit: LimitSchema,
  cursor: CursorSchema.optional(),
});

/** GET /api/offline-messages */
export const OfflineMessagesQuerySchema = z.strictObject({
  widgetId: WidgetIdFilter.optional(),
  limit: LimitSchema,
  cursor: CursorSchema.optional(),
});

/** GET /api/articles */
export const ArticlesQuerySchema = z.strictObject({
  widgetId: WidgetIdFilter.optional(),
  language: z
    .enum(WIDGET_LOCALES, `language: one of ${WIDGET_LOCALES.join(', ')}`)
    .optional()
    .meta({ description: 'Only articles in this language.' }),
  limit: LimitSchema,
  cursor: CursorSchema.optional(),
});

export const IdParamsSchema = z.object({ id: ObjectIdSchema });

/** POST /api/hooks: a REST hook subscription. */
export const SubscribeHookSchema = z
  .strictObject({
    event: z.enum(REST_HOOK_EVENTS, `event: one of ${REST_HOOK_EVENTS.join(', ')}`),
    targetUrl: z
      .url({ protocol: /^https?$/, message: 'targetUrl: an http or https URL' })
      .max(2000, 'targetUrl: at most 2000 characters')
      .meta({ description: 'Where Parley POSTs each payload of the event.', example: 'https://hooks.zapier.com/hooks/standard/123/abc' }),
  })
  .meta({ id: 'HookSubscription' });

// What the API answers. Dates are ISO 8601 strings; a date that has not happened is null.

const Iso = z.iso.datetime().meta({ example: '2026-05-24T09:12:03.000Z' });
const IsoOrNull = Iso.nullable();

export const ApiErrorSchema = z
  .object({
    Message: z.string().meta({ description: 'What went wrong, for people.' }),
    Error: z.string().meta({ description: 'A stable code, for programs.', example: 'invalid_api_key' }),
  })
  .meta({ id: 'Error' });

export const ApiVisitorSchema = z
  .object({
    id: z.string(),
    widgetId: z.string(),
    name: z.string(),
    email: z.string(),
    country: z.string(),
    city: z.string(),
    userId: z.string().meta({ description: "The id your site gave with `parley.identify`, or ''." }),
    traits: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
    createdAt: IsoOrNull,
    lastSeenAt: IsoOrNull,
  })
  .meta({ id: 'Visitor' });

export const ApiConversationSchema = z
  .object({
    id: z.string(),
    number: z.number().int().meta({ description: "The conversation's short number in its widget, shown in the Slack thread." }),
    widgetId: z.string(),
    status: z.enum(['open', 'ended']),
    state: z
      .enum(INBOX_STATES)
      .meta({ description: 'The shared inbox state: open (waiting for the team), waiting (for the visitor), snoozed, ended.' }),
    assigneeId: z.string().meta({ description: "The Slack user id of the operator who has it, or ''." }),
    assigneeName: z.string().meta({ description: "The assignee's name in Slack, or '' when nobody has it or Slack does not answer." }),
    snoozedUntil: IsoOrNull,
    startedAt: IsoOrNull,
    endedAt: IsoOrNull,
    endedBy: z.enum(['visitor', 'operator', 'inactivity']).nullable(),
    firstResponseAt: IsoOrNull,
    agentName: z.string(),
    rating: z.enum(['up', 'down']).nullable(),
    feedback: z.string(),
    pageUrl: z.string(),
    tags: z.array(z.string()).meta({ description: "The conversation's tags, from its widget's list, in the order they were added." }),
    visitor: z.object({ id: z.string(), name: z.string(), email: z.string() }).nullable(),
  })
  .meta({ id: 'Conversation' });

export const ApiMessageSchema = z
  .object({
    id: z.string(),
    seq: z.number().int(),
    kind: z.enum(['msg', 'edit', 'delete', 'ended', 'askEmail', 'screenshot']),
    from: z.enum(['visitor', 'operator', 'system']),
    text: z.string(),
    author: z.string(),
    files: z.array(z.object({ name: z.string(), size: z.number(), mimetype: z.string() })),
    edited: z.boolean(),
    deleted: z.boolean(),
    createdAt: IsoOrNull,
  })
  .meta({ id: 'Message' });

export const ApiConversationWithMessagesSchema = ApiConversationSchema.extend({ messages: z.array(ApiMessageSchema) }).meta({
  id: 'ConversationWithMessages',
});

export const ApiOfflineMessageSchema = z
  .object({
    id: z.string(),
    widgetId: z.string(),
    visitorId: z.string().nullable(),
    name: z.string(),
    email: z.string(),
    message: z.string(),
    pageUrl: z.string(),
    createdAt: IsoOrNull,
  })
  .meta({ id: 'OfflineMessage' });

export const ApiRestHookSchema = z
  .object({ id: z.string(), event: z.enum(REST_HOOK_EVENTS), targetUrl: z.string(), createdAt: IsoOrNull })
  .meta({ id: 'RestHook' });

export const ApiNewRestHookSchema = ApiRestHookSchema.extend({
  secret: z.string().meta({ description: 'Keys the X-Parley-Signature of every call; shown only in this answer.' }),
}).meta({ id: 'NewRestHook' });

export const ApiArticleSchema = z
  .object({
    id: z.string(),
    widgetId: z.string(),
    title: z.string(),
    body: z.string().meta({ description: 'The article as its author wrote it, in Markdown.' }),
    html: z.string().meta({ description: 'The body as Parley shows it: sanitised HTML.' }),
    language: z.enum(WIDGET_LOCALES),
    slug: z.string().meta({ description: 'Unique among the widget’s articles in the same language.' }),
    published: z.boolean().meta({ description: 'Drafts are listed too; only published articles are shown to visitors.' }),
    url: z.string().meta({ description: 'The article’s public page in the widget’s help center.' }),
    createdAt: IsoOrNull,
    updatedAt: IsoOrNull,
  })
  .meta({ id: 'Article' });

export const ApiMeSchema = z
  .object({
    accountId: z.string(),
    orgName: z.string(),
    key: z.enum(['api', 'zapier']),
    widgets: z.array(z.object({ widgetId: z.string(), channel: z.string() })),
  })
  .meta({ id: 'Me' });

/** A page of items, newest first; `nextCursor` is null on the last page. */
export const pageOf = <T extends z.ZodType>(item: T, id: string) =>
  z
    .object({
      data: z.array(item),
      nextCursor: z.string().nullable().meta({ description: 'Pass as `cursor` for the next page; null on the last page.' }),
    })
    .meta({ id });

export const ConversationPageSchema = pageOf(ApiConversationSchema, 'ConversationPage');
export const VisitorPageSchema = pageOf(ApiVisitorSchema, 'VisitorPage');
export const OfflineMessagePageSchema = pageOf(ApiOfflineMessageSchema, 'OfflineMessagePage');
export const ArticlePageSchema = pageOf(ApiArticleSchema, 'ArticlePage');

export type ApiConversation = z.output<typeof ApiConversationSchema>;
export type ApiMessage = z.output<typeof ApiMessageSchema>;
export type ApiVisitor = z.output<typeof ApiVisitorSchema>;
export type ApiOfflineMessage = z.output<typeof ApiOfflineMessageSchema>;
export type ApiRestHook = z.output<typeof ApiRestHookSchema>;
export type ApiMe = z.output<typeof ApiMeSchema>;
export type ApiArticle = z.output<typeof ApiArticleSchema>;
