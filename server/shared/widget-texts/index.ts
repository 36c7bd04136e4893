/**
 * The widget's texts in the visitor's language. Each language is one file here (en.ts, de.ts, …) holding every
 * text the visitor reads: the owner-editable texts (the Appearance settings, stock wording) and the widget's own
 * (buttons, labels, error lines). Types and pure rules only in this file, so the console and the widget bundles
 * import it without pulling any language in; the server loads them all (all.ts), the console one at a time.
 *
 * Which text a visitor sees, per key: the owner's override for the visitor's language (`textOverrides`), else
 * the owner's own text for all languages (an Appearance setting changed from its stock English), else the
 * built-in translation.
 */
import type { WidgetErrorCode } from '../widget-constants';

/** The languages with built-in texts; the first is the fallback. BCP 47 tags, as the locale matcher answers them. */
export const WIDGET_LOCALES = ['en', 'es', 'fr', 'de', 'pt', 'it', 'nl', 'ja', 'zh-Hans', 'ar', 'he'] as const;
export type WidgetLocale = (typeof WIDGET_LOCALES)[number];
export const DEFAULT_WIDGET_LOCALE: WidgetLocale = 'en';

/** Each language's name in itself, for the Appearance language selector. */
export const LOCALE_NAMES: Record<WidgetLocale, string> = {
  en: 'English',
  es: 'Español',
  fr: 'Français',
  de: 'Deutsch',
  pt: 'Português',
  it: 'Italiano',
  nl: 'Nederlands',
  ja: '日本語',
  'zh-Hans': '简体中文',
  ar: 'العربية',
  he: 'עברית',
};

const RTL = new Set<string>(['ar', 'he']);
export const directionOf = (locale: string): 'rtl' | 'ltr' => (RTL.has(locale) ? 'rtl' : 'ltr');

export const isWidgetLocale = (value: string): value is WidgetLocale => (WIDGET_LOCALES as readonly string[]).includes(value);

/** The Appearance texts an owner may override per language (settings keys the widget shows). */
export const OWNER_TEXT_KEYS = [
  'onlineTitle',
  'browserSideAuthorLabel',
  'autoResponseMessage',
  'onlineMessagePlaceholder',
  'noAnswerWithoutEmail',
  'noAnswerWithEmail',
  'offlineTitle',
  'offlineGreeting',
  'offlineEmailPlaceholder',
  'offlineMessagePlaceholder',
  'offlineNamePlaceholder',
  'offlineSendButton',
  'offlineThankYouMessage',
  'conversationEndMenuLinkLabel',
  'conversationEndConfirmationQuestion',
  'conversationEndLabel',
  'conversationRatingLabel',
  'conversationRatingThankYou',
  'conversationRatingPlaceholder',
  'conversationEndTranscriptPlaceholder',
  'conversationTranscriptSentThankYou',
  'requestScreenshotText',
  'requestScreenshotAllowLabel',
  'requestScreenshotDeclineLabel',
  'requireInfoGreeting',
  'requireInfoSubmitBtn',
  'defaultCancelBtnLabel',
  'defaultSendBtnLabel',
  'defaultYesBtnLabel',
  'defaultNoBtnLabel',
  'privacyPolicyLinkText',
  'defaultAcceptBtnLabel',
  'acceptanceText',
  'agentLabel',
] as const;
export type OwnerTextKey = (typeof OWNER_TEXT_KEYS)[number];
export const isOwnerTextKey = (value: string): value is OwnerTextKey => (OWNER_TEXT_KEYS as readonly string[]).includes(value);

/** What an owner stored: per language, per text, their wording. Absent or empty: not overridden. */
export type TextOverrides = Partial<Record<WidgetLocale, Partial<Record<OwnerTextKey, string>>>>;
/** Longest override text; the titles keep their own limit (TITLE_MAX_CHARS). */
export const OVERRIDE_MAX_CHARS = 4000;

/**
 * The widget's own texts. `{agent}`, `{name}` and `{size}` are filled in by the widget (fill()).
 */
export type UiTexts = {
  closeChat: string;
  dismiss: string;
  chatOptions: string;
  minimise: string;
  reconnecting: string;
  /** The header's status line: "{agent} · online". */
  online: string;
  away: string;
  /** The message placeholder on phones, when the owner's names the Enter key (phones send with the button). */
  phonePlaceholder: string;
  emptyChat: string;
  messages: string;
  message: string;
  attach: string;
  send: string;
  sending: string;
  retry: string;
  tooLong: string;
  notSent: string;
  edited: string;
  typing: string;
  good: string;
  bad: string;
  feedback: string;
  name: string;
  email: string;
  emailExample: string;
  askEmail: string;
  /** A mail's "Continue the chat" link that did not open its conversation here: why a new chat starts. */
  resumeExpired: string;
  resumeInvalid: string;
  resumeSignIn: string;
  fileTooBig: string;
  uploading: string;
  uploadFailed: string;
  offlineFailed: string;
  genericError: string;
  /** Help-center articles suggested above the composer, as announced: one, or `{count}`. */
  suggestionsOne: string;
  suggestions: string;
  back: string;
  /** Under an article opened in the panel: back to the composer, the visitor's text kept. */
  stillNeedHelp: string;
  /** The link to the article's public page. */
  fullArticle: string;
  articleFailed: string;
  /** An automatic answer's author, and its card's first line. */
  automaticAnswer: string;
  autoAnswerIntro: string;
  didThisAnswer: string;
  yes: string;
  needPerson: string;
  gladItHelped: string;
  personWillAnswer: string;
  /** The panel's footer link on plans without white label. */
  poweredBy: string;
  /** The launcher's unread count for screen readers, one and several ({count}). */
  unreadOne: string;
  unreadMany: string;
  /** The screenshot flow's own lines (its question and buttons are the owner's texts). */
  shotTaking: string;
  shotPreview: string;
  /** The preview's send button: named for what it sends, unlike the message box's Send beside it. */
  shotSend: string;
  shotAlt: string;
  shotDeclined: string;
  shotNotSent: string;
  shotUnsupported: string;
  /** The line in the chat when the first operator answers, unless the owner wrote their own ({name}). */
  operatorJoined: string;
  errors: Record<WidgetErrorCode, string>;
};

/** One language's file. */
export type WidgetTexts = Record<OwnerTextKey, string> & { ui: UiTexts };

/** `{name}` placeholders filled from `values`. */
export function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}

/**
 * The texts a visitor of `locale` sees, per owner key: the override, else the owner's own text when it is no
 * longer the stock English one (`stock`), else the built-in translation.
 */
export function localizedOwnerTexts(
  settings: Partial<Record<OwnerTextKey, string>>,
  overrides: TextOverrides | undefined,
  locale: WidgetLocale,
  builtIn: WidgetTexts,
  stock: WidgetTexts,
): Record<OwnerTextKey, string> {
  const out = {} as Record<OwnerTextKey, string>;
  const mine = overrides?.[locale];
  for (const key of OWNER_TEXT_KEYS) {
    const override = mine?.[key];
    const own = settings[key];
    out[key] = override ? override : typeof own === 'string' && own !== stock[key] ? own : builtIn[key];
  }
  return out;
}
