/**
 * What the loader and the lazily loaded panel share: the public configuration a visitor may see, and the
 * narrow interface the loader hands the panel. Types only, so neither bundle pulls the other in.
 */
import type { PublicTrigger, PublicWidgetConfig, PublicWidgetSettings } from '../../../server/shared/widget-config';

/** Settings a visitor may see. Every field may be absent (configure() overrides, older servers): defaults apply. */
export type VisitorSettings = Partial<PublicWidgetSettings>;

export type Trigger = PublicTrigger;

export type PublicConfig = Omit<PublicWidgetConfig, 'settings'> & { settings: VisitorSettings };

export type WidgetStyleName = 'standard' | 'sidebar' | 'inline';

export type EventName =
  | 'ready'
  | 'firstMessageSent'
  | 'messageReceived'
  | 'expanded'
  | 'collapsed'
  | 'conversationEnded'
  | 'offlineMessageSent';

export type Identity = {
  userId?: string;
  name?: string;
  email?: string;
  traits?: Record<string, string | number | boolean | null>;
  /** Hex HMAC-SHA256 of userId under the widget's identity secret, from the site's server. */
  userHash?: string;
};

/** What the loader gives the panel when it mounts it. */
export type PanelContext = {
  /** The shadow root both draw into; the panel adds its own <style>. */
  root: ShadowRoot;
  /** Where the panel draws its window. */
  mount: HTMLElement;
  /** Parley's origin, e.g. https://app.parley.chat. */
  base: string;
  widgetId: string;
  style: WidgetStyleName;
  config: PublicConfig;
  /** Settings after configure() overrides. */
  settings(): VisitorSettings;
  identity(): Identity | undefined;
  /** The proactive trigger the visitor clicked to open the chat, if any. */
  trigger(): Trigger | undefined;
  emit(name: EventName, detail?: unknown): void;
  /** The panel asks the loader to collapse it (close button, Escape). */
  collapse(): void;
  /** Unread operator messages while collapsed; the loader shows a badge. */
  setUnread(count: number): void;
  /** Presence changed live: the loader redraws or hides the launcher. */
  setOnline(online: boolean): void;
  /**
   * Why a mail's "Continue the chat" link did not open its conversation here (the exchange's error code:
   * resume_expired, resume_invalid, resume_verified): the panel says so in the visitor's language.
   */
  notice?: string;
};

export type PanelHandle = {
  /** Called when the panel is shown; starts the socket when the visitor can chat. */
  expand(): void;
  collapse(): void;
  send(text: string): void;
  /** configure() changed what the visitor sees, or identify() who they are (`identityChanged`: say hello again). */
  refresh(identityChanged?: boolean): void;
  /** Forgets the visitor: token, messages, socket. */
  reset(): void;
  isOnline(): boolean;
};

/** The panel script calls this global once it has run, handing over its factory. */
export const PANEL_CALLBACK = '__parleyPanel';
export type PanelFactory = (ctx: PanelContext) => PanelHandle;

/** localStorage key of a widget's visitor state. */
export const storageKey = (widgetId: string): string => `parley:${widgetId}`;

/** What survives page loads (and is shared by tabs) in localStorage. */
export type StoredState = {
  token?: string;
  /** True while a conversation is open: the loader then loads the panel at once. */
  ongoing?: boolean;
  /** The panel was expanded when the page was left. */
  expanded?: boolean;
  /** Messages typed but not yet acknowledged, resent with the same clientId. */
  pending?: { clientId: string; text: string }[];
  /** The visitor accepted the privacy notice / gave their details. */
  accepted?: boolean;
  infoGiven?: boolean;
  /** When a proactive trigger was last shown (ms since epoch), for minDelay. */
  triggeredAt?: number;
};

export function readState(widgetId: string): StoredState {
  try {
    const raw = localStorage.getItem(storageKey(widgetId));
    return raw ? (JSON.parse(raw) as StoredState) : {};
  } catch {
    // Storage can be disabled (privacy modes, sandboxed frames): the widget works without memory.
    return {};
  }
}

export function writeState(widgetId: string, patch: StoredState | null): StoredState {
  const next = patch === null ? {} : { ...readState(widgetId), ...patch };
  try {
    if (patch === null) localStorage.removeItem(storageKey(widgetId));
    else localStorage.setItem(storageKey(widgetId), JSON.stringify(next));
  } catch {
    // See readState.
  }
  return next;
}

export const MOBILE_QUERY = '(max-width: 640px)';

/**
 * The screenshot script (web/widget/screenshot, loaded by the panel only when a visitor allows a screenshot) calls
 * this global once it has run, handing over its capture function.
 */
export const SCREENSHOT_CALLBACK = '__parleyScreenshot';
/** Pictures the part of the page the visitor sees, without the widget and with private parts masked. */
export type ScreenshotCapture = () => Promise<Blob>;

/**
 * What a screenshot hides: password fields, anything marked `data-parley-mask`, and what sites commonly mark
 * private for session recorders (`data-private`, the class `parley-mask`).
 */
export const SCREENSHOT_MASK = 'input[type="password"],[data-parley-mask],[data-private],.parley-mask';
