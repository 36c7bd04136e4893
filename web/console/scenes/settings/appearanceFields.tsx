/**
 * The Appearance tab's settings, one description each (spec sections 2, 3 Appearance, privacy and alignment, 5):
 * one panel per group of texts, dependent fields disabled, the title and acceptance-text rules checked as typed.
 * Texts the widget shows in the visitor's language (OWNER_TEXT_KEYS) are edited for the language the tab picks.
 */
import { type ReactNode, useState } from 'react';
import { HexColorInput, HexColorPicker } from 'react-colorful';
import { Link } from 'react-router-dom';
import type { CollapsedMode } from '../../../../server/shared';
import {
  FOOTER_TEXT_CHARS,
  SENDER_NAME_CHARS,
  senderNameProblem,
  TITLE_MAX_CHARS,
  titleProblem,
  webAddressProblem,
} from '../../../../server/shared/settings';
import { LOCALE_NAMES, WIDGET_LOCALES, type WidgetLocale } from '../../../../server/shared/widget-texts';
import type { FieldContext, FieldSection, TextField } from './fields';
import { Select } from './form';

/** What the Appearance descriptions read beyond the draft. */
export type AppearanceContext = FieldContext & {
  /** The language whose texts the fields edit: '' is every language (the settings themselves). */
  language: WidgetLocale | '';
  setLanguage: (language: WidgetLocale | '') => void;
  /** How many texts of its own the owner wrote for that language. */
  ownTexts: number;
  whiteLabel: boolean;
  history: boolean;
  spot: PrivacySpot;
  setSpot: (spot: PrivacySpot) => void;
};

/** Which rectangle of the privacy sample image a focused field matches. */
export type PrivacySpot = 'metadata' | 'policy' | 'link' | 'accept' | 'text' | null;

export const ACCEPTANCE_MESSAGE = 'Must be at least three characters for Acceptance text to be displayed.';

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

/** How many texts the owner wrote for the chosen language. */
function ownTextsHint(count: number, language: string): string {
  if (count === 0) return `No texts of your own for ${language} yet: every field shows what its visitors get now.`;
  return `${count} ${count === 1 ? 'text' : 'texts'} of your own for ${language}; empty fields show what its visitors get now.`;
}

const COLLAPSED: readonly { value: CollapsedMode; label: string }[] = [
  { value: 'default', label: 'Default' },
  { value: 'chip', label: 'Chip' },
  { value: 'button', label: 'Button' },
  { value: 'tab', label: 'Tab' },
  { value: 'hidden', label: 'Hidden (open it from your page with parley.open())' },
];

type Text = TextField<AppearanceContext>;
/** A widget text, optionally multiline or disabled. */
const text = (key: Text['key'], label: string, more: Partial<Omit<Text, 'kind' | 'key' | 'label'>> = {}): Text => ({
  kind: 'text',
  key,
  label,
  ...more,
});
const title = (key: 'onlineTitle' | 'offlineTitle'): Text =>
  text(key, 'Title', {
    maxLength: TITLE_MAX_CHARS,
    check: titleProblem,
    hint: `Up to ${TITLE_MAX_CHARS} characters, the most the widget's header shows.`,
  });
const multiline = true;
const endOff = (c: AppearanceContext) => !c.v.showConversationEnd;
const ratingOff = (c: AppearanceContext) => endOff(c) || !c.v.showConversationRating;
const transcriptOff = (c: AppearanceContext) => endOff(c) || !c.history || !c.v.showTranscriptSendOpt;
const leaveSpot = (c: AppearanceContext) => c.setSpot(null);

export const APPEARANCE_SECTIONS: readonly FieldSection<AppearanceContext>[] = [
  {
    title: 'Language',
    intro:
      "Visitors see the widget in their browser's language. Pick a language to give its visitors your own wording: a field you leave empty there shows the grey text, your text for all languages where you changed it, otherwise Parley's translation.",
    items: [
      {
        kind: 'custom',
        // The texts of each language: the fields below edit those of the language picked here.
        keys: ['textOverrides'],
        render: ({ language, setLanguage, ownTexts }) => (
          <Select
            id="appearance-language"
            label="Texts for"
            value={language}
            options={languageChoices()}
            hint={language ? ownTextsHint(ownTexts, LOCALE_NAMES[language]) : undefined}
            onChange={(l) => setLanguage(l)}
          />
        ),
      },
    ],
  },
  {
    title: 'Online mode',
    items: [
      {
        box: 'settings-grid',
        items: [
          {
            kind: 'custom',
            keys: ['titleColor'],
            render: (c) => <ColorField label="Title colour" value={c.v.titleColor} onChange={(hex) => c.set('titleColor', hex)} />,
          },
          {
            kind: 'custom',
            keys: ['titleFontColor'],
            render: (c) => (
              <ColorField label="Title text colour" value={c.v.titleFontColor} onChange={(hex) => c.set('titleFontColor', hex)} />
            ),
          },
        ],
      },
      {
        box: 'settings-grid',
        items: [
          title('onlineTitle'),
          {
            kind: 'select',
            key: 'collapsedMode',
            label: 'Collapsed widget',
            options: COLLAPSED,
            hint: 'Chip and tab show as a button on phones.',
          },
          text('browserSideAuthorLabel', "Visitor's name in the chat"),
          text('onlineMessagePlaceholder', 'Message placeholder'),
        ],
      },
      text('autoResponseMessage', 'Automatic first answer', { multiline }),
      text('noAnswerWithoutEmail', 'No answer yet (visitor gave no e-mail)', { multiline }),
      text('noAnswerWithEmail', 'No answer yet (visitor gave an e-mail)', { multiline }),
    ],
  },
  {
    title: 'Offline mode',
    items: [
      {
        box: 'settings-grid',
        items: [
          title('offlineTitle'),
          text('offlineSendButton', 'Send button'),
          text('offlineNamePlaceholder', 'Name placeholder'),
          text('offlineEmailPlaceholder', 'E-mail placeholder'),
          text('offlineMessagePlaceholder', 'Message placeholder'),
          text('offlineEmailSubject', 'Subject of the e-mail you receive', { everyLanguage: true }),
        ],
      },
      text('offlineGreeting', 'Greeting', { multiline }),
      text('offlineThankYouMessage', 'Thank-you message', { multiline }),
    ],
  },
  {
    title: 'Mails to visitors',
    items: [
      text('senderName', 'Sender name of mails to visitors', {
        everyLanguage: true,
        maxLength: SENDER_NAME_CHARS,
        check: senderNameProblem,
        hint: "Replies visitors did not see and transcripts come from this name (the address stays Parley's). Empty: the widget's title.",
      }),
    ],
  },
  {
    title: 'Chat End',
    items: [
      { kind: 'check', key: 'showConversationEnd', label: 'Visitors can end the chat' },
      {
        box: 'settings-grid',
        items: [
          text('conversationEndMenuLinkLabel', 'Menu link', { disabled: endOff }),
          text('conversationEndConfirmationQuestion', 'Confirmation question', { disabled: endOff }),
          text('conversationEndLabel', 'End button', { disabled: endOff }),
        ],
      },
      { kind: 'check', key: 'showConversationRating', label: 'Ask for a rating', disabled: endOff },
      {
        box: 'settings-grid',
        items: [
          text('conversationRatingLabel', 'Rating question', { disabled: ratingOff }),
          text('conversationRatingPlaceholder', 'Feedback placeholder', { disabled: ratingOff }),
          text('conversationRatingThankYou', 'Thank-you for the rating', { disabled: ratingOff }),
        ],
      },
      { kind: 'check', key: 'clearMessagesOnEnd', label: 'Clear the messages when the chat ends', disabled: endOff },
      {
        kind: 'check',
        key: 'showTranscriptSendOpt',
        label: 'Offer the visitor a transcript by e-mail',
        hint: (c) => (c.history ? undefined : "Needs Slack's channels:history permission (see Permissions)."),
        disabled: (c) => endOff(c) || !c.history,
      },
      {
        box: 'settings-grid',
        items: [
          text('conversationEndTranscriptPlaceholder', 'Transcript e-mail placeholder', { disabled: transcriptOff }),
          text('conversationTranscriptSentThankYou', 'Transcript sent message', { disabled: transcriptOff }),
        ],
      },
    ],
  },
  {
    title: 'Screenshots',
    items: [
      text('requestScreenshotText', 'Request text', { multiline }),
      {
        box: 'settings-grid',
        items: [text('requestScreenshotAllowLabel', 'Allow button'), text('requestScreenshotDeclineLabel', 'Decline button')],
      },
    ],
  },
  {
    title: 'Info prompt',
    items: [text('requireInfoGreeting', 'Greeting', { multiline }), text('requireInfoSubmitBtn', 'Submit button')],
  },
  {
    title: 'Generic button labels',
    items: [
      {
        box: 'settings-grid',
        items: [
          text('defaultSendBtnLabel', 'Send'),
          text('defaultCancelBtnLabel', 'Cancel'),
          text('defaultYesBtnLabel', 'Yes'),
          text('defaultNoBtnLabel', 'No'),
        ],
      },
      { kind: 'check', key: 'showSendBtnOnDesktop', label: 'Show the send button on desktop' },
    ],
  },
  {
    title: 'Privacy',
    items: [
      {
        box: 'privacy',
        items: [
          {
            box: 'privacy__fields',
            items: [
              {
                kind: 'yesNo',
                key: 'collectVisitorMetaData',
                label: 'Collect personal data',
                name: 'collect',
                onFocus: (c) => c.setSpot('metadata'),
              },
              {
                kind: 'yesNo',
                key: 'displayPrivacyPolicy',
                label: 'Display privacy policy',
                name: 'policy',
                onFocus: (c) => c.setSpot('policy'),
              },
              text('privacyPolicyLinkText', 'Privacy policy link text', {
                disabled: (c) => !c.v.displayPrivacyPolicy,
                onFocus: (c) => c.setSpot('link'),
                onBlur: leaveSpot,
              }),
              text('privacyPolicyLinkURL', 'Privacy policy link URL', {
                type: 'url',
                placeholder: 'https://',
                check: webAddressProblem,
                disabled: (c) => !c.v.displayPrivacyPolicy,
                onFocus: (c) => c.setSpot('link'),
                onBlur: leaveSpot,
              }),
              { kind: 'yesNo', key: 'requireAcceptance', label: 'Require acceptance', name: 'accept', onFocus: (c) => c.setSpot('accept') },
              text('defaultAcceptBtnLabel', 'Accept button text', {
                disabled: (c) => !c.v.requireAcceptance,
                onFocus: (c) => c.setSpot('accept'),
                onBlur: leaveSpot,
              }),
              text('acceptanceText', 'Acceptance text', {
                multiline,
                disabled: (c) => !c.v.requireAcceptance,
                check: (value, c) => (c.v.requireAcceptance && value.trim().length < 3 ? ACCEPTANCE_MESSAGE : null),
                onFocus: (c) => c.setSpot('text'),
                onBlur: leaveSpot,
              }),
            ],
          },
          { node: ({ spot }) => <PrivacySample spot={spot} /> },
        ],
      },
    ],
  },
  {
    title: 'Footer',
    items: [
      text('footerText', 'Footer text', {
        shown: (c) => (c.whiteLabel ? c.v.footerText : ''),
        maxLength: FOOTER_TEXT_CHARS,
        disabled: (c) => !c.whiteLabel,
        placeholder: (c) => (c.whiteLabel ? 'Nothing: no line under the chat' : 'Chat by Parley'),
        hint: (c): ReactNode =>
          c.whiteLabel ? (
            `A line of your own under the chat, up to ${FOOTER_TEXT_CHARS} characters. Your plan shows no Parley link.`
          ) : (
            <>
              Your plan shows a small “Chat by Parley” link under the chat. <Link to="/account">Upgrade to white label</Link> to remove it
              or write your own line.
            </>
          ),
      }),
    ],
  },
  {
    title: 'Alignment',
    items: [
      {
        kind: 'radios',
        key: 'widgetAlignment',
        label: 'Where the widget sits',
        name: 'alignment',
        options: [
          { value: 'bottomRight', label: 'Bottom Right' },
          { value: 'bottomLeft', label: 'Bottom Left' },
        ],
      },
    ],
  },
];

/** A colour: a swatch that opens a picker, and the hex value to type. */
export function ColorField({ label, value, onChange }: { label: string; value: string; onChange: (hex: string) => void }) {
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
