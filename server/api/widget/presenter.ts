/**
 * What a visitor's browser may know about a widget: texts, colours, behaviour switches. Listed field by field so
 * nothing else (Slack ids, tokens, operator e-mails, webhook URLs, billing) can leave by accident.
 */
import type { ChatEndpoint } from '../../models/ChatEndpoint';

const VISIBLE = [
  'titleColor',
  'titleFontColor',
  'onlineTitle',
  'collapsedMode',
  'widgetAlignment',
  'browserSideAuthorLabel',
  'autoResponseMessage',
  'onlineMessagePlaceholder',
  'noAnswerMessageOn',
  'noAnswerMessageAfterSecs',
  'noAnswerWithoutEmail',
  'noAnswerWithEmail',
  'offlineTitle',
  'offlineGreeting',
  'offlineEmailPlaceholder',
  'offlineMessagePlaceholder',
  'offlineNamePlaceholder',
  'offlineSendButton',
  'offlineThankYouMessage',
  'showConversationEnd',
  'conversationEndMenuLinkLabel',
  'conversationEndConfirmationQuestion',
  'conversationEndLabel',
  'showConversationRating',
  'conversationRatingLabel',
  'conversationRatingThankYou',
  'conversationRatingPlaceholder',
  'clearMessagesOnEnd',
  'showTranscriptSendOpt',
  'conversationEndTranscriptPlaceholder',
  'conversationTranscriptSentThankYou',
  'requestScreenshotText',
  'requestScreenshotAllowLabel',
  'requestScreenshotDeclineLabel',
  'requireInfo',
  'requireInfoGreeting',
  'requireInfoSubmitBtn',
  'defaultCancelBtnLabel',
  'defaultSendBtnLabel',
  'showSendBtnOnDesktop',
  'defaultYesBtnLabel',
  'defaultNoBtnLabel',
  'collectVisitorMetaData',
  'displayPrivacyPolicy',
  'privacyPolicyLinkText',
  'privacyPolicyLinkURL',
  'requireAcceptance',
  'defaultAcceptBtnLabel',
  'acceptanceText',
  'agentLabel',
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
] as const satisfies readonly (keyof ChatEndpoint)[];

export type PublicWidgetSettings = Pick<ChatEndpoint, (typeof VISIBLE)[number]> & {
  triggers: { minDelay: number; triggers: { uid: string; message: string; after: number; on: string[]; matchType: string; displayStyle: string }[] };
};

type TriggerJson = { minDelay?: unknown; matchType?: unknown; triggers?: unknown };
type RawTrigger = { uid?: unknown; message?: unknown; after?: unknown; on?: unknown; matchType?: unknown; exact?: unknown; enabled?: unknown; displayStyle?: unknown };

/** The enabled triggers of a widget, normalised (legacy `exact: true` reads as matchType exact). */
export function publicTriggers(triggerJson: string): PublicWidgetSettings['triggers'] {
  let parsed: TriggerJson = {};
  try {
    parsed = JSON.parse(triggerJson || '{}') as TriggerJson;
  } catch {
    parsed = {};
  }
  const defaultMatch = typeof parsed.matchType === 'string' ? parsed.matchType : 'contains';
  const list = Array.isArray(parsed.triggers) ? (parsed.triggers as RawTrigger[]) : [];
  return {
    minDelay: typeof parsed.minDelay === 'number' ? parsed.minDelay : 60,
    triggers: list
      .filter((t) => t && t.enabled === true && typeof t.message === 'string' && t.message !== '')
      .map((t) => ({
        uid: typeof t.uid === 'string' ? t.uid : '',
        message: String(t.message),
        after: typeof t.after === 'number' ? t.after : Number(t.after) || 0,
        on: Array.isArray(t.on) ? t.on.filter((p): p is string => typeof p === 'string') : [],
        matchType: t.exact === true ? 'exact' : typeof t.matchType === 'string' ? t.matchType : defaultMatch,
        displayStyle: typeof t.displayStyle === 'string' ? t.displayStyle : 'peek',
      })),
  };
}

export function publicSettings(ce: ChatEndpoint): PublicWidgetSettings {
  const out: Record<string, unknown> = {};
  for (const key of VISIBLE) out[key] = ce[key];
  return { ...(out as Pick<ChatEndpoint, (typeof VISIBLE)[number]>), triggers: publicTriggers(ce.triggerJson) };
}
