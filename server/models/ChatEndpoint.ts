import { randomUUID } from 'node:crypto';
import type { Collection } from 'mongodb';
import { type Connection, type HydratedDocument, type Model, Schema, type SchemaDefinition, type Types } from 'mongoose';
import type { ChatEndpointRecord, ChatEndpointSettings, OperatingHour } from '../shared/types';
import { OWNER_TEXT_KEYS, type OwnerTextKey } from '../shared/widget-texts';
import { texts as englishTexts } from '../shared/widget-texts/en';

/** The stored widget: the fields its view shows (ChatEndpointRecord, in shared/) and what never leaves the server. */
export interface ChatEndpoint extends ChatEndpointRecord<Date> {
  accountId: Types.ObjectId;
  /** The user who created it. */
  userId: Types.ObjectId;
  operatingHours: Omit<OperatingHour, 'ceId'>[];
  /**
   * With the schedule on: whether the hours had the widget on at the last check of the schedule (null: not
   * checked since the hours, time zone or schedule switch last changed), so each ON or OFF time is announced once.
   */
  scheduleOpen: boolean | null;
  /**
   * The key of `userHash` (HMAC-SHA256 of a user id) for verified visitor identities; '' until an admin makes one.
   * Shown once to the admin who makes it (PUT /v1/chat_endpoints/{id}/identity_secret); no presenter, export or
   * log carries it.
   */
  identitySecret: string;
  createdAt: Date;
  updatedAt: Date;
}
export type ChatEndpointDocument = HydratedDocument<ChatEndpoint>;

/** The trigger set a new widget starts with: no triggers, at most one every 60 minutes, "contains" matching. */
export const DEFAULT_TRIGGER_JSON = JSON.stringify({ minDelay: 60, matchType: 'contains', triggers: [] });

/** What a new widget starts with: the texts and choices a site owner would pick if they did not care. */
/** The owner-editable texts' defaults: the built-in English wording, so an unchanged setting reads as not set. */
const OWNER_TEXT_DEFAULTS = Object.fromEntries(OWNER_TEXT_KEYS.map((key) => [key, englishTexts[key]])) as Pick<
  ChatEndpointSettings,
  OwnerTextKey
>;

export const CHAT_ENDPOINT_DEFAULTS: Omit<ChatEndpointSettings, 'operatingHours' | 'textOverrides' | 'tags'> = {
  // The texts a visitor reads: English stock wording, from the widget's own English texts (one source).
  ...OWNER_TEXT_DEFAULTS,
  tz: 'UTC',
  manualMode: false,
  hideWhenOffline: false,
  sendOfflineMessagesToEmail: true,
  includeVisitorInfoInEmails: true,
  sendOfflineMessagesToSlack: true,
  offlineMessageWebhookURL: '',
  requireInfo: false,
  sendOpJoinAutoResponse: false,
  opJoinAutoResponseMessage: '{name} has joined the conversation.',
  responseReminders: true,
  responseRemindersFreq: 120,
  responseRemindersMention: false,
  firstResponseTargetMins: 0,
  nextResponseTargetMins: 0,
  autoAssignOnReply: true,
  noAnswerMessageOn: true,
  noAnswerMessageAfterSecs: 120,
  maxVisitorInactiveMins: 5,
  emailUnseenAfterMinutes: 2,
  autoAnswerAfterSeconds: 45,
  newMsgNotifications: true,
  playSound: true,
  blacklistedUrls: '',
  countryAllowList: '',
  countryDenyList: '',
  maxConcurrentConvos: 0,
  notifyChannelOnMsg: false,
  metaInfoInMainChannel: 'compact',
  enableFileUploads: true,
  webhookUrl: '',
  webhookOnArchive: false,
  transcriptRecipient: '',
  emailOnArchive: false,
  newConversationWebhookURL: '',
  noAnswerWebhookUrl: '',
  feedbackWebhookUrl: '',
  segmentWriteKey: '',
  forwardSlackUserName: true,
  showAvatarPreChat: true,
  showTeamAvatarPreChat: false,
  teamAvatarOn: false,
  teamAvatarUrl: '',
  titleColor: '#2f6fed',
  titleFontColor: '#ffffff',
  collapsedMode: 'default',
  offlineEmailSubject: 'New message from your website',
  senderName: '',
  showConversationEnd: true,
  showConversationRating: true,
  clearMessagesOnEnd: false,
  showTranscriptSendOpt: true,
  // A visible send button helps everyone who does not guess that Enter sends.
  showSendBtnOnDesktop: true,
  footerText: '',
  collectVisitorMetaData: true,
  requireVerifiedIdentity: false,
  displayPrivacyPolicy: false,
  privacyPolicyLinkURL: '',
  requireAcceptance: false,
  widgetAlignment: 'bottomRight',
  onOffSchedule: false,
  sendOpHourChangeMessages: false,
  triggerJson: DEFAULT_TRIGGER_JSON,
};

type SettingPath = { type: StringConstructor | NumberConstructor | BooleanConstructor; default: unknown; enum?: string[] };

/** A mongoose path for each settings field, typed after its default. */
function settingsPaths(): Record<keyof typeof CHAT_ENDPOINT_DEFAULTS, SettingPath> {
  const enums: Record<string, string[]> = {
    collapsedMode: ['chip', 'button', 'tab', 'hidden', 'default'],
    metaInfoInMainChannel: ['compact', 'full', 'none'],
    widgetAlignment: ['bottomRight', 'bottomLeft'],
  };
  const paths: Record<string, SettingPath> = {};
  for (const [name, value] of Object.entries(CHAT_ENDPOINT_DEFAULTS)) {
    const type = typeof value === 'boolean' ? Boolean : typeof value === 'number' ? Number : String;
    paths[name] = { type, default: value, ...(enums[name] ? { enum: enums[name] } : {}) };
  }
  // Object.entries of CHAT_ENDPOINT_DEFAULTS: one path for each of its keys.
  return paths as Record<keyof typeof CHAT_ENDPOINT_DEFAULTS, SettingPath>;
}

const OperatingHourSchema = new Schema(
  {
    weekday: { type: Number, required: true, min: 0, max: 6 },
    start: { type: Number, required: true, min: 0, max: 2400 },
    end: { type: Number, required: true, min: 0, max: 2400 },
  },
  { _id: false },
);

const SlackRoomSchema = new Schema({ Id: String, Name: String, Topic: String }, { _id: false });

/**
 * Every stored field has a path here: a field added to ChatEndpoint, ChatEndpointRecord or the settings (through
 * CHAT_ENDPOINT_DEFAULTS) fails to compile until it does, and a path of no field fails too.
 */
const fields = {
  accountId: { type: Schema.Types.ObjectId, ref: 'Account', required: true, index: true },
  userId: { type: Schema.Types.ObjectId, ref: 'User', required: true },
  Uuid: { type: String, default: () => randomUUID(), unique: true },
  RoomId: { type: String, default: '' },
  RoomName: { type: String, default: '' },
  Step: { type: Number, default: 1, enum: [1, 2, 3] },
  slackBaseUrl: { type: String, default: '' },
  slackTeamId: { type: String, default: '' },
  slackMainUser: { type: String, default: '' },
  slackTeamName: { type: String, default: '' },
  slackMainUserName: { type: String, default: '' },
  installationRevoked: { type: Boolean, default: false },
  OauthV1: { type: Boolean, default: false },
  BotScope: { type: String, default: '' },
  Scope: { type: String, default: '' },
  requestChatWriteUserScope: { type: Boolean, default: false },
  topic: { type: String, default: '' },
  off: { type: Boolean, default: false },
  status: { type: String, enum: ['online', 'offline'], default: 'offline' },
  AvailableRooms: { type: [SlackRoomSchema], default: [] },
  operatingHours: { type: [OperatingHourSchema], default: [] },
  scheduleOpen: { type: Boolean, default: null },
  identitySecret: { type: String, default: '' },
  identitySecretCreatedAt: { type: Date, default: null },
  // Per language, per text (shared/widget-texts): checked by the settings schema before it is stored.
  textOverrides: { type: Schema.Types.Mixed, default: () => ({}) },
  // Checked by the settings schema (shared/tags.ts) before it is stored.
  tags: { type: [String], default: [] },
  ...settingsPaths(),
} satisfies Record<Exclude<keyof ChatEndpoint, 'createdAt' | 'updatedAt'>, unknown>;

// The settings' paths are typed after each default at runtime (String, Number or Boolean), which the compiler
// cannot follow key by key; `fields` itself is checked above.
export const ChatEndpointSchema = new Schema<ChatEndpoint>(fields as SchemaDefinition<ChatEndpoint>, { timestamps: true });

export type ChatEndpointModel = Model<ChatEndpoint>;

type StoredKey = Exclude<keyof ChatEndpoint, 'createdAt' | 'updatedAt'>;

/**
 * A reader of fields `keys` of the widget matching a filter, as plain data (no mongoose document is built: the
 * widget's settings are read on every page view of every site that embeds it). Each field the stored widget lacks (it
 * was stored before the field existed) gets its default from the schema above, as a document would read it. The
 * reader answers null when there is no such widget.
 */
export function leanWidget<K extends StoredKey>(
  keys: readonly K[],
): (model: ChatEndpointModel, filter: { Uuid: string }) => Promise<(Pick<ChatEndpoint, K> & { _id: Types.ObjectId }) | null> {
  const projection = Object.fromEntries(keys.map((key) => [key, 1]));
  return async (model, filter) => {
    // Straight to the driver: a filter of one string and a projection need none of mongoose's casting.
    const doc = await (model.collection as unknown as Collection<Record<string, unknown> & { _id: Types.ObjectId }>).findOne(filter, {
      projection,
    });
    if (!doc) return null;
    for (const key of keys) {
      if (doc[key] !== undefined) continue;
      const path = fields[key];
      const given: unknown = 'default' in path ? path.default : undefined;
      // A default given as a function (a new object each time) is called; a literal array is copied, not shared.
      const value = typeof given === 'function' ? (given as () => unknown)() : given;
      doc[key] = Array.isArray(value) ? [...value] : value;
    }
    // Each of `keys` is now what the stored widget holds, or the schema's default of it.
    return doc as unknown as Pick<ChatEndpoint, K> & { _id: Types.ObjectId };
  };
}

export function chatEndpointModel(connection: Connection): ChatEndpointModel {
  return (
    (connection.models.ChatEndpoint as ChatEndpointModel | undefined) ?? connection.model<ChatEndpoint>('ChatEndpoint', ChatEndpointSchema)
  );
}
