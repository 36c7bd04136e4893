/**
 * One place every webhook event goes through: the widget's own webhook URL (when configured) and every REST hook
 * the account subscribed to that event with its Zapier key receive the same payload, through the outbox.
 * REST hook calls are signed: `X-Parley-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body" with the
 * hook's secret>`.
 */
import { createHmac } from 'node:crypto';
import type { Types } from 'mongoose';
import type { RestHookEvent } from '../models/RestHook';
import type { ConversationContext } from './context';

export type WebhookBody = Record<string, unknown>;

export const SIGNATURE_HEADER = 'X-Parley-Signature';

/** The value of X-Parley-Signature for a body sent at `unixSeconds`. */
export function webhookSignature(secret: string, unixSeconds: number, body: string): string {
  return `t=${unixSeconds},v1=${createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex')}`;
}

export async function hasRestHooks(
  ctx: Pick<ConversationContext, 'models'>,
  accountId: Types.ObjectId,
  event: RestHookEvent,
): Promise<boolean> {
  return (await ctx.models.RestHook.exists({ accountId, event })) !== null;
}

/**
 * Queues `event` for the widget's URL (may be '') and the account's REST hooks. The body is built only when
 * someone receives it. Jobs share `key` (the conversation), so one conversation's events arrive in order.
 */
export async function fireWebhook(
  ctx: Pick<ConversationContext, 'models' | 'outbox'>,
  input: { accountId: Types.ObjectId; key: string; event: RestHookEvent; url: string; body: WebhookBody | (() => Promise<WebhookBody>) },
): Promise<void> {
  const hooks = await ctx.models.RestHook.find({ accountId: input.accountId, event: input.event }, { _id: 1 }).lean();
  if (!input.url && hooks.length === 0) return;
  const body = typeof input.body === 'function' ? await input.body() : input.body;
  if (input.url) await ctx.outbox.enqueue('webhook', input.key, { url: input.url, body });
  for (const hook of hooks) await ctx.outbox.enqueue('webhook', input.key, { hookId: String(hook._id), body });
}
