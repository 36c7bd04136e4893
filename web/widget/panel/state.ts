/**
 * The panel's state, and the effects and actions the reducer (reducer.ts) speaks in: what the shell (index.ts and
 * its parts) reads and what it is told to do.
 */
import type { ChatMessage, ClientFrame, ServerFrame } from '../../../server/shared/widget-protocol';
import type { EventName, StoredState } from '../lib/types';

/** `rated`: the visitor rated it already (the welcome says so), so its end card thanks them instead of asking. */
export type Conversation = { id: string; status: 'open' | 'ended'; rated?: boolean } | null;
export type QuestionFrame = Extract<ServerFrame, { t: 'question' }>;
export type Screen = 'chat' | 'offline' | 'consent' | 'info';

export type PanelState = {
  /** What survives page loads, mirrored from localStorage (written through `save` effects). */
  stored: StoredState;
  online: boolean;
  expanded: boolean;
  /** The inline style is always shown, so it always wants its socket. */
  inline: boolean;
  conversation: Conversation;
  /** Highest seq accepted in the current round; the hello frame carries it. */
  lastSeq: number;
  /** Seqs accepted in the current round. */
  seen: readonly number[];
  /** Operator replies from Slack shown in the current round: where each went, and its Slack ts. */
  placed: readonly { key: number; ts: string }[];
  /** History up to the first welcome of this page: shown without events, chimes or unread counts. */
  historyUntil: number | undefined;
  /** Conversations started on this page after one ended: each restarts seq at 1. */
  round: number;
  /** The clientId of the first message after a conversation ended: its acknowledgement opens the next round. */
  nextRound: string | undefined;
  /** The first message of a conversation is out but not acknowledged: the conversation may still be refused. */
  startedLocally: boolean;
  /** An operator has replied in this conversation (no "sorry for the wait" then). */
  answered: boolean;
  knownEmail: string | undefined;
  /** Fresh operator messages while collapsed: the loader's badge. */
  unread: number;
  /** A refusal that retrying cannot fix (unknown widget, not allowed here): no socket any more. */
  fatal: boolean;
  /** Frames other than messages waiting for the next welcome (privacy acceptance, details, answers). */
  waiting: readonly ClientFrame[];
};

/** What the shell does for the reducer, in order. `key` orders history items: by round, then seq. */
export type Effect =
  /** Write this patch to localStorage (null: forget the visitor). */
  | { k: 'save'; patch: StoredState | null }
  /** Send now; when the socket cannot take it and `hold` is set, give it back as a `hold` action. */
  | { k: 'send'; frame: ClientFrame; hold?: boolean }
  /** Open the socket if it is not open (idempotent). */
  | { k: 'connect' }
  /** Close the socket; `connect` opens it again. */
  | { k: 'disconnect' }
  /** Drop the socket and open a new one at once (another visitor in another tab). */
  | { k: 'reconnect' }
  /** Empty the log: another visitor, or a reset. */
  | { k: 'clearView' }
  /** `first`: the visitor's first message of a conversation, which the automatic response follows. */
  | { k: 'message'; message: ChatMessage; key: number; fresh: boolean; first?: boolean }
  /** Draw a "Sending…" bubble unless it is drawn; `autoAck`: the first message, followed by the auto response. */
  | { k: 'pending'; clientId: string; text: string; autoAck: boolean }
  | { k: 'confirm'; clientId: string; id: string; key: number; first?: boolean }
  | { k: 'fail'; clientId: string; reason: 'Too long' | 'Not sent' }
  | { k: 'edit'; id: string; text: string; html?: string }
  | { k: 'remove'; id: string }
  | { k: 'typing'; on: boolean; author?: string }
  /** The end card (rating, transcript), also when the end comes in replayed history; `rated`: thank, do not ask. */
  | { k: 'ended'; key: number; by: 'visitor' | 'operator' | 'inactivity'; fresh: boolean; rated: boolean }
  | { k: 'askEmail'; key: number; email?: string }
  /** An operator's screenshot request waiting for the visitor's answer. */
  | { k: 'screenshot'; key: number; id: string }
  | { k: 'question'; key: number; question: QuestionFrame }
  /** Arm (or cancel) the "nobody answered yet" timer; it comes back as a `noAnswerDue` action. */
  | { k: 'noAnswer'; arm: boolean }
  | { k: 'noAnswerNotice'; withEmail: boolean }
  /** Rate limited: resend this message a little later (comes back as `resendDue`). */
  | { k: 'resendLater'; clientId: string }
  | { k: 'emit'; name: EventName; detail: unknown }
  /** Tell the site's developer, in the browser's console (not the visitor). */
  | { k: 'warn'; message: string }
  /** A fresh operator reply; `ifPageHidden`: the panel is open, so only chime when the page is not visible. */
  | { k: 'chime'; ifPageHidden: boolean }
  | { k: 'unread'; count: number }
  | { k: 'online'; online: boolean }
  /** Show the error for this code (the server's message as fallback), or hide the banner (no code). */
  | { k: 'banner'; code?: string; message?: string }
  | { k: 'config'; config: Record<string, unknown> }
  /** Redraw header and menu. */
  | { k: 'look' }
  /** Redraw and pick the screen again; `rebuild`: draw it anew even when it stays the same. */
  | { k: 'render'; rebuild: boolean };

/** What the visitor, the shell's timers and the browser do. */
export type Action =
  | { a: 'expand' }
  | { a: 'collapse' }
  | { a: 'send'; text: string; clientId: string }
  /** A frame other than a message (end, rate, transcript, answer): sent now or at the next welcome. */
  | { a: 'queue'; frame: ClientFrame }
  /** The socket could not take a frame sent with `hold`. */
  | { a: 'hold'; frame: ClientFrame }
  /** The visitor accepted the privacy notice. */
  | { a: 'accept' }
  /** The pre-chat form. */
  | { a: 'details'; name: string; email: string }
  /** An e-mail given in a prompt (the operator asked, or nobody answered yet). */
  | { a: 'email'; email: string }
  /** The visitor pressed Retry on a message that was not sent, or a rate-limited message is due again. */
  | { a: 'retry'; clientId: string }
  | { a: 'noAnswerDue' }
  /** Another tab changed the stored state. */
  | { a: 'storage'; stored: StoredState }
  /** identify() or configure() changed who the visitor is. */
  | { a: 'identity'; email: string | undefined }
  | { a: 'reset' };

export type Step = { state: PanelState; effects: Effect[] };
