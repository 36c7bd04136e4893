/**
 * The visitor widget's wire protocol: JSON frames over the WebSocket at /ws, and the public HTTP calls
 * under /widget/api. The server validates with these schemas; the widget (web/widget) imports only their types
 * and the constants of widget-constants.ts, so a frame one side sends is exactly what the other side accepts
 * and zod stays out of the widget's bundles.
 *
 * Ordering and delivery: every frame that belongs to a conversation's history (message, edit, delete, ended,
 * system) carries the conversation's sequence number `seq`, assigned by the server when it stores it.
 * On (re)connect the widget sends the last `seq` it has shown; the server replays everything after it,
 * then streams live frames. A visitor message is acknowledged (`ack`) only after it is stored; the widget
 * resends unacknowledged messages with the same `clientId` after a reconnect and the server answers a
 * duplicate with the original ack, so nothing is lost or shown twice.
 */
import { z } from 'zod';
import { WIDGET_LIMITS } from './widget-constants';

export { WIDGET_ERROR_CODES, WIDGET_LIMITS, type WidgetErrorCode } from './widget-constants';

const clientId = z
  .string()
  .min(8)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/);
const url = z.string().max(WIDGET_LIMITS.urlChars);
const email = z.string().trim().max(WIDGET_LIMITS.emailChars).email();
const name = z.string().trim().min(1).max(WIDGET_LIMITS.nameChars);
const messageText = z.string().trim().min(1).max(WIDGET_LIMITS.messageChars);

export const PageSchema = z.object({ url, title: z.string().max(WIDGET_LIMITS.titleChars).default(''), referrer: url.default('') });

export const IdentitySchema = z.object({
  userId: z.string().max(200).optional(),
  name: name.optional(),
  email: email.optional(),
  traits: z.record(z.string(), z.union([z.string().max(500), z.number(), z.boolean(), z.null()])).optional(),
  /**
   * Hex HMAC-SHA256 of `userId` under the widget's identity secret, computed by the site's server: with it the
   * visitor is that user on every browser and device; without it (or wrong) the identity is only a label.
   */
  userHash: z.string().max(128).optional(),
});

/** Frames the widget sends. */
export const ClientFrameSchema = z.discriminatedUnion('t', [
  z.object({
    t: z.literal('hello'),
    widgetId: z.string().min(1).max(64),
    /** Random token kept in localStorage; absent on a visitor's first visit. */
    visitorToken: z.string().min(16).max(128).optional(),
    /** Last sequence number the widget has shown, 0 for none. */
    lastSeq: z.number().int().min(0).default(0),
    /**
     * The conversation `lastSeq` belongs to. When the visitor's latest conversation is another one (started in
     * another tab meanwhile), the server replays that one from its start.
     */
    conversationId: z.string().max(64).optional(),
    page: PageSchema,
    identity: IdentitySchema.optional(),
    /** Set when a proactive trigger opened the conversation. */
    triggerUid: z.string().max(64).optional(),
    /**
     * The browser's languages (navigator.languages), most preferred first: the widget's texts follow them, and
     * the first is the visitor's language shown to operators. Tags that are not BCP 47 are ignored, and a list
     * that breaks the limits is dropped (the widget then speaks English) rather than refusing the hello.
     */
    languages: z.array(z.string().max(35)).max(10).optional().catch(undefined),
    /**
     * The browser's IANA time zone (Intl.DateTimeFormat().resolvedOptions().timeZone): the times in the visitor's
     * mails. One the server does not know is ignored (UTC), never a reason to refuse the hello.
     */
    timeZone: z.string().max(64).optional().catch(undefined),
  }),
  z.object({ t: z.literal('msg'), clientId, text: messageText }),
  z.object({ t: z.literal('typing'), on: z.boolean() }),
  /** Pre-chat form (requireInfo), "ask for e-mail" answer, or privacy acceptance. */
  z.object({ t: z.literal('info'), name: name.optional(), email: email.optional(), acceptedPrivacy: z.boolean().optional() }),
  z.object({ t: z.literal('page'), page: PageSchema }),
  z.object({ t: z.literal('end') }),
  z.object({
    t: z.literal('rate'),
    rating: z.enum(['up', 'down']),
    feedback: z.string().trim().max(WIDGET_LIMITS.feedbackChars).optional(),
  }),
  z.object({ t: z.literal('transcript'), email }),
  /** An answer in a question group the operator started. */
  z.object({ t: z.literal('answer'), groupUid: z.string().max(64), nodeId: z.string().max(64) }),
  /**
   * The visitor turned down an operator's screenshot request, or their browser could not take it. An allowed one is
   * answered by its upload (POST /widget/api/{uuid}/files with the field `screenshotFor`).
   */
  z.object({ t: z.literal('screenshot'), id: z.string().max(64), answer: z.enum(['declined', 'unsupported']) }),
  /** "Did this answer your question?" on an automatic answer (`id`: its message): yes ends the wait, no keeps it. */
  z.object({ t: z.literal('helpful'), id: z.string().max(64), helpful: z.boolean(), articleId: z.string().max(64).optional() }),
  z.object({ t: z.literal('ping') }),
  /**
   * The highest seq of the socket's conversation this tab has shown with the panel open and the page visible:
   * replies seen are not mailed, and Slack shows :eyes: on them.
   */
  z.object({ t: z.literal('seen'), seq: z.number().int().min(0) }),
]);
export type ClientFrame = z.infer<typeof ClientFrameSchema>;

export const AuthorSchema = z.object({ name: z.string(), avatarUrl: z.string().optional() });

export const ArticleCardSchema = z.object({ id: z.string(), title: z.string(), snippet: z.string(), url: z.string() });
export type ArticleCard = z.infer<typeof ArticleCardSchema>;

export const ChatMessageSchema = z.object({
  seq: z.number().int().positive(),
  id: z.string(),
  from: z.enum(['visitor', 'operator', 'system']),
  text: z.string(),
  /** Sanitised HTML for operator messages that carry formatting (links, bold, line breaks). */
  html: z.string().optional(),
  author: AuthorSchema.optional(),
  files: z.array(z.object({ id: z.string(), name: z.string(), size: z.number(), url: z.string(), mimetype: z.string() })).optional(),
  /** Help-center articles sent as cards (title, a line of text, the public page). */
  articles: z.array(ArticleCardSchema).optional(),
  /** An automatic answer from the help center (sent by Parley, not an operator), with "Did this answer your question?". */
  automatic: z.boolean().optional(),
  /** The visitor's answer to that question, once given (a reload shows it instead of asking again). */
  helpful: z.boolean().optional(),
  /** ISO time the server stored it. */
  at: z.string(),
  edited: z.boolean().optional(),
  /** Echoed for the visitor's own messages, so the widget can match them to what it sent. */
  clientId: z.string().optional(),
  /**
   * An operator reply from Slack: its Slack ts. Slack delivers events concurrently and retries late, so a reply
   * may be stored after a later one; the widget shows operator replies in ts order (the thread's order).
   */
  ts: z.string().optional(),
});
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

/** Frames the server sends. */
export const ServerFrameSchema = z.discriminatedUnion('t', [
  z.object({
    t: z.literal('welcome'),
    visitorToken: z.string(),
    online: z.boolean(),
    conversation: z
      .object({
        id: z.string(),
        number: z.number().int(),
        status: z.enum(['open', 'ended']),
        lastSeq: z.number().int(),
        /** The visitor rated it already: after a reload the end card thanks them instead of asking again. */
        rated: z.boolean().optional(),
      })
      .nullable(),
  }),
  z.object({ t: z.literal('ack'), clientId, seq: z.number().int().positive(), id: z.string(), at: z.string() }),
  /** The frames that follow belong to this conversation of the visitor's, newer than the one shown: seq starts again. */
  z.object({ t: z.literal('conversation'), id: z.string() }),
  z.object({ t: z.literal('msg'), message: ChatMessageSchema }),
  z.object({ t: z.literal('edit'), seq: z.number().int().positive(), id: z.string(), text: z.string(), html: z.string().optional() }),
  z.object({ t: z.literal('delete'), seq: z.number().int().positive(), id: z.string() }),
  z.object({ t: z.literal('presence'), online: z.boolean() }),
  z.object({ t: z.literal('typing'), on: z.boolean(), author: AuthorSchema.optional() }),
  z.object({ t: z.literal('ended'), seq: z.number().int().positive(), by: z.enum(['visitor', 'operator', 'inactivity']) }),
  /** The operator asks for the visitor's e-mail; `email`: the visitor answered it with this address (shown answered). */
  z.object({ t: z.literal('askEmail'), seq: z.number().int().positive(), email: z.string().optional() }),
  /** The operator asks for a screenshot of the visitor's page (`id`: the request, named again in the answer). */
  z.object({ t: z.literal('screenshot'), seq: z.number().int().positive(), id: z.string() }),
  z.object({
    t: z.literal('question'),
    seq: z.number().int().positive(),
    groupUid: z.string(),
    nodeId: z.string(),
    text: z.string(),
    answers: z.array(z.object({ nodeId: z.string(), text: z.string() })),
  }),
  /** Settings a visitor can see changed (texts, colours, presence mode). */
  z.object({ t: z.literal('config'), config: z.record(z.string(), z.unknown()) }),
  z.object({ t: z.literal('error'), code: z.string(), message: z.string(), clientId: clientId.optional() }),
  z.object({ t: z.literal('pong') }),
]);
export type ServerFrame = z.infer<typeof ServerFrameSchema>;

/** Body of `POST /widget/api/{widgetUuid}/offline`. */
export const OfflineMessageSchema = z.object({
  name: name.optional(),
  email,
  message: messageText,
  page: PageSchema.optional(),
  visitorToken: z.string().min(16).max(128).optional(),
});
export type OfflineMessage = z.infer<typeof OfflineMessageSchema>;
