/**
 * Appearance (spec sections 2, 3 Appearance, privacy and alignment, 5): one panel per group of texts and one
 * sticky Save Changes for the page (as Behavior), a colour picker for the title colours, dependent fields
 * disabled, the title and acceptance-text rules shown as typed, and the live preview of the real widget beside
 * the form.
 */
import { type FormEvent, type ReactNode, useState } from 'react';
import { HexColorInput, HexColorPicker } from 'react-colorful';
import { Link } from 'react-router-dom';
import type { ChatEndpointSettings, CollapsedMode } from '../../../../../server/shared';
import { FOOTER_TEXT_CHARS, TITLE_MAX_CHARS, titleProblem, webAddressProblem } from '../../../../../server/shared/settings';
import { VISITOR_SETTING_KEYS } from '../../../../../server/shared/widget-config';
import {
  directionOf,
  isOwnerTextKey,
  LOCALE_NAMES,
  localizedOwnerTexts,
  type OwnerTextKey,
  type TextOverrides,
  WIDGET_LOCALES,
  type WidgetLocale,
} from '../../../../../server/shared/widget-texts';
import { useUser } from '../../../session/session';
import { Check, canReadHistory, Input, type Key, Radios, Section, Select, useDraft, YesNo } from '../form';
import { SaveButton, useSaveButton } from '../saveButton';
import type { SettingsTabProps } from '../types';
import { type PreviewSettings, WidgetPreview } from '../WidgetPreview';
import { useWidgetTexts } from '../widgetTexts';

/** Everything the preview shows, plus the one text it does not (the subject of the owner's e-mail). */
const ALL_KEYS: readonly Key[] = [...new Set<Key>([...VISITOR_SETTING_KEYS, 'offlineEmailSubject', 'textOverrides'])];

/** The language selector's choices: the texts for everyone, then each built-in language by its own name. */
function languageChoices(): { value: WidgetLocale | ''; label: string }[] {
  let english: Intl.DisplayNames | null = null;
  try {
    english = new Intl.DisplayNames(['en'], { type: 'language' });
  } catch {
    english = null;
  }
  return [
    { value: '', label: 'All languages' },
    ...WIDGET_LOCALES.map((locale) => {
      const inEnglish = english?.of(locale);
      return {
        value: locale,
        label: inEnglish && inEnglish !== LOCALE_NAMES[locale] ? `${LOCALE_NAMES[locale]} (${inEnglish})` : LOCALE_NAMES[locale],
      };
    }),
  ];
}

const COLLAPSED: readonly { value: CollapsedMode; label: string }[] = [
  { value: 'default', label: 'Default' },
  { value: 'chip', label: 'Chip' },
  { value: 'button', label: 'Button' },
  { value: 'tab', label: 'Tab' },
  { value: 'hidden', label: 'Hidden (open it from your page with parley.open())' },
];

type TextKey = { [K in Key]: ChatEndpointSettings[K] extends string ? K : never }[Key];

/** How many texts the owner wrote for the chosen language. */
function ownTextsHint(count: number, language: string): string {
  if (count === 0) return `No texts of your own for ${language} yet: every field shows what its visitors get now.`;
  return `${count} ${count === 1 ? 'text' : 'texts'} of your own for ${language}; empty fields show what its visitors get now.`;
}

export const ACCEPTANCE_MESSAGE = 'Must be at least three characters for Acceptance text to be displayed.';

/** Which rectangle of the privacy sample image a focused field matches. */
type PrivacySpot = 'metadata' | 'policy' | 'link' | 'accept' | 'text' | null;

export default function AppearanceTab({ ce, save, setDirty }: SettingsTabProps) {
  const draft = useDraft(ce, ALL_KEYS, setDirty);
  const whiteLabel = Boolean(useUser().account.plan.whiteLabel);
  const v = draft.values as ChatEndpointSettings;
  const [spot, setSpot] = useState<PrivacySpot>(null);
  const set = draft.set as <F extends Key>(field: F, value: ChatEndpointSettings[F]) => void;
  // The language whose texts the fields edit: '' is every language (the settings themselves).
  const [language, setLanguage] = useState<WidgetLocale | ''>('');
  const stock = useWidgetTexts('en');
  const shownLocale: WidgetLocale = language || 'en';
  const builtIn = useWidgetTexts(shownLocale);
  const overrides: TextOverrides = v.textOverrides ?? {};
  const mine = language ? (overrides[language] ?? {}) : {};
  const setOverride = (field: OwnerTextKey, value: string) => {
    if (!language) return;
    const texts = { ...(overrides[language] ?? {}) };
    if (value === '') delete texts[field];
    else texts[field] = value;
    const next = { ...overrides };
    if (Object.keys(texts).length > 0) next[language] = texts;
    else delete next[language];
    set('textOverrides', next);
  };
  /** What the chosen language's visitors see when its field is empty: the owner's changed text, else the translation. */
  const fallback = (field: OwnerTextKey) => (stock && v[field] !== stock[field] ? v[field] : (builtIn?.[field] ?? ''));
  const bound = (field: OwnerTextKey) =>
    language
      ? { value: mine[field] ?? '', placeholder: fallback(field), onChange: (t: string) => setOverride(field, t) }
      : { value: String(v[field]), onChange: (t: string) => set(field, t) };
  const text = (field: TextKey, label: string, extra: { disabled?: boolean; multiline?: boolean; hint?: ReactNode } = {}) =>
    isOwnerTextKey(field) ? (
      <Input label={label} {...bound(field)} {...extra} />
    ) : (
      <Input
        label={label}
        value={String(v[field])}
        onChange={(t) => set(field, t)}
        {...extra}
        disabled={extra.disabled || language !== ''}
        hint={language ? 'The same in every language.' : extra.hint}
      />
    );
  const title = (field: 'onlineTitle' | 'offlineTitle', error: string | null) => (
    <Input
      label="Title"
      {...bound(field)}
      maxLength={TITLE_MAX_CHARS}
      error={language ? null : error}
      hint={`Up to ${TITLE_MAX_CHARS} characters, the most the widget's header shows.`}
    />
  );
  const endOff = !v.showConversationEnd;
  const history = canReadHistory(ce);
  const acceptanceError = v.requireAcceptance && v.acceptanceText.trim().length < 3 ? ACCEPTANCE_MESSAGE : null;
  const onlineTitleError = titleProblem(v.onlineTitle);
  const offlineTitleError = titleProblem(v.offlineTitle);
  const policyUrlError = webAddressProblem(v.privacyPolicyLinkURL);
  const blocked = acceptanceError !== null || onlineTitleError !== null || offlineTitleError !== null || policyUrlError !== null;
  const button = useSaveButton();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (blocked || !draft.dirty) return;
    await button.run(() => save(draft.changes));
  };
  const preview = {} as Record<string, unknown>;
  for (const k of VISITOR_SETTING_KEYS) preview[k] = v[k];
  // The preview speaks the chosen language (English for all languages), with the texts its visitors would get.
  if (stock && builtIn) Object.assign(preview, localizedOwnerTexts(v, overrides, shownLocale, builtIn, stock));

  return (
    <div className="appearance">
      <form className="appearance__form" onSubmit={submit} noValidate>
        <Section
          title="Language"
          intro="Visitors see the widget in their browser's language. Pick a language to give its visitors your own wording: a field you leave empty there shows the grey text, your text for all languages where you changed it, otherwise Parley's translation."
        >
          <Select
            id="appearance-language"
            label="Texts for"
            value={language}
            options={languageChoices()}
            hint={language ? ownTextsHint(Object.keys(mine).length, LOCALE_NAMES[language]) : undefined}
            onChange={(l) => setLanguage(l)}
          />
        </Section>
        <Section title="Online mode">
          <div className="settings-grid">
            <ColorField label="Title colour" value={v.titleColor} onChange={(c) => set('titleColor', c)} />
            <ColorField label="Title text colour" value={v.titleFontColor} onChange={(c) => set('titleFontColor', c)} />
          </div>
          <div className="settings-grid">
            {title('onlineTitle', onlineTitleError)}
            <Select
              label="Collapsed widget"
              value={v.collapsedMode}
              options={COLLAPSED}
              hint="Chip and tab show as a button on phones."
              onChange={(m) => set('collapsedMode', m)}
            />
            {text('browserSideAuthorLabel', "Visitor's name in the chat")}
            {text('onlineMessagePlaceholder', 'Message placeholder')}
          </div>
          {text('autoResponseMessage', 'Automatic first answer', { multiline: true })}
          {text('noAnswerWithoutEmail', 'No answer yet (visitor gave no e-mail)', { multiline: true })}
          {text('noAnswerWithEmail', 'No answer yet (visitor gave an e-mail)', { multiline: true })}
        </Section>

        <Section title="Offline mode">
          <div className="settings-grid">
            {title('offlineTitle', offlineTitleError)}
            {text('offlineSendButton', 'Send button')}
            {text('offlineNamePlaceholder', 'Name placeholder')}
            {text('offlineEmailPlaceholder', 'E-mail placeholder')}
            {text('offlineMessagePlaceholder', 'Message placeholder')}
            {text('offlineEmailSubject', 'Subject of the e-mail you receive')}
          </div>
          {text('offlineGreeting', 'Greeting', { multiline: true })}
          {text('offlineThankYouMessage', 'Thank-you message', { multiline: true })}
        </Section>

        <Section title="Chat End">
          <Check label="Visitors can end the chat" checked={v.showConversationEnd} onChange={(c) => set('showConversationEnd', c)} />
          <div className="settings-grid">
            {text('conversationEndMenuLinkLabel', 'Menu link', { disabled: endOff })}
            {text('conversationEndConfirmationQuestion', 'Confirmation question', { disabled: endOff })}
            {text('conversationEndLabel', 'End button', { disabled: endOff })}
          </div>
          <Check
            label="Ask for a rating"
            checked={v.showConversationRating}
            disabled={endOff}
            onChange={(c) => set('showConversationRating', c)}
          />
          <div className="settings-grid">
            {text('conversationRatingLabel', 'Rating question', { disabled: endOff || !v.showConversationRating })}
            {text('conversationRatingPlaceholder', 'Feedback placeholder', { disabled: endOff || !v.showConversationRating })}
            {text('conversationRatingThankYou', 'Thank-you for the rating', { disabled: endOff || !v.showConversationRating })}
          </div>
          <Check
            label="Clear the messages when the chat ends"
            checked={v.clearMessagesOnEnd}
            disabled={endOff}
            onChange={(c) => set('clearMessagesOnEnd', c)}
          />
          <Check
            label="Offer the visitor a transcript by e-mail"
            hint={history ? undefined : "Needs Slack's channels:history permission (see Permissions)."}
            checked={v.showTranscriptSendOpt}
            disabled={endOff || !history}
            onChange={(c) => set('showTranscriptSendOpt', c)}
          />
          <div className="settings-grid">
            {text('conversationEndTranscriptPlaceholder', 'Transcript e-mail placeholder', {
              disabled: endOff || !history || !v.showTranscriptSendOpt,
            })}
            {text('conversationTranscriptSentThankYou', 'Transcript sent message', {
              disabled: endOff || !history || !v.showTranscriptSendOpt,
            })}
          </div>
        </Section>

        <Section title="Screenshots">
          {text('requestScreenshotText', 'Request text', { multiline: true })}
          <div className="settings-grid">
            {text('requestScreenshotAllowLabel', 'Allow button')}
            {text('requestScreenshotDeclineLabel', 'Decline button')}
          </div>
        </Section>

        <Section title="Info prompt">
          {text('requireInfoGreeting', 'Greeting', { multiline: true })}
          {text('requireInfoSubmitBtn', 'Submit button')}
        </Section>

        <Section title="Generic button labels">
          <div className="settings-grid">
            {text('defaultSendBtnLabel', 'Send')}
            {text('defaultCancelBtnLabel', 'Cancel')}
            {text('defaultYesBtnLabel', 'Yes')}
            {text('defaultNoBtnLabel', 'No')}
          </div>
          <Check
            label="Show the send button on desktop"
            checked={v.showSendBtnOnDesktop}
            onChange={(c) => set('showSendBtnOnDesktop', c)}
          />
        </Section>

        <Section title="Privacy">
          <div className="privacy">
            <div className="privacy__fields">
              <YesNo
                legend="Collect personal data"
                name="collect"
                value={v.collectVisitorMetaData}
                onChange={(b) => set('collectVisitorMetaData', b)}
                onFocus={() => setSpot('metadata')}
              />
              <YesNo
                legend="Display privacy policy"
                name="policy"
                value={v.displayPrivacyPolicy}
                onChange={(b) => set('displayPrivacyPolicy', b)}
                onFocus={() => setSpot('policy')}
              />
              <Input
                label="Privacy policy link text"
                {...bound('privacyPolicyLinkText')}
                disabled={!v.displayPrivacyPolicy}
                onFocus={() => setSpot('link')}
                onBlur={() => setSpot(null)}
              />
              <Input
                label="Privacy policy link URL"
                type="url"
                placeholder="https://"
                value={v.privacyPolicyLinkURL}
                error={policyUrlError}
                disabled={!v.displayPrivacyPolicy}
                onChange={(t) => set('privacyPolicyLinkURL', t)}
                onFocus={() => setSpot('link')}
                onBlur={() => setSpot(null)}
              />
              <YesNo
                legend="Require acceptance"
                name="accept"
                value={v.requireAcceptance}
                onChange={(b) => set('requireAcceptance', b)}
                onFocus={() => setSpot('accept')}
              />
              <Input
                label="Accept button text"
                {...bound('defaultAcceptBtnLabel')}
                disabled={!v.requireAcceptance}
                onFocus={() => setSpot('accept')}
                onBlur={() => setSpot(null)}
              />
              <Input
                label="Acceptance text"
                multiline
                {...bound('acceptanceText')}
                disabled={!v.requireAcceptance}
                error={language ? null : acceptanceError}
                onFocus={() => setSpot('text')}
                onBlur={() => setSpot(null)}
              />
            </div>
            <PrivacySample spot={spot} />
          </div>
        </Section>

        <Section title="Footer">
          <Input
            label="Footer text"
            value={whiteLabel ? v.footerText : ''}
            maxLength={FOOTER_TEXT_CHARS}
            disabled={!whiteLabel}
            placeholder={whiteLabel ? 'Nothing: no line under the chat' : 'Chat by Parley'}
            hint={
              whiteLabel ? (
                `A line of your own under the chat, up to ${FOOTER_TEXT_CHARS} characters. Your plan shows no Parley link.`
              ) : (
                <>
                  Your plan shows a small “Chat by Parley” link under the chat. <Link to="/account">Upgrade to white label</Link> to remove
                  it or write your own line.
                </>
              )
            }
            onChange={(t) => set('footerText', t)}
          />
        </Section>

        <Section title="Alignment">
          <Radios
            legend="Where the widget sits"
            name="alignment"
            value={v.widgetAlignment}
            options={[
              { value: 'bottomRight', label: 'Bottom Right' },
              { value: 'bottomLeft', label: 'Bottom Left' },
            ]}
            onChange={(a) => set('widgetAlignment', a)}
          />
        </Section>

        <p className="muted appearance__css">
          Need more? Every part of the widget can be restyled with your own CSS: see <a href="/docs">the customization docs</a>.
        </p>
        <div className="settings-actions">
          <SaveButton id="save-appearance" state={button.state} disabled={blocked || (!draft.dirty && button.state === 'idle')} />
          {draft.dirty && <span className="muted">{blocked ? 'Fix the fields marked above to save' : 'Unsaved changes'}</span>}
        </div>
      </form>
      <WidgetPreview
        settings={preview as PreviewSettings}
        widgetId={ce.Uuid}
        poweredBy={whiteLabel ? null : '/pricing'}
        language={builtIn ? { locale: shownLocale, dir: directionOf(shownLocale), texts: builtIn.ui } : null}
      />
    </div>
  );
}

function ColorField({ label, value, onChange }: { label: string; value: string; onChange: (hex: string) => void }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="field color-field">
      <span className="field__label">{label}</span>
      <div className="color-field__row">
        <button
          type="button"
          className="color-field__swatch"
          style={{ background: value }}
          aria-label={`Pick ${label.toLowerCase()}`}
          aria-expanded={open}
          onClick={() => setOpen((o) => !o)}
        />
        <HexColorInput className="field__input color-field__hex" color={value} onChange={onChange} prefixed aria-label={`${label} (hex)`} />
      </div>
      {open && (
        <div className="color-field__popover">
          <HexColorPicker color={value} onChange={onChange} />
        </div>
      )}
    </div>
  );
}

/** The static sample of the privacy screen; the rectangle of the focused field is highlighted. */
function PrivacySample({ spot }: { spot: PrivacySpot }) {
  const box = (name: Exclude<PrivacySpot, null>, x: number, y: number, w: number, h: number) => (
    <rect x={x} y={y} width={w} height={h} rx={6} className={`privacy-sample__spot${spot === name ? ' privacy-sample__spot--on' : ''}`} />
  );
  return (
    <svg className="privacy-sample" viewBox="0 0 220 300" role="img" aria-label="Sample of the privacy screen visitors see">
      <rect x="0" y="0" width="220" height="300" rx="14" fill="#fff" stroke="#e3e6ee" />
      <rect x="0" y="0" width="220" height="44" rx="14" fill="#2f6fed" />
      <rect x="14" y="17" width="90" height="10" rx="5" fill="#fff" opacity=".9" />
      <rect x="18" y="70" width="184" height="8" rx="4" fill="#cfd4e0" />
      <rect x="18" y="86" width="150" height="8" rx="4" fill="#cfd4e0" />
      <rect x="18" y="102" width="170" height="8" rx="4" fill="#cfd4e0" />
      {box('text', 10, 60, 200, 60)}
      <rect x="18" y="140" width="110" height="8" rx="4" fill="#4f46e5" />
      {box('link', 10, 130, 130, 28)}
      {box('policy', 6, 126, 208, 36)}
      <rect x="18" y="186" width="184" height="34" rx="8" fill="#2f6fed" />
      <rect x="80" y="199" width="60" height="8" rx="4" fill="#fff" />
      {box('accept', 10, 178, 200, 50)}
      <rect x="18" y="250" width="184" height="30" rx="8" fill="#f6f7fb" stroke="#e3e6ee" />
      {box('metadata', 10, 242, 200, 46)}
    </svg>
  );
}
