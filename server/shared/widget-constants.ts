/**
 * The visitor widget protocol's constants, apart from its zod schemas (widget-protocol.ts): the widget's
 * bundles import these values, and must not pull zod in with them. widget-protocol.ts re-exports them, so
 * server code keeps importing from there.
 */

/** Longest visitor message, in characters. */
export const MESSAGE_CHARS = 4000;
/** Largest frame the server reads, in bytes. */
export const FRAME_BYTES = 16 * 1024;
export const NAME_CHARS = 100;
export const EMAIL_CHARS = 254;
export const URL_CHARS = 2048;
/** A page's title as the widget reports it. */
export const TITLE_CHARS = 300;
/** The visitor's written feedback after rating a chat. */
export const FEEDBACK_CHARS = 2000;
/** The widget pings this often; the server closes a socket silent for twice as long. */
export const HEARTBEAT_MS = 25_000;
/** Largest file a visitor may upload, in bytes (the panel checks it before sending, the server again). */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/**
 * The same limits as one object, as the server uses them. The widget imports the single constants above:
 * esbuild inlines those, where it would ship this whole object.
 */
export const WIDGET_LIMITS = {
  messageChars: MESSAGE_CHARS,
  frameBytes: FRAME_BYTES,
  nameChars: NAME_CHARS,
  emailChars: EMAIL_CHARS,
  urlChars: URL_CHARS,
  titleChars: TITLE_CHARS,
  feedbackChars: FEEDBACK_CHARS,
  heartbeatMs: HEARTBEAT_MS,
} as const;

/** Error codes of `error` frames and of /widget/api answers; the widget shows a clear message for each. */
export const WIDGET_ERROR_CODES = [
  'bad_frame',
  'too_large',
  'rate_limited',
  'unknown_widget',
  'widget_offline',
  'not_allowed_here',
  'too_many_conversations',
  'info_required',
  'privacy_not_accepted',
  'conversation_ended',
  'uploads_disabled',
  /**
   * hello carried an identity without a valid userHash while the widget requires verified identities: the identity
   * was dropped (the visitor chats anonymously) and the widget says why in the browser's console.
   */
  'identity_unverified',
  /** The server could not store it just now (its database refuses writes): the widget sends it again by itself. */
  'try_again',
] as const;
export type WidgetErrorCode = (typeof WIDGET_ERROR_CODES)[number];
