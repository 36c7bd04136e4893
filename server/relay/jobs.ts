/**
 * What the relay's own outbox jobs do: webhook calls and mails. The Slack posts are the Slack side's job kinds
 * (server/slack/outboxJobs.ts); main.ts hands both tables to the outbox.
 */
import type { Types } from 'mongoose';
import { restHooksChanged, SIGNATURE_HEADER, webhookSignature } from '../conversations/webhooks';
import { MAIL_KINDS, type MailKind } from '../mail';
import type { JobKind, SlackJobKind } from '../outbox/catalogue';
import { PermanentJobError } from '../outbox/engine';
import type { RelayJobHandler, RelayJobHandlers } from './context';
import { postToUrl, UnusableTargetError } from './publicPost';
import { sendUnseenReplies } from './unseenMail';

const callWebhook: RelayJobHandler<'webhook'> = async (ctx, job) => {
  const { hookId: restHookId, url: widgetUrl } = job.payload;
  const body = JSON.stringify(job.payload.body ?? {});
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'Parley-Webhook/1' };
  let url: string;
  let hookId: Types.ObjectId | null = null;
  let hookAccountId: Types.ObjectId | null = null;
  if (restHookId !== undefined) {
    // A REST hook: unsubscribed (or its Zapier key regenerated) since the event means nothing is sent.
    const hook = await ctx.models.RestHook.findById(restHookId);
    if (!hook) return;
    hookId = hook._id;
    hookAccountId = hook.accountId;
    url = hook.targetUrl;
    headers[SIGNATURE_HEADER.toLowerCase()] = webhookSignature(hook.secret, Math.floor(Date.now() / 1000), body);
    headers['x-parley-event'] = hook.event;
    headers['x-parley-hook-id'] = String(hook._id);
  } else if (widgetUrl !== undefined) {
    url = widgetUrl;
  } else {
    throw new PermanentJobError('webhook job names neither a URL nor a REST hook');
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

const sendMail: RelayJobHandler<'mail'> = async (ctx, job) => {
  const { kind, fromName, to, subject, text, html, headers, replyToAddress, replyToName } = job.payload;
  await ctx.mailer.send({
    // A visitor's mail comes from the widget's sender name.
    ...(fromName ? { fromName } : {}),
    // Jobs queued before mails had a kind are counted as 'other'.
    kind: kind && (MAIL_KINDS as readonly string[]).includes(kind) ? (kind as MailKind) : undefined,
    to,
    subject,
    text,
    html,
    ...(headers ? { headers } : {}),
    // Optional: only offline-message mails name the visitor to reply to.
    ...(replyToAddress ? { replyTo: { name: replyToName ?? '', address: replyToAddress } } : {}),
  });
};

/** The relay's own job kinds: webhook calls and mails; the slack.* kinds are the Slack side's (slack/outboxJobs.ts). */
export const RELAY_JOB_HANDLERS: Pick<RelayJobHandlers, Exclude<JobKind, SlackJobKind>> = {
  webhook: callWebhook,
  mail: sendMail,
  'mail.unseen': sendUnseenReplies,
};
