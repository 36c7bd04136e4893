/**
 * Block Kit of Parley's modals. Each carries what its submission needs in private_metadata (a conversation
 * or widget id); the ids of blocks with inputs are the keys field errors are returned under.
 */
import type { types } from '@slack/bolt';
import { visitorLabel } from '../../conversations/visitors';
import { languageName } from '../../conversations/widgetLanguage';
import type { ChatEndpointDocument } from '../../models/ChatEndpoint';
import type { ConversationDocument } from '../../models/Conversation';
import type { VisitorDocument } from '../../models/Visitor';
import { escapeMrkdwn } from '../../shared/mrkdwn';
import { hhmm, WEEKDAYS } from '../operators';
import { browserOf } from './thread';

type KnownBlock = types.KnownBlock;
export type ModalView = types.ModalView;

export const VIEWS = {
  pickAction: 'parley_pick_action',
  endChat: 'parley_end_chat',
  askEmail: 'parley_ask_email',
  screenshot: 'parley_screenshot',
  savedReply: 'parley_saved_reply',
  questionGroup: 'parley_question_group',
  sendTranscript: 'parley_send_transcript',
  operatingHours: 'parley_operating_hours',
} as const;

/** Block and action ids of the inputs (the keys of `view.state.values` and of field errors). */
export const FIELDS = {
  action: 'action',
  note: 'note',
  reply: 'reply',
  group: 'group',
  email: 'email',
  schedule: 'schedule',
  tz: 'tz',
  day: (weekday: number) => `day_${weekday}`,
} as const;

const plain = (text: string) => ({ type: 'plain_text' as const, text, emoji: true });
const mrkdwn = (text: string) => ({ type: 'mrkdwn' as const, text });
const section = (text: string): KnownBlock => ({ type: 'section', text: mrkdwn(text) });
/** Slack's limits: titles under 25 characters, option texts under 76. */
const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function modal(callbackId: string, title: string, blocks: KnownBlock[], opts: { submit?: string; metadata?: string } = {}): ModalView {
  return {
    type: 'modal',
    callback_id: callbackId,
    title: plain(cut(title, 24)),
    close: plain(opts.submit ? 'Cancel' : 'Close'),
    ...(opts.submit ? { submit: plain(opts.submit) } : {}),
    private_metadata: opts.metadata ?? '',
    blocks,
  };
}

export type ConversationAction =
  | 'end'
  | 'askEmail'
  | 'screenshot'
  | 'savedReply'
  | 'questionGroup'
  | 'visitorInfo'
  | 'sendTranscript'
  | 'snooze';

/** The message shortcut's first step: which thread action to take. */
export function pickActionModal(c: ConversationDocument, name: string): ModalView {
  const option = (value: ConversationAction, text: string) => ({ text: plain(text), value });
  const options = [
    ...(c.status === 'open'
      ? [
          option('end', 'End chat'),
          option('askEmail', 'Ask for e-mail'),
          option('screenshot', 'Request screenshot'),
          option('savedReply', 'Send a saved reply'),
          option('questionGroup', 'Start a question group'),
          option('snooze', 'Snooze'),
        ]
      : []),
    option('visitorInfo', 'Visitor info'),
    option('sendTranscript', 'Send transcript'),
  ];
  return modal(
    VIEWS.pickAction,
    `Conversation #${c.number}`,
    [
      section(`*#${c.number} · ${escapeMrkdwn(name)}*${c.status === 'open' ? '' : ' (ended)'}`),
      {
        type: 'input',
        block_id: FIELDS.action,
        label: plain('Action'),
        element: { type: 'radio_buttons', action_id: FIELDS.action, options },
      },
    ],
    { submit: 'Next', metadata: String(c._id) },
  );
}

export function endChatModal(c: ConversationDocument, name: string): ModalView {
  return modal(
    VIEWS.endChat,
    'End chat',
    [
      section(
        `End conversation *#${c.number}* with *${escapeMrkdwn(name)}*? The visitor sees that the chat has ended, and the post-chat actions run.`,
      ),
      {
        type: 'input',
        block_id: FIELDS.note,
        optional: true,
        label: plain('Note for the thread'),
        hint: plain('Stays in Slack; the visitor does not see it.'),
        element: { type: 'plain_text_input', action_id: FIELDS.note, multiline: true, max_length: 2000 },
      },
    ],
    { submit: 'End chat', metadata: String(c._id) },
  );
}

export function askEmailModal(c: ConversationDocument, visitor: VisitorDocument | null): ModalView {
  const known = visitor?.email ? ` They already gave *${escapeMrkdwn(visitor.email)}*.` : '';
  return modal(
    VIEWS.askEmail,
    'Ask for e-mail',
    [section(`Ask the visitor of conversation *#${c.number}* for their e-mail address?${known}`)],
    {
      submit: 'Ask',
      metadata: String(c._id),
    },
  );
}

export function screenshotModal(c: ConversationDocument): ModalView {
  return modal(
    VIEWS.screenshot,
    'Request screenshot',
    [
      section(
        `Ask the visitor of conversation *#${c.number}* for a screenshot of the page they are on? They see the picture before it is sent, and may decline.`,
      ),
    ],
    { submit: 'Ask', metadata: String(c._id) },
  );
}

export type PickItem = { value: string; label: string; detail: string };

function pickerModal(
  callbackId: string,
  title: string,
  field: string,
  c: ConversationDocument,
  items: PickItem[],
  empty: string,
  submit: string,
): ModalView {
  if (items.length === 0) return modal(callbackId, title, [section(empty)]);
  return modal(
    callbackId,
    title,
    [
      section(`For conversation *#${c.number}*.`),
      {
        type: 'input',
        block_id: field,
        label: plain(title),
        element: {
          type: 'static_select',
          action_id: field,
          placeholder: plain('Choose…'),
          options: items.slice(0, 100).map((i) => ({
            text: plain(cut(i.label, 75)),
            value: i.value,
            ...(i.detail ? { description: plain(cut(i.detail, 75)) } : {}),
          })),
        },
      },
    ],
    { submit, metadata: String(c._id) },
  );
}

export function savedReplyModal(c: ConversationDocument, replies: PickItem[], consoleUrl: string): ModalView {
  return pickerModal(
    VIEWS.savedReply,
    'Saved replies',
    FIELDS.reply,
    c,
    replies,
    `This widget has no saved replies yet. <${consoleUrl}|Add some in the Parley console>.`,
    'Send',
  );
}

export function questionGroupModal(c: ConversationDocument, groups: PickItem[], consoleUrl: string): ModalView {
  return pickerModal(
    VIEWS.questionGroup,
    'Question groups',
    FIELDS.group,
    c,
    groups,
    `Your account has no question groups yet. <${consoleUrl}|Add some in the Parley console>.`,
    'Start',
  );
}

export function visitorInfoModal(c: ConversationDocument, visitor: VisitorDocument | null): ModalView {
  const v = visitor;
  const location = v ? [v.location.city, v.location.country].filter(Boolean).join(', ') : '';
  const traits = v ? Object.entries(v.identTraits ?? {}).map(([k, value]) => `${k}: ${String(value)}`) : [];
  const rows: [string, string][] = [
    ['Name', v?.name || '—'],
    ['E-mail', v?.email || '—'],
    ['Page', c.pageUrl || v?.currentPage || '—'],
    ['Location', location || '—'],
    ['Browser', (v && browserOf(v.userAgent)) || '—'],
    ['Language', (v?.language && languageName(v.language)) || '—'],
    ['First seen', v ? v.createdAt.toISOString().replace('T', ' ').slice(0, 16) + ' UTC' : '—'],
    ['User id', v?.verifiedUserId ? `${v.verifiedUserId} (verified)` : v?.identUserId || '—'],
  ];
  const blocks: KnownBlock[] = [
    section(`*#${c.number} · ${escapeMrkdwn(v ? visitorLabel(v, c.number) : `Visitor ${c.number}`)}*`),
    { type: 'section', fields: rows.map(([label, value]) => mrkdwn(`*${label}*\n${escapeMrkdwn(value.slice(0, 500))}`)) },
  ];
  if (traits.length > 0) blocks.push(section(`*Traits*\n${escapeMrkdwn(traits.join('\n').slice(0, 2900))}`));
  return modal('parley_visitor_info', 'Visitor info', blocks);
}

export function sendTranscriptModal(c: ConversationDocument, visitor: VisitorDocument | null, ce: ChatEndpointDocument): ModalView {
  const initial = visitor?.email || ce.transcriptRecipient || '';
  return modal(
    VIEWS.sendTranscript,
    'Send transcript',
    [
      section(`E-mail the transcript of conversation *#${c.number}*.`),
      {
        type: 'input',
        block_id: FIELDS.email,
        label: plain('E-mail address'),
        element: { type: 'email_text_input', action_id: FIELDS.email, ...(initial ? { initial_value: initial } : {}) },
      },
    ],
    { submit: 'Send', metadata: String(c._id) },
  );
}

/** "09:00-17:00, 18:00-20:00" for a weekday's entries. */
export function dayRanges(ce: Pick<ChatEndpointDocument, 'operatingHours'>, weekday: number): string {
  return ce.operatingHours
    .filter((h) => h.weekday === weekday && h.start !== h.end)
    .sort((a, b) => a.start - b.start)
    .map((h) => `${hhmm(h.start)}-${hhmm(h.end)}`)
    .join(', ');
}

export function operatingHoursModal(ce: ChatEndpointDocument): ModalView {
  const scheduleOption = { text: plain('Follow the schedule: offline outside these hours'), value: 'on' };
  const blocks: KnownBlock[] = [
    section(
      `Operating hours of the chat in <#${ce.RoomId}>. One or more ranges per day, e.g. \`09:00-12:30, 13:30-17:00\`, in 15-minute steps; leave a day empty when closed.`,
    ),
    {
      type: 'input',
      block_id: FIELDS.schedule,
      optional: true,
      label: plain('Schedule'),
      element: {
        type: 'checkboxes',
        action_id: FIELDS.schedule,
        options: [scheduleOption],
        ...(ce.onOffSchedule ? { initial_options: [scheduleOption] } : {}),
      },
    },
    {
      type: 'input',
      block_id: FIELDS.tz,
      label: plain('Time zone'),
      hint: plain('An IANA name such as Europe/Paris or America/New_York.'),
      element: { type: 'plain_text_input', action_id: FIELDS.tz, initial_value: ce.tz || 'UTC', max_length: 100 },
    },
  ];
  for (const day of [1, 2, 3, 4, 5, 6, 0]) {
    const initial = dayRanges(ce, day);
    blocks.push({
      type: 'input',
      block_id: FIELDS.day(day),
      optional: true,
      label: plain(WEEKDAYS[day] ?? ''),
      element: {
        type: 'plain_text_input',
        action_id: FIELDS.day(day),
        placeholder: plain('closed'),
        max_length: 200,
        ...(initial ? { initial_value: initial } : {}),
      },
    });
  }
  return modal(VIEWS.operatingHours, 'Operating hours', blocks, { submit: 'Save', metadata: String(ce._id) });
}
