import type { types } from '@slack/bolt';
/**
 * The shared inbox's part of a conversation header: its state and assignee in a context line and, while it is open,
 * Assign to me, the assignee picker (Slack's users select), Unassign and Snooze. Built from the stored state, like
 * the rest of the header, so every refresh shows what is true now.
 */
import { inboxStateOf } from '../../conversations/inbox';
import { SNOOZE_PRESETS, type SnoozePreset, slackTime } from '../../conversations/snooze';
import type { Conversation } from '../../models/Conversation';

/** Action ids of the inbox controls (their handlers: slack/listeners/inbox.ts). */
export const INBOX_ACTIONS = {
  assignMe: 'inbox_assign_me',
  assignPick: 'inbox_assign_pick',
  unassign: 'inbox_unassign',
  snooze: 'inbox_snooze',
} as const;

/** The Snooze menu: the presets, a date from a modal, and Open now while snoozed. */
export const SNOOZE_CHOICES: Record<SnoozePreset | 'date' | 'wake', string> = {
  '1h': 'For 1 hour',
  tomorrow: 'Until tomorrow 9:00',
  'next-week': 'Until next Monday 9:00',
  date: 'Until a date…',
  wake: 'Open it now',
};

type Block = Record<string, unknown>;
type ModalView = types.ModalView;
type Inboxed = Pick<Conversation, 'status' | 'inboxState' | 'assigneeId' | 'snoozedUntil'> & { _id: unknown };

/** The state as the header says it. */
export function stateText(c: Pick<Conversation, 'status' | 'inboxState' | 'snoozedUntil'>): string {
  switch (inboxStateOf(c)) {
    case 'open':
      return ':large_orange_circle: *Open*: waiting for us';
    case 'waiting':
      return ':large_blue_circle: *Waiting for the visitor*';
    case 'snoozed':
      return `:zzz: *Snoozed* until ${c.snoozedUntil ? slackTime(c.snoozedUntil) : 'later'}`;
    case 'ended':
      return ':white_circle: *Ended*';
  }
}

/** The header's inbox blocks: state and assignee, and the controls while the conversation is open. */
export function assigneeBlocks(c: Inboxed): Block[] {
  const id = String(c._id);
  const assignee = c.assigneeId ?? '';
  const who = assignee ? `Assigned to <@${assignee}>` : 'Unassigned';
  const blocks: Block[] = [{ type: 'context', elements: [{ type: 'mrkdwn', text: `${stateText(c)} · ${who}` }] }];
  if (c.status !== 'open') return blocks;
  const snoozed = inboxStateOf(c) === 'snoozed';
  const option = (value: keyof typeof SNOOZE_CHOICES) => ({ text: { type: 'plain_text', text: SNOOZE_CHOICES[value] }, value });
  const elements: Block[] = [
    // The value carries the assignee this header showed: a click on an outdated header changes nothing.
    { type: 'button', action_id: INBOX_ACTIONS.assignMe, text: { type: 'plain_text', text: 'Assign to me' }, value: `${id}:${assignee}` },
    {
      type: 'users_select',
      action_id: INBOX_ACTIONS.assignPick,
      placeholder: { type: 'plain_text', text: 'Assign to…' },
      ...(assignee ? { initial_user: assignee } : {}),
    },
    ...(assignee
      ? [{ type: 'button', action_id: INBOX_ACTIONS.unassign, text: { type: 'plain_text', text: 'Unassign' }, value: `${id}:${assignee}` }]
      : []),
    {
      type: 'static_select',
      action_id: INBOX_ACTIONS.snooze,
      placeholder: { type: 'plain_text', text: snoozed ? 'Snoozed' : 'Snooze' },
      options: [...SNOOZE_PRESETS.map(option), option('date'), ...(snoozed ? [option('wake')] : [])],
    },
  ];
  // The block id names the conversation: the picker and the menu carry no value of their own.
  blocks.push({ type: 'actions', block_id: `inbox_${id}`, elements });
  return blocks;
}

/** The conversation id of an inbox control's block (`inbox_<id>`). */
export function conversationOfBlock(blockId: string | undefined): string {
  return blockId?.startsWith('inbox_') ? blockId.slice('inbox_'.length) : '';
}

/** The snooze modal's callback and inputs. */
export const SNOOZE_VIEW = { callbackId: 'parley_snooze', when: 'snooze_when', date: 'snooze_date' } as const;

/** Snooze from the message shortcut or the header's "Until a date…": a preset or a date (9:00 in the operator's time zone). */
export function snoozeModal(c: Pick<Conversation, 'number'> & { _id: unknown }, preset: 'date' | '' = ''): ModalView {
  const plain = (text: string) => ({ type: 'plain_text' as const, text });
  const option = (value: keyof typeof SNOOZE_CHOICES) => ({ text: plain(SNOOZE_CHOICES[value]), value });
  const options = [...SNOOZE_PRESETS.map(option), option('date')];
  return {
    type: 'modal',
    callback_id: SNOOZE_VIEW.callbackId,
    title: plain(`Snooze #${c.number}`.slice(0, 24)),
    submit: plain('Snooze'),
    close: plain('Cancel'),
    private_metadata: String(c._id),
    blocks: [
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: `Put conversation *#${c.number}* away until then: it comes back as open at that time, or as soon as the visitor writes.`,
        },
      },
      {
        type: 'input',
        block_id: SNOOZE_VIEW.when,
        label: plain('Snooze'),
        element: { type: 'static_select', action_id: SNOOZE_VIEW.when, options, ...(preset ? { initial_option: option(preset) } : {}) },
      },
      {
        type: 'input',
        block_id: SNOOZE_VIEW.date,
        optional: true,
        label: plain('Date (with “Until a date…”)'),
        hint: plain('It comes back at 9:00 that day, in your Slack time zone.'),
        element: { type: 'datepicker', action_id: SNOOZE_VIEW.date },
      },
    ],
  };
}
