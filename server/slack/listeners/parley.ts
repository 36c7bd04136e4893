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
import {
  availabilityOf,
  conversationCounts,
  hoursLines,
  isChannelMember,
  operatorOf,
  widgetOfChannel,
  widgetsOfMember,
} from '../operators';
import { visitorLocale } from '../suggestions';
import { isTagSubcommand, runTagCommand, TAG_HELP } from './tagCommands';

type KnownBlock = types.KnownBlock;
export type Reply = { text: string; blocks?: KnownBlock[] };
export type CommandInput = { teamId: string; userId: string; channelId: string; text: string };
type Deps = SlackDeps;

export const PARLEY_COMMAND = '/parley';
export const SAVED_REPLY_SEND_ACTION = 'saved_reply_send';

/** What `/parley` and `/parley help` answer, only to the person who typed it. */
export function helpText(): string {
  return [
    '*Parley* relays the chat widget on your website to this Slack channel: each visitor conversation is a thread here, and your replies in the thread reach the visitor. Start a reply with `;` or `//` for an internal note.',
    '*Widget*',
    '`/parley status` (`st`): online or offline and why, and the main settings',
    '`/parley off`: force offline · `/parley on` (`auto`): back to automatic · `/parley manual-mode`: online until turned off, whatever Slack presence says',
    '`/parley hours`: the operating hours · `/parley schedule on|off`: follow them or not',
    '`/parley require-info`, `response-reminders`, `notify-channel-on-msg`, `operator-name`, `print-visitor-info`: switch the setting and say its new value',
    '`/parley info`: widget id, plan, channel and conversation counts',
    '*Conversations* (N is the number in the conversation header)',
    '`/parley end N` (`x`) · `/parley discard N`: end without transcript, webhook or rating',
    '`/parley reply N shortcut` (`r`) · `/parley replies N`: saved replies · `/parley question-group N shortcut` (`qg`)',
    '`/parley email N address` (`e`): transcript by e-mail · `/parley send-to-webhook N` (`stw`) · `/parley ask-email N`',
    '`/parley screenshot N` (`ss`): ask the visitor for a screenshot of the page they are on',
    '`/parley article N words` (`a`): search the help center; each article found has a *Send* button',
    TAG_HELP,
    'The buttons on each conversation header and the *Conversation actions* shortcut on any message of a thread do the same without a number.',
    '`/parley help` shows this message.',
  ].join('\n');
}

const ALIASES: Record<string, string> = {
  st: 'status',
  auto: 'on',
  x: 'end',
  r: 'reply',
  qg: 'question-group',
  e: 'email',
  stw: 'send-to-webhook',
  askemail: 'ask-email',
  ss: 'screenshot',
  a: 'article',
  manual: 'manual-mode',
  manualmode: 'manual-mode',
  printvisitorinfo: 'print-visitor-info',
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

const CONVERSATION_COMMANDS = new Set([
  'end',
  'discard',
  'reply',
  'replies',
  'question-group',
  'email',
  'send-to-webhook',
  'ask-email',
  'screenshot',
  'article',
]);

const yesNo = (v: boolean) => (v ? 'on' : 'off');

/** The words of the command, lowercased subcommand with its aliases resolved. */
export function parseCommand(text: string): { sub: string; args: string[] } {
  const words = text.trim().split(/\s+/).filter(Boolean);
  let sub = (words.shift() ?? 'help').toLowerCase().replace(/_/g, '-');
  if (sub === 'ask' && words[0]?.toLowerCase() === 'email') {
    words.shift();
    sub = 'ask-email';
  }
  return { sub: ALIASES[sub] ?? sub, args: words };
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
  const ctx = new CommandContext(deps, relay, client, ce, input);
  if (CONVERSATION_COMMANDS.has(sub)) return ctx.conversationCommand(sub, args);
  if (isTagSubcommand(sub)) return runTagCommand(deps, ce, input, sub, args);
  switch (sub) {
    case 'help':
      return { text: helpText() };
    case 'status':
      return ctx.status();
    case 'off':
      return ctx.change({ off: true }, 'turned the website chat *off*: visitors see the offline form until someone types `/parley on`.');
    case 'on':
      return ctx.change(
        { off: false, manualMode: false },
        'put the website chat back to *automatic*: online while someone in the channel is active in Slack.',
      );
    case 'manual-mode':
      return ctx.manualMode();
    case 'hours':
      return ctx.hours();
    case 'schedule':
      return ctx.schedule(args[0]);
    case 'print-visitor-info':
      return ctx.printVisitorInfo(args[0]);
    case 'info':
      return ctx.info();
    default: {
      const toggle = TOGGLES[sub];
      if (toggle) return ctx.toggle(sub, toggle);
      return { text: `Parley does not know \`${escapeMrkdwn(sub.slice(0, 40))}\`.\n\n${helpText()}` };
    }
  }
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

class CommandContext {
  constructor(
    private readonly deps: Deps,
    private readonly relay: SlackRelay,
    private readonly client: WebClient,
    private readonly ce: ChatEndpointDocument,
    private readonly input: CommandInput,
  ) {}

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

  private async conversation(arg: string | undefined, usage: string): Promise<ConversationDocument> {
    const match = /^#?(\d{1,9})$/.exec(arg ?? '');
    if (!match) throw new ActionRefused(`Give the conversation number shown in its header: \`${usage}\`.`);
    const number = Number(match[1]);
    const c = await this.deps.models.Conversation.findOne({ ceId: this.ce._id, number });
    if (!c) throw new ActionRefused(`There is no conversation #${number} in <#${this.ce.RoomId}>.`);
    return c;
  }

  async conversationCommand(sub: string, args: string[]): Promise<Reply> {
    const operator = await operatorOf(this.client, this.input.userId);
    const relay = this.relay;
    const done = (text: string): Reply => {
      this.deps.homeTabs.teamChanged(this.input.teamId);
      return { text };
    };
    switch (sub) {
      case 'end':
        return done(await endChat(relay, await this.conversation(args[0], '/parley end 12'), operator));
      case 'discard':
        return done(await discardChat(relay, await this.conversation(args[0], '/parley discard 12'), operator));
      case 'ask-email':
        return done(await askForEmail(relay, await this.conversation(args[0], '/parley ask-email 12'), operator));
      case 'screenshot':
        return done(await askForScreenshot(relay, await this.conversation(args[0], '/parley screenshot 12'), operator));
      case 'send-to-webhook':
        return done(await sendToWebhook(relay, this.ce, await this.conversation(args[0], '/parley send-to-webhook 12'), operator));
      case 'email': {
        const c = await this.conversation(args[0], '/parley email 12 someone@example.com');
        if (!args[1]) throw new ActionRefused('Give the address to send the transcript to: `/parley email 12 someone@example.com`.');
        return done(await emailTranscript(relay, this.ce, c, operator, args[1]));
      }
      case 'reply': {
        const c = await this.conversation(args[0], '/parley reply 12 shortcut');
        if (!args[1])
          throw new ActionRefused('Give the saved reply shortcut: `/parley reply 12 shortcut`; `/parley replies 12` lists them.');
        return done(await sendReply(relay, c, operator, { shortcut: args[1] }));
      }
      case 'question-group': {
        const c = await this.conversation(args[0], '/parley question-group 12 shortcut');
        if (!args[1]) throw new ActionRefused('Give the question group shortcut: `/parley question-group 12 shortcut`.');
        return done(await startGroup(relay, c, operator, { shortcut: args[1] }));
      }
      case 'replies':
        return this.replies(await this.conversation(args[0], '/parley replies 12'));
      case 'article':
        return this.articles(await this.conversation(args[0], '/parley article 12 reset password'), args.slice(1).join(' '));
      default:
        return { text: helpText() };
    }
  }

  /** The help center's articles for `words`, in the visitor's language, each with Send while the conversation is open. */
  private async articles(c: ConversationDocument, words: string): Promise<Reply> {
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

  private async replies(c: ConversationDocument): Promise<Reply> {
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
