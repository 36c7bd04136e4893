import { z } from 'zod';
import { REST_HOOK_EVENTS } from '../../models/RestHook';

const ObjectIdSchema = z.string().regex(/^[0-9a-f]{24}$/i, 'Not found');
/** A page cursor is the id of the last item of the previous page. */
const CursorSchema = z.string().regex(/^[0-9a-f]{24}$/i, 'cursor: not a cursor this API gave out');
const LimitSchema = z.coerce
  .number('limit: a number from 1 to 100')
  .int('limit: a number from 1 to 100')
  .min(1, 'limit: a number from 1 to 100')
  .max(100, 'limit: a number from 1 to 100')
  .default(50);
const DateSchema = (name: string) =>
  z.iso.datetime({ offset: true, message: `${name}: an ISO 8601 date-time, e.g. 2026-01-31T00:00:00Z` }).transform((s) => new Date(s));

/** GET /api/conversations */
export const ConversationsQuerySchema = z.strictObject({
  status: z.enum(['open', 'ended'], 'status: open or ended').optional(),
  widgetId: z.string().max(64).optional(),
  email: z.string().trim().toLowerCase().max(254).optional(),
  since: DateSchema('since').optional(),
  until: DateSchema('until').optional(),
  limit: LimitSchema,
  cursor: CursorSchema.optional(),
});

/** GET /api/visitors */
export const VisitorsQuerySchema = z.strictObject({
  email: z.string().trim().toLowerCase().max(254).optional(),
  widgetId: z.string().max(64).optional(),
  limit: LimitSchema,
  cursor: CursorSchema.optional(),
});

export const IdParamsSchema = z.object({ id: ObjectIdSchema });

/** POST /api/hooks: a REST hook subscription. */
export const SubscribeHookSchema = z.strictObject({
  event: z.enum(REST_HOOK_EVENTS, `event: one of ${REST_HOOK_EVENTS.join(', ')}`),
  targetUrl: z.url({ protocol: /^https?$/, message: 'targetUrl: an http or https URL' }).max(2000, 'targetUrl: at most 2000 characters'),
});
