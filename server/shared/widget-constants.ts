/**
 * The visitor widget protocol's constants, apart from its zod schemas (widget-protocol.ts): the widget's
 * bundles import these values, and must not pull zod in with them. widget-protocol.ts re-exports them, so
 * server code keeps importing from there.
 */

export const WIDGET_LIMITS = {
  /** Longest visitor message, in characters. */
  messageChars: 4000,
  /** Largest frame the server reads, in bytes. */
  frameBytes: 16 * 1024,
  nameChars: 100,
  emailChars: 254,
  urlChars: 2048,
  /** A page's title as the widget reports it. */
  titleChars: 300,
  /** The visitor's written feedback after rating a chat. */
  feedbackChars: 2000,
  /** The widget pings this often; the server closes a socket silent for twice as long. */
  heartbeatMs: 25_000,
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
] as const;
export type WidgetErrorCode = (typeof WIDGET_ERROR_CODES)[number];
