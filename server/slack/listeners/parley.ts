/**
 * `/parley <subcommand>` (PRODUCT.md section 2), acting on the widget linked to the channel it is typed in.
 * Answers go back to the person only; changes to shared state are also announced in the channel (widget
 * settings) or in the conversation's thread (conversation actions). Settings change through
 * updateWidgetSettings, the console's own code path, so open widgets follow at once.
 */
import type { types } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { inTrial } from '../../billing/state';
import { decodeResponse } from '../../commands/savedReplies';
import { updateWidgetSettings } from '../../commands/updateWidgetSettings';
import { readSnooze, SNOOZE_FORMS } from '../../conversations/snooze';
import type { ChatEndpointDocument } from '../../models/ChatEndpoint';
import type { ConversationDocument } from '../../models/Conversation';
import { announceInChannel } from '../../relay/schedule';
import { ARTICLE_LIMITS } from '../../shared/articles';
import { escapeMrkdwn } from '../../shared/mrkdwn';
import { TRIAL_FEATURES_LABEL } from '../../shared/plans';
import { reminderScheduleLabel } from '../../shared/settings';
import { HOME_ACTIONS } from '../blocks/home';
import { articleSearchReply } from '../blocks/suggestions';
import {
  ActionRefused,
  askForEmail,
  askForScreenshot,
  discardChat,
  emailTranscript,
  endChat,
  sendReply,
  sendToWebhook,
  startGroup,
} from '../conversationActions';
import type { SlackDeps, SlackRelay } from '../deps';
import { assignFromSlack, operatorTimeZone, snoozeFromSlack, userNamed, wakeFromSlack } from '../inboxActions';
import {
  availabilityOf,
  conversationCounts,
  hoursLines,
  isChannelMember,
  type Operator,
  operatorOf,
  widgetOfChannel,
  widgetsOfMember,
} from '../operators';
import { visitorLocale } from '../suggestions';
import { runTagCommand } from './tagCommands';

type KnownBlock = types.KnownBlock;
export type Reply = { text: string; blocks?: KnownBlock[] };
export type CommandInput = { teamId: string; userId: string; channelId: string; text: string };
type Deps = SlackDeps;

export const PARLEY_COMMAND = '/parley';
export const SAVED_REPLY_SEND_ACTION = 'saved_reply_send';

/**
 * One `/parley` subcommand: its name, the other words that reach it, its help line and what it runs. Help text,
 * aliases and dispatch are all read from PARLEY_COMMANDS, so a subcommand is one row.
 */
export type ParleyCommand = {
  name: string;
  aliases?: string[];
  /** Other spellings that reach it without being shown in the help (`manualmode`). */
  spellings?: string[];
  /** What follows the name in the help line, e.g. `N shortcut`. */
  usage?: string;
  /** The help line's explanation, after the command. */
  help: string;
  /** A widget command acts on the channel's widget; a conversation command on conversation N of it. */
  kind: 'widget' | 'conversation';
  run: (ctx: CommandContext, args: string[]) => Promise<Reply> | Reply;
};

type Toggle = { field: 'requireInfo' | 'responseReminders' | 'notifyChannelOnMsg' | 'forwardSlackUserName'; on: string; off: string };
const TOGGLES: Record<string, Toggle> = {
  'require-info': {
    field: 'requireInfo',
    on: 'visitors must give their e-mail address before chatting',
    off: 'visitors can chat without giving their e-mail address',
  },
  'response-reminders': {
    field: 'responseReminders',
    on: 'response reminders are on: threads waiting for an answer get a reminder',
    off: 'response reminders are off',
  },
  'notify-channel-on-msg': {
    field: 'notifyChannelOnMsg',
    on: 'visitor messages are also posted to the channel',
    off: 'visitor messages stay in their threads',
  },
  'operator-name': {
    field: 'forwardSlackUserName',
    on: "visitors see operators' Slack names",
    off: `visitors see the agent label instead of operators' names`,
  },
};

const conversationRun =
  (usage: string, act: (ctx: CommandContext, c: ConversationDocument, operator: Operator, args: string[]) => Promise<Reply | string>) =>
  async (ctx: CommandContext, args: string[]): Promise<Reply> => {
    const c = await ctx.conversation(args[0], `/parley ${usage}`);
    const answer = await act(ctx, c, await ctx.operator(), args.slice(1));
    return typeof answer === 'string' ? ctx.done(answer) : answer;
  };

export const PARLEY_COMMANDS: ParleyCommand[] = [
  { name: 'help', help: 'shows this message', kind: 'widget', run: () => ({ text: helpText() }) },
  {
    name: 'status',
    aliases: ['st'],
    help: 'online or offline and why, and the main settings',
    kind: 'widget',
    run: (ctx) => ctx.status(),
  },
  {
    name: 'off',
    help: 'force offline',
    kind: 'widget',
    run: (ctx) =>
      ctx.change({ off: true }, 'turned the website chat *off*: visitors see the offline form until someone types `/parley on`.'),
  },
  {
    name: 'on',
    aliases: ['auto'],
    help: 'back to automatic',
    kind: 'widget',
    run: (ctx) =>
      ctx.change(
        { off: false, manualMode: false },
        'put the website chat back to *automatic*: online while someone in the channel is active in Slack.',
      ),
  },
  {
    name: 'manual-mode',
    aliases: ['manual'],
    spellings: ['manualmode'],
    help: 'online until turned off, whatever Slack presence says',
    kind: 'widget',
    run: (ctx) => ctx.manualMode(),
  },
  { name: 'hours', help: 'the operating hours', kind: 'widget', run: (ctx) => ctx.hours() },
  {
    name: 'schedule',
    usage: 'on|off',
    help: 'follow the operating hours or not',
    kind: 'widget',
    run: (ctx, args) => ctx.schedule(args[0]),
  },
  ...Object.entries(TOGGLES).map(
    ([name, toggle]): ParleyCommand => ({
      name,
      help: `switch the setting and say its new value (${toggle.on} when on)`,
      kind: 'widget',
      run: (ctx) => ctx.toggle(name, toggle),
    }),
  ),
  {
    name: 'print-visitor-info',
    spellings: ['printvisitorinfo'],
    usage: '[full|compact|none]',
    help: 'how much visitor info conversation headers show',
    kind: 'widget',
    run: (ctx, args) => ctx.printVisitorInfo(args[0]),
  },
  { name: 'info', help: 'widget id, plan, channel and conversation counts', kind: 'widget', run: (ctx) => ctx.info() },
  {
    name: 'end',
    aliases: ['x'],
    usage: 'N',
    help: 'end the chat',
    kind: 'conversation',
    run: conversationRun('end 12', (ctx, c, operator) => endChat(ctx.relay, c, operator)),
  },
  {
    name: 'discard',
    usage: 'N',
    help: 'end without transcript, webhook or rating',
    kind: 'conversation',
    run: conversationRun('discard 12', (ctx, c, operator) => discardChat(ctx.relay, c, operator)),
  },
  {
    name: 'reply',
    aliases: ['r'],
    usage: 'N shortcut',
    help: 'send a saved reply',
    kind: 'conversation',
    run: conversationRun('reply 12 shortcut', (ctx, c, operator, [shortcut]) => {
      if (!shortcut)
        throw new ActionRefused('Give the saved reply shortcut: `/parley reply 12 shortcut`; `/parley replies 12` lists them.');
      return sendReply(ctx.relay, c, operator, { shortcut });
    }),
  },
  {
    name: 'replies',
    usage: 'N',
    help: 'the saved replies, each with a Send button',
    kind: 'conversation',
    run: conversationRun('replies 12', (ctx, c) => ctx.replies(c)),
  },
  {
    name: 'question-group',
    aliases: ['qg'],
    usage: 'N shortcut',
    help: 'start a question group',
    kind: 'conversation',
    run: conversationRun('question-group 12 shortcut', (ctx, c, operator, [shortcut]) => {
      if (!shortcut) throw new ActionRefused('Give the question group shortcut: `/parley question-group 12 shortcut`.');
      return startGroup(ctx.relay, c, operator, { shortcut });
    }),
  },
  {
    name: 'email',
    aliases: ['e'],
    usage: 'N address',
    help: 'the transcript by e-mail',
    kind: 'conversation',
    run: conversationRun('email 12 someone@example.com', (ctx, c, operator, [address]) => {
      if (!address) throw new ActionRefused('Give the address to send the transcript to: `/parley email 12 someone@example.com`.');
      return emailTranscript(ctx.relay, ctx.ce, c, operator, address);
    }),
  },
  {
    name: 'send-to-webhook',
    aliases: ['stw'],
    usage: 'N',
    help: "send the conversation to the widget's webhook",
    kind: 'conversation',
    run: conversationRun('send-to-webhook 12', (ctx, c, operator) => sendToWebhook(ctx.relay, ctx.ce, c, operator)),
  },
  {
    name: 'ask-email',
    spellings: ['askemail'],
    usage: 'N',
    help: 'ask the visitor for their e-mail address',
    kind: 'conversation',
    run: conversationRun('ask-email 12', (ctx, c, operator) => askForEmail(ctx.relay, c, operator)),
  },
  {
    name: 'screenshot',
    aliases: ['ss'],
    usage: 'N',
    help: 'ask the visitor for a screenshot of the page they are on',
    kind: 'conversation',
    run: conversationRun('screenshot 12', (ctx, c, operator) => askForScreenshot(ctx.relay, c, operator)),
  },
  {
    name: 'article',
    aliases: ['a'],
    usage: 'N words',
    help: 'search the help center; each article found has a *Send* button',
    kind: 'conversation',
    run: conversationRun('article 12 reset password', (ctx, c, _operator, words) => ctx.articles(c, words.join(' '))),
  },
  {
    name: 'tag',
    usage: 'N billing refund',
    help: 'add tags from the widget’s list (the header’s *Tags* picker adds and removes them too)',
    kind: 'conversation',
    run: (ctx, args) => runTagCommand(ctx.deps, ctx.ce, ctx.input, 'tag', args),
  },
  {
    name: 'untag',
    usage: 'N billing',
    help: 'remove tags',
    kind: 'conversation',
    run: (ctx, args) => runTagCommand(ctx.deps, ctx.ce, ctx.input, 'untag', args),
  },
  {
    name: 'assign',
    usage: 'N @someone',
    help: 'give the conversation to a member of this channel (`me` for yourself)',
    kind: 'conversation',
    run: conversationRun('assign 12 @someone', async (ctx, c, operator, [who]) => {
      if (!who) throw new ActionRefused('Mention who gets it: `/parley assign 12 @someone`, or `/parley assign 12 me`.');
      const assignee = who.toLowerCase() === 'me' ? operator.slackUserId : await userNamed(ctx.client, who);
      if (!assignee)
        throw new ActionRefused(
          `Nobody in this Slack workspace is called ${escapeMrkdwn(who.slice(0, 60))}. Mention a member of <#${ctx.ce.RoomId}>.`,
        );
      return assignFromSlack(ctx.relay, ctx.client, c, assignee, operator.slackUserId);
    }),
  },
  {
    name: 'unassign',
    usage: 'N',
    help: 'nobody has the conversation any more',
    kind: 'conversation',
    run: conversationRun('unassign 12', (ctx, c, operator) => assignFromSlack(ctx.relay, ctx.client, c, '', operator.slackUserId)),
  },
  {
    name: 'snooze',
    usage: 'N 2h',
    help: `put the conversation away until then (${SNOOZE_FORMS}); \`/parley snooze N off\` opens it again`,
    kind: 'conversation',
    run: conversationRun('snooze 12 2h', async (ctx, c, operator, words) => {
      const text = words.join(' ');
      if (/^(off|now|wake)$/i.test(text.trim())) return wakeFromSlack(ctx.relay, c, operator.slackUserId);
      const reading = readSnooze(text, new Date(), await operatorTimeZone(ctx.client, operator.slackUserId));
      if ('problem' in reading) throw new ActionRefused(reading.problem);
      return snoozeFromSlack(ctx.relay, c, reading.until, operator.slackUserId);
    }),
  },
];

const BY_WORD = new Map<string, ParleyCommand>();
for (const command of PARLEY_COMMANDS) {
  for (const word of [command.name, ...(command.aliases ?? []), ...(command.spellings ?? [])]) BY_WORD.set(word, command);
}

/** The help line of one command: "`/parley end N` (`x`): end the chat". */
export function helpLine(command: ParleyCommand): string {
  const aliases = (command.aliases ?? []).map((a) => `\`${a}\``);
  return `\`/parley ${command.name}${command.usage ? ` ${command.usage}` : ''}\`${aliases.length ? ` (${aliases.join(', ')})` : ''}: ${command.help}`;
}

/** What `/parley` and `/parley help` answer, only to the person who typed it. */
export function helpText(): string {
  const lines = (kind: ParleyCommand['kind']) => PARLEY_COMMANDS.filter((c) => c.kind === kind && c.name !== 'help').map(helpLine);
  return [
    '*Parley* relays the chat widget on your website to this Slack channel: each visitor conversation is a thread here, and your replies in the thread reach the visitor. Start a reply with `;` or `//` for an internal note.',
    '*Widget*',
    ...lines('widget'),
    '*Conversations* (N is the number in the conversation header)',
    ...lines('conversation'),
    'The buttons on each conversation header and the *Conversation actions* shortcut on any message of a thread do the same without a number.',
    '`/parley help` shows this message.',
  ].join('\n');
}

const yesNo = (v: boolean) => (v ? 'on' : 'off');

/** The words of the command, lowercased subcommand with its aliases resolved. */
export function parseCommand(text: string): { sub: string; args: string[] } {
  const words = text.trim().split(/\s+/).filter(Boolean);
  let sub = (words.shift() ?? 'help').toLowerCase().replace(/_/g, '-');
  if (sub === 'ask' && words[0]?.toLowerCase() === 'email') {
    words.shift();
    sub = 'ask-email';
  }
  return { sub: BY_WORD.get(sub)?.name ?? sub, args: words };
}

/** Runs a /parley command and answers what to show the person who typed it. */
export async function runParley(deps: Deps, client: WebClient, input: CommandInput): Promise<Reply> {
  const { sub, args } = parseCommand(input.text);
  const relay = deps.relay;
  const ce = await widgetOfChannel(deps.models, input.teamId, input.channelId);
  if (!ce) {
    const elsewhere = await widgetsOfMember(deps.models, client, input.teamId, input.userId);
    const where =
      elsewhere.length > 0
        ? `Type it in a channel linked to a widget: ${elsewhere.map((w) => `<#${w.RoomId}>`).join(', ')}.`
        : `None of the channels you are in is linked to a widget; <${deps.config.publicUrl}/app/|set one up in the Parley console>.`;
    return { text: `No Parley widget is linked to this channel. ${where}` };
  }
  if (ce.installationRevoked)
    return { text: 'Parley was removed from this Slack workspace. Add it to Slack again from the Parley console.' };
  if (!(await isChannelMember(client, input.teamId, ce.RoomId, input.userId))) {
    return { text: `Only members of <#${ce.RoomId}> can use /parley for its website chat. Join the channel first.` };
  }
  const command = BY_WORD.get(sub);
  if (!command) return { text: `Parley does not know \`${escapeMrkdwn(sub.slice(0, 40))}\`.\n\n${helpText()}` };
  return command.run(new CommandContext(deps, relay, client, ce, input), args);
}

/**
 * Saves settings through the console's code path, announces the change in the widget's channel and
 * refreshes App Homes; answers what to tell the person who made it.
 */
export async function changeSettings(
  deps: Deps,
  ce: ChatEndpointDocument,
  userId: string,
  changes: Record<string, unknown>,
  announcement: string,
): Promise<string> {
  const relay = deps.relay;
  await updateWidgetSettings(relay, ce, changes);
  await announceInChannel(relay, ce, `<@${userId}> ${announcement}`);
  deps.homeTabs.teamChanged(ce.slackTeamId);
  const state = await availabilityOf(relay, ce);
  return `You ${announcement}\nThe widget is now *${state.online ? 'online' : 'offline'}*: ${state.why}.`;
}

/** Turns manual mode on (and the widget on) or off. */
export function toggleManualMode(deps: Deps, ce: ChatEndpointDocument, userId: string): Promise<string> {
  return ce.manualMode
    ? changeSettings(deps, ce, userId, { manualMode: false }, 'turned *manual mode off*: the website chat follows Slack presence again.')
    : changeSettings(
        deps,
        ce,
        userId,
        { manualMode: true, off: false },
        'turned *manual mode on*: the website chat stays online, whatever Slack presence says, until turned off.',
      );
}

/** What a /parley command runs with: the widget of the channel, the person, and the Slack and relay sides. */
export class CommandContext {
  constructor(
    readonly deps: Deps,
    readonly relay: SlackRelay,
    readonly client: WebClient,
    readonly ce: ChatEndpointDocument,
    readonly input: CommandInput,
  ) {}

  /** The person who typed the command, named as Slack names them. */
  operator(): Promise<Operator> {
    return operatorOf(this.client, this.input.userId);
  }

  /** A conversation command changed something: App Homes of the workspace follow. */
  done(text: string): Reply {
    this.deps.homeTabs.teamChanged(this.input.teamId);
    return { text };
  }

  async change(changes: Record<string, unknown>, announcement: string): Promise<Reply> {
    return { text: await changeSettings(this.deps, this.ce, this.input.userId, changes, announcement) };
  }

  async status(): Promise<Reply> {
    const ce = this.ce;
    const state = await availabilityOf(this.relay, ce);
    const lines = [
      `The website chat of <#${ce.RoomId}> is *${state.online ? 'online' : 'offline'}*: ${state.why}.`,
      `• Mode: ${ce.off ? 'off' : ce.manualMode ? 'manual' : 'automatic (Slack presence)'}`,
      `• Schedule: ${ce.onOffSchedule ? `on (${ce.tz}; \`/parley hours\`)` : 'off'}`,
      `• When offline: ${ce.hideWhenOffline ? 'the widget is hidden' : 'visitors see the offline form'}`,
      `• Require info: ${yesNo(ce.requireInfo)} · Response reminders: ${yesNo(ce.responseReminders)}${ce.responseReminders ? ` (after ${reminderScheduleLabel(ce.responseRemindersFreq)}${ce.responseRemindersMention ? ', with @here' : ''})` : ''}`,
      `• Notify channel on message: ${yesNo(ce.notifyChannelOnMsg)} · Operator names shown: ${yesNo(ce.forwardSlackUserName)} · Visitor info in headers: ${ce.metaInfoInMainChannel}`,
    ];
    return { text: lines.join('\n') };
  }

  async manualMode(): Promise<Reply> {
    return { text: await toggleManualMode(this.deps, this.ce, this.input.userId) };
  }

  hours(): Reply {
    const ce = this.ce;
    const schedule = ce.onOffSchedule
      ? 'The schedule is *on*: the widget is offline outside these hours.'
      : 'The schedule is *off*: these hours are not applied (`/parley schedule on`).';
    const text = `*Operating hours* of <#${ce.RoomId}> (${ce.tz})\n${hoursLines(ce).join('\n')}\n${schedule}`;
    return {
      text,
      blocks: [
        { type: 'section', text: { type: 'mrkdwn', text } },
        {
          type: 'actions',
          elements: [
            {
              type: 'button',
              action_id: HOME_ACTIONS.operatingHours,
              text: { type: 'plain_text', text: 'Edit operating hours' },
              value: ce.id,
            },
          ],
        },
      ],
    };
  }

  async schedule(arg: string | undefined): Promise<Reply> {
    const word = arg?.toLowerCase();
    if (word !== 'on' && word !== 'off') {
      return { text: `Say \`/parley schedule on\` or \`/parley schedule off\`. The schedule is ${yesNo(this.ce.onOffSchedule)} now.` };
    }
    const on = word === 'on';
    const noHours = on && !this.ce.operatingHours.some((h) => h.start !== h.end);
    const reply = await this.change(
      { onOffSchedule: on },
      on
        ? 'turned the *schedule on*: the website chat is offline outside the operating hours.'
        : 'turned the *schedule off*: the operating hours no longer apply.',
    );
    return noHours
      ? { text: `${reply.text}\nNo operating hours are set, so the widget stays offline: \`/parley hours\` lets you set them.` }
      : reply;
  }

  async toggle(name: string, toggle: Toggle): Promise<Reply> {
    const next = !this.ce[toggle.field];
    return this.change({ [toggle.field]: next }, `switched \`${name}\` *${yesNo(next)}*: ${next ? toggle.on : toggle.off}.`);
  }

  async printVisitorInfo(arg: string | undefined): Promise<Reply> {
    const word = arg?.toLowerCase();
    if (word !== undefined && !['full', 'compact', 'none'].includes(word)) {
      return { text: 'Say `/parley print-visitor-info` to switch, or give `full`, `compact` or `none`.' };
    }
    const next = word ?? (this.ce.metaInfoInMainChannel === 'none' ? 'compact' : 'none');
    return this.change({ metaInfoInMainChannel: next }, `set visitor info in conversation headers to *${next}*.`);
  }

  async info(): Promise<Reply> {
    const ce = this.ce;
    const account = await this.deps.models.Account.findById(ce.accountId);
    const plan = account ? await this.deps.models.Plan.findOne({ stripeId: account.planStripeId }) : null;
    const counts = await conversationCounts(this.deps.models, ce);
    return {
      text: [
        `*Widget* \`${ce.Uuid}\``,
        `• Plan: ${plan ? `${plan.label} (${plan.duration})` : 'unknown'}${account && inTrial(account) ? `, in the free trial with every ${TRIAL_FEATURES_LABEL} feature` : ''}`,
        `• Channel: <#${ce.RoomId}>`,
        `• Conversations today: *${counts.today}* · this month: *${counts.thisMonth}* · open now: *${counts.open}*`,
      ].join('\n'),
    };
  }

  /** Conversation N of the widget, from the command's first argument; a refusal saying the usage otherwise. */
  async conversation(arg: string | undefined, usage: string): Promise<ConversationDocument> {
    const match = /^#?(\d{1,9})$/.exec(arg ?? '');
    if (!match) throw new ActionRefused(`Give the conversation number shown in its header: \`${usage}\`.`);
    const number = Number(match[1]);
    const c = await this.deps.models.Conversation.findOne({ ceId: this.ce._id, number });
    if (!c) throw new ActionRefused(`There is no conversation #${number} in <#${this.ce.RoomId}>.`);
    return c;
  }

  /** The help center's articles for `words`, in the visitor's language, each with Send while the conversation is open. */
  async articles(c: ConversationDocument, words: string): Promise<Reply> {
    const query = words.trim();
    if (!query) throw new ActionRefused('Give the words to search the help center for: `/parley article 12 reset password`.');
    if (query.length > ARTICLE_LIMITS.queryChars) {
      throw new ActionRefused(`Search with at most ${ARTICLE_LIMITS.queryChars} characters.`);
    }
    const language = await visitorLocale(this.deps.relay, c.visitorId);
    const hits = await this.deps.answers.articleSearch.search({ _id: this.ce._id, Uuid: this.ce.Uuid }, query, language, 5);
    if (hits.length === 0) {
      return {
        text: `No published article of this widget's help center matches “${escapeMrkdwn(query.slice(0, 100))}”. Try other words, or <${this.deps.config.publicUrl}/app/|write one in the Answers section of the Parley console>.`,
      };
    }
    return articleSearchReply({ id: String(c._id), number: c.number, open: c.status === 'open' }, query, hits.slice(0, 5));
  }

  async replies(c: ConversationDocument): Promise<Reply> {
    const replies = await this.deps.models.SavedReply.find({ ceId: this.ce._id }).sort({ label: 1 }).limit(40);
    if (replies.length === 0) {
      return {
        text: `This widget has no saved replies yet. <${this.deps.config.publicUrl}/app/#/settings/${this.ce.id}/saved-replies|Add some in the Parley console>.`,
      };
    }
    const text = `Saved replies for conversation #${c.number}`;
    const blocks: KnownBlock[] = [
      { type: 'section', text: { type: 'mrkdwn', text: `*${text}*${c.status === 'open' ? '' : ' (this conversation has ended)'}` } },
    ];
    for (const r of replies) {
      const preview = decodeResponse(r.response).replace(/\s+/g, ' ').slice(0, 150);
      blocks.push({
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: `*${escapeMrkdwn(r.label)}*${r.shortcut ? ` · \`${escapeMrkdwn(r.shortcut)}\`` : ''}\n${escapeMrkdwn(preview)}`,
        },
        ...(c.status === 'open'
          ? {
              accessory: {
                type: 'button' as const,
                action_id: SAVED_REPLY_SEND_ACTION,
                text: { type: 'plain_text' as const, text: 'Send' },
                value: `${String(c._id)}:${r.id as string}`,
              },
            }
          : {}),
      });
    }
    return { text, blocks };
  }
}
