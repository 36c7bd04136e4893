/**
 * The Behavior tab's settings, one description each (spec sections 2, 3 Behavior, transcripts and webhooks,
 * avatars): the on/off toggle, presence, offline messages, conversation rules, notifications, where the widget
 * shows, transcripts and webhooks, avatars and the team avatar.
 */
import { Link } from 'react-router-dom';
import {
  AUTO_ANSWER_AFTER_SECS,
  AVATAR_SETTINGS,
  type AvatarSetting,
  avatarSettingOf,
  DEFAULT_CONCURRENT_LIMIT,
  EMAIL_UNSEEN_AFTER_MINS,
  emailAddressProblem,
  INACTIVE_GRACE_MINS,
  INVALID_FILTER,
  invalidCountries,
  invalidFilters,
  NO_ANSWER_AFTER_SECS,
  RESPONSE_REMINDER_FREQS,
  reminderScheduleLabel,
  usesTeamAvatar,
  webAddressProblem,
} from '../../../../server/shared/settings';
import { responseTargetProblem } from '../../../../server/shared/tags';
import type { FieldContext, FieldSection, TextField } from './fields';
import { Check, Input, Radios, timeZones } from './form';
import { ResponseTargetField } from './ResponseTargetField';
import { TagsField } from './TagsField';
import { TeamAvatar } from './TeamAvatar';
import type { SettingsTabProps } from './types';

/** What the Behavior descriptions read beyond the draft: the tab's own state and calls. */
export type BehaviorContext = FieldContext & {
  /** Slack lets Parley read the channel's history (transcripts need it). */
  history: boolean;
  toggling: boolean;
  toggle: () => void;
  /** The concurrent-chat limit as typed (may be empty while editing). */
  limitInput: string;
  setLimitInput: (text: string) => void;
  setLimit: (text: string) => void;
  replaceCe: SettingsTabProps['replaceCe'];
};

const AVATAR_LABELS: Record<AvatarSetting, string> = {
  'no-avatar': 'No avatars',
  'team-avatar': "Team avatar, with operators' names",
  'slack-avatars': "Operators' Slack pictures and names",
  'team-avatar-slack-avatars': "Team avatar before the chat, then operators' Slack pictures and names",
  'team-avatar-default-label': 'Team avatar with the agent label (no operator names)',
};

const seconds = (values: readonly number[]) =>
  values.map((v) => ({ value: v, label: v < 60 || v % 60 ? `${v} seconds` : `${v / 60} minute${v === 60 ? '' : 's'}` }));
const GRACE = INACTIVE_GRACE_MINS.map((m) => ({
  value: m,
  label: m === 0 ? 'Immediately (not recommended)' : `${m} minute${m === 1 ? '' : 's'}`,
}));
const UNSEEN_MAIL = EMAIL_UNSEEN_AFTER_MINS.map((m) => ({
  value: m,
  label: m === 0 ? 'Never' : `${m} minute${m === 1 ? '' : 's'}`,
}));
const AUTO_ANSWER = AUTO_ANSWER_AFTER_SECS.map((secs) => ({
  value: secs,
  label: secs === 0 ? 'Never' : secs < 120 ? `${secs} seconds` : `${secs / 60} minutes`,
}));
const META_INFO = [
  { value: 'compact', label: 'Compact' },
  { value: 'full', label: 'Full' },
  { value: 'none', label: 'None' },
] as const;

/** A web address setting, checked as typed by the rule the API applies. */
const webhook = (key: TextField<BehaviorContext>['key'], label: string, disabled?: (c: BehaviorContext) => boolean) =>
  ({ kind: 'text', key, label, type: 'url', placeholder: 'https://', check: webAddressProblem, disabled }) as const;
const countriesProblem = (text: string) => {
  const bad = invalidCountries(text);
  return bad.length > 0 ? `Not an ISO country code: ${bad.join(', ')}` : null;
};
const limited = (c: BehaviorContext) => c.v.maxConcurrentConvos > 0 || c.limitInput === '';

export const BEHAVIOR_SECTIONS: readonly FieldSection<BehaviorContext>[] = [
  {
    title: 'Widget status',
    items: [
      {
        kind: 'custom',
        keys: ['off'],
        ownCall: true,
        render: ({ ce, toggle, toggling }) => (
          <div className="status-toggle">
            <span>
              <span className={`status-dot${!ce.off ? ' status-dot--online' : ''}`} aria-hidden="true" /> The widget is{' '}
              <strong>{ce.off ? 'OFF' : 'ON'}</strong>
              {ce.off ? ': visitors see the offline form, or nothing when it hides while offline.' : ': it follows its presence mode.'}
            </span>
            <button
              type="button"
              className={`btn btn--small ${ce.off ? 'btn--primary' : 'btn--secondary'}`}
              onClick={toggle}
              disabled={toggling}
              aria-busy={toggling || undefined}
            >
              {ce.off ? 'Turn widget on' : 'Turn widget off'}
            </button>
          </div>
        ),
      },
    ],
  },
  {
    title: 'Presence',
    items: [
      {
        kind: 'radios',
        key: 'manualMode',
        label: 'Presence mode',
        name: 'presence',
        options: [
          { value: 'auto', label: 'Automatic: online while someone in the Slack channel is active' },
          { value: 'manual', label: 'Manual: online until turned off' },
        ],
        choice: (c) => (c.v.manualMode ? 'manual' : 'auto'),
        choose: (mode, c) => c.set('manualMode', mode === 'manual'),
      },
      {
        kind: 'check',
        key: 'hideWhenOffline',
        label: 'Hide the widget when offline',
        hint: 'Otherwise visitors see a form to leave a message.',
      },
    ],
  },
  {
    title: 'Offline messages',
    items: [
      { kind: 'check', key: 'sendOfflineMessagesToEmail', label: 'Send offline messages by e-mail' },
      {
        kind: 'check',
        key: 'includeVisitorInfoInEmails',
        label: 'Include visitor info in e-mails',
        disabled: (c) => !c.v.sendOfflineMessagesToEmail,
      },
      { kind: 'check', key: 'sendOfflineMessagesToSlack', label: 'Post offline messages in the Slack channel' },
      webhook('offlineMessageWebhookURL', 'Offline message webhook URL'),
    ],
  },
  {
    title: 'Conversations',
    items: [
      { kind: 'check', key: 'requireInfo', label: 'Require visitor info (name and e-mail) before chatting' },
      {
        kind: 'check',
        key: 'requireVerifiedIdentity',
        label: 'Accept only verified identities',
        hint: 'Names and e-mails your site passes to parley.identify() without a valid userHash are dropped. See Verified identity on the Embed Code tab.',
      },
      { kind: 'check', key: 'sendOpJoinAutoResponse', label: 'Send an automatic message when an operator joins' },
      {
        kind: 'text',
        key: 'opJoinAutoResponseMessage',
        label: 'Operator joined message',
        hint: "{name} is replaced by the operator's name.",
        disabled: (c) => !c.v.sendOpJoinAutoResponse,
      },
      {
        box: 'settings-grid',
        items: [
          {
            box: 'stack-sm',
            items: [
              { kind: 'check', key: 'responseReminders', label: 'Response reminders in Slack' },
              {
                kind: 'select',
                key: 'responseRemindersFreq',
                label: 'Remind in the thread after',
                hint: 'Counted from the visitor’s message; any answer stops them. Four at most, the last one says so.',
                options: RESPONSE_REMINDER_FREQS.map((v) => ({ value: v, label: reminderScheduleLabel(v) })),
                disabled: (c) => !c.v.responseReminders,
              },
              {
                kind: 'check',
                key: 'responseRemindersMention',
                label: 'Mention @here in reminders',
                hint: 'Notifies everyone active in the channel. Off: reminders are thread replies, seen by those who follow the thread.',
                disabled: (c) => !c.v.responseReminders,
              },
              {
                kind: 'custom',
                keys: ['firstResponseTargetMins', 'nextResponseTargetMins'],
                problem: (c) =>
                  responseTargetProblem(c.v.firstResponseTargetMins) !== null || responseTargetProblem(c.v.nextResponseTargetMins) !== null,
                render: (c) => (
                  <div className="stack-sm">
                    <ResponseTargetField
                      label="First-response target (minutes)"
                      hint="From the visitor’s first message to the team’s first answer. Only your operating hours count."
                      minutes={c.v.firstResponseTargetMins}
                      onChange={(m) => c.set('firstResponseTargetMins', m)}
                    />
                    <ResponseTargetField
                      label="Next-response target (minutes)"
                      hint="From a visitor’s message after an answer to the team’s next answer. Empty: no target."
                      minutes={c.v.nextResponseTargetMins}
                      onChange={(m) => c.set('nextResponseTargetMins', m)}
                    />
                  </div>
                ),
              },
              {
                kind: 'check',
                key: 'autoAssignOnReply',
                label: 'Assign a conversation to the first operator who replies',
                hint: 'Only when nobody has it yet. Operators change the assignee in the thread header or with /parley assign.',
              },
            ],
          },
          {
            box: 'stack-sm',
            items: [
              { kind: 'check', key: 'noAnswerMessageOn', label: 'No-answer message to the visitor' },
              {
                kind: 'select',
                key: 'noAnswerMessageAfterSecs',
                label: 'Send it after',
                options: seconds(NO_ANSWER_AFTER_SECS),
                disabled: (c) => !c.v.noAnswerMessageOn,
              },
            ],
          },
          {
            kind: 'select',
            key: 'maxVisitorInactiveMins',
            label: 'When going offline, end chats of visitors inactive for',
            options: GRACE,
          },
          {
            kind: 'select',
            key: 'emailUnseenAfterMinutes',
            label: 'E-mail replies the visitor has not seen after',
            hint: "Sent to the visitor's e-mail address, with a link back to the chat; their answer by mail comes back into the thread.",
            options: UNSEEN_MAIL,
          },
          {
            kind: 'select',
            key: 'autoAnswerAfterSeconds',
            label: 'Answer from the help center when nobody replied within',
            hint: 'Or at once when you are offline. Up to 3 published articles that match the visitor’s question, marked as an automatic answer; the visitor can still ask for a person.',
            options: AUTO_ANSWER,
          },
          {
            kind: 'custom',
            keys: ['maxConcurrentConvos'],
            // An empty limit is allowed while typing, not saved (spec section 5).
            problem: (c) => c.limitInput.trim() === '',
            render: (c) => (
              <div className="stack-sm">
                <Check
                  label="Limit concurrent chats"
                  checked={limited(c)}
                  onChange={(on) => {
                    // Enabling the limit sets 5; 0 means unlimited (spec section 5).
                    const next = on ? DEFAULT_CONCURRENT_LIMIT : 0;
                    c.setLimitInput(String(next));
                    c.set('maxConcurrentConvos', next);
                  }}
                />
                <Input
                  label="Concurrent chats at most"
                  value={limited(c) ? c.limitInput : ''}
                  placeholder="Unlimited"
                  hint="0 means unlimited."
                  error={c.limitInput === '' ? 'Enter a whole number (0 for unlimited).' : null}
                  onChange={c.setLimit}
                  disabled={!limited(c)}
                />
              </div>
            ),
          },
        ],
      },
      { kind: 'check', key: 'enableFileUploads', label: 'Visitors may upload files' },
      {
        box: 'settings-grid',
        items: [
          {
            kind: 'text',
            key: 'agentLabel',
            label: 'Agent label',
            hint: 'Shown to visitors instead of operator names when names are hidden.',
          },
          { kind: 'select', key: 'tz', label: 'Time zone', options: (c) => timeZones(c.v.tz).map((z) => ({ value: z, label: z })) },
        ],
      },
    ],
  },
  {
    title: 'Tags',
    intro: 'Operators tag conversations in Slack from this list: on the thread header or with /parley tag.',
    items: [
      {
        kind: 'custom',
        keys: ['tags'],
        render: (c) => <TagsField tags={c.v.tags ?? []} onChange={(tags) => c.set('tags', tags)} />,
      },
    ],
  },
  {
    title: 'Notifications',
    items: [
      { kind: 'check', key: 'newMsgNotifications', label: "New message notifications in the visitor's browser" },
      { kind: 'check', key: 'playSound', label: 'Play a sound on new messages' },
      { kind: 'check', key: 'notifyChannelOnMsg', label: 'Notify the channel (@here) on every visitor message' },
      { kind: 'select', key: 'metaInfoInMainChannel', label: 'Visitor info in the main channel', options: META_INFO },
    ],
  },
  {
    title: 'Where the widget shows',
    items: [
      {
        kind: 'text',
        key: 'blacklistedUrls',
        label: 'Hide on pages',
        multiline: true,
        placeholder: '/checkout /admin/.*',
        check: (text) => {
          const bad = invalidFilters(text);
          return bad.length > 0 ? `${INVALID_FILTER}: ${bad[0]}` : null;
        },
        hint: (
          <>
            Regular expressions matched against the page address, separated by spaces or commas. Test them on{' '}
            <a href="https://regex101.com/" target="_blank" rel="noreferrer">
              regex101.com
            </a>
            .
          </>
        ),
      },
      {
        node: ({ ce }) =>
          !ce.collectVisitorMetaData && (
            <p className="field__hint">
              Country lists need <Link to={`/settings/${ce.Id}/appearance`}>Collect personal data</Link> (Appearance, Privacy) turned on.
            </p>
          ),
      },
      {
        box: 'settings-grid',
        items: [
          {
            kind: 'text',
            key: 'countryAllowList',
            label: 'Only show in these countries',
            placeholder: 'US, CA',
            hint: 'ISO two-letter codes separated by commas; blank means everywhere.',
            check: countriesProblem,
            disabled: (c) => !c.ce.collectVisitorMetaData,
            // Typing in one list clears the other (spec section 5).
            change: (text, c) => c.patch({ countryAllowList: text.toUpperCase(), countryDenyList: '' }),
          },
          {
            kind: 'text',
            key: 'countryDenyList',
            label: 'Never show in these countries',
            placeholder: 'FR, DE',
            hint: 'Overrides the list of countries to show in.',
            check: countriesProblem,
            disabled: (c) => !c.ce.collectVisitorMetaData,
            change: (text, c) => c.patch({ countryDenyList: text.toUpperCase(), countryAllowList: '' }),
          },
        ],
      },
    ],
  },
  {
    title: 'Transcripts and webhooks',
    intro: ({ ce, history }) =>
      history ? undefined : (
        <>
          Transcripts need Slack's channels:history permission. <Link to={`/permissions/${ce.Id}`}>Grant permissions</Link>
        </>
      ),
    items: [
      {
        box: 'settings-grid',
        items: [
          {
            box: 'stack-sm',
            items: [
              {
                kind: 'check',
                key: 'emailOnArchive',
                label: 'E-mail a transcript when a chat ends',
                disabled: (c) => !c.history,
              },
              {
                kind: 'text',
                key: 'transcriptRecipient',
                label: 'Transcript recipient',
                type: 'email',
                placeholder: 'team@example.com',
                check: emailAddressProblem,
                disabled: (c) => !c.history || !c.v.emailOnArchive,
              },
            ],
          },
          {
            box: 'stack-sm',
            items: [
              {
                kind: 'check',
                key: 'webhookOnArchive',
                label: 'Send the transcript to a webhook when a chat ends',
                disabled: (c) => !c.history,
              },
              webhook('webhookUrl', 'Transcript webhook URL', (c) => !c.history),
            ],
          },
          webhook('newConversationWebhookURL', 'New conversation webhook URL'),
          webhook('noAnswerWebhookUrl', 'No-answer webhook URL'),
          webhook('feedbackWebhookUrl', 'Feedback webhook URL'),
          { kind: 'text', key: 'segmentWriteKey', label: 'Segment write key' },
        ],
      },
    ],
  },
  {
    title: 'Avatars',
    items: [
      {
        kind: 'custom',
        keys: ['forwardSlackUserName', 'showAvatarPreChat', 'showTeamAvatarPreChat', 'teamAvatarOn'],
        render: (c) => (
          <Radios
            legend="What visitors see next to operator messages"
            name="avatar"
            value={avatarSettingOf(c.v)}
            options={(Object.keys(AVATAR_SETTINGS) as AvatarSetting[]).map((s) => ({
              value: s,
              label: AVATAR_LABELS[s],
              // Team avatar options are disabled until a team avatar is uploaded (spec section 5).
              disabled: usesTeamAvatar(AVATAR_SETTINGS[s]) && !c.ce.teamAvatarUrl,
            }))}
            onChange={(s) => c.patch({ ...AVATAR_SETTINGS[s] })}
          />
        ),
      },
      {
        kind: 'custom',
        keys: ['teamAvatarUrl'],
        ownCall: true,
        render: ({ ce, replaceCe }) => <TeamAvatar ce={ce} inUse={usesTeamAvatar(ce)} replaceCe={replaceCe} />,
      },
    ],
  },
];
