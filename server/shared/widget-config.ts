/**
 * What a visitor's browser may know about a widget (GET /widget/api/{uuid}/config): the one list of visible
 * settings, used by the server's presenter to pick them and by the widget for its types. Nothing else (Slack ids,
 * tokens, operator e-mails, webhook URLs, billing) can leave, because the presenter copies only these keys.
 */
import type { ChatEndpointSettings } from './types';
import { OWNER_TEXT_KEYS, type UiTexts, type WidgetLocale } from './widget-texts';

/** The visible settings that are no text of the visitor's language (colours, switches, numbers, addresses). */
const VISITOR_OPTION_KEYS = [
  'titleColor',
  'titleFontColor',
  'collapsedMode',
  'widgetAlignment',
  'noAnswerMessageOn',
  'noAnswerMessageAfterSecs',
  'showConversationEnd',
  'showConversationRating',
  'clearMessagesOnEnd',
  'showTranscriptSendOpt',
  'requireInfo',
  'showSendBtnOnDesktop',
  'footerText',
  'collectVisitorMetaData',
  'displayPrivacyPolicy',
  'privacyPolicyLinkURL',
  'requireAcceptance',
  'forwardSlackUserName',
  'showAvatarPreChat',
  'showTeamAvatarPreChat',
  'teamAvatarOn',
  'teamAvatarUrl',
  'enableFileUploads',
  'newMsgNotifications',
  'playSound',
  'blacklistedUrls',
  'hideWhenOffline',
] as const satisfies readonly (keyof ChatEndpointSettings)[];

/** Every visible setting: the texts an owner may write per language (OWNER_TEXT_KEYS, their one list) and the options. */
export const VISITOR_SETTING_KEYS = [...OWNER_TEXT_KEYS, ...VISITOR_OPTION_KEYS] as const satisfies readonly (keyof ChatEndpointSettings)[];

export type PublicTrigger = { uid: string; message: string; after: number; on: string[]; matchType: string; displayStyle: string };

export type PublicWidgetSettings = Pick<ChatEndpointSettings, (typeof VISITOR_SETTING_KEYS)[number]> & {
  /** Enabled proactive triggers; minDelay in minutes between two shown to the same visitor. */
  triggers: { minDelay: number; triggers: PublicTrigger[] };
};

/** The answer of GET /widget/api/{uuid}/config. */
export type PublicWidgetConfig = {
  widgetId: string;
  allowed: boolean;
  online: boolean;
  hideWhenOffline: boolean;
  /**
   * Where the panel's "Chat by Parley" footer link goes (Parley's site, with the widget as referral), on plans
   * without white label; null on plans with it, whose footer is the owner's footerText (or nothing).
   */
  poweredBy: string | null;
  wsUrl: string;
  /** The language picked from the visitor's browser languages; `settings` has its texts in it. */
  locale: WidgetLocale;
  dir: 'ltr' | 'rtl';
  /** The widget's own texts (buttons, labels, errors) in that language: the only language loaded. */
  texts: UiTexts;
  settings: PublicWidgetSettings;
};
