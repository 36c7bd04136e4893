/**
 * Modal submissions and the message shortcut. A submission is checked before it is acknowledged, so problems
 * come back as field errors in the modal (`response_action: errors`); the work runs after the acknowledgement,
 * and its outcome reaches the person as an ephemeral message in the conversation's channel.
 */
import type { AllMiddlewareArgs, App, Logger, MessageShortcut, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { WidgetSettingsSchema } from '../../commands/updateWidgetSettings';
import type { ChatEndpointDocument } from '../../models/ChatEndpoint';
import type { ConversationDocument } from '../../models/Conversation';
import { type ConversationAction, FIELDS, pickActionModal, VIEWS } from '../blocks/modals';
import {
  ActionRefused,
  askForEmail,
  askForScreenshot,
  emailTranscript,
  endChat,
  sendReply,
  startGroup,
  transcriptAddress,
  visitorName,
} from '../conversationActions';
import type { SlackDeps } from '../deps';
import { type Operator, operatorOf } from '../operators';
import { conversationForMember, widgetForMember } from './access';
import { actionModal } from './actions';
import { failureText } from './failures';
import { changeSettings } from './parley';

export const CONVERSATION_SHORTCUT = 'parley_conversation_actions';

type Deps = SlackDeps;
type SubmitArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;
type Values = ViewSubmitAction['view']['state']['values'];

const ACTIONS: ConversationAction[] = [
  'end',
  'askEmail',
  'screenshot',
  'savedReply',
  'questionGroup',
  'visitorInfo',
  'sendTranscript',
  'snooze',
];

function textValue(values: Values, field: string): string {
  return values[field]?.[field]?.value ?? '';
}
function selected(values: Values, field: string): string {
  return values[field]?.[field]?.selected_option?.value ?? '';
}

/** The outcome of a submitted modal, to the person, in the channel it concerns. */
export async function tell(
  client: WebClient,
  logger: Logger,
  where: { channel: string; user: string; threadTs?: string },
  text: string,
): Promise<void> {
  try {
    await client.chat.postEphemeral({
      channel: where.channel,
      user: where.user,
      text,
      ...(where.threadTs ? { thread_ts: where.threadTs } : {}),
    });
  } catch (error) {
    logger.warn('could not tell the person the outcome of a modal', error instanceof Error ? error.message : error);
  }
}

/** One "09:00-17:00, 18:00-20:00" day: entries, or the problem to show under the field. */
export function parseDay(weekday: number, text: string): { weekday: number; start: number; end: number }[] | string {
  const entries: { weekday: number; start: number; end: number }[] = [];
  for (const part of text
    .split(/[,;]/)
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^(\d{1,2})(?:[:.h]?(\d{2}))?\s*(?:-|–|—|to)\s*(\d{1,2})(?:[:.h]?(\d{2}))?$/i.exec(part);
    if (!m) return `“${part.slice(0, 40)}” is not a range like 09:00-17:00.`;
    const time = (h: string | undefined, min: string | undefined) => Number(h) * 100 + Number(min ?? 0);
    let start = time(m[1], m[2]);
    let end = time(m[3], m[4]);
    for (const t of [start, end]) {
      if (Math.floor(t / 100) > 24 || t % 100 >= 60 || t > 2400) return `“${part.slice(0, 40)}” is not a time of day.`;
      if ((t % 100) % 15 !== 0) return 'Times go in 15-minute steps (09:00, 09:15, 09:30, 09:45).';
    }
    // Equal ends mean nothing and are left out; reversed ones are swapped, as the console's editor does.
    if (start === end) continue;
    if (end < start) [start, end] = [end, start];
    entries.push({ weekday, start, end });
  }
  return entries;
}

async function conversationOfView(
  deps: Deps,
  args: SubmitArgs,
): Promise<{ c: ConversationDocument; ce: ChatEndpointDocument; operator: Operator }> {
  const who = { teamId: args.body.team?.id ?? '', userId: args.body.user.id };
  const { c, ce } = await conversationForMember(deps.models, args.client, who, args.view.private_metadata);
  return { c, ce, operator: await operatorOf(args.client, who.userId) };
}

/**
 * Registers a conversation modal's submission: `check` runs before the acknowledgement and answers field
 * errors (or nothing); `run` does the work after it and answers what to tell the person.
 */
function conversationSubmission(
  app: App,
  deps: Deps,
  callbackId: string,
  field: string,
  check: (args: SubmitArgs, c: ConversationDocument) => Promise<string | null>,
  run: (args: SubmitArgs, found: { c: ConversationDocument; ce: ChatEndpointDocument; operator: Operator }) => Promise<string>,
): void {
  app.view<ViewSubmitAction>(callbackId, async (args) => {
    const { ack, body, client, logger } = args;
    let found: Awaited<ReturnType<typeof conversationOfView>>;
    try {
      found = await conversationOfView(deps, args);
      const problem = await check(args, found.c);
      if (problem) {
        await ack(refusal(field, problem));
        return;
      }
    } catch (error) {
      await ack(refusal(field, failureText(error, logger, `modal ${callbackId}`)));
      return;
    }
    await ack();
    let text: string;
    try {
      text = await run(args, found);
      deps.homeTabs.teamChanged(found.c.slackTeamId);
    } catch (error) {
      text = failureText(error, logger, `modal ${callbackId}`);
    }
    await tell(client, logger, { channel: found.c.slackChannel, user: body.user.id, threadTs: found.c.threadTs || undefined }, text);
  });
}

/** Field errors need an input block to sit under; a modal without one is replaced by the explanation. */
function refusal(field: string, text: string) {
  if (field) return { response_action: 'errors' as const, errors: { [field]: text } };
  return {
    response_action: 'update' as const,
    view: {
      type: 'modal' as const,
      title: { type: 'plain_text' as const, text: 'Parley' },
      close: { type: 'plain_text' as const, text: 'Close' },
      blocks: [{ type: 'section' as const, text: { type: 'mrkdwn' as const, text } }],
    },
  };
}

const mustBeOpen = async (_args: SubmitArgs, c: ConversationDocument) =>
  c.status === 'open' ? null : `Conversation #${c.number} has already ended.`;

export function registerViewListeners(app: App, deps: Deps): void {
  // The message shortcut's first step: the chosen action's own modal replaces it.
  app.view<ViewSubmitAction>(VIEWS.pickAction, async (args) => {
    const { ack, view, logger } = args;
    const action = selected(view.state.values, FIELDS.action) as ConversationAction;
    try {
      if (!ACTIONS.includes(action)) throw new ActionRefused('Choose an action.');
      const { c, ce } = await conversationOfView(deps, args);
      if (c.status !== 'open' && action !== 'visitorInfo' && action !== 'sendTranscript')
        throw new ActionRefused(`Conversation #${c.number} has already ended.`);
      await ack({ response_action: 'update', view: await actionModal(deps, action, c, ce) });
    } catch (error) {
      await ack({ response_action: 'errors', errors: { [FIELDS.action]: failureText(error, logger, 'conversation action picker') } });
    }
  });

  conversationSubmission(app, deps, VIEWS.endChat, FIELDS.note, mustBeOpen, ({ view }, { c, operator }) =>
    endChat(deps.relay, c, operator, textValue(view.state.values, FIELDS.note)),
  );

  // The confirmation modal has no input: a refusal is shown on the whole view.
  conversationSubmission(app, deps, VIEWS.askEmail, '', mustBeOpen, (_args, { c, operator }) => askForEmail(deps.relay, c, operator));
  conversationSubmission(app, deps, VIEWS.screenshot, '', mustBeOpen, (_args, { c, operator }) =>
    askForScreenshot(deps.relay, c, operator),
  );

  conversationSubmission(
    app,
    deps,
    VIEWS.savedReply,
    FIELDS.reply,
    async ({ view }, c) => {
      if (c.status !== 'open') return `Conversation #${c.number} has already ended.`;
      const id = selected(view.state.values, FIELDS.reply);
      const reply = /^[a-f0-9]{24}$/.test(id) ? await deps.models.SavedReply.findOne({ _id: id, ceId: c.ceId }) : null;
      return reply ? null : 'Choose one of the saved replies.';
    },
    ({ view }, { c, operator }) => sendReply(deps.relay, c, operator, { replyId: selected(view.state.values, FIELDS.reply) }),
  );

  conversationSubmission(
    app,
    deps,
    VIEWS.questionGroup,
    FIELDS.group,
    async ({ view }, c) => {
      if (c.status !== 'open') return `Conversation #${c.number} has already ended.`;
      const group = await deps.models.QuestionGroup.findOne({ uid: selected(view.state.values, FIELDS.group), accountId: c.accountId });
      return group ? null : 'Choose one of the question groups.';
    },
    ({ view }, { c, operator }) => startGroup(deps.relay, c, operator, { uid: selected(view.state.values, FIELDS.group) }),
  );

  conversationSubmission(
    app,
    deps,
    VIEWS.sendTranscript,
    FIELDS.email,
    async ({ view }) => {
      try {
        transcriptAddress(textValue(view.state.values, FIELDS.email));
        return null;
      } catch (error) {
        return error instanceof ActionRefused ? error.message : 'Enter a valid e-mail address.';
      }
    },
    ({ view }, { c, ce, operator }) => emailTranscript(deps.relay, ce, c, operator, textValue(view.state.values, FIELDS.email)),
  );

  app.view<ViewSubmitAction>(VIEWS.operatingHours, async (args) => {
    const { ack, view, body, client, logger } = args;
    const who = { teamId: body.team?.id ?? '', userId: body.user.id };
    const values = view.state.values;
    const errors: Record<string, string> = {};
    const operatingHours: { weekday: number; start: number; end: number }[] = [];
    for (let day = 0; day < 7; day++) {
      const parsed = parseDay(day, textValue(values, FIELDS.day(day)));
      if (typeof parsed === 'string') errors[FIELDS.day(day)] = parsed;
      else operatingHours.push(...parsed);
    }
    const changes = {
      operatingHours,
      tz: textValue(values, FIELDS.tz).trim(),
      onOffSchedule: (values[FIELDS.schedule]?.[FIELDS.schedule]?.selected_options ?? []).some((o) => o.value === 'on'),
    };
    // The API's own schema, so the modal refuses exactly what a console save would.
    const checked = WidgetSettingsSchema.safeParse(changes);
    if (!checked.success) {
      for (const issue of checked.error.issues) {
        const [first, index] = issue.path;
        const block =
          first === 'tz'
            ? FIELDS.tz
            : first === 'operatingHours' && typeof index === 'number'
              ? FIELDS.day(operatingHours[index]?.weekday ?? 0)
              : FIELDS.tz;
        errors[block] ??= issue.message;
      }
    }
    let ce: ChatEndpointDocument;
    try {
      ce = await widgetForMember(deps.models, client, who, view.private_metadata);
    } catch (error) {
      errors[FIELDS.tz] ??= failureText(error, logger, 'operating hours modal');
      await ack({ response_action: 'errors', errors });
      return;
    }
    if (Object.keys(errors).length > 0) {
      await ack({ response_action: 'errors', errors });
      return;
    }
    await ack();
    let text: string;
    try {
      text = await changeSettings(
        deps,
        ce,
        who.userId,
        changes,
        `updated the *operating hours* (${changes.tz}; schedule ${changes.onOffSchedule ? 'on' : 'off'}).`,
      );
    } catch (error) {
      text = failureText(error, logger, 'operating hours modal');
    }
    await tell(client, logger, { channel: ce.RoomId, user: who.userId }, text);
    await deps.homeTabs.refreshNow(who.teamId, who.userId);
  });

  app.shortcut<MessageShortcut>(CONVERSATION_SHORTCUT, async ({ ack, shortcut, client, respond, logger }) => {
    await ack();
    const teamId = shortcut.team?.id ?? '';
    const message = shortcut.message as { ts: string; thread_ts?: string };
    try {
      const c = await deps.models.Conversation.findOne({
        slackTeamId: teamId,
        slackChannel: shortcut.channel.id,
        threadTs: message.thread_ts ?? message.ts,
      });
      if (!c)
        throw new ActionRefused(
          'This message is not part of a Parley conversation. Use the shortcut on a message in a conversation thread.',
        );
      await conversationForMember(deps.models, client, { teamId, userId: shortcut.user.id }, String(c._id));
      await client.views.open({ trigger_id: shortcut.trigger_id, view: pickActionModal(c, await visitorName(deps.models, c)) });
    } catch (error) {
      try {
        await respond({
          text: failureText(error, logger, 'conversation actions shortcut'),
          response_type: 'ephemeral',
          replace_original: false,
        });
      } catch (answerError) {
        logger.warn('could not answer the shortcut', answerError instanceof Error ? answerError.message : answerError);
      }
    }
  });
}
