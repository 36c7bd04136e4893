/**
 * Presence and widget behavior (spec sections 2, 3 Behavior, transcripts and webhooks, avatars): the on/off
 * toggle, presence, offline messages, conversation rules, notifications, where the widget shows, transcripts and
 * webhooks, avatars and the team avatar upload.
 */
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import {
  AVATAR_REMOVAL_REFUSED,
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
  MAX_CONCURRENT_LIMIT,
  NO_ANSWER_AFTER_SECS,
  RESPONSE_REMINDER_FREQS,
  TEAM_AVATAR_MAX_BYTES,
  usesTeamAvatar,
  webAddressProblem,
} from '../../../../../server/shared/settings';
import { messageOf } from '../../../api';
import { removeTeamAvatar, toggleWidget, uploadTeamAvatar } from '../../../api/settings';
import { Check, canReadHistory, Input, type Key, Radios, Section, Select, timeZones, useDraft } from '../form';
import { SaveButton, useSaveButton } from '../saveButton';
import type { SettingsTabProps } from '../types';

const KEYS = [
  'manualMode',
  'hideWhenOffline',
  'sendOfflineMessagesToEmail',
  'includeVisitorInfoInEmails',
  'sendOfflineMessagesToSlack',
  'offlineMessageWebhookURL',
  'requireInfo',
  'requireVerifiedIdentity',
  'sendOpJoinAutoResponse',
  'opJoinAutoResponseMessage',
  'responseReminders',
  'responseRemindersFreq',
  'noAnswerMessageOn',
  'noAnswerMessageAfterSecs',
  'maxVisitorInactiveMins',
  'emailUnseenAfterMinutes',
  'newMsgNotifications',
  'playSound',
  'blacklistedUrls',
  'countryAllowList',
  'countryDenyList',
  'maxConcurrentConvos',
  'notifyChannelOnMsg',
  'metaInfoInMainChannel',
  'enableFileUploads',
  'agentLabel',
  'tz',
  'webhookUrl',
  'webhookOnArchive',
  'transcriptRecipient',
  'emailOnArchive',
  'newConversationWebhookURL',
  'noAnswerWebhookUrl',
  'feedbackWebhookUrl',
  'segmentWriteKey',
  'forwardSlackUserName',
  'showAvatarPreChat',
  'showTeamAvatarPreChat',
  'teamAvatarOn',
] as const satisfies readonly Key[];

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
const META_INFO = [
  { value: 'compact', label: 'Compact' },
  { value: 'full', label: 'Full' },
  { value: 'none', label: 'None' },
] as const;

export default function BehaviorTab({ ce, save, replaceCe, setDirty, showError, clearError }: SettingsTabProps) {
  const draft = useDraft(ce, KEYS, setDirty);
  const v = draft.values;
  const button = useSaveButton();
  const [toggling, setToggling] = useState(false);
  const filterErrors = invalidFilters(v.blacklistedUrls);
  const allowErrors = invalidCountries(v.countryAllowList);
  const denyErrors = invalidCountries(v.countryDenyList);
  const [limitInput, setLimitInput] = useState(String(v.maxConcurrentConvos));
  useEffect(() => setLimitInput((text) => (text === '' ? text : String(v.maxConcurrentConvos))), [v.maxConcurrentConvos]);
  const limited = v.maxConcurrentConvos > 0 || limitInput === '';
  const history = canReadHistory(ce);
  const avatar = avatarSettingOf(v);
  // Web addresses and the e-mail address are checked as typed, by the rules the API applies.
  const addressErrors = {
    offlineMessageWebhookURL: webAddressProblem(v.offlineMessageWebhookURL),
    webhookUrl: webAddressProblem(v.webhookUrl),
    newConversationWebhookURL: webAddressProblem(v.newConversationWebhookURL),
    noAnswerWebhookUrl: webAddressProblem(v.noAnswerWebhookUrl),
    feedbackWebhookUrl: webAddressProblem(v.feedbackWebhookUrl),
    transcriptRecipient: emailAddressProblem(v.transcriptRecipient),
  };
  const invalid =
    filterErrors.length > 0 ||
    allowErrors.length > 0 ||
    denyErrors.length > 0 ||
    limitInput.trim() === '' ||
    Object.values(addressErrors).some((e) => e !== null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (invalid) return;
    await button.run(() => save(draft.changes));
  };

  const toggle = async () => {
    setToggling(true);
    clearError();
    try {
      replaceCe(await toggleWidget(ce.Id, ce.off));
    } catch (err) {
      showError(messageOf(err));
    } finally {
      setToggling(false);
    }
  };

  const setLimit = (text: string) => {
    // Only whole numbers; an empty input is allowed while editing (spec section 5).
    if (!/^\d{0,4}$/.test(text)) return;
    setLimitInput(text);
    if (text !== '') draft.set('maxConcurrentConvos', Math.min(Number(text), MAX_CONCURRENT_LIMIT));
  };

  return (
    <form className="settings-form" onSubmit={submit} noValidate>
      <Section title="Widget status">
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
      </Section>

      <Section title="Presence">
        <Radios
          legend="Presence mode"
          name="presence"
          value={v.manualMode ? 'manual' : 'auto'}
          options={[
            { value: 'auto', label: 'Automatic: online while someone in the Slack channel is active' },
            { value: 'manual', label: 'Manual: online until turned off' },
          ]}
          onChange={(mode) => draft.set('manualMode', mode === 'manual')}
        />
        <Check
          label="Hide the widget when offline"
          hint="Otherwise visitors see a form to leave a message."
          checked={v.hideWhenOffline}
          onChange={(c) => draft.set('hideWhenOffline', c)}
        />
      </Section>

      <Section title="Offline messages">
        <Check
          label="Send offline messages by e-mail"
          checked={v.sendOfflineMessagesToEmail}
          onChange={(c) => draft.set('sendOfflineMessagesToEmail', c)}
        />
        <Check
          label="Include visitor info in e-mails"
          checked={v.includeVisitorInfoInEmails}
          onChange={(c) => draft.set('includeVisitorInfoInEmails', c)}
          disabled={!v.sendOfflineMessagesToEmail}
        />
        <Check
          label="Post offline messages in the Slack channel"
          checked={v.sendOfflineMessagesToSlack}
          onChange={(c) => draft.set('sendOfflineMessagesToSlack', c)}
        />
        <Input
          label="Offline message webhook URL"
          type="url"
          placeholder="https://"
          value={v.offlineMessageWebhookURL}
          error={addressErrors.offlineMessageWebhookURL}
          onChange={(t) => draft.set('offlineMessageWebhookURL', t)}
        />
      </Section>

      <Section title="Conversations">
        <Check
          label="Require visitor info (name and e-mail) before chatting"
          checked={v.requireInfo}
          onChange={(c) => draft.set('requireInfo', c)}
        />
        <Check
          label="Accept only verified identities"
          hint="Names and e-mails your site passes to parley.identify() without a valid userHash are dropped. See Verified identity on the Embed Code tab."
          checked={v.requireVerifiedIdentity}
          onChange={(c) => draft.set('requireVerifiedIdentity', c)}
        />
        <Check
          label="Send an automatic message when an operator joins"
          checked={v.sendOpJoinAutoResponse}
          onChange={(c) => draft.set('sendOpJoinAutoResponse', c)}
        />
        <Input
          label="Operator joined message"
          hint="{name} is replaced by the operator's name."
          value={v.opJoinAutoResponseMessage}
          disabled={!v.sendOpJoinAutoResponse}
          onChange={(t) => draft.set('opJoinAutoResponseMessage', t)}
        />
        <div className="settings-grid">
          <div className="stack-sm">
            <Check label="Response reminders in Slack" checked={v.responseReminders} onChange={(c) => draft.set('responseReminders', c)} />
            <Select
              label="Remind every"
              value={v.responseRemindersFreq}
              options={seconds(RESPONSE_REMINDER_FREQS)}
              disabled={!v.responseReminders}
              onChange={(n) => draft.set('responseRemindersFreq', n)}
            />
          </div>
          <div className="stack-sm">
            <Check
              label="No-answer message to the visitor"
              checked={v.noAnswerMessageOn}
              onChange={(c) => draft.set('noAnswerMessageOn', c)}
            />
            <Select
              label="Send it after"
              value={v.noAnswerMessageAfterSecs}
              options={seconds(NO_ANSWER_AFTER_SECS)}
              disabled={!v.noAnswerMessageOn}
              onChange={(n) => draft.set('noAnswerMessageAfterSecs', n)}
            />
          </div>
          <Select
            label="When going offline, end chats of visitors inactive for"
            value={v.maxVisitorInactiveMins}
            options={GRACE}
            onChange={(n) => draft.set('maxVisitorInactiveMins', n)}
          />
          <Select
            label="E-mail replies the visitor has not seen after"
            hint="Sent to the visitor's e-mail address, with a link back to the chat; their answer by mail comes back into the thread."
            value={v.emailUnseenAfterMinutes}
            options={UNSEEN_MAIL}
            onChange={(n) => draft.set('emailUnseenAfterMinutes', n)}
          />
          <div className="stack-sm">
            <Check
              label="Limit concurrent chats"
              checked={limited}
              onChange={(c) => {
                // Enabling the limit sets 5; 0 means unlimited (spec section 5).
                const next = c ? DEFAULT_CONCURRENT_LIMIT : 0;
                setLimitInput(String(next));
                draft.set('maxConcurrentConvos', next);
              }}
            />
            <Input
              label="Concurrent chats at most"
              value={limited ? limitInput : ''}
              placeholder="Unlimited"
              hint="0 means unlimited."
              error={limitInput === '' ? 'Enter a whole number (0 for unlimited).' : null}
              onChange={setLimit}
              disabled={!limited}
            />
          </div>
        </div>
        <Check label="Visitors may upload files" checked={v.enableFileUploads} onChange={(c) => draft.set('enableFileUploads', c)} />
        <div className="settings-grid">
          <Input
            label="Agent label"
            hint="Shown to visitors instead of operator names when names are hidden."
            value={v.agentLabel}
            onChange={(t) => draft.set('agentLabel', t)}
          />
          <Select
            label="Time zone"
            value={v.tz}
            options={timeZones(v.tz).map((z) => ({ value: z, label: z }))}
            onChange={(z) => draft.set('tz', z)}
          />
        </div>
      </Section>

      <Section title="Notifications">
        <Check
          label="New message notifications in the visitor's browser"
          checked={v.newMsgNotifications}
          onChange={(c) => draft.set('newMsgNotifications', c)}
        />
        <Check label="Play a sound on new messages" checked={v.playSound} onChange={(c) => draft.set('playSound', c)} />
        <Check
          label="Notify the channel (@here) on every visitor message"
          checked={v.notifyChannelOnMsg}
          onChange={(c) => draft.set('notifyChannelOnMsg', c)}
        />
        <Select
          label="Visitor info in the main channel"
          value={v.metaInfoInMainChannel}
          options={META_INFO}
          onChange={(m) => draft.set('metaInfoInMainChannel', m)}
        />
      </Section>

      <Section title="Where the widget shows">
        <Input
          label="Hide on pages"
          multiline
          value={v.blacklistedUrls}
          placeholder="/checkout /admin/.*"
          error={filterErrors.length > 0 ? `${INVALID_FILTER}: ${filterErrors[0]}` : null}
          hint={
            <>
              Regular expressions matched against the page address, separated by spaces or commas. Test them on{' '}
              <a href="https://regex101.com/" target="_blank" rel="noreferrer">
                regex101.com
              </a>
              .
            </>
          }
          onChange={(t) => draft.set('blacklistedUrls', t)}
        />
        {!ce.collectVisitorMetaData && (
          <p className="field__hint">
            Country lists need <Link to={`/settings/${ce.Id}/appearance`}>Collect personal data</Link> (Appearance, Privacy) turned on.
          </p>
        )}
        <div className="settings-grid">
          <Input
            label="Only show in these countries"
            placeholder="US, CA"
            hint="ISO two-letter codes separated by commas; blank means everywhere."
            error={allowErrors.length > 0 ? `Not an ISO country code: ${allowErrors.join(', ')}` : null}
            value={v.countryAllowList}
            disabled={!ce.collectVisitorMetaData}
            // Typing in one list clears the other (spec section 5).
            onChange={(t) => draft.patch({ countryAllowList: t.toUpperCase(), countryDenyList: '' })}
          />
          <Input
            label="Never show in these countries"
            placeholder="FR, DE"
            hint="Overrides the list of countries to show in."
            error={denyErrors.length > 0 ? `Not an ISO country code: ${denyErrors.join(', ')}` : null}
            value={v.countryDenyList}
            disabled={!ce.collectVisitorMetaData}
            onChange={(t) => draft.patch({ countryDenyList: t.toUpperCase(), countryAllowList: '' })}
          />
        </div>
      </Section>

      <Section
        title="Transcripts and webhooks"
        intro={
          history ? undefined : (
            <>
              Transcripts need Slack's channels:history permission. <Link to={`/permissions/${ce.Id}`}>Grant permissions</Link>
            </>
          )
        }
      >
        <div className="settings-grid">
          <div className="stack-sm">
            <Check
              label="E-mail a transcript when a chat ends"
              checked={v.emailOnArchive}
              disabled={!history}
              onChange={(c) => draft.set('emailOnArchive', c)}
            />
            <Input
              label="Transcript recipient"
              type="email"
              placeholder="team@example.com"
              value={v.transcriptRecipient}
              error={addressErrors.transcriptRecipient}
              disabled={!history || !v.emailOnArchive}
              onChange={(t) => draft.set('transcriptRecipient', t)}
            />
          </div>
          <div className="stack-sm">
            <Check
              label="Send the transcript to a webhook when a chat ends"
              checked={v.webhookOnArchive}
              disabled={!history}
              onChange={(c) => draft.set('webhookOnArchive', c)}
            />
            <Input
              label="Transcript webhook URL"
              type="url"
              placeholder="https://"
              value={v.webhookUrl}
              error={addressErrors.webhookUrl}
              disabled={!history}
              onChange={(t) => draft.set('webhookUrl', t)}
            />
          </div>
          <Input
            label="New conversation webhook URL"
            type="url"
            placeholder="https://"
            value={v.newConversationWebhookURL}
            error={addressErrors.newConversationWebhookURL}
            onChange={(t) => draft.set('newConversationWebhookURL', t)}
          />
          <Input
            label="No-answer webhook URL"
            type="url"
            placeholder="https://"
            value={v.noAnswerWebhookUrl}
            error={addressErrors.noAnswerWebhookUrl}
            onChange={(t) => draft.set('noAnswerWebhookUrl', t)}
          />
          <Input
            label="Feedback webhook URL"
            type="url"
            placeholder="https://"
            value={v.feedbackWebhookUrl}
            error={addressErrors.feedbackWebhookUrl}
            onChange={(t) => draft.set('feedbackWebhookUrl', t)}
          />
          <Input label="Segment write key" value={v.segmentWriteKey} onChange={(t) => draft.set('segmentWriteKey', t)} />
        </div>
      </Section>

      <Section title="Avatars">
        <Radios
          legend="What visitors see next to operator messages"
          name="avatar"
          value={avatar}
          options={(Object.keys(AVATAR_SETTINGS) as AvatarSetting[]).map((s) => ({
            value: s,
            label: AVATAR_LABELS[s],
            // Team avatar options are disabled until a team avatar is uploaded (spec section 5).
            disabled: usesTeamAvatar(AVATAR_SETTINGS[s]) && !ce.teamAvatarUrl,
          }))}
          onChange={(s) => draft.patch({ ...AVATAR_SETTINGS[s] })}
        />
        <TeamAvatar ce={ce} inUse={usesTeamAvatar(ce)} replaceCe={replaceCe} />
      </Section>

      <div className="settings-actions">
        <SaveButton state={button.state} disabled={invalid || (!draft.dirty && button.state === 'idle')} />
        {draft.dirty && <span className="muted">{invalid ? 'Fix the fields marked above to save' : 'Unsaved changes'}</span>}
      </div>
    </form>
  );
}

/** The team avatar: upload with progress (spec section 8), preview, removal. */
function TeamAvatar({
  ce,
  inUse,
  replaceCe,
}: {
  ce: SettingsTabProps['ce'];
  inUse: boolean;
  replaceCe: (ce: SettingsTabProps['ce']) => void;
}) {
  const [status, setStatus] = useState<{ text: string; error?: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  const upload = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > TEAM_AVATAR_MAX_BYTES) {
      setStatus({ text: 'The team avatar must be at most 1 MB.', error: true });
      return;
    }
    setBusy(true);
    setStatus({ text: 'Avatar uploading…' });
    try {
      const url = await uploadTeamAvatar(ce.Id, file, (percent) => setStatus({ text: `Avatar uploading: ${percent}%` }));
      replaceCe({ ...ce, teamAvatarUrl: url });
      setStatus({ text: 'Avatar uploaded successfully' });
    } catch (err) {
      const message = messageOf(err);
      setStatus({ text: message.startsWith('The team avatar') ? message : 'Avatar upload error. Contact Parley support!', error: true });
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };

  const remove = async () => {
    if (inUse) {
      setStatus({ text: AVATAR_REMOVAL_REFUSED, error: true });
      return;
    }
    setBusy(true);
    try {
      replaceCe(await removeTeamAvatar(ce.Id));
      setStatus({ text: 'Avatar removed' });
    } catch (err) {
      setStatus({ text: messageOf(err), error: true });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="team-avatar">
      {ce.teamAvatarUrl ? (
        <img className="team-avatar__img" src={ce.teamAvatarUrl} alt="Team avatar" />
      ) : (
        <span className="team-avatar__img team-avatar__img--empty" aria-hidden="true" />
      )}
      <div className="team-avatar__body">
        <label className="btn btn--secondary btn--small team-avatar__upload">
          {ce.teamAvatarUrl ? 'Replace team avatar' : 'Upload team avatar'}
          <input
            ref={input}
            type="file"
            accept="image/png,image/jpeg,image/gif,image/webp"
            className="sr-only"
            disabled={busy}
            onChange={(e) => void upload(e.target.files?.[0])}
          />
        </label>
        {ce.teamAvatarUrl && (
          <button type="button" className="link-button link-button--danger" onClick={remove} disabled={busy}>
            Remove team avatar
          </button>
        )}
        <p className="field__hint">PNG, JPEG, GIF or WebP, at most 1 MB; square images look best.</p>
        {status && (
          <p className={status.error ? 'field__error' : 'team-avatar__status'} role="status">
            {status.text}
          </p>
        )}
      </div>
    </div>
  );
}
