/**
 * Shapes of what the API answers, as the console receives them. Field names follow the specification
 * as-is (Id, Uuid, RoomName, ActiveTOSPP ...). Ids are 24-character hexadecimal strings whose
 * string order is their creation order, so "the lowest Id" is the first created.
 */

import type { PlanDuration, PlanFeature } from './constants';
import type { TextOverrides } from './widget-texts';

export type PlanView = {
  label: string;
  /** Cents; null for a custom plan ("Contact us!"). */
  price: number | null;
  duration: PlanDuration;
  stripeId: string;
  /** 0 means unlimited. */
  maxOperators: number;
  maxChannels: number;
  convosPerMonth: number;
} & Record<PlanFeature, boolean>;

/** Billing state of an account (spec section 4); delinquent is a separate flag. */
export type AccountState = 'trialing' | 'trial_expired' | 'paying' | 'canceled';

/**
 * What an account stores and its view shows as it is: written once, so a field added here is in the mongoose model
 * (`server/models/Account.ts`, where the schema must list it) and in the API's AccountView. `D` is how a moment
 * travels: a Date in the database, an ISO string in the view.
 */
export type AccountRecord<D> = {
  /** 'none' means no payment method on file. */
  paymentType: string;
  trialEndAt: D | null;
  cancelAt: D | null;
  canceledAt: D | null;
  nextInvoiceAt: D | null;
  delinquent: boolean;
  quota: { isOverquota: boolean; reason: string };
  orgName: string;
  /** Invoice e-mail. */
  email: string;
  billingAddressLine1: string;
  billingCity: string;
  billingState: string;
  billingPostalCode: string;
  billingCountry: string;
  taxID: string;
  last4: string;
  brand: string;
  expMonth: number | null;
  expYear: number | null;
  GDPRExportSignedURL: string;
  /** Conversations older than this many days are deleted by the daily retention job; null keeps them all. */
  retentionDays: number | null;
};

export type AccountView = AccountRecord<string> & {
  Id: string;
  /** Computed on the server from what Stripe last reported. */
  state: AccountState;
  /** A card saved during the trial: when Stripe first charges it (the trial's end). null otherwise. */
  firstChargeAt: string | null;
  /** The plan the account is billed for (or, in the trial, will be at its end). */
  plan: PlanView;
  /**
   * The plan whose features and limits apply now: during the trial the top self-serve plan (Business), whatever
   * `plan` is; afterwards `plan`. Gates and limits follow this one.
   */
  effectivePlan: PlanView;
  /** The trial's features the trial's end switched off on `plan` ('reports', 'question groups' ...); their settings are kept. */
  switchedOff: string[];
  /** The trial's limits `plan` lowers, as `plan` has them ('3 operators a month', '1 channel', '300 conversations a month'). */
  lowerLimits: string[];
  availablePlans: PlanView[];
  created_at: string;
  /** Empty for non-admin users. */
  apiKey: string;
  /** Empty for non-admin users. */
  zapierApiKey: string;
};

export type OperatingHour = {
  /** 0 = Sunday .. 6 */
  weekday: number;
  ceId: string;
  /** HHMM, e.g. 930 */
  start: number;
  end: number;
};

export type SlackRoom = { Id: string; Name: string; Topic: string };

export type SlackScopeRef = { scope: string; type: 'bot' | 'user' };

/** GET /chat_endpoints/{id}/permissions, computed on the server from the stored installation. */
export type PermissionsView = {
  step: number;
  mainUserSet: boolean;
  oauthV1: boolean;
  scopes: (SlackScopeRef & { granted: boolean })[];
  missing: SlackScopeRef[];
  allGood: boolean;
  /** Slack authorisation link asking for what is missing ('' when the widget has no Slack team). */
  upgradeUrl: string;
  /** One link per missing scope, present when more than one scope is missing. */
  selective: (SlackScopeRef & { url: string })[];
};

export type ChatStats = {
  last24h: number;
  total: number;
  avg30d: number;
  /** Oldest first, one entry per day of the 30-day window. */
  dailyCounts30d: { date: string; chats: number }[];
};

export type CollapsedMode = 'chip' | 'button' | 'tab' | 'hidden' | 'default';
export type MetaInfoMode = 'compact' | 'full' | 'none';
export type WidgetAlignment = 'bottomRight' | 'bottomLeft';

/** The per-channel settings a user edits (second specification document). */
export type ChatEndpointSettings = {
  tz: string;
  // Behavior
  manualMode: boolean;
  hideWhenOffline: boolean;
  sendOfflineMessagesToEmail: boolean;
  includeVisitorInfoInEmails: boolean;
  sendOfflineMessagesToSlack: boolean;
  offlineMessageWebhookURL: string;
  requireInfo: boolean;
  sendOpJoinAutoResponse: boolean;
  opJoinAutoResponseMessage: string;
  responseReminders: boolean;
  /** Seconds: 30, 60, 90 or 120, the pace of a wait's reminders (RESPONSE_REMINDER_STEPS in shared/settings.ts). */
  responseRemindersFreq: number;
  /** Reminders mention @here in the channel (off by default: they are thread replies only). */
  responseRemindersMention: boolean;
  /**
   * Minutes of business time (operating hours only, when the widget follows a schedule) the team has for a
   * conversation's first answer, and for an answer after the visitor wrote again; 0: no target (shared/tags.ts).
   */
  firstResponseTargetMins: number;
  nextResponseTargetMins: number;
  /** The first operator who replies in a conversation nobody has gets it assigned (on by default). */
  autoAssignOnReply: boolean;
  noAnswerMessageOn: boolean;
  /** Seconds: 30, 60, 90, 120, 180, 240 or 300. */
  noAnswerMessageAfterSecs: number;
  /** Minutes: 0, 1, 2, 3, 4, 5, 10 or 15. */
  maxVisitorInactiveMins: number;
  /** Minutes: operator replies the visitor has not seen by then are mailed to them; 0 = off (0, 1, 2, 5, 10, 15, 30 or 60). */
  emailUnseenAfterMinutes: number;
  /**
   * Seconds: a new conversation nobody answered by then (at once when the widget went offline) gets an automatic
   * answer with matching help-center articles; 0 = off (0–3600).
   */
  autoAnswerAfterSeconds: number;
  newMsgNotifications: boolean;
  playSound: boolean;
  /** Regular expressions separated by whitespace or commas. */
  blacklistedUrls: string;
  /** ISO 2-letter codes separated by commas; blank means everywhere. */
  countryAllowList: string;
  countryDenyList: string;
  /** 0 means unlimited. */
  maxConcurrentConvos: number;
  notifyChannelOnMsg: boolean;
  metaInfoInMainChannel: MetaInfoMode;
  enableFileUploads: boolean;
  agentLabel: string;
  // Transcripts and webhooks
  webhookUrl: string;
  webhookOnArchive: boolean;
  transcriptRecipient: string;
  emailOnArchive: boolean;
  newConversationWebhookURL: string;
  noAnswerWebhookUrl: string;
  feedbackWebhookUrl: string;
  segmentWriteKey: string;
  // Avatar
  forwardSlackUserName: boolean;
  showAvatarPreChat: boolean;
  showTeamAvatarPreChat: boolean;
  teamAvatarOn: boolean;
  teamAvatarUrl: string;
  // Appearance
  titleColor: string;
  titleFontColor: string;
  onlineTitle: string;
  collapsedMode: CollapsedMode;
  browserSideAuthorLabel: string;
  autoResponseMessage: string;
  onlineMessagePlaceholder: string;
  noAnswerWithoutEmail: string;
  noAnswerWithEmail: string;
  offlineTitle: string;
  offlineGreeting: string;
  offlineEmailPlaceholder: string;
  offlineMessagePlaceholder: string;
  offlineNamePlaceholder: string;
  offlineSendButton: string;
  offlineThankYouMessage: string;
  offlineEmailSubject: string;
  /** The name visitors' mails come from (and Reply-To's name); empty: the widget's title in the visitor's language. */
  senderName: string;
  // Chat end
  showConversationEnd: boolean;
  conversationEndMenuLinkLabel: string;
  conversationEndConfirmationQuestion: string;
  conversationEndLabel: string;
  showConversationRating: boolean;
  conversationRatingLabel: string;
  conversationRatingThankYou: string;
  conversationRatingPlaceholder: string;
  clearMessagesOnEnd: boolean;
  showTranscriptSendOpt: boolean;
  conversationEndTranscriptPlaceholder: string;
  conversationTranscriptSentThankYou: string;
  // Other texts
  requestScreenshotText: string;
  requestScreenshotAllowLabel: string;
  requestScreenshotDeclineLabel: string;
  requireInfoGreeting: string;
  requireInfoSubmitBtn: string;
  defaultCancelBtnLabel: string;
  defaultSendBtnLabel: string;
  showSendBtnOnDesktop: boolean;
  defaultYesBtnLabel: string;
  defaultNoBtnLabel: string;
  /** The panel's footer line instead of "Chat by Parley": plans with white label only. */
  footerText: string;
  // Privacy and alignment
  collectVisitorMetaData: boolean;
  /** An identity from `parley.identify` without a valid userHash is dropped (the widget is told so) instead of kept as a label. */
  requireVerifiedIdentity: boolean;
  displayPrivacyPolicy: boolean;
  privacyPolicyLinkText: string;
  privacyPolicyLinkURL: string;
  requireAcceptance: boolean;
  defaultAcceptBtnLabel: string;
  acceptanceText: string;
  widgetAlignment: WidgetAlignment;
  // Schedule and triggers
  operatingHours: OperatingHour[];
  onOffSchedule: boolean;
  sendOpHourChangeMessages: boolean;
  /** JSON text of { minDelay, matchType, triggers }. */
  triggerJson: string;
  /** The owner's texts per language (Appearance's language selector); see shared/widget-texts. */
  textOverrides: TextOverrides;
  /** The tags operators may put on conversations (normalized, at most TAGS_MAX; shared/tags.ts). */
  tags: string[];
};

/**
 * What a widget stores and its view shows as it is, besides the settings: written once, so a field added here is in
 * the mongoose model (`server/models/ChatEndpoint.ts`, whose schema must list it) and in the API's ChatEndpointView.
 * `D` is how a moment travels: a Date in the database, an ISO string in the view. Operating hours differ (the view
 * names the widget in each entry), so each side adds its own.
 */
export type ChatEndpointRecord<D> = Omit<ChatEndpointSettings, 'operatingHours'> & {
  /** Widget id used in embed snippets. */
  Uuid: string;
  RoomId: string;
  RoomName: string;
  /** 1 not authorised with Slack, 2 channel not chosen, 3 connected. */
  Step: number;
  slackBaseUrl: string;
  slackTeamId: string;
  slackMainUser: string;
  /** Name of the Slack team and of its main user, as Slack gave them at install or swap (kept, so the dashboard needs no Slack call). */
  slackTeamName: string;
  slackMainUserName: string;
  /** The app was uninstalled from the team or its token revoked: the widget is offline until re-authorised. */
  installationRevoked: boolean;
  OauthV1: boolean;
  /** Comma-separated scope lists. */
  BotScope: string;
  Scope: string;
  requestChatWriteUserScope: boolean;
  topic: string;
  off: boolean;
  status: 'online' | 'offline';
  AvailableRooms: SlackRoom[];
  /** When the widget's identity secret was made, null when it has none; the secret itself never leaves. */
  identitySecretCreatedAt: D | null;
};

/** A chat endpoint (widget) as the API presents it. */
export type ChatEndpointView = ChatEndpointRecord<string> & {
  Id: string;
  operatingHours: OperatingHour[];
  /** What visitors get now, as presence decides it (off, setup, billing, operating hours, manual mode, Slack activity). */
  online: boolean;
};

/** An item of GET /v1/users/current/chat_endpoints. */
export type ChatEndpointWithStats = ChatEndpointView & { chatStats: ChatStats };

/** GET /v1/users/current */
export type CurrentUser = {
  Id: string;
  email: string;
  admin: boolean;
  accountId: string;
  /** Accepted terms version; '' when never accepted. */
  ActiveTOSPP: string;
  showNPSRating: boolean;
  /** ISO date; NEVER_SIGNED_IN for invited users who never signed in. */
  lastSignedInAt: string;
  account: AccountView;
  ces: ChatEndpointView[];
};

/** An item of GET /v1/accounts/{id}/invoices, newest first. */
export type InvoiceView = {
  id: string;
  /** The plan billed; '' for a single charge. */
  stripePlanId: string;
  /** Seconds since the epoch. */
  dateTs: number;
  /** Cents. */
  amount: number;
  /** The hosted invoice page. */
  stripeInvoiceUrl: string;
};

/** GET /v1/accounts/{id}/next-invoice: the upcoming charge, or null when nothing is due. */
export type NextInvoiceView = { amount: number; dateTs: number } | null;

/** Why the payment portal is opened: its home page, or straight to cancelling the subscription. */
export type PortalReason = 'home' | 'subscription_cancel';

/** PUT /v1/accounts/{id}: the Account Info form, saved to Parley and to the Stripe customer. */
export type AccountInfoPayload = Pick<
  AccountView,
  'orgName' | 'email' | 'billingAddressLine1' | 'billingCity' | 'billingState' | 'billingPostalCode' | 'billingCountry' | 'taxID'
>;

/** GET /v1/support: Parley's own chat widget for the Support page, and the phone line of plans with phone support. */
export type SupportView = {
  /** The public id of the widget to embed; null: the page offers the docs and a mail link only. */
  widgetId: string | null;
  /**
   * The signed-in user's userHash under the support widget's identity secret, so the team's chat knows them as
   * verified (on every browser); null when that widget has no secret.
   */
  userHash: string | null;
  /** Shown on the Support page and the Account screen; null unless the plan has phone support. */
  phone: string | null;
};
