/**
 * One place every webhook event goes through: the widget's own webhook URL (when configured) and every REST hook
 * the account subscribed to that event with its Zapier key receive the same payload, through the outbox.
 * REST hook calls are signed: `X-Parley-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body" with the
 * hook's secret>`.
 */
import { createHmac } from 'node:crypto';
import type { Types } from 'mongoose';
import type { Models } from '../models';
import type { RestHookEvent } from '../models/RestHook';
import { shortReads } from '../shortReads';
import type { ConversationContext } from './context';

export type WebhookBody = Record<string, unknown>;

export const SIGNATURE_HEADER = 'X-Parley-Signature';

/** The value of X-Parley-Signature for a body sent at `unixSeconds`. */
export function webhookSignature(secret: string, unixSeconds: number, body: string): string {
  return `t=${unixSeconds},v1=${createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex')}`;
}

/**
 * An account's REST hooks of one event, kept for a second (as the widget's settings are, relay/widgets.ts) so that a
 * visitor's line or a new conversation costs no read for them: a subscription or an unsubscription through this process
 * drops the account's entries at once (`restHooksChanged`); another process's is seen within a second
 * (server/shortReads.ts). Held per database (the models), so tests' servers in one process never share entries.
 */
const hookIds = shortReads<Models, Types.ObjectId[]>(1000);

function restHookIds(models: Models, accountId: Types.ObjectId, event: RestHookEvent): Promise<Types.ObjectId[]> {
  return hookIds.get(models, `${String(accountId)}:${event}`, () =>
    models.RestHook.find({ accountId, event }, { _id: 1 })
      .lean<{ _id: Types.ObjectId }[]>()
      .exec()
      .then((rows) => rows.map((r) => r._id)),
  );
}

/** The account's REST hooks changed (subscribed, unsubscribed, its Zapier key replaced): read again at the next event. */
export function restHooksChanged(models: Models, accountId: Types.ObjectId | string): void {
  const prefix = `${String(accountId)}:`;
  hookIds.drop(models, (key) => key.startsWith(prefix));
}

export async function hasRestHooks(
  ctx: Pick<ConversationContext, 'models'>,
  accountId: Types.ObjectId,
  event: RestHookEvent,
): Promise<boolean> {
  return (await restHookIds(ctx.models, accountId, event)).length > 0;
}

/**
 * Queues `event` for the widget's URL (may be '') and the account's REST hooks. The body is built only when
 * someone receives it. Jobs share `key` (the conversation), so one conversation's events arrive in order.
 */
export async function fireWebhook(
  ctx: Pick<ConversationContext, 'models' | 'outbox'>,
  input: { accountId: Types.ObjectId; key: string; event: RestHookEvent; url: string; body: WebhookBody | (() => Promise<WebhookBody>) },
): Promise<void> {
  const hooks = await restHookIds(ctx.models, input.accountId, input.event);
  if (!input.url && hooks.length === 0) return;
  const body = typeof input.body === 'function' ? await input.body() : input.body;
  if (input.url) await ctx.outbox.enqueue('webhook', input.key, { url: input.url, body });
  // A hook unsubscribed since it was read is skipped by its job (relay/jobs.ts reads it by id).
  for (const hook of hooks) await ctx.outbox.enqueue('webhook', input.key, { hookId: String(hook), body });
}
