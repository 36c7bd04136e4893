// Plain data shapes of the Slack sandbox's state. Everything here is JSON-serialisable so the whole
// state can be written to the data file and read back after a restart.

export type Presence = 'active' | 'away';

export interface Workspace {
  id: string; // T…
  name: string;
  domain: string;
  /** Workspace URL as auth.test answers it (ends with a slash). */
  url: string;
  emailDomain?: string;
}

export interface SandboxUser {
  id: string; // U… (humans) or B-backed U… (bots)
  teamId: string;
  name: string; // handle, e.g. "alice"
  realName: string;
  displayName?: string;
  email?: string;
  title?: string;
  image?: string; // avatar URL
  isBot: boolean;
  /** For bot users: the bot id (B…) and the app that owns it. */
  botId?: string;
  appId?: string;
  isAdmin?: boolean;
  presence: Presence;
  tz?: string;
  deleted?: boolean;
}

export interface Channel {
  id: string; // C…
  teamId: string;
  name: string;
  created: number; // unix seconds
  creator: string;
  isArchived: boolean;
  isGeneral: boolean;
  isPrivate: boolean;
  members: string[];
  topic: { value: string; creator: string; last_set: number };
  purpose: { value: string; creator: string; last_set: number };
  previousNames: string[];
  /** A direct message between a person and the app (the app's Messages tab): id D…, kept out of channel lists. */
  isIm?: boolean;
}

export interface MessageFileRef {
  id: string;
}

export interface Message {
  channel: string;
  ts: string;
  teamId: string;
  /** Author: a human user id, or the bot user id for app posts. */
  user: string;
  botId?: string;
  appId?: string;
  text: string;
  blocks?: unknown[];
  attachments?: unknown[];
  threadTs?: string;
  replyBroadcast?: boolean;
  username?: string;
  iconUrl?: string;
  iconEmoji?: string;
  metadata?: unknown;
  files?: string[];
  edited?: { user: string; ts: string };
  /** Emoji reactions in the order first added, each with who added it (reactions.add). */
  reactions?: { name: string; users: string[] }[];
  /** A deleted thread parent with replies stays as a tombstone, as in Slack. */
  tombstone?: boolean;
  clientMsgId?: string;
}

export interface EphemeralMessage {
  id: string;
  teamId: string;
  channel: string;
  user: string; // recipient
  text: string;
  blocks?: unknown[];
  threadTs?: string;
  messageTs: string;
  from: 'chat.postEphemeral' | 'response_url' | 'ack';
  at: number;
}

export interface SandboxFile {
  id: string; // F…
  teamId: string;
  user: string;
  name: string;
  title: string;
  mimetype: string;
  filetype: string;
  size: number;
  created: number;
  /** Base64 of the bytes; small files only, it's a sandbox. */
  contentBase64?: string;
  /** True once bytes were received on the upload URL. */
  uploaded: boolean;
  completed: boolean;
  altText?: string;
  channels: string[];
  uploadToken: string;
  /** Declared length from files.getUploadURLExternal. */
  declaredLength: number;
}

export interface SandboxView {
  id: string; // V…
  teamId: string;
  user: string;
  type: 'modal' | 'home';
  /** The view definition as the app sent it (title, blocks, submit, callback_id, private_metadata …). */
  definition: Record<string, unknown>;
  hash: string;
  rootViewId: string;
  previousViewId: string | null;
  externalId: string;
  /** Values typed in the modal, in Slack's `state.values` shape. */
  values: Record<string, Record<string, Record<string, unknown>>>;
  /** Field errors returned by the app with response_action: errors. */
  errors?: Record<string, string>;
  open: boolean;
}

export interface Installation {
  teamId: string;
  botUserId: string;
  botId: string;
  botToken: string;
  botScopes: string[];
  installerUserId: string;
  /** User tokens by Slack user id, each with its own scopes. */
  userTokens: Record<string, { token: string; scopes: string[] }>;
  installedAt: number;
}

export interface RevokedToken {
  token: string;
  teamId: string;
  at: number;
}

export interface OAuthCode {
  code: string;
  teamId: string;
  userId: string;
  clientId: string;
  botScopes: string[];
  userScopes: string[];
  redirectUri?: string;
  expiresAt: number;
  used: boolean;
}

export interface ApiCall {
  method: string;
  teamId?: string;
  tokenType?: 'bot' | 'user';
  /** Arguments as received, with the token removed. */
  args: Record<string, unknown>;
  ok: boolean;
  error?: string;
  status: number;
  /** Carried out, but the answer was lost on the way back (state.dropResponses): how the connection ended. */
  dropped?: 'reset' | 'hang';
  at: number;
}

export interface ResponseUrlPost {
  id: string;
  teamId: string;
  channel?: string;
  user: string;
  body: Record<string, unknown>;
  at: number;
}

export interface DeliveryAttempt {
  /** Value of x-slack-retry-num sent with this attempt (0: first delivery, no header). */
  retryNum: number;
  /** Value of x-slack-retry-reason sent with this attempt. */
  retryReason?: string;
  /** Why this attempt failed, in Slack's words: http_timeout, http_error, connection_failed, too_many_redirects. */
  failure?: string;
  status?: number;
  error?: string;
  body?: string;
  at: number;
}

export interface DeliveryRecord {
  id: string;
  kind: 'event' | 'url_verification' | 'slash_command' | 'interactivity';
  teamId?: string;
  /** For events: the event_id of the envelope. */
  eventId?: string;
  url: string;
  summary: string;
  attempts: DeliveryAttempt[];
  ok: boolean;
}

export interface SandboxData {
  workspaces: Workspace[];
  users: SandboxUser[];
  channels: Channel[];
  messages: Message[];
  ephemerals: EphemeralMessage[];
  files: SandboxFile[];
  views: SandboxView[];
  installations: Installation[];
  revokedTokens: RevokedToken[];
  responses: ResponseUrlPost[];
  counter: number;
  /** Who joined which channel when, shown as Slack's "joined #channel" lines on the operator page. */
  joins?: ChannelJoin[];
  /** Event retries waiting for their time, kept so they survive a restart (absent in older data files). */
  pendingRetries?: PendingRetry[];
}

export interface ChannelJoin {
  channel: string;
  user: string;
  /** Slack ts of the join */
  ts: string;
}

/** An event delivery that failed and is due again at `dueAt`, as retry `retryNum`. */
export interface PendingRetry {
  eventId: string;
  teamId: string;
  summary: string;
  body: string;
  retryNum: number;
  reason: string;
  /** ms since the epoch */
  dueAt: number;
  /** Retries left after this one. */
  retriesLeft: number;
}

/** The seed: what a fresh sandbox contains. Channel members and ids are optional; ids are generated when absent. */
export interface SandboxSeed {
  workspaces: Array<{
    id?: string;
    name: string;
    domain: string;
    url?: string;
    users: Array<{
      id?: string;
      name: string;
      realName: string;
      email?: string;
      title?: string;
      image?: string;
      isBot?: boolean;
      isAdmin?: boolean;
      presence?: Presence;
    }>;
    channels: Array<{
      id?: string;
      name: string;
      topic?: string;
      purpose?: string;
      isGeneral?: boolean;
      isArchived?: boolean;
      /** User names (handles) or ids; default: every human. */
      members?: string[];
    }>;
  }>;
}
