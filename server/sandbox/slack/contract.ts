/** What the Slack sandbox offers the app and the specs: its options and its face (createSlackSandbox in index.ts). */
import type { Router } from 'express';
import type { DeliveryResult } from './sender';
import type { SandboxState } from './state';
import type { Installation, Message, SandboxSeed } from './types';

/** A shortcut declared in the app's manifest, offered by the operator page. */
export interface ShortcutDefinition {
  type: 'message' | 'global';
  callbackId: string;
  name: string;
}

export interface SlackSandboxOptions {
  /** Public URL where the router is mounted, e.g. http://localhost:3000/sandbox/slack (no trailing slash). */
  baseUrl: string;
  app: {
    clientId: string;
    clientSecret: string;
    signingSecret: string;
    appId?: string;
    /** Display name of the app and its bot user (default "Parley"). */
    name?: string;
    /** The legacy verification token put in payloads (generated when absent). */
    verificationToken?: string;
    eventsUrl: string;
    interactivityUrl: string;
    /** All slash commands go here, like Bolt's default /slack/events. */
    commandsUrl: string;
    /** The app's configured OAuth redirect URLs; when given, redirect_uri must match one. */
    redirectUrls?: string[];
    /** Shortcuts from the manifest, so the operator page can offer them. */
    shortcuts?: ShortcutDefinition[];
    /** Slash commands from the manifest, shown as hints on the operator page (default ['/parley']). */
    commands?: string[];
    /**
     * Bot events the app subscribes to, as in the manifest (e.g. 'message.channels', 'app_home_opened').
     * When given, automatic events outside the list are not sent, as at Slack; default: every event.
     */
    events?: string[];
  };
  /** Seed object or path of a JSON seed file; default: the Acme workspace. Ignored when `dataFile` exists. */
  seed?: SandboxSeed | string;
  /** Persist state to this JSON file so a restart keeps threads. */
  dataFile?: string;
  /** Delays before event retries 1..3 (default Slack's: 1 s, 1 min, 5 min). */
  retryDelaysMs?: number[];
  /** How long the app has to answer a request (default 3000 ms, as at Slack). */
  ackTimeoutMs?: number;
  /** How long a trigger_id stays valid (default 3000 ms, as at Slack). */
  triggerTtlMs?: number;
  /** How long an OAuth code stays valid (default 10 minutes, as at Slack). */
  codeTtlMs?: number;
  /** Send Events API events for changes (messages, joins, renames …) automatically (default true). */
  autoEvents?: boolean;
  /**
   * 'slack' enforces Slack's rate limits (tiers per workspace and method, chat.postMessage about 1/s per channel
   * with short bursts), answering 429 with Retry-After; 'off' (default) limits only what state.rateLimit asks.
   */
  rateLimits?: 'off' | 'slack';
}

export interface BlockActionInput {
  teamId: string;
  userId: string;
  actionId: string;
  /** Block holding the element; found from the blocks when omitted. */
  blockId?: string;
  /** For selects, radio buttons, checkboxes (comma-separated), pickers: the chosen value. Buttons send their own value. */
  value?: string;
  /** The message holding the element (a message button) … */
  message?: { channelId: string; ts: string };
  /** … or the view holding it (a modal or App Home) … */
  viewId?: string;
  /** … or the ephemeral message holding it (its id in state.ephemerals). */
  ephemeralId?: string;
}

export interface ViewSubmissionInput {
  teamId: string;
  userId: string;
  viewId: string;
  /**
   * What the user typed: `{ blockId: { actionId: value } }`. A string (or string[] for multi-choice) is turned
   * into Slack's state shape for the element's type; a full state object ({ type, … }) is used as given.
   */
  values?: Record<string, Record<string, unknown>>;
}

export interface ShortcutInput {
  teamId: string;
  userId: string;
  callbackId: string;
  /** With a message: a message shortcut (message_action); without: a global shortcut. */
  message?: { channelId: string; ts: string };
}

export interface SlackSandbox {
  /** Mount at the path of baseUrl. */
  router: Router;
  /** `${baseUrl}/api/` — pass to WebClient/Bolt as slackApiUrl. */
  apiUrl: string;
  /** `${baseUrl}/oauth/v2/authorize`. */
  authorizeUrl: string;
  /** Inspect and drive from tests: workspaces, users, channels, messages, files, views, calls, deliveries, rateLimit, failNext. */
  state: SandboxState;
  /** The app id (A…) put in payloads, events and oauth.v2.access answers. */
  appId: string;
  /** Points the sender at the app's endpoints (useful when the app's port is known only after start). */
  setAppUrls(urls: Partial<{ eventsUrl: string; interactivityUrl: string; commandsUrl: string }>): void;
  /** Turns Slack's rate-limit tiers on ('slack') or off; a test that measures something else may lift them. */
  setRateLimits(mode: 'off' | 'slack'): void;
  /** Adds workspaces (with their people and channels) to a running sandbox; ids already present are skipped. */
  addWorkspaces(seed: SandboxSeed): void;
  /** Installs the app in a workspace without the consent page (as if someone had clicked Allow). */
  install(input: { teamId: string; userId: string; botScopes: string[]; userScopes?: string[] }): Installation;
  /** Delivers an event_callback for `event`, with Slack's retries (opts.retries: 0..3, default 3). */
  sendEvent(teamId: string, event: object, opts?: { retries?: number }): Promise<DeliveryResult>;
  /**
   * Delivers an event sent before once more, as Slack does when the app's answer came too late: same
   * envelope and event_id, the next x-slack-retry-num, x-slack-retry-reason `reason` (default http_timeout).
   * Event ids of automatic events are in `state.deliveries`.
   */
  redeliverEvent(eventId: string, reason?: string): Promise<DeliveryResult>;
  /** Sends the url_verification challenge; `challengeEchoed` tells whether the app answered it right. */
  verifyEventsUrl(): Promise<DeliveryResult & { challengeEchoed: boolean }>;
  sendSlashCommand(input: { teamId: string; userId: string; channelId: string; command: string; text: string }): Promise<DeliveryResult>;
  /** A response_url as Slack puts in a payload, for a person in a channel (answers posted to it land in `state.responses`). */
  responseUrl(input: { teamId: string; userId: string; channelId: string }): string;
  /** Presses a button (or picks an option) in a message or a view, like a person in Slack. */
  sendBlockAction(input: BlockActionInput): Promise<DeliveryResult>;
  /** Submits an open modal with what the user typed; applies the app's response_action. */
  sendViewSubmission(input: ViewSubmissionInput): Promise<DeliveryResult>;
  /** Closes an open modal (Cancel); sends view_closed when the view asked for notify_on_close. */
  closeView(input: { teamId: string; userId: string; viewId: string }): Promise<DeliveryResult | null>;
  /** Runs a global shortcut, or a message shortcut when `message` is given. */
  sendShortcut(input: ShortcutInput): Promise<DeliveryResult>;
  /** Posts like a human would (and sends the message event). Throws SlackApiError('not_in_channel') for non-members. */
  postAsUser(input: {
    teamId: string;
    userId: string;
    channelId: string;
    text: string;
    threadTs?: string /** "Also send to #channel" for a thread reply. */;
    broadcast?: boolean;
  }): Promise<Message>;
  /** Edits a human's own message (sends message_changed). */
  editAsUser(input: { teamId: string; userId: string; channelId: string; ts: string; text: string }): Promise<Message>;
  /** Deletes a human's own message (sends message_deleted). */
  deleteAsUser(input: { teamId: string; userId: string; channelId: string; ts: string }): Promise<void>;
  /** A person joins a channel (sends member_joined_channel). */
  joinChannel(input: { teamId: string; userId: string; channelId: string }): Promise<void>;
  /** A person leaves a channel (sends member_left_channel). */
  leaveChannel(input: { teamId: string; userId: string; channelId: string }): Promise<void>;
  /** Someone renames a channel (sends channel_rename); Slack's naming rules apply. */
  renameChannel(input: { teamId: string; channelId: string; name: string }): Promise<void>;
  /** Someone archives a channel (sends channel_archive). */
  archiveChannel(input: { teamId: string; userId: string; channelId: string }): Promise<void>;
  /** An admin removes the app from the workspace: tokens stop working; tokens_revoked and app_uninstalled are sent. */
  uninstall(teamId: string): Promise<void>;
  /** Opens the App Home tab ('home', the default) or its Messages tab (the DM with the app): sends app_home_opened. */
  openAppHome(input: { teamId: string; userId: string; tab?: 'home' | 'messages' }): Promise<DeliveryResult>;
  /** A person writes to the app in its Messages tab (a DM): sends a message event with channel_type 'im'. */
  messageApp(input: { teamId: string; userId: string; text: string }): Promise<Message>;
  /** The messages of a person's DM with the app, oldest first (empty before the first one). */
  appDmMessages(input: { teamId: string; userId: string }): Message[];
  /**
   * Holds back the automatic events `match` picks, as Slack does with an event whose delivery failed until its
   * retry (1 s, 1 min, 5 min later), while later events go out: `release` delivers them then, in the order held.
   */
  holdEvents(match: (event: Record<string, unknown>) => boolean): { held(): number; release(): Promise<void> };
  /** Resolves once every delivery started so far (automatic events included, with their retries) is over. */
  settled(): Promise<void>;
  close(): Promise<void>;
}
