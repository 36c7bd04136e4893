/**
 * The shapes of what Slack sends to /slack/events, as far as Bolt and Parley's listeners read them (zod, like the
 * API routes' schemas). A correctly signed request that breaks them (a `member_joined_channel` whose `channel` is
 * null, a `block_actions` whose `actions` is null …) is acknowledged and logged here, before Bolt: Bolt itself
 * reads `event.channel.id` and `body.user.id` before any listener runs, and anything it throws becomes a 500 that
 * Slack retries (and, for events, counts towards turning delivery off). Fields no one reads are let through.
 */
import { isValidSlackRequest } from '@slack/bolt';
import type { RequestHandler } from 'express';
import { z } from 'zod';
import type { Logger } from '../logger';

const text = z.string();
/** Bolt reads a channel or a user as an id string or as an object with an id. */
const idOrObject = z.union([z.string(), z.looseObject({ id: z.string() })]);
const strings = z.array(z.string());

/** Fields any event may carry, with the type Slack gives them wherever a listener or Bolt reads them. */
const anyEvent = z.looseObject({
  type: text,
  channel: idOrObject.optional(),
  user: idOrObject.optional(),
  ts: text.optional(),
  thread_ts: text.optional(),
  deleted_ts: text.optional(),
  text: text.nullable().optional(),
  subtype: text.optional(),
  channel_type: text.optional(),
  tab: text.optional(),
  bot_id: text.nullable().optional(),
  files: z.array(z.looseObject({ id: text })).optional(),
  message: z.looseObject({ ts: text.optional(), bot_id: text.nullable().optional() }).optional(),
  tokens: z.looseObject({ oauth: strings.optional(), bot: strings.optional() }).optional(),
});

/** Each event type's own required fields, where Parley's listener reads them. */
const EVENT_SHAPES: Record<string, z.ZodType | undefined> = {
  message: z.looseObject({ channel: text }),
  app_home_opened: z.looseObject({ user: text }),
  member_joined_channel: z.looseObject({ channel: text, user: text }),
  channel_rename: z.looseObject({ channel: z.looseObject({ id: text, name: text }) }),
  channel_archive: z.looseObject({ channel: text }),
  tokens_revoked: z.looseObject({ tokens: z.looseObject({}) }),
};

const eventCallback = z.looseObject({ type: z.literal('event_callback'), team_id: text.optional(), event: anyEvent });

const who = z.looseObject({ id: text });
const interactive = z.looseObject({
  type: text,
  user: who,
  team: who.nullable().optional(),
  channel: who.optional(),
  trigger_id: text.optional(),
  response_url: text.optional(),
  container: z.looseObject({}).optional(),
  message: z.looseObject({ ts: text.optional(), thread_ts: text.optional() }).optional(),
});
const viewShape = z.looseObject({
  id: text,
  callback_id: text,
  private_metadata: text.optional(),
  hash: text.optional(),
  state: z.looseObject({ values: z.record(text, z.record(text, z.looseObject({}))) }).optional(),
});
const INTERACTIVE_SHAPES: Record<string, z.ZodType | undefined> = {
  block_actions: z.looseObject({
    actions: z
      .array(
        z.looseObject({
          action_id: text,
          value: text.optional(),
          selected_option: z.looseObject({ value: text }).nullable().optional(),
        }),
      )
      .min(1),
    view: z.looseObject({ id: text.optional() }).optional(),
    state: z.looseObject({}).optional(),
  }),
  view_submission: z.looseObject({ view: viewShape }),
  view_closed: z.looseObject({ view: viewShape }),
  shortcut: z.looseObject({ callback_id: text, trigger_id: text }),
  message_action: z.looseObject({
    callback_id: text,
    trigger_id: text,
    channel: who,
    message: z.looseObject({ ts: text }),
    message_ts: text.optional(),
  }),
};

const slashCommand = z.looseObject({ command: text, team_id: text, user_id: text, channel_id: text, text: text.optional() });

/** Why `body` (a request to /slack/events, its content type) breaks Slack's shapes, or undefined when it does not. */
export function malformedSlackPayload(body: string, contentType: 'json' | 'form'): string | undefined {
  const problem = (result: { success: boolean; error?: z.ZodError }, what: string) =>
    result.success ? undefined : `${what}: ${z.prettifyError(result.error as z.ZodError).replace(/\n/g, ' ')}`;
  let parsed: unknown;
  if (contentType === 'json') {
    try {
      parsed = JSON.parse(body);
    } catch {
      return undefined; // Bolt answers an unparsable body itself, with a 4xx.
    }
    if (typeof parsed !== 'object' || parsed === null || (parsed as { type?: unknown }).type !== 'event_callback') return undefined;
    const envelope = eventCallback.safeParse(parsed);
    if (!envelope.success) return problem(envelope, 'event');
    const own = EVENT_SHAPES[envelope.data.event.type];
    return own ? problem(own.safeParse(envelope.data.event), `${envelope.data.event.type} event`) : undefined;
  }
  const form = new URLSearchParams(body);
  const payload = form.get('payload');
  if (payload === null) return form.has('command') ? problem(slashCommand.safeParse(Object.fromEntries(form)), 'slash command') : undefined;
  try {
    parsed = JSON.parse(payload);
  } catch {
    return 'interactive payload: not JSON';
  }
  const common = interactive.safeParse(parsed);
  if (!common.success) return problem(common, 'interactive payload');
  const own = INTERACTIVE_SHAPES[common.data.type];
  return own ? problem(own.safeParse(parsed), common.data.type) : undefined;
}

/** What the person who sent a request Parley could not read is told, only to them. */
export const UNREADABLE_REQUEST =
  'Parley could not read what Slack sent for this (a part of it was missing or of the wrong kind), so nothing was done. Please try again.';

/** Where Slack's response_url points: Slack's hooks, or the Slack-compatible server Parley talks to (the sandbox). */
export function isSlackResponseUrl(url: string, slackApiUrl: string): boolean {
  try {
    const target = new URL(url);
    return (
      (target.protocol === 'https:' && target.hostname === 'hooks.slack.com') ||
      (slackApiUrl !== 'https://slack.com/api/' && target.origin === new URL(slackApiUrl).origin)
    );
  } catch {
    return false;
  }
}

export type MalformedPayloadDeps = {
  signingSecret: string;
  logger: Pick<Logger, 'warn'>;
  /** Slack's Web API base: a response_url on its origin (the sandbox's) is Slack's, like hooks.slack.com. */
  slackApiUrl: string;
  fetch: typeof fetch;
};

/**
 * Runs after the raw body was read (acknowledgingOwnPosts): a correctly signed request whose payload breaks
 * Slack's shapes is answered 200 and logged, so neither Bolt nor a listener ever sees it; the person who sent it is
 * told so, only to them (a slash command in the answer itself, an action through its response_url). An unsigned one
 * goes on to Bolt, which refuses it.
 */
export function acknowledgingMalformedPayloads(deps: MalformedPayloadDeps): RequestHandler {
  const { signingSecret, logger } = deps;
  const tellThem = (responseUrl: unknown) => {
    if (typeof responseUrl !== 'string' || !isSlackResponseUrl(responseUrl, deps.slackApiUrl)) return;
    deps
      .fetch(responseUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ response_type: 'ephemeral', replace_original: false, text: UNREADABLE_REQUEST }),
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'Could not tell the sender of an unreadable Slack request'));
  };
  return (req, res, next) => {
    const raw = (req as { rawBody?: unknown }).rawBody;
    if (!Buffer.isBuffer(raw)) return next();
    const kind = req.is('application/json') ? 'json' : req.is('application/x-www-form-urlencoded') ? 'form' : undefined;
    if (!kind) return next();
    const body = raw.toString();
    const why = malformedSlackPayload(body, kind);
    if (why === undefined) return next();
    const signed = isValidSlackRequest({
      signingSecret,
      body,
      headers: {
        'x-slack-signature': req.header('x-slack-signature') ?? '',
        'x-slack-request-timestamp': Number(req.header('x-slack-request-timestamp')),
      },
    });
    if (!signed) return next();
    logger.warn({ why }, 'Ignored a Slack request whose payload breaks Slack’s shapes');
    const form = kind === 'form' ? new URLSearchParams(body) : undefined;
    if (form?.has('command') && !form.has('payload')) {
      res.status(200).json({ response_type: 'ephemeral', text: UNREADABLE_REQUEST });
      return;
    }
    const payload = form?.get('payload');
    if (payload) {
      try {
        tellThem((JSON.parse(payload) as { response_url?: unknown }).response_url);
      } catch {
        // not JSON: nobody to tell
      }
    }
    res.status(200).send();
  };
}
