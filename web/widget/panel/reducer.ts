/**
 * The panel's conversation logic as a pure reducer: the current state and one server frame (or one thing the
 * visitor or the browser did) in, the next state and a list of effects out (their types: state.ts). No DOM, no
 * socket, no timers here: the shell (index.ts) owns those and applies the effects in order (effects.ts). Everything
 * the relay guarantees the visitor (PRODUCT.md §5) is decided here and unit tested (test/widget/reducer.unit.spec.ts):
 *
 * - Every history frame (msg, edit, delete, ended, askEmail, screenshot, question, and the ack of the visitor's own
 *   message) carries the conversation's `seq` and passes one gate, `accept`: a seq already shown is dropped
 *   (a replay after reconnect, a frame delivered twice), a new one is recorded and raises `lastSeq`, which the
 *   next hello sends so the server replays only what comes after it.
 * - Out of order: a seq below `lastSeq` that was never shown is shown, placed by seq among the others (the
 *   server replays in order and holds live frames meanwhile, so a gap is only ever filled late, never skipped;
 *   the panel does not wait for it). The hello's lastSeq is the highest seq up to which nothing is missing, so a
 *   frame lost between processes is replayed by the next socket.
 * - Operator replies from Slack carry Slack's `ts`: Slack delivers events concurrently and retries late, so a
 *   reply may be stored (and numbered) after a later one. Such a reply is placed just before the first shown reply
 *   with a later ts, as the thread shows it; a replay places it the same way, since it comes in the same seq order.
 *   When the live frames come in another order than their seqs (a gap filled late), a reply is also placed after
 *   every shown reply with an earlier ts.
 * - The visitor's messages get a clientId and stay pending (kept in localStorage) until an `ack`, or the
 *   replayed `msg` echoing that clientId, confirms them; each welcome resends the pending ones with the same
 *   clientId, and the server answers a duplicate with the original ack.
 * - A conversation started after one ended begins again at seq 1: the acknowledgement of its first message
 *   opens a new `round`, so its frames are not taken for the old conversation's and are placed after them. Until
 *   then the old round's lastSeq stays: a reconnect in between must not have the ended conversation replayed.
 *   A conversation started in another tab arrives as a `conversation` frame (or a welcome naming it) before its
 *   frames, and opens the new round the same way; the hello names the conversation its lastSeq counts in.
 */
import { MESSAGE_CHARS } from '../../../server/shared/widget-constants';
import type { ChatMessage, ClientFrame, ServerFrame } from '../../../server/shared/widget-protocol';
import type { Identity, StoredState, VisitorSettings } from '../lib/types';
import type { Action, Effect, PanelState, Screen, Step } from './state';

export type { Action, Conversation, Effect, PanelState, QuestionFrame, Screen, Step } from './state';

/** Seqs of one round stay far below this; a later round's items sort after every earlier one's. */
const ROUND = 1e9;

export function initialState(stored: StoredState, online: boolean, inline: boolean, knownEmail?: string): PanelState {
  return {
    stored,
    online,
    expanded: false,
    inline,
    conversation: null,
    lastSeq: 0,
    seen: [],
    placed: [],
    historyUntil: undefined,
    round: 0,
    nextRound: undefined,
    startedLocally: false,
    answered: false,
    knownEmail,
    unread: 0,
    fatal: false,
    waiting: [],
  };
}

/** Whether the panel wants its socket: shown, inline, in a conversation, or with messages to deliver. */
export function needsSocket(state: PanelState): boolean {
  return !state.fatal && (state.expanded || state.inline || !!state.stored.ongoing || (state.stored.pending?.length ?? 0) > 0);
}

/**
 * Whether the visitor is writing their first message, when help-center articles are suggested above the composer:
 * no conversation open (none yet, or the last one ended) and no message of theirs on its way.
 */
export function wantsSuggestions(state: PanelState): boolean {
  return !state.fatal && !state.startedLocally && state.conversation?.status !== 'open' && !state.stored.pending?.length;
}

/** Which screen the visitor sees. */
export function screenFor(state: PanelState, settings: VisitorSettings, identity: Identity | undefined): Screen {
  if (!state.online && state.conversation?.status !== 'open' && !state.stored.ongoing) return 'offline';
  if (settings.requireAcceptance && !state.stored.accepted) return 'consent';
  if (settings.requireInfo && !state.stored.infoGiven && !(identity?.name && identity.email)) return 'info';
  return 'chat';
}

/** Where an item of the current round goes in the log. */
export const keyOf = (state: PanelState, seq: number): number => state.round * ROUND + seq;

/**
 * Where a message goes: by seq, except an operator reply from Slack whose seq would put it on the wrong side of a shown
 * reply in the thread's (Slack ts) order. One stored after a later reply goes just before the first shown reply with a
 * later ts; one that reaches the socket after a shown reply with an earlier ts but a higher seq (a gap filled late)
 * goes just after the last of those. Either way after or before anything else shown between (the automatic response
 * at +0.5 included).
 */
export function placeOf(state: PanelState, m: ChatMessage): number {
  const own = keyOf(state, m.seq);
  if (!m.ts) return own;
  let earlier: number | undefined;
  let later: number | undefined;
  for (const p of state.placed) {
    if (p.ts < m.ts && (earlier === undefined || p.key > earlier)) earlier = p.key;
    if (p.ts > m.ts && (later === undefined || p.key < later)) later = p.key;
  }
  /** The keys of everything else shown in this round. */
  const others = () => [...state.seen.filter((seq) => seq !== m.seq).map((seq) => keyOf(state, seq)), ...state.placed.map((p) => p.key)];
  if (later !== undefined && own >= later) {
    let prev = state.round * ROUND;
    for (const key of others()) if (key < later && key > prev) prev = key;
    return later - (later - prev) / 4;
  }
  if (earlier !== undefined && own <= earlier) {
    let next = Math.floor(earlier) + 1;
    for (const key of others()) if (key > earlier && key < next) next = key;
    return earlier + (next - earlier) / 4;
  }
  return own;
}

/** The highest seq up to which every seq was accepted: what the next socket asks to be replayed after. */
export function contiguousSeq(seen: readonly number[]): number {
  const set = new Set(seen);
  let n = 0;
  while (set.has(n + 1)) n += 1;
  return n;
}

/**
 * A small builder the cases below share: the state changes as effects are added, so each case reads in the
 * order things happen.
 */
class Builder {
  readonly effects: Effect[] = [];
  constructor(public state: PanelState) {}

  set(patch: Partial<PanelState>): this {
    this.state = { ...this.state, ...patch };
    return this;
  }

  do(...effects: Effect[]): this {
    this.effects.push(...effects);
    return this;
  }

  save(patch: StoredState): this {
    this.state = { ...this.state, stored: { ...this.state.stored, ...patch } };
    return this.do({ k: 'save', patch });
  }

  /** The first message of the conversation after an ended one is stored: seqs count from 1 again. */
  openNextRound(clientId: string): this {
    if (this.state.nextRound !== clientId) return this;
    return this.set({ round: this.state.round + 1, nextRound: undefined, seen: [], placed: [], lastSeq: 0 });
  }

  /** The seq gate every history frame goes through: false when it was already shown. */
  accept(seq: number): boolean {
    if (this.state.seen.includes(seq)) return false;
    this.set({ seen: [...this.state.seen, seq], lastSeq: Math.max(this.state.lastSeq, seq) });
    return true;
  }

  /** History of this page's first welcome is shown quietly; anything later is news. */
  fresh(seq: number): boolean {
    const { round, historyUntil } = this.state;
    return round > 0 || historyUntil === undefined || seq > historyUntil;
  }

  setOnline(online: boolean): this {
    if (online === this.state.online) return this;
    return this.set({ online }).do({ k: 'online', online }, { k: 'look' });
  }

  ensureSocket(): this {
    if (needsSocket(this.state) || this.state.waiting.length > 0) this.do({ k: 'connect' });
    return this;
  }

  /** Sends now, or keeps the frame for the next welcome. */
  queue(frame: ClientFrame): this {
    return this.ensureSocket().do({ k: 'send', frame, hold: true });
  }

  /** The visitor's pending message is stored: its bubble becomes a sent one, and it leaves localStorage. */
  confirm(clientId: string, seq: number, id: string): this {
    this.do({ k: 'confirm', clientId, id, key: keyOf(this.state, seq), ...firstOf(seq) });
    const pending = this.state.stored.pending ?? [];
    if (pending.some((p) => p.clientId === clientId)) this.save({ pending: pending.filter((p) => p.clientId !== clientId) });
    return this;
  }

  resendPending(): this {
    for (const item of this.state.stored.pending ?? []) {
      this.do(
        { k: 'pending', clientId: item.clientId, text: item.text, autoAck: false },
        { k: 'send', frame: { t: 'msg', clientId: item.clientId, text: item.text } },
      );
    }
    return this;
  }

  /** Everything shown belongs to someone else now (another visitor token, or a reset). */
  resetView(): this {
    return this.set({
      seen: [],
      placed: [],
      lastSeq: 0,
      historyUntil: undefined,
      round: 0,
      nextRound: undefined,
      conversation: null,
      unread: 0,
    }).do({ k: 'clearView' }, { k: 'unread', count: 0 });
  }

  done(): Step {
    return { state: this.state, effects: this.effects };
  }
}

/** A conversation starts with the visitor's first message at seq 1: the automatic response goes below it. */
const firstOf = (seq: number): { first?: true } => (seq === 1 ? { first: true } : {});

/** One frame from the server. */
export function reduceFrame(state: PanelState, frame: ServerFrame): Step {
  const b = new Builder(state);
  switch (frame.t) {
    case 'welcome': {
      if (b.state.stored.token && b.state.stored.token !== frame.visitorToken) b.resetView();
      // Another tab started a newer conversation while this one was away: the server replays it from seq 1.
      if (frame.conversation && b.state.conversation?.id && frame.conversation.id !== b.state.conversation.id) {
        followConversation(b, frame.conversation.id);
      }
      const first = b.state.historyUntil === undefined;
      b.save({ token: frame.visitorToken, ongoing: frame.conversation?.status === 'open' || b.state.startedLocally });
      // A first message typed before the welcome is still on its way: its conversation is not refused yet.
      if (frame.conversation || !b.state.startedLocally)
        b.set({
          conversation: frame.conversation && {
            id: frame.conversation.id,
            status: frame.conversation.status,
            ...(frame.conversation.rated ? { rated: true } : {}),
          },
        });
      if (first) b.set({ historyUntil: frame.conversation?.lastSeq ?? 0 });
      b.setOnline(frame.online).do({ k: 'banner' });
      for (const queued of b.state.waiting) b.do({ k: 'send', frame: queued });
      b.set({ waiting: [] }).resendPending();
      if (!needsSocket(b.state)) b.do({ k: 'disconnect' });
      return b.do({ k: 'render', rebuild: false }).done();
    }
    case 'conversation':
      return followConversation(b, frame.id).do({ k: 'render', rebuild: false }).done();
    case 'ack': {
      b.openNextRound(frame.clientId).accept(frame.seq);
      b.confirm(frame.clientId, frame.seq, frame.id).set({ startedLocally: false });
      // A stored visitor message means a conversation is open, even if the welcome (sent before it) said none.
      if (b.state.conversation?.status !== 'open') {
        b.set({ conversation: { id: b.state.conversation?.id ?? '', status: 'open' } })
          .save({ ongoing: true })
          .do({ k: 'look' });
      }
      return b.done();
    }
    case 'msg': {
      const m = frame.message;
      if (m.clientId) b.openNextRound(m.clientId);
      if (!b.accept(m.seq)) return b.done();
      // The echo of the visitor's own message (a replay, or another socket's copy) confirms the pending bubble.
      if (m.clientId && b.state.stored.pending?.some((p) => p.clientId === m.clientId)) return b.confirm(m.clientId, m.seq, m.id).done();
      const fresh = b.fresh(m.seq);
      const key = placeOf(b.state, m);
      if (m.ts) b.set({ placed: [...b.state.placed, { key, ts: m.ts }] });
      b.do({ k: 'message', message: m, key, fresh, ...(m.from === 'visitor' ? firstOf(m.seq) : {}) });
      // An automatic answer from the help center while the panel is closed: the badge and the chime, as for a reply.
      if (m.automatic && m.helpful === true) b.set({ answered: true }).do({ k: 'noAnswer', arm: false });
      if (m.automatic && fresh && !b.state.expanded) {
        b.set({ unread: b.state.unread + 1 }).do({ k: 'unread', count: b.state.unread }, { k: 'chime', ifPageHidden: false });
      }
      if (m.from === 'operator') {
        b.set({ answered: true }).do({ k: 'noAnswer', arm: false }, { k: 'typing', on: false });
        if (fresh) {
          b.do(
            { k: 'chime', ifPageHidden: b.state.expanded },
            { k: 'emit', name: 'messageReceived', detail: { text: m.text, author: m.author?.name } },
          );
          if (!b.state.expanded) b.set({ unread: b.state.unread + 1 }).do({ k: 'unread', count: b.state.unread });
        }
      }
      return b.done();
    }
    case 'edit':
      if (!b.accept(frame.seq)) return b.done();
      return b.do({ k: 'edit', id: frame.id, text: frame.text, ...(frame.html ? { html: frame.html } : {}) }).done();
    case 'delete':
      if (!b.accept(frame.seq)) return b.done();
      return b.do({ k: 'remove', id: frame.id }).done();
    case 'presence':
      return b.setOnline(frame.online).do({ k: 'render', rebuild: false }).done();
    case 'typing':
      return b.do({ k: 'typing', on: frame.on, ...(frame.author?.name ? { author: frame.author.name } : {}) }).done();
    case 'ended': {
      if (!b.accept(frame.seq)) return b.done();
      const fresh = b.fresh(frame.seq);
      const rated = b.state.conversation?.rated === true;
      b.set({ conversation: { id: b.state.conversation?.id ?? '', status: 'ended', ...(rated ? { rated } : {}) } })
        .do({ k: 'noAnswer', arm: false }, { k: 'typing', on: false })
        .save({ ongoing: false })
        .do({ k: 'ended', key: keyOf(b.state, frame.seq), by: frame.by, fresh, rated });
      if (fresh) b.do({ k: 'emit', name: 'conversationEnded', detail: { by: frame.by } });
      return b.do(b.state.online ? { k: 'look' } : { k: 'render', rebuild: false }).done();
    }
    case 'askEmail':
      if (!b.accept(frame.seq)) return b.done();
      return b.do({ k: 'askEmail', key: keyOf(b.state, frame.seq), ...(frame.email ? { email: frame.email } : {}) }).done();
    case 'screenshot':
      if (!b.accept(frame.seq)) return b.done();
      return b.do({ k: 'screenshot', key: keyOf(b.state, frame.seq), id: frame.id }).done();
    case 'question':
      if (!b.accept(frame.seq)) return b.done();
      return b.do({ k: 'question', key: keyOf(b.state, frame.seq), question: frame }).done();
    case 'config':
      return b.do({ k: 'config', config: frame.config }, { k: 'render', rebuild: true }).done();
    case 'error':
      // The site's identify() was refused: its developer needs to know, the visitor chats on as a guest.
      if (frame.code === 'identity_unverified') return b.do({ k: 'warn', message: frame.message }).done();
      return refused(b, frame.code, frame.message, frame.clientId).done();
    case 'pong':
      return b.done();
    default:
      return unknownFrame(frame, b);
  }
}

/**
 * The frames that follow belong to conversation `id` (started in another tab, or by this tab's first message):
 * a conversation other than the one shown, once anything of that one was shown, is a new round from seq 1.
 */
function followConversation(b: Builder, id: string): Builder {
  if (b.state.conversation?.id === id) return b;
  if (b.state.seen.length > 0) b.set({ round: b.state.round + 1, nextRound: undefined, seen: [], placed: [], lastSeq: 0 });
  return b.set({ conversation: { id, status: 'open' } }).save({ ongoing: true });
}

/** A frame type this panel does not know (a newer server): ignored. The `never` makes the switch exhaustive. */
function unknownFrame(_frame: never, b: Builder): Step {
  return b.done();
}

function refused(b: Builder, code: string, message: string, clientId: string | undefined): Builder {
  // Both say "not now": the same message goes again a little later, with its clientId, so it is stored once.
  if (clientId && (code === 'rate_limited' || code === 'try_again')) b.do({ k: 'resendLater', clientId });
  else if (clientId) {
    b.do({ k: 'fail', clientId, reason: code === 'too_large' ? 'Too long' : 'Not sent' });
    if (b.state.startedLocally) {
      // The server refused to start the conversation: nothing is ongoing, and no End chat to offer.
      b.set({ startedLocally: false, nextRound: undefined, conversation: null }).do({ k: 'noAnswer', arm: false }).save({ ongoing: false });
    }
  }
  if (code === 'info_required') b.save({ infoGiven: false });
  if (code === 'privacy_not_accepted') b.save({ accepted: false });
  if (code === 'widget_offline') b.setOnline(false);
  if (code === 'unknown_widget' || code === 'not_allowed_here') b.set({ fatal: true }).do({ k: 'disconnect' });
  if (code === 'conversation_ended') b.set({ conversation: { id: b.state.conversation?.id ?? '', status: 'ended' } });
  return b.do({ k: 'banner', code, message }, { k: 'render', rebuild: true });
}

/** One thing the visitor, a timer or the browser did. */
export function reduceAction(state: PanelState, action: Action): Step {
  const b = new Builder(state);
  switch (action.a) {
    case 'expand':
      return b.set({ expanded: true, unread: 0 }).do({ k: 'unread', count: 0 }, { k: 'render', rebuild: false }).ensureSocket().done();
    case 'collapse':
      return b.set({ expanded: false }).done();
    case 'send':
      return send(b, action.text, action.clientId).done();
    case 'queue':
      // The visitor's Yes to an automatic answer ends their wait: no "sorry for the wait" after it.
      if (action.frame.t === 'helpful' && action.frame.helpful) b.set({ answered: true }).do({ k: 'noAnswer', arm: false });
      return b.queue(action.frame).done();
    case 'hold':
      return b
        .set({ waiting: [...b.state.waiting, action.frame] })
        .ensureSocket()
        .done();
    case 'accept':
      return b.save({ accepted: true }).queue({ t: 'info', acceptedPrivacy: true }).do({ k: 'render', rebuild: false }).done();
    case 'details':
      return b
        .set({ knownEmail: action.email })
        .save({ infoGiven: true })
        .queue({ t: 'info', name: action.name, email: action.email })
        .resendPending()
        .do({ k: 'render', rebuild: false })
        .done();
    case 'email':
      return b.set({ knownEmail: action.email }).queue({ t: 'info', email: action.email }).done();
    case 'retry': {
      const item = b.state.stored.pending?.find((p) => p.clientId === action.clientId);
      return (item ? b.do({ k: 'send', frame: { t: 'msg', clientId: item.clientId, text: item.text } }) : b).done();
    }
    case 'noAnswerDue':
      if (b.state.answered || b.state.conversation?.status !== 'open') return b.done();
      return b.do({ k: 'noAnswerNotice', withEmail: !!b.state.knownEmail }).done();
    case 'storage': {
      // A reset in another tab (the visitor token changed or went) is a reset here; otherwise keep this tab's pending.
      if (b.state.stored.token && action.stored.token !== b.state.stored.token)
        return b.set({ stored: action.stored }).resetView().do({ k: 'reconnect' }).done();
      return b.set({ stored: { ...action.stored, pending: b.state.stored.pending } }).done();
    }
    case 'identity':
      return b.set({ knownEmail: action.email ?? b.state.knownEmail }).done();
    case 'reset':
      return b
        .do({ k: 'disconnect' }, { k: 'save', patch: null })
        .set({ stored: {}, fatal: false, startedLocally: false, answered: false, waiting: [] })
        .resetView()
        .do({ k: 'render', rebuild: true })
        .ensureSocket()
        .done();
    default:
      return unknownAction(action, b);
  }
}

function unknownAction(_action: never, b: Builder): Step {
  return b.done();
}

function send(b: Builder, raw: string, clientId: string): Builder {
  const text = raw.trim();
  if (!text) return b;
  if (text.length > MESSAGE_CHARS) return b.do({ k: 'banner', code: 'too_large' });
  const conversation = b.state.conversation;
  const first = !conversation || conversation.status === 'ended';
  // The conversation after an ended one counts its seqs from 1 again, from the acknowledgement of this message.
  if (conversation?.status === 'ended') b.set({ nextRound: clientId });
  b.save({ pending: [...(b.state.stored.pending ?? []), { clientId, text }] })
    .do({ k: 'pending', clientId, text, autoAck: first })
    .ensureSocket()
    .do({ k: 'send', frame: { t: 'msg', clientId, text } });
  if (first) {
    b.set({ startedLocally: true, conversation: { id: '', status: 'open' }, answered: false })
      .save({ ongoing: true })
      .do({ k: 'emit', name: 'firstMessageSent', detail: { text } }, { k: 'noAnswer', arm: true }, { k: 'look' });
  }
  return b;
}
