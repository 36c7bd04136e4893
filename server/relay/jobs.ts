/**
 * What the relay's own outbox jobs do: webhook calls and mails. The Slack posts are the Slack side's job kinds
 * (server/slack/outboxJobs.ts); main.ts hands both tables to the outbox.
 */
import type { Types } from 'mongoose';
import { restHooksChanged, SIGNATURE_HEADER, webhookSignature } from '../conversations/webhooks';
import { MAIL_KINDS, type MailKind } from '../mail';
import type { OutboxJobDocument, OutboxKind } from '../models/OutboxJob';
import type { RelayJobHandler, RelayJobHandlers } from './context';
import { PermanentJobError } from './outbox';
import { postToUrl, UnusableTargetError } from './publicPost';
import { sendUnseenReplies } from './unseenMail';

/** A string field of the job's payload; a job without it can never run. */
export function payloadString(job: OutboxJobDocument, name: string): string {
  const value = job.payload[name];
  if (typeof value !== 'string') throw new PermanentJobError(`job payload misses ${name}`);
  return value;
}
const str = payloadString;

const callWebhook: RelayJobHandler = async (ctx, job) => {
  const body = JSON.stringify(job.payload.body ?? {});
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'Parley-Webhook/1' };
  let url: string;
  let hookId: Types.ObjectId | null = null;
  let hookAccountId: Types.ObjectId | null = null;
  if (typeof job.payload.hookId === 'string') {
    // A REST hook: unsubscribed (or its Zapier key regenerated) since the event means nothing is sent.
    const hook = await ctx.models.RestHook.findById(job.payload.hookId);
    if (!hook) return;
    hookId = hook._id;
    hookAccountId = hook.accountId;
    url = hook.targetUrl;
    headers[SIGNATURE_HEADER.toLowerCase()] = webhookSignature(hook.secret, Math.floor(Date.now() / 1000), body);
    headers['x-parley-event'] = hook.event;
    headers['x-parley-hook-id'] = String(hook._id);
  } else {
    url = str(job, 'url');
  }
  let status: number;
  try {
    status = await postToUrl(url, { headers, body, timeoutMs: 10_000, allowPrivate: ctx.config.webhooksAllowPrivate });
  } catch (error) {
    // Aimed at a private address, or not an http(s) URL at all: no retry will change that.
    if (error instanceof UnusableTargetError) throw new PermanentJobError(`webhook ${url} refused: ${error.message}`);
    throw new Error(`webhook ${url} unreachable: ${error instanceof Error ? error.message : String(error)}`);
  }
  // The REST hooks convention: 410 Gone from the target unsubscribes it.
  if (status === 410 && hookId && hookAccountId) {
    await ctx.models.RestHook.deleteOne({ _id: hookId });
    restHooksChanged(ctx.models, hookAccountId);
    return;
  }
  if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
    throw new PermanentJobError(`webhook ${url} refused the call with ${status}`);
  }
  if (status < 200 || status >= 300) throw new Error(`webhook ${url} answered ${status}`);
};

const sendMail: RelayJobHandler = async (ctx, job) => {
  // Optional: only offline-message mails name the visitor to reply to.
  const replyTo = job.payload.replyToAddress;
  const replyName = job.payload.replyToName;
  const kind = job.payload.kind;
  const fromName = job.payload.fromName;
  await ctx.mailer.send({
    // A visitor's mail comes from the widget's sender name.
    ...(typeof fromName === 'string' && fromName ? { fromName } : {}),
    // Jobs queued before mails had a kind are counted as 'other'.
    kind: typeof kind === 'string' && (MAIL_KINDS as readonly string[]).includes(kind) ? (kind as MailKind) : undefined,
    to: str(job, 'to'),
    subject: str(job, 'subject'),
    text: str(job, 'text'),
    html: str(job, 'html'),
    ...(typeof replyTo === 'string' && replyTo
      ? { replyTo: { name: typeof replyName === 'string' ? replyName : '', address: replyTo } }
      : {}),
  });
};

export const RELAY_JOB_HANDLERS: Pick<RelayJobHandlers, Exclude<OutboxKind, `slack.${string}`>> = {
  webhook: callWebhook,
  mail: sendMail,
  'mail.unseen': sendUnseenReplies,
};
