import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type {
  ApiCall,
  Channel,
  DeliveryRecord,
  EphemeralMessage,
  Installation,
  Message,
  OAuthCode,
  ResponseUrlPost,
  SandboxData,
  SandboxFile,
  SandboxUser,
  SandboxView,
  Workspace,
} from './types';

export interface TokenInfo {
  kind: 'bot' | 'user';
  token: string;
  installation: Installation;
  /** The user the token acts as: the bot user for bot tokens. */
  userId: string;
  scopes: string[];
}

interface Fault {
  kind: 'ratelimit' | 'status';
  until?: number; // ms epoch, for rate limits and outage windows
  retryAfter?: number; // seconds
  remaining?: number; // for failNext
  status?: number;
}

/** How an accepted call loses its answer: the connection is reset at once, or held open until `holdMs` passed. */
export type DropMode = 'reset' | 'hang';

interface Drop {
  mode: DropMode;
  holdMs: number;
  until?: number; // ms epoch, for a window
  remaining?: number; // for a number of calls
}

/** A dropped answer: how the Web API router ends the connection of a call it carried out. */
export interface DroppedAnswer {
  mode: DropMode;
  holdMs: number;
}

const MAX_LOG = 2000;

/**
 * The sandbox's whole state plus the knobs tests turn (rate limits, outages).
 * Mutations go through methods so that the operator page is told (`change`) and the data file is written.
 */
export class SandboxState extends EventEmitter {
  data: SandboxData;
  /** Every Web API call received, newest last (token removed). */
  readonly calls: ApiCall[] = [];
  /** Every delivery to the app (events, commands, interactivity), newest last. */
  readonly deliveries: DeliveryRecord[] = [];
  /** OAuth codes are short-lived and kept out of the data file. */
  readonly codes = new Map<string, OAuthCode>();
  /** trigger_id → expiry and owner; a trigger is valid for a short time and only once. */
  readonly triggers = new Map<string, { teamId: string; userId: string; expiresAt: number; used: boolean }>();
  private readonly faults = new Map<string, Fault>();
  private readonly drops = new Map<string, Drop>();
  /** Connections of calls whose answer is being withheld ('hang'), ended by clearFaults or when their time is up. */
  private readonly held = new Set<{ destroy(): void }>();
  private lastTsMicros = 0;
  private saveTimer: NodeJS.Timeout | null = null;
  private saving: Promise<void> | null = null;
  // Indexes over data.messages (which stays the stored truth): by channel+ts, per channel, per thread.
  private readonly byKey = new Map<string, Message>();
  private readonly byChannel = new Map<string, Message[]>();
  private readonly byThread = new Map<string, Message[]>();
  version = 0;

  constructor(
    data: SandboxData,
    private readonly dataFile?: string,
  ) {
    super();
    this.data = data;
    this.setMaxListeners(100);
    for (const m of data.messages) {
      this.lastTsMicros = Math.max(this.lastTsMicros, tsToMicros(m.ts));
      this.index(m);
    }
  }

  private index(m: Message): void {
    this.byKey.set(`${m.channel}:${m.ts}`, m);
    push(this.byChannel, m.channel, m);
    if (m.threadTs && m.threadTs !== m.ts) push(this.byThread, `${m.channel}:${m.threadTs}`, m);
  }

  /** Stores a new message (its ts must be newer than every other, as nextTs gives). */
  addMessage(m: Message): void {
    this.data.messages.push(m);
    this.index(m);
  }

  removeMessage(m: Message): void {
    this.data.messages = this.data.messages.filter((x) => x !== m);
    this.byKey.delete(`${m.channel}:${m.ts}`);
    drop(this.byChannel, m.channel, m);
    if (m.threadTs && m.threadTs !== m.ts) drop(this.byThread, `${m.channel}:${m.threadTs}`, m);
  }

  static load(dataFile: string): SandboxData | null {
    if (!existsSync(dataFile)) return null;
    return JSON.parse(readFileSync(dataFile, 'utf8')) as SandboxData;
  }

  // ---- ids -------------------------------------------------------------------------------------

  nextId(prefix: string): string {
    this.data.counter += 1;
    return `${prefix}${(0x10000000 + this.data.counter * 7919).toString(36).toUpperCase()}${randomBytes(2).toString('hex').toUpperCase()}`;
  }

  /** Message timestamps are unique and increasing per sandbox, like Slack's per channel. */
  nextTs(): string {
    const now = Date.now() * 1000;
    this.lastTsMicros = Math.max(now, this.lastTsMicros + 1);
    return microsToTs(this.lastTsMicros);
  }

  // ---- lookups ---------------------------------------------------------------------------------

  get workspaces(): Workspace[] {
    return this.data.workspaces;
  }
  get users(): SandboxUser[] {
    return this.data.users;
  }
  get channels(): Channel[] {
    return this.data.channels;
  }
  get messages(): Message[] {
    return this.data.messages;
  }
  get files(): SandboxFile[] {
    return this.data.files;
  }
  get views(): SandboxView[] {
    return this.data.views;
  }
  get installations(): Installation[] {
    return this.data.installations;
  }
  get ephemerals(): EphemeralMessage[] {
    return this.data.ephemerals;
  }
  get responses(): ResponseUrlPost[] {
    return this.data.responses;
  }

  workspace(id: string): Workspace | undefined {
    return this.data.workspaces.find((w) => w.id === id);
  }

  user(id: string): SandboxUser | undefined {
    return this.data.users.find((u) => u.id === id);
  }

  usersOf(teamId: string): SandboxUser[] {
    return this.data.users.filter((u) => u.teamId === teamId);
  }

  channel(id: string): Channel | undefined {
    return this.data.channels.find((c) => c.id === id);
  }

  /** The team's channels; direct messages with the app are not channels and stay out. */
  channelsOf(teamId: string): Channel[] {
    return this.data.channels.filter((c) => c.teamId === teamId && !c.isIm);
  }

  channelByName(teamId: string, name: string): Channel | undefined {
    return this.data.channels.find((c) => c.teamId === teamId && c.name === name);
  }

  message(channel: string, ts: string): Message | undefined {
    return this.byKey.get(`${channel}:${ts}`);
  }

  /** Top-level messages of a channel (and replies broadcast to it), oldest first. */
  channelMessages(channel: string): Message[] {
    return (this.byChannel.get(channel) ?? []).filter((m) => !m.threadTs || m.threadTs === m.ts || m.replyBroadcast);
  }

  /** The replies of a thread, oldest first (without the parent). */
  replies(channel: string, threadTs: string): Message[] {
    return (this.byThread.get(`${channel}:${threadTs}`) ?? []).slice();
  }

  file(id: string): SandboxFile | undefined {
    return this.data.files.find((f) => f.id === id);
  }

  view(id: string): SandboxView | undefined {
    return this.data.views.find((v) => v.id === id);
  }

  homeView(teamId: string, userId: string): SandboxView | undefined {
    return this.data.views.find((v) => v.type === 'home' && v.teamId === teamId && v.user === userId);
  }

  /** The stack of open modals of a user, root first. */
  openModals(teamId: string, userId: string): SandboxView[] {
    return this.data.views.filter((v) => v.type === 'modal' && v.open && v.teamId === teamId && v.user === userId);
  }

  installation(teamId: string): Installation | undefined {
    return this.data.installations.find((i) => i.teamId === teamId);
  }

  ephemeralsFor(teamId: string, userId: string, channel?: string): EphemeralMessage[] {
    return this.data.ephemerals.filter((e) => e.teamId === teamId && e.user === userId && (!channel || e.channel === channel));
  }

  responsesFor(teamId: string): ResponseUrlPost[] {
    return this.data.responses.filter((r) => r.teamId === teamId);
  }

  resolveToken(token: string): TokenInfo | 'revoked' | null {
    for (const inst of this.data.installations) {
      if (inst.botToken === token) {
        return { kind: 'bot', token, installation: inst, userId: inst.botUserId, scopes: inst.botScopes };
      }
      for (const [userId, t] of Object.entries(inst.userTokens)) {
        if (t.token === token) return { kind: 'user', token, installation: inst, userId, scopes: t.scopes };
      }
    }
    if (this.data.revokedTokens.some((r) => r.token === token)) return 'revoked';
    return null;
  }

  // ---- test knobs ------------------------------------------------------------------------------

  /**
   * Makes `method` (or every method with '*') answer HTTP 429 `ratelimited` with `Retry-After: seconds`
   * until that many seconds have passed, as Slack does when a tier's budget is spent.
   */
  rateLimit(method: string, seconds: number): void {
    this.faults.set(method, { kind: 'ratelimit', until: Date.now() + seconds * 1000, retryAfter: seconds });
  }

  /** Makes the next `times` calls of `method` (or '*') fail with HTTP `status` (a Slack outage; 429 says Retry-After: 1). */
  failNext(method: string, times: number, status = 500): void {
    this.faults.set(method, { kind: 'status', remaining: times, status });
  }

  /** Makes every call of `method` (or '*') fail with HTTP `status` for `seconds` (an outage window); nothing is carried out. */
  failFor(method: string, seconds: number, status = 503): void {
    this.faults.set(method, { kind: 'status', until: Date.now() + seconds * 1000, status });
  }

  /**
   * Makes Slack carry out calls of `method` (or '*') and then lose the answer, as when a connection breaks after
   * the request arrived: the post is stored and its events are sent, but the caller hears nothing. For the next
   * `times` calls that Slack carries out, or for every one during `seconds`. `mode` 'reset' (default) destroys
   * the connection at once (the caller sees a socket hang-up); 'hang' holds it open without an answer for
   * `holdMs` (default 60 s, past any sane client timeout) and then destroys it.
   */
  dropResponses(method: string, opts: { times?: number; seconds?: number; mode?: DropMode; holdMs?: number }): void {
    if (opts.times === undefined && opts.seconds === undefined) throw new Error('dropResponses needs times or seconds');
    this.drops.set(method, {
      mode: opts.mode ?? 'reset',
      holdMs: opts.holdMs ?? 60_000,
      ...(opts.seconds !== undefined ? { until: Date.now() + opts.seconds * 1000 } : { remaining: opts.times }),
    });
  }

  /** Ends every rate limit, outage and lost answer set by rateLimit/failNext/failFor/dropResponses; held connections are closed. */
  clearFaults(): void {
    this.faults.clear();
    this.drops.clear();
    this.releaseHeld();
  }

  /** The faults in force, described for the operator page (e.g. "chat.postMessage: answers lost (reset), 2 more calls"). */
  activeFaults(now = Date.now()): { method: string; what: string }[] {
    const left = (until: number) => `${Math.max(1, Math.ceil((until - now) / 1000))} s left`;
    const out: { method: string; what: string }[] = [];
    for (const [method, f] of this.faults) {
      if (f.until !== undefined && f.until <= now) continue;
      if (f.until === undefined && (f.remaining ?? 0) <= 0) continue;
      const kind = f.kind === 'ratelimit' ? 'HTTP 429 ratelimited' : `HTTP ${f.status ?? 500}`;
      out.push({ method, what: `${kind}, ${f.until !== undefined ? left(f.until) : `${f.remaining} more calls`}` });
    }
    for (const [method, d] of this.drops) {
      if (d.until !== undefined ? d.until <= now : (d.remaining ?? 0) <= 0) continue;
      out.push({ method, what: `answers lost (${d.mode}), ${d.until !== undefined ? left(d.until) : `${d.remaining} more calls`}` });
    }
    return out;
  }

  /** Destroys every connection held without an answer. */
  releaseHeld(): void {
    for (const socket of this.held) socket.destroy();
    this.held.clear();
  }

  /** Holds a connection without an answer for `ms`, then destroys it (or sooner, on clearFaults). */
  hold(socket: { destroy(): void }, ms: number): void {
    this.held.add(socket);
    setTimeout(() => {
      if (this.held.delete(socket)) socket.destroy();
    }, ms).unref();
  }

  /** Consumes the lost-answer fault that applies to a carried-out call of `method`, if any. */
  takeDrop(method: string): DroppedAnswer | null {
    for (const key of [method, '*']) {
      const d = this.drops.get(key);
      if (!d) continue;
      if (d.until !== undefined) {
        if (d.until <= Date.now()) {
          this.drops.delete(key);
          continue;
        }
        return { mode: d.mode, holdMs: d.holdMs };
      }
      if ((d.remaining ?? 0) <= 0) {
        this.drops.delete(key);
        continue;
      }
      d.remaining = (d.remaining ?? 0) - 1;
      return { mode: d.mode, holdMs: d.holdMs };
    }
    return null;
  }

  /** Consumes the fault that applies to a call of `method`, if any. */
  takeFault(method: string): { status: number; retryAfter?: number } | null {
    for (const key of [method, '*']) {
      const f = this.faults.get(key);
      if (!f) continue;
      if (f.kind === 'ratelimit') {
        const left = (f.until ?? 0) - Date.now();
        if (left <= 0) {
          this.faults.delete(key);
          continue;
        }
        return { status: 429, retryAfter: Math.max(1, Math.ceil(left / 1000)) };
      }
      // Slack's 429 always says when to come back.
      if (f.until !== undefined) {
        const left = f.until - Date.now();
        if (left <= 0) {
          this.faults.delete(key);
          continue;
        }
        const status = f.status ?? 503;
        return status === 429 ? { status, retryAfter: Math.max(1, Math.ceil(left / 1000)) } : { status };
      }
      if ((f.remaining ?? 0) <= 0) {
        this.faults.delete(key);
        continue;
      }
      f.remaining = (f.remaining ?? 0) - 1;
      const status = f.status ?? 500;
      return status === 429 ? { status, retryAfter: 1 } : { status };
    }
    return null;
  }

  /** Calls of one method, for assertions. */
  callsOf(method: string): ApiCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  logCall(call: ApiCall): void {
    this.calls.push(call);
    if (this.calls.length > MAX_LOG) this.calls.splice(0, this.calls.length - MAX_LOG);
  }

  logDelivery(record: DeliveryRecord): void {
    this.deliveries.push(record);
    if (this.deliveries.length > MAX_LOG) this.deliveries.splice(0, this.deliveries.length - MAX_LOG);
    this.changed();
  }

  /** Sets a user's presence (what users.getPresence answers). */
  setPresence(userId: string, presence: 'active' | 'away'): void {
    const u = this.user(userId);
    if (!u) throw new Error(`no such user ${userId}`);
    u.presence = presence;
    this.changed();
  }

  // ---- change tracking and persistence ---------------------------------------------------------

  /** Signals a change: the operator page refreshes and the data file is rewritten soon. */
  changed(): void {
    this.version += 1;
    this.emit('change', this.version);
    // At most one write a second: a busy relay must not spend its time serialising the sandbox.
    if (this.dataFile && !this.saveTimer) {
      this.saveTimer = setTimeout(() => {
        this.saveTimer = null;
        void this.saveSoon();
      }, SAVE_EVERY_MS);
    }
  }

  private async saveSoon(): Promise<void> {
    if (!this.dataFile) return;
    await this.saving;
    const file = this.dataFile;
    const tmp = `${file}.${process.pid}.tmp`;
    const json = JSON.stringify(this.data);
    this.saving = (async () => {
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(tmp, json);
      await rename(tmp, file);
    })().catch((err: unknown) => console.error('[slack sandbox] could not save', file, err));
    await this.saving;
  }

  /** Waits for a write in progress, then writes the latest state (on close). */
  async flush(): Promise<void> {
    if (this.saveTimer) {
      clearTimeout(this.saveTimer);
      this.saveTimer = null;
    }
    await this.saving;
    this.saveNow();
  }

  /** Writes the data file now, synchronously (at start). */
  saveNow(): void {
    if (!this.dataFile) return;
    if (this.saveTimer) {
      clearTimeout(this.saveTimer);
      this.saveTimer = null;
    }
    mkdirSync(path.dirname(this.dataFile), { recursive: true });
    const tmp = `${this.dataFile}.${process.pid}.sync.tmp`;
    writeFileSync(tmp, JSON.stringify(this.data));
    renameSync(tmp, this.dataFile);
  }
}

const SAVE_EVERY_MS = 1000;

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function drop<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (!list) return;
  const i = list.indexOf(value);
  if (i >= 0) list.splice(i, 1);
}

function tsToMicros(ts: string): number {
  const [s, f = '0'] = ts.split('.');
  return Number(s) * 1_000_000 + Number(f.padEnd(6, '0').slice(0, 6));
}

function microsToTs(micros: number): string {
  const s = Math.floor(micros / 1_000_000);
  const f = micros % 1_000_000;
  return `${s}.${String(f).padStart(6, '0')}`;
}
