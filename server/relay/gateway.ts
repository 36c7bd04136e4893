/**
 * The visitor WebSocket gateway at /ws. A socket starts with `hello` (widget id, visitor token, last seq
 * shown); the server answers `welcome`, replays the conversation after that seq, then streams. Limits: frame
 * size (error `too_large`, then close), malformed frames (`bad_frame`, then close), per-socket and per-visitor
 * rates (`rate_limited`), new sockets per IP, silent sockets closed after two missed heartbeats, and slow
 * readers dropped when too much is buffered for them (they resume by seq).
 *
 * Visitor typing is accepted and goes nowhere: Slack has no way to show a person typing on behalf of an app,
 * and posting "is typing" messages would clutter the thread. Operator typing is not sent either: Slack does not
 * deliver user_typing events to bots.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { Types } from 'mongoose';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import { afterVisitorMessage } from '../commands/afterVisitorMessage';
import { answerHelpful } from '../commands/answerHelpful';
import { answerQuestion } from '../commands/answerQuestion';
import { endVisitorConversation } from '../commands/endConversation';
import { identifyVisitor } from '../commands/identifyVisitor';
import { answerScreenshot } from '../commands/screenshots';
import { visitorMessage } from '../commands/sendVisitorMessage';
import { visitorSaw } from '../commands/unseenReplies';
import {
  mailTranscript,
  rateConversation,
  SEEN_SAVED_EVERY_MS,
  updateVisitorInfo,
  visitorOnPage,
  visitorSeen,
} from '../commands/visitorFrames';
import { entryFrame, frameSeq, type StoredMessage, serialised } from '../conversations/history';
import type { OpenConversation } from '../conversations/record';
import { browserLanguages, localizeSettings, pickWidgetLocale, validTimeZone, visitorLocaleTag } from '../conversations/widgetLanguage';
import type { ConversationDocument } from '../models/Conversation';
import { type ClientFrame, ClientFrameSchema, type ServerFrame, WIDGET_LIMITS, type WidgetErrorCode } from '../shared/widget-protocol';
import { DEFAULT_WIDGET_LOCALE, type TextOverrides, type WidgetLocale } from '../shared/widget-texts';
import type { RelayContext } from './context';
import { clientIp, countryAllowed, countryOf } from './visitorIp';
import { widgetErrorOf } from './widgetErrors';

export const WS_PATH = '/ws';

/** How long closing waits for the frames being handled (a visitor line's store), so they end before the store closes. */
const CLOSE_FRAMES_WAIT_MS = 5_000;
/** When a socket looks in history for a seq that a later one overtook: soon, then twice more before passing it over. */
const GAP_FILL_DELAYS_MS = [100, 1_000, 5_000];

/** A browser page on http(s); `null` origins (sandboxed frames, files) are refused. Absent: not a browser. */
export function originAllowed(origin: string | undefined): boolean {
  if (origin === undefined) return true;
  return /^https?:\/\/[^/\s]+$/i.test(origin);
}

class Bucket {
  private tokens: number;
  private at = Date.now();
  constructor(
    private readonly capacity: number,
    private readonly perMs: number,
  ) {
    this.tokens = capacity;
  }
  take(): boolean {
    const now = Date.now();
    this.tokens = Math.min(this.capacity, this.tokens + (now - this.at) * this.perMs);
    this.at = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

type Session = {
  id: string;
  ws: WebSocket;
  ip: string;
  userAgent: string;
  lastHeard: number;
  seenSavedAt: number;
  frames: Bucket;
  badFrames: number;
  ready: boolean;
  /** Ids only: documents are read when a frame needs them (shared widget cache), so an idle socket holds little. */
  ceId?: Types.ObjectId;
  visitorId?: Types.ObjectId;
  pageUrl: string;
  triggerUid: string;
  /** The widget's language for this visitor (from hello's languages): config frames are localized to it. */
  locale: WidgetLocale;
  /**
   * The visitor's open conversation as this socket last wrote to it (undefined: not looked up yet). Forgotten when
   * an `ended` frame passes; a stale one costs nothing wrong: the write finds it ended and looks again.
   */
  open?: OpenConversation | null;
  /**
   * The conversation whose history this socket follows, and the seq up to which all of it was sent (or found to
   * hold nothing). A seq is never sent twice.
   */
  conversationId: string;
  sentSeq: number;
  /**
   * Seqs sent above sentSeq: a later frame went out first (the visitor's own ack, or a frame that came through
   * Redis sooner than an earlier one). While there are any, the gap below them is filled from history.
   */
  ahead?: Set<number>;
  gapTimer?: NodeJS.Timeout;
  gapTries: number;
  /** Live frames that arrived while history was being replayed. */
  held: { frame: ServerFrame; conversationId: string }[] | null;
  unsubscribe: (() => void)[];
  busy: Promise<void>;
};

export class Gateway {
  private readonly wss: WebSocketServer;
  private readonly sessions = new Set<Session>();
  private readonly visitorBuckets = new Map<string, Bucket>();
  private bucketsClearedAt = Date.now();
  private timer: NodeJS.Timeout | null = null;
  private server: Server | null = null;

  /** New sockets per IP in the current minute. */
  private readonly socketsPerIp: { hit(ip: string): Promise<number> };
  private readonly offReconnect: () => void;

  constructor(private readonly ctx: RelayContext) {
    // The hard cap; frames above WIDGET_LIMITS.frameBytes but under it get a polite `too_large` first.
    this.wss = new WebSocketServer({ noServer: true, maxPayload: WIDGET_LIMITS.frameBytes * 4, perMessageDeflate: false });
    this.socketsPerIp = ctx.limiters.counter('ws-ip', 60_000);
    this.offReconnect = ctx.pubsub.onReconnect(() => {
      void this.catchUp().catch((error: unknown) =>
        ctx.logger.warn({ err: error }, 'relay: could not catch sockets up after Redis was back'),
      );
    });
  }

  get socketCount(): number {
    return this.sessions.size;
  }

  attach(server: Server): void {
    this.server = server;
    server.on('upgrade', this.onUpgrade);
    this.timer = setInterval(() => this.sweep(), Math.min(5000, this.ctx.tuning.silentSocketMs / 2));
    this.timer.unref();
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.offReconnect();
    for (const s of this.sessions) if (s.gapTimer) clearTimeout(s.gapTimer);
    this.server?.off('upgrade', this.onUpgrade);
    // The frames being handled finish before the outbox and the store close (the frames behind them are dropped with
    // their sockets: unacknowledged, the widget sends them again), or within CLOSE_FRAMES_WAIT_MS.
    const handling = [...this.sessions].map((s) => s.busy);
    for (const s of this.sessions) s.ws.close(1001, 'server restarting');
    for (const s of this.sessions) s.ws.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    await Promise.race([Promise.allSettled(handling), sleep(CLOSE_FRAMES_WAIT_MS, undefined, { ref: false })]);
  }

  private readonly onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const pathname = (req.url ?? '').split('?')[0];
    if (pathname !== WS_PATH) return;
    const origin = req.headers.origin;
    if (!originAllowed(origin)) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const ip = clientIp(req, this.ctx.config.trustProxy);
    // Counted over every process of the deployment; a client that goes away meanwhile is let go.
    const gone = () => socket.destroy();
    socket.once('error', gone);
    void this.socketsPerIp.hit(ip).then(
      (count) => {
        socket.off('error', gone);
        if (count > this.ctx.tuning.socketsPerIpPerMinute) {
          socket.end('HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
          return;
        }
        this.wss.handleUpgrade(req, socket, head, (ws) => this.onConnection(ws, req, ip));
      },
      () => socket.destroy(),
    );
  };

  private onConnection(ws: WebSocket, req: IncomingMessage, ip: string): void {
    const session: Session = {
      id: randomBytes(9).toString('base64url'),
      ws,
      ip,
      userAgent: String(req.headers['user-agent'] ?? '').slice(0, 400),
      lastHeard: Date.now(),
      seenSavedAt: Date.now(),
      frames: new Bucket(this.ctx.tuning.framesPer10s, this.ctx.tuning.framesPer10s / 10_000),
      badFrames: 0,
      ready: false,
      pageUrl: '',
      triggerUid: '',
      locale: DEFAULT_WIDGET_LOCALE,
      conversationId: '',
      sentSeq: 0,
      gapTries: 0,
      held: null,
      unsubscribe: [],
      busy: Promise.resolve(),
    };
    this.sessions.add(session);
    ws.on('message', (data, isBinary) => this.onFrame(session, data, isBinary));
    ws.on('close', () => this.drop(session));
    ws.on('error', () => this.drop(session));
  }

  private drop(session: Session): void {
    if (!this.sessions.delete(session)) return;
    if (session.gapTimer) clearTimeout(session.gapTimer);
    for (const off of session.unsubscribe) off();
    session.unsubscribe = [];
  }

  /** Closes sockets that stopped talking (no ping within two heartbeats) or never said hello. */
  private sweep(): void {
    const now = Date.now();
    for (const s of this.sessions) {
      const limit = s.ready ? this.ctx.tuning.silentSocketMs : Math.min(10_000, this.ctx.tuning.silentSocketMs);
      if (now - s.lastHeard > limit) {
        s.ws.close(4000, 'silent');
        setTimeout(() => s.ws.terminate(), 1000).unref();
        this.drop(s);
      }
    }
    // A per-visitor bucket refills within a minute; forgetting them all every few minutes costs at most one burst.
    if (now - this.bucketsClearedAt > 5 * 60_000) {
      this.visitorBuckets.clear();
      this.bucketsClearedAt = now;
    }
  }

  private send(session: Session, frame: ServerFrame): void {
    const { ws } = session;
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > this.ctx.tuning.maxBufferedBytes) {
      // A reader this slow would make the server hold ever more for it; it comes back and resumes by seq.
      ws.terminate();
      this.drop(session);
      return;
    }
    ws.send(JSON.stringify(frame));
  }

  private error(session: Session, code: WidgetErrorCode, message: string, clientId?: string): void {
    this.send(session, { t: 'error', code, message, ...(clientId ? { clientId } : {}) });
  }

  private refuse(session: Session, code: WidgetErrorCode, message: string, closeCode = 1008): void {
    this.error(session, code, message);
    session.ws.close(closeCode, code);
    this.drop(session);
  }

  /** A history frame goes out once, in seq order; live-only frames always go out. */
  private deliver(session: Session, frame: ServerFrame, conversationId: string): void {
    if (session.held) {
      session.held.push({ frame, conversationId });
      return;
    }
    if (frame.t === 'ended') session.open = undefined;
    const seq = frameSeq(frame);
    if (seq > 0) {
      // A conversation started in another tab: this socket follows it from its start.
      if (conversationId && conversationId !== session.conversationId) this.switchTo(session, conversationId);
      if (!this.markSent(session, seq)) return;
    }
    this.send(session, frame);
  }

  /** Notes that `seq` goes out on this socket; false when it went out before. A gap below it is filled soon. */
  private markSent(session: Session, seq: number): boolean {
    if (seq <= session.sentSeq || session.ahead?.has(seq)) return false;
    if (seq === session.sentSeq + 1) this.coveredUpTo(session, seq);
    else {
      session.ahead ??= new Set();
      session.ahead.add(seq);
      this.scheduleGapFill(session);
    }
    return true;
  }

  /** Everything up to `seq` went out (or holds nothing); seqs sent ahead that now join on are absorbed. */
  private coveredUpTo(session: Session, seq: number): void {
    session.sentSeq = Math.max(session.sentSeq, seq);
    const ahead = session.ahead;
    if (!ahead) return;
    for (const s of ahead) if (s <= session.sentSeq) ahead.delete(s);
    while (ahead.delete(session.sentSeq + 1)) session.sentSeq += 1;
    if (ahead.size === 0) {
      session.ahead = undefined;
      session.gapTries = 0;
      if (session.gapTimer) clearTimeout(session.gapTimer);
      session.gapTimer = undefined;
    }
  }

  private scheduleGapFill(session: Session): void {
    if (session.gapTimer || !session.ahead) return;
    const delay = GAP_FILL_DELAYS_MS[Math.min(session.gapTries, GAP_FILL_DELAYS_MS.length - 1)];
    session.gapTimer = setTimeout(() => {
      session.gapTimer = undefined;
      const ahead = session.ahead;
      if (!ahead || !this.sessions.has(session)) return;
      void this.fillFromHistory(session, Math.max(...ahead)).catch((error: unknown) =>
        this.ctx.logger.warn({ conversationId: session.conversationId, err: error }, 'relay: could not fill a gap from history'),
      );
    }, delay);
    session.gapTimer.unref();
  }

  /**
   * Sends what history holds between sentSeq and `below` that this socket has not had (stored in another process,
   * its frame late or lost with Redis). A seq still missing after a few looks holds nothing for the widget (a
   * question asked, a seq spent by a duplicate) and is passed over.
   */
  private async fillFromHistory(session: Session, below: number): Promise<void> {
    const conversationId = session.conversationId;
    if (!conversationId) return;
    const entries = await this.ctx.models.Message.find({ conversationId, seq: { $gt: session.sentSeq, $lt: below } })
      .sort({ seq: 1 })
      .lean<StoredMessage[]>();
    if (!this.sessions.has(session) || session.conversationId !== conversationId) return;
    for (const entry of entries) {
      if (!this.markSent(session, entry.seq)) continue;
      const frame = entryFrame(this.ctx.publicUrl, entry);
      if (frame) this.send(session, frame);
    }
    if (!session.ahead) return;
    session.gapTries += 1;
    if (session.gapTries >= GAP_FILL_DELAYS_MS.length) {
      session.gapTries = 0;
      this.coveredUpTo(session, below - 1);
    }
    this.scheduleGapFill(session);
  }

  /**
   * Redis is back: frames published while it was away did not reach this process. Each socket gets what its
   * conversation stored meanwhile (frames published from now on come through Redis again).
   */
  private async catchUp(): Promise<void> {
    const following = [...this.sessions].filter((s) => s.ready && s.conversationId && !s.held);
    if (following.length === 0) return;
    const ids = [...new Set(following.map((s) => s.conversationId))];
    const conversations = await this.ctx.models.Conversation.find({ _id: { $in: ids } }, { lastSeq: 1 }).lean<
      { _id: Types.ObjectId; lastSeq: number }[]
    >();
    const lastSeqOf = new Map(conversations.map((c) => [String(c._id), c.lastSeq]));
    for (const session of following) {
      const lastSeq = lastSeqOf.get(session.conversationId) ?? 0;
      const known = Math.max(session.sentSeq, ...(session.ahead ?? []));
      if (lastSeq > known && this.sessions.has(session)) await this.fillFromHistory(session, lastSeq + 1);
    }
  }

  private onFrame(session: Session, data: RawData, isBinary: boolean): void {
    const receivedAt = performance.now();
    session.lastHeard = Date.now();
    const size = Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : data instanceof ArrayBuffer ? data.byteLength : data.length;
    if (size > WIDGET_LIMITS.frameBytes) {
      this.refuse(session, 'too_large', `Frames are limited to ${WIDGET_LIMITS.frameBytes} bytes.`, 1009);
      return;
    }
    if (!session.frames.take()) {
      this.error(session, 'rate_limited', 'Too many frames; slow down.');
      return;
    }
    let parsed: unknown;
    try {
      if (isBinary) throw new Error('binary');
      parsed = JSON.parse(
        Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data)]).toString('utf8'),
      );
    } catch {
      this.refuse(session, 'bad_frame', 'Frames must be JSON text.');
      return;
    }
    const result = ClientFrameSchema.safeParse(parsed);
    if (!result.success) {
      const t = (parsed as { t?: unknown } | null)?.t;
      const clientId = (parsed as { clientId?: unknown } | null)?.clientId;
      const known =
        typeof t === 'string' &&
        ['hello', 'msg', 'typing', 'info', 'page', 'end', 'rate', 'transcript', 'answer', 'helpful', 'ping'].includes(t);
      session.badFrames += 1;
      const why = result.error.issues
        .map((i) => `${i.path.join('.') || 'frame'}: ${i.message}`)
        .join('; ')
        .slice(0, 300);
      if (!known || !session.ready || session.badFrames > 5) {
        this.refuse(session, 'bad_frame', `Bad frame: ${why}`);
        return;
      }
      this.error(
        session,
        'bad_frame',
        `Bad frame: ${why}`,
        typeof clientId === 'string' && /^[A-Za-z0-9_-]{8,64}$/.test(clientId) ? clientId : undefined,
      );
      return;
    }
    const frame = result.data;
    // Frames of one socket are handled in order.
    session.busy = session.busy
      .then(() => this.handle(session, frame, receivedAt))
      .catch((error: unknown) => {
        const logger = this.ctx.logger.child({ widgetId: session.ceId, conversationId: session.conversationId || undefined });
        const { code, message } = widgetErrorOf(error, logger);
        this.error(session, code, message, frame.t === 'msg' ? frame.clientId : undefined);
      });
  }

  /** `receivedAt`: when the frame arrived (performance.now()), for the ack's latency. */
  private async handle(session: Session, frame: ClientFrame, receivedAt: number): Promise<void> {
    if (!this.sessions.has(session)) return;
    if (frame.t === 'ping') {
      this.send(session, { t: 'pong' });
      if (session.ready && session.visitorId && Date.now() - session.seenSavedAt > SEEN_SAVED_EVERY_MS) {
        session.seenSavedAt = Date.now();
        await visitorSeen(this.ctx.models, session.visitorId);
      }
      return;
    }
    if (frame.t === 'hello') {
      if (session.ready) {
        this.error(session, 'bad_frame', 'hello was already received on this socket.');
        return;
      }
      await this.hello(session, frame);
      return;
    }
    if (!session.ready || !session.ceId || !session.visitorId) {
      this.refuse(session, 'bad_frame', 'The first frame must be hello.');
      return;
    }
    // Visitor typing goes nowhere (see the header comment); it needs no database read.
    if (frame.t === 'typing') return;
    const { visitorId } = session;
    // The widget from the shared cache; the visitor is read only by the frames that need more than its id.
    const ce = await this.ctx.widgets.get(session.ceId);
    if (!ce) return this.refuse(session, 'unknown_widget', 'This chat is no longer available.');
    // The inactivity check ends conversations of visitors gone for a while; a connected visitor is not gone.
    if (Date.now() - session.seenSavedAt > SEEN_SAVED_EVERY_MS) {
      session.seenSavedAt = Date.now();
      await visitorSeen(this.ctx.models, visitorId);
    }
    switch (frame.t) {
      case 'msg': {
        if (!this.visitorBucket(visitorId).take()) {
          this.error(session, 'rate_limited', 'You are sending messages too fast; please wait a moment.', frame.clientId);
          return;
        }
        const result = await visitorMessage(this.ctx, {
          ce,
          visitorId,
          known: session.open,
          clientId: frame.clientId,
          text: frame.text,
          origin: { pageUrl: session.pageUrl, triggerUid: session.triggerUid },
          socket: session.id,
        });
        const { message, conversation } = result;
        session.open = conversation;
        if (String(conversation._id) !== session.conversationId) this.switchTo(session, String(conversation._id));
        this.send(session, {
          t: 'ack',
          clientId: frame.clientId,
          seq: message.seq,
          id: String(message._id),
          at: message.createdAt.toISOString(),
        });
        this.ctx.metrics.relayAck.observe((performance.now() - receivedAt) / 1000);
        if (!result.duplicate) this.ctx.metrics.visitorMessages.inc();
        // An operator reply stored just before it, in another process, may still be on its way: not skipped.
        this.markSent(session, message.seq);
        if (!result.duplicate) {
          // Saved replies matching the message, and an automatic question group, follow the ack: in the order of the
          // conversation's messages, without holding up this socket's next frame.
          void serialised(`assist:${String(conversation._id)}`, () => afterVisitorMessage(this.ctx, conversation, message)).catch(
            (error: unknown) =>
              this.ctx.logger.error(
                { widgetId: String(ce._id), conversationId: String(conversation._id), err: error },
                'relay: automatic replies failed',
              ),
          );
        }
        return;
      }
      case 'info':
        await updateVisitorInfo(this.ctx, visitorId, { name: frame.name, email: frame.email, acceptedPrivacy: frame.acceptedPrivacy });
        return;
      case 'page':
        session.pageUrl = frame.page.url;
        await visitorOnPage(this.ctx.models, visitorId, frame.page);
        return;
      case 'end':
        await endVisitorConversation(this.ctx, visitorId);
        return;
      case 'rate':
        await rateConversation(this.ctx, { visitorId, ce, rating: frame.rating, feedback: frame.feedback });
        return;
      case 'transcript':
        await mailTranscript(this.ctx, { visitorId, ce, email: frame.email });
        return;
      case 'answer':
        await answerQuestion(this.ctx, visitorId, frame);
        return;
      case 'seen':
        if (session.conversationId) {
          await visitorSaw(this.ctx, { conversationId: new Types.ObjectId(session.conversationId), visitorId, seq: frame.seq });
        }
        return;
      case 'screenshot':
        await answerScreenshot(this.ctx, visitorId, frame.id, frame.answer);
        return;
      case 'helpful':
        await answerHelpful(this.ctx, visitorId, { messageId: frame.id, helpful: frame.helpful, articleId: frame.articleId });
        return;
    }
  }

  /** Messages per visitor, over all their sockets in this process. */
  private visitorBucket(visitorId: Types.ObjectId): Bucket {
    let bucket = this.visitorBuckets.get(String(visitorId));
    if (!bucket) {
      const perMinute = this.ctx.tuning.visitorMsgsPerMinute;
      bucket = new Bucket(Math.max(5, Math.ceil(perMinute / 3)), perMinute / 60_000);
      this.visitorBuckets.set(String(visitorId), bucket);
    }
    return bucket;
  }

  private async hello(session: Session, frame: Extract<ClientFrame, { t: 'hello' }>): Promise<void> {
    const { models } = this.ctx;
    const found = await models.ChatEndpoint.findOne({ Uuid: frame.widgetId }, { _id: 1 }).lean<{ _id: Types.ObjectId }>();
    const ce = found ? await this.ctx.widgets.get(found._id) : null;
    if (!ce) return this.refuse(session, 'unknown_widget', 'This chat widget does not exist.');
    const country = ce.collectVisitorMetaData ? countryOf(session.ip) : '';
    if (!countryAllowed(ce, country)) return this.refuse(session, 'not_allowed_here', 'This chat is not available in your country.');

    const locale = pickWidgetLocale(frame.languages ?? []);
    const { visitor, token, identity } = await identifyVisitor(models, {
      ce,
      token: frame.visitorToken,
      identity: frame.identity,
      page: frame.page,
      userAgent: session.userAgent,
      country,
      language: browserLanguages(frame.languages ?? [])[0] ?? '',
      locale: visitorLocaleTag(frame.languages ?? [], locale),
      timeZone: validTimeZone(frame.timeZone),
    });
    if (!this.sessions.has(session)) return;
    session.ceId = ce._id;
    session.visitorId = visitor._id;
    session.pageUrl = frame.page.url;
    session.triggerUid = frame.triggerUid ?? '';
    session.locale = locale;
    session.ready = true;

    const online = await this.ctx.presence.isOnline(ce).catch(() => false);
    session.unsubscribe.push(this.ctx.presence.watch(String(ce._id), online));
    // Live frames wait from the moment they can arrive until the history after lastSeq is replayed, so nothing is
    // skipped or sent twice.
    session.held = [];
    session.unsubscribe.push(
      this.ctx.pubsub.subscribe(`widget:${String(ce._id)}`, (f) =>
        this.send(session, f.t === 'config' ? localizedConfig(f, session.locale) : f),
      ),
      this.ctx.pubsub.subscribe(`visitor:${String(visitor._id)}`, (f, meta) => {
        if (meta.except !== session.id) this.deliver(session, f, meta.conversationId ?? '');
      }),
    );
    // With several processes: frames another process publishes from now on reach this socket before history is read.
    await this.ctx.pubsub.ready();
    if (!this.sessions.has(session)) return;
    const conversation = await models.Conversation.findOne({ visitorId: visitor._id }).sort({ _id: -1 });
    if (identity === 'dropped') {
      this.error(
        session,
        'identity_unverified',
        'parley.identify() was ignored: this widget requires a verified identity and the userHash is missing or wrong.',
      );
    }
    this.send(session, {
      t: 'welcome',
      visitorToken: token,
      online,
      conversation: conversation
        ? {
            id: String(conversation._id),
            number: conversation.number,
            status: conversation.status,
            lastSeq: conversation.lastSeq,
            rated: conversation.rating !== null,
          }
        : null,
    });
    session.conversationId = conversation ? String(conversation._id) : '';
    // The widget's lastSeq counts in the conversation it names; a newer one (another tab's) is replayed whole.
    const sameConversation = !frame.conversationId || frame.conversationId === session.conversationId;
    session.sentSeq = conversation && sameConversation ? Math.min(frame.lastSeq, conversation.lastSeq) : 0;
    if (conversation) await this.replay(session, conversation);
    const held = session.held;
    session.held = null;
    for (const h of held) this.deliver(session, h.frame, h.conversationId);
  }

  private async replay(session: Session, conversation: ConversationDocument): Promise<void> {
    const cursor = this.ctx.models.Message.find({ conversationId: conversation._id, seq: { $gt: session.sentSeq } })
      .sort({ seq: 1 })
      .lean<StoredMessage>()
      .cursor();
    for await (const entry of cursor) {
      if (!this.sessions.has(session)) break;
      if (!this.markSent(session, entry.seq)) continue;
      const frame = entryFrame(this.ctx.publicUrl, entry);
      if (frame) this.send(session, frame);
    }
  }

  /** The socket follows a newer conversation of its visitor, from seq 1; the widget is told before its frames. */
  private switchTo(session: Session, conversationId: string): void {
    if (session.open && String(session.open._id) !== conversationId) session.open = undefined;
    session.conversationId = conversationId;
    session.sentSeq = 0;
    session.ahead = undefined;
    session.gapTries = 0;
    if (session.gapTimer) clearTimeout(session.gapTimer);
    session.gapTimer = undefined;
    this.send(session, { t: 'conversation', id: conversationId });
  }
}

/** A settings change as one visitor reads it: the texts in their language, the owner's per-language overrides left out. */
function localizedConfig(frame: Extract<ServerFrame, { t: 'config' }>, locale: WidgetLocale): ServerFrame {
  const { textOverrides, ...config } = frame.config;
  return { t: 'config', config: localizeSettings(config, textOverrides as TextOverrides | undefined, locale) };
}
