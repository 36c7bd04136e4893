/**
 * The visitor's WebSocket: `hello` with the last shown sequence number on every (re)connect, heartbeats, and
 * reconnection with exponential backoff and jitter. Frames are parsed as JSON and handed over unchecked beyond
 * their shape tag: the server is the one validating with zod, and the panel stays free of zod's weight.
 */
import { HEARTBEAT_MS } from '../../../server/shared/widget-constants';
import type { ClientFrame, ServerFrame } from '../../../server/shared/widget-protocol';

const MAX_BACKOFF_MS = 30_000;

export type ConnectionEvents = {
  /** Builds the hello frame at each (re)connect, so it carries the current lastSeq and identity. */
  hello(): ClientFrame;
  frame(frame: ServerFrame): void;
  /** The socket opened (after hello was sent) or closed; the panel shows "reconnecting" meanwhile. */
  status(connected: boolean): void;
};

export class Connection {
  private socket: WebSocket | undefined;
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private lastHeard = 0;
  private stopped = true;
  connected = false;

  constructor(
    private readonly url: string,
    private readonly on: ConnectionEvents,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.open();
  }

  /** Closes for good (reset, or a refusal that retrying cannot fix). */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.drop();
  }

  /** Sends now when connected; answers false otherwise (the caller keeps it for the next welcome). */
  send(frame: ClientFrame): boolean {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN || !this.connected) return false;
    this.socket.send(JSON.stringify(frame));
    return true;
  }

  /** The network went away: drop the socket now rather than after heartbeats, and keep retrying. */
  interrupt(): void {
    if (this.stopped) return;
    this.drop();
    this.retry();
  }

  /** Reconnects at once (e.g. the browser came back online or the visitor changed). */
  restart(): void {
    this.drop();
    this.attempt = 0;
    if (!this.stopped) this.open();
  }

  private open(): void {
    clearTimeout(this.retryTimer);
    let socket: WebSocket;
    try {
      socket = new WebSocket(this.url);
    } catch {
      this.retry();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      this.lastHeard = Date.now();
      socket.send(JSON.stringify(this.on.hello()));
      this.pingTimer = setInterval(() => {
        // A socket that stays silent for two heartbeats is dead even if the browser has not noticed.
        if (Date.now() - this.lastHeard > HEARTBEAT_MS * 2 + 5_000) socket.close();
        else if (socket.readyState === WebSocket.OPEN) socket.send('{"t":"ping"}');
      }, HEARTBEAT_MS);
    };
    socket.onmessage = (event) => {
      this.lastHeard = Date.now();
      let frame: ServerFrame;
      try {
        frame = JSON.parse(String(event.data)) as ServerFrame;
      } catch {
        return;
      }
      if (!frame || typeof frame.t !== 'string') return;
      if (frame.t === 'welcome') {
        this.attempt = 0;
        this.connected = true;
        this.on.status(true);
      }
      this.on.frame(frame);
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.drop();
      this.retry();
    };
  }

  private drop(): void {
    clearInterval(this.pingTimer);
    const socket = this.socket;
    this.socket = undefined;
    if (socket) {
      socket.onclose = socket.onmessage = socket.onopen = null;
      if (socket.readyState <= WebSocket.OPEN) socket.close();
    }
    if (this.connected) {
      this.connected = false;
      this.on.status(false);
    }
  }

  private retry(): void {
    if (this.stopped) return;
    // Exponential backoff with full jitter, so a restarted server is not hit by every widget at once.
    const ceiling = Math.min(MAX_BACKOFF_MS, 500 * 2 ** this.attempt++);
    this.retryTimer = setTimeout(() => this.open(), ceiling / 2 + Math.random() * (ceiling / 2));
  }
}
