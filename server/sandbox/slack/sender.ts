// The sender: delivers signed requests to the app exactly as Slack does — Events API envelopes (with retries),
// slash commands and interactivity payloads — and applies what the app answers (ack bodies, response_action).
import { createHmac, randomBytes } from 'node:crypto';
import { keepAliveFetch } from '../../keepAliveFetch';
import { deleteMessage, postMessage, SlackApiError, updateMessage } from './ops';
import type { PresentContext } from './present';
import { messageObject, viewObject } from './present';
import type { DeliveryAttempt, DeliveryRecord, EphemeralMessage, Installation, Message, PendingRetry, SandboxView } from './types';
import { checkView, newHash, pushModal } from './views';

export interface SenderConfig {
  signingSecret: string;
  /** The app's slash commands; others are answered by Slackbot as not valid and never sent. */
  commands: string[];
  verificationToken: string;
  eventsUrl: string;
  interactivityUrl: string;
  commandsUrl: string;
  /** Delay before retry 1, 2 and 3 of an event. Slack: about immediately, 1 minute, 5 minutes. */
  retryDelaysMs: number[];
  /** How long Slack waits for the app's answer before calling it a failure (3 s). */
  ackTimeoutMs: number;
  /** How long a trigger_id may be exchanged (3 s at Slack). */
  triggerTtlMs: number;
}

/** What happened to one delivery: each attempt, and the app's final answer. */
export interface DeliveryResult {
  /** True when an attempt got a 2xx answer in time. */
  ok: boolean;
  /** Set when Slack would not have sent anything (e.g. `app_not_installed`). */
  skipped?: string;
  /** HTTP status of the last attempt, when one was answered. */
  status?: number;
  /** Body of the last answer, as text. */
  body?: string;
  /** Body of the last answer parsed as JSON, when it was JSON. */
  json?: unknown;
  attempts: DeliveryAttempt[];
  eventId?: string;
  triggerId?: string;
  responseUrl?: string;
  /** For view submissions: the errors the app returned with response_action: errors. */
  viewErrors?: Record<string, string>;
}

export interface ResponseUrlTarget {
  teamId: string;
  channel?: string;
  user: string;
  messageTs?: string;
  /** Set when the action came from an ephemeral message, which replace_original/delete_original then change. */
  ephemeralId?: string;
  threadTs?: string;
  expiresAt: number;
  usesLeft: number;
}

const NO_RETRY_HEADER = 'x-slack-no-retry';
const MAX_ENVELOPES = 2000;
const SWEEP_EVERY = 500;
export const MAX_KEPT = 500;

export class Sender {
  private readonly pending = new Set<Promise<unknown>>();
  /** Retries waiting for their delay: close() ends the wait, and the retry is dropped. */
  private readonly timers = new Map<NodeJS.Timeout, () => void>();
  private readonly aborts = new Set<AbortController>();
  private closed = false;
  private sweepCountdown = SWEEP_EVERY;
  readonly responseUrls = new Map<string, ResponseUrlTarget>();
  /** Envelopes sent, by event_id, so an event can be delivered again as a Slack retry. */
  private readonly envelopes = new Map<string, { teamId: string; summary: string; body: string; attempts: number }>();

  constructor(
    private readonly ctx: PresentContext,
    readonly config: SenderConfig,
  ) {}

  /** Forgets expired triggers, response URLs and OAuth codes now and then, so a long run does not grow. */
  private sweep(): void {
    this.sweepCountdown -= 1;
    if (this.sweepCountdown > 0) return;
    this.sweepCountdown = SWEEP_EVERY;
    const now = Date.now();
    for (const [id, t] of this.ctx.state.triggers) if (t.expiresAt < now) this.ctx.state.triggers.delete(id);
    for (const [id, r] of this.responseUrls) if (r.expiresAt < now || r.usesLeft <= 0) this.responseUrls.delete(id);
    for (const [code, c] of this.ctx.state.codes) if (c.expiresAt < now) this.ctx.state.codes.delete(code);
  }

  /** Signs a body the way Slack does: v0=HMAC-SHA256(secret, "v0:{timestamp}:{body}"). */
  sign(body: string, timestamp: number): string {
    return `v0=${createHmac('sha256', this.config.signingSecret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
  }

  /** Resolves when every delivery started so far (including queued retries) has finished. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  /** Drops every pending retry and aborts requests in flight, so settled() resolves at once after it. */
  close(): void {
    this.closed = true;
    for (const [t, wake] of this.timers) {
      clearTimeout(t);
      wake();
    }
    for (const a of this.aborts) a.abort();
    this.timers.clear();
  }

  track<T>(p: Promise<T>): Promise<T> {
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p)).catch(() => undefined);
    return p;
  }

  newTrigger(teamId: string, userId: string): string {
    this.sweep();
    const id = `${Math.floor(Date.now() / 1000)}.${randomDigits(12)}.${randomBytes(16).toString('hex')}`;
    this.ctx.state.triggers.set(id, { teamId, userId, expiresAt: Date.now() + this.config.triggerTtlMs, used: false });
    return id;
  }

  newResponseUrl(target: Omit<ResponseUrlTarget, 'expiresAt' | 'usesLeft'>): string {
    this.sweep();
    const id = `${target.teamId}/${randomDigits(13)}/${randomBytes(12).toString('hex')}`;
    // Slack: a response_url works up to five times within thirty minutes.
    this.responseUrls.set(id, { ...target, expiresAt: Date.now() + 30 * 60_000, usesLeft: 5 });
    return `${this.ctx.baseUrl}/response/${id}`;
  }

  // ---- Events API ------------------------------------------------------------------------------

  /** Wraps `event` in an event_callback envelope and delivers it with Slack's retry policy. */
  sendEvent(
    teamId: string,
    event: Record<string, unknown>,
    opts: { retries?: number; installation?: Installation } = {},
  ): Promise<DeliveryResult> {
    const inst = opts.installation ?? this.ctx.state.installation(teamId);
    if (!inst) return Promise.resolve({ ok: false, skipped: 'app_not_installed', attempts: [] });
    const eventId = `Ev${this.ctx.state.nextId('')}`;
    const envelope = {
      token: this.config.verificationToken,
      team_id: teamId,
      context_team_id: teamId,
      context_enterprise_id: null,
      api_app_id: this.ctx.appId,
      event: { ...event, event_ts: event.event_ts ?? eventTsNow() },
      type: 'event_callback',
      event_id: eventId,
      event_time: Math.floor(Date.now() / 1000),
      authorizations: [{ enterprise_id: null, team_id: teamId, user_id: inst.botUserId, is_bot: true, is_enterprise_install: false }],
      is_ext_shared_channel: false,
      event_context: `4-${Buffer.from(JSON.stringify({ et: event.type, tid: teamId, aid: this.ctx.appId })).toString('base64url')}`,
    };
    const retries = Math.min(opts.retries ?? 3, this.config.retryDelaysMs.length);
    const summary = `event ${String(event.type)}${event.subtype ? `/${String(event.subtype)}` : ''}`;
    const body = JSON.stringify(envelope);
    this.envelopes.set(eventId, { teamId, summary, body, attempts: 0 });
    if (this.envelopes.size > MAX_ENVELOPES) this.envelopes.delete(this.envelopes.keys().next().value as string);
    return this.track(
      this.deliver({
        kind: 'event',
        teamId,
        eventId,
        url: this.config.eventsUrl,
        summary,
        body,
        contentType: 'application/json',
        retries,
      }).then((r) => ({ ...r, eventId })),
    );
  }

  /** Sends the url_verification challenge Slack sends when the Events URL is set; ok when the app echoes it. */
  async verifyEventsUrl(): Promise<DeliveryResult & { challengeEchoed: boolean }> {
    const challenge = randomBytes(24).toString('base64url');
    const body = JSON.stringify({ token: this.config.verificationToken, challenge, type: 'url_verification' });
    const r = await this.track(
      this.deliver({
        kind: 'url_verification',
        url: this.config.eventsUrl,
        summary: 'url_verification',
        body,
        contentType: 'application/json',
        retries: 0,
      }),
    );
    const echoed = r.ok && (r.body === challenge || (isRecord(r.json) && r.json.challenge === challenge));
    return { ...r, challengeEchoed: echoed };
  }

  // ---- slash commands and interactivity --------------------------------------------------------

  async sendSlashCommand(input: {
    teamId: string;
    userId: string;
    channelId: string;
    command: string;
    text: string;
  }): Promise<DeliveryResult> {
    const { state } = this.ctx;
    const ws = state.workspace(input.teamId);
    const user = state.user(input.userId);
    const channel = state.channel(input.channelId);
    if (!ws || !user || !channel) throw new Error('sendSlashCommand: unknown team, user or channel');
    if (!state.installation(input.teamId) || !this.config.commands.includes(input.command)) {
      this.recordEphemeral({
        teamId: ws.id,
        channel: channel.id,
        user: user.id,
        text: `${input.command} is not a valid command. In Slack, all messages that start with the "/" character are interpreted as commands.`,
        from: 'ack',
      });
      return { ok: false, skipped: state.installation(input.teamId) ? 'unknown_command' : 'app_not_installed', attempts: [] };
    }
    const triggerId = this.newTrigger(input.teamId, input.userId);
    const responseUrl = this.newResponseUrl({ teamId: input.teamId, channel: channel.id, user: input.userId });
    const form = new URLSearchParams({
      token: this.config.verificationToken,
      team_id: ws.id,
      team_domain: ws.domain,
      channel_id: channel.id,
      channel_name: channel.name,
      user_id: user.id,
      user_name: user.name,
      command: input.command,
      text: input.text,
      api_app_id: this.ctx.appId,
      is_enterprise_install: 'false',
      response_url: responseUrl,
      trigger_id: triggerId,
    });
    const r = await this.track(
      this.deliver({
        kind: 'slash_command',
        teamId: ws.id,
        url: this.config.commandsUrl,
        summary: `${input.command} ${input.text}`.trim(),
        body: form.toString(),
        contentType: 'application/x-www-form-urlencoded',
        retries: 0,
      }),
    );
    this.applyCommandAck(r, { teamId: ws.id, channel: channel.id, user: user.id, command: input.command });
    return { ...r, triggerId, responseUrl };
  }

  /** The synchronous answer to a slash command is shown to the user like a response_url post. */
  private applyCommandAck(r: DeliveryResult, where: { teamId: string; channel: string; user: string; command: string }): void {
    if (!r.ok) {
      const why = r.attempts.at(-1)?.failure === 'http_timeout' ? 'operation_timeout' : 'dispatch_failed';
      this.recordEphemeral({ ...where, text: `${where.command} failed with the error "${why}"`, from: 'ack' });
      return;
    }
    if (isRecord(r.json)) {
      try {
        this.applyResponse(where, r.json, 'ack');
      } catch {
        // An ack body without text is legal (Bolt's bare ack() sends none): nothing to show.
      }
    } else if (r.body && r.body.trim() !== '') {
      this.recordEphemeral({ ...where, text: r.body, from: 'ack' });
    }
  }

  recordEphemeral(e: {
    teamId: string;
    channel: string;
    user: string;
    text: string;
    blocks?: unknown[];
    threadTs?: string;
    from: 'chat.postEphemeral' | 'response_url' | 'ack';
  }): string {
    const { state } = this.ctx;
    const messageTs = state.nextTs();
    state.data.ephemerals.push({
      id: state.nextId('E'),
      teamId: e.teamId,
      channel: e.channel,
      user: e.user,
      text: e.text,
      blocks: e.blocks,
      threadTs: e.threadTs,
      messageTs,
      from: e.from,
      at: Date.now(),
    });
    // Ephemeral messages are short-lived at Slack too; only the recent ones are kept.
    if (state.data.ephemerals.length > MAX_KEPT) state.data.ephemerals.splice(0, state.data.ephemerals.length - MAX_KEPT);
    state.changed();
    return messageTs;
  }

  /**
   * Sends an interactivity payload. `payload` is completed with the common fields (token, api_app_id, team,
   * user, trigger_id, enterprise); the sandbox then applies what the app answers.
   */
  async sendInteraction(
    teamId: string,
    userId: string,
    payload: Record<string, unknown>,
    extra: { view?: SandboxView } = {},
  ): Promise<DeliveryResult> {
    const { state } = this.ctx;
    const ws = state.workspace(teamId);
    const user = state.user(userId);
    if (!ws || !user) throw new Error('sendInteraction: unknown team or user');
    if (!state.installation(teamId)) return { ok: false, skipped: 'app_not_installed', attempts: [] };
    const triggerId = this.newTrigger(teamId, userId);
    const full: Record<string, unknown> = {
      type: payload.type,
      user: { id: user.id, username: user.name, name: user.name, team_id: teamId },
      api_app_id: this.ctx.appId,
      token: this.config.verificationToken,
      trigger_id: triggerId,
      team: { id: ws.id, domain: ws.domain },
      enterprise: null,
      is_enterprise_install: false,
      ...payload,
    };
    const body = new URLSearchParams({ payload: JSON.stringify(full) }).toString();
    const r = await this.track(
      this.deliver({
        kind: 'interactivity',
        teamId,
        url: this.config.interactivityUrl,
        summary: summarize(full),
        body,
        contentType: 'application/x-www-form-urlencoded',
        retries: 0,
      }),
    );
    const result: DeliveryResult = { ...r, triggerId, responseUrl: typeof full.response_url === 'string' ? full.response_url : undefined };
    if (payload.type === 'view_submission' && extra.view) this.applyViewSubmissionAck(result, extra.view);
    return result;
  }

  /** Applies a view_submission answer: close (empty body), errors, update, push or clear. */
  private applyViewSubmissionAck(r: DeliveryResult, view: SandboxView): void {
    const { state } = this.ctx;
    if (!r.ok) {
      // What Slack shows in the modal when the app failed or was too slow; the modal stays open.
      view.errors = { '': 'We had some trouble connecting. Try again?' };
      r.viewErrors = view.errors;
      state.changed();
      return;
    }
    const answer = isRecord(r.json) ? r.json : null;
    const action = answer?.response_action;
    if (action === 'errors' && isRecord(answer?.errors)) {
      view.errors = Object.fromEntries(Object.entries(answer.errors).map(([k, v]) => [k, String(v)]));
      r.viewErrors = view.errors;
      state.changed();
      return;
    }
    view.errors = undefined;
    if (action === 'update' && isRecord(answer?.view)) {
      view.definition = answer.view;
      view.values = {};
      view.hash = newHash();
    } else if (action === 'push' && isRecord(answer?.view)) {
      try {
        pushModal(this.ctx, view.teamId, view.user, checkView(answer.view, 'modal'));
      } catch (err) {
        r.ok = false;
        r.viewErrors = { '': err instanceof SlackApiError ? err.error : String(err) };
      }
    } else if (action === 'clear') {
      for (const v of state.openModals(view.teamId, view.user)) v.open = false;
    } else {
      view.open = false;
    }
    state.changed();
  }

  /**
   * Applies a message the app sent back — through a response_url or as the body of its ack — the way Slack
   * shows it: ephemeral to the user by default, in the channel with response_type in_channel, or replacing or
   * deleting the message the action came from.
   */
  applyResponse(
    target: { teamId: string; channel?: string; user: string; messageTs?: string; threadTs?: string; ephemeralId?: string },
    body: Record<string, unknown>,
    from: 'response_url' | 'ack',
  ): void {
    const { state } = this.ctx;
    const ephemeral = target.ephemeralId ? state.data.ephemerals.find((e) => e.id === target.ephemeralId) : undefined;
    if (ephemeral && isTruthy(body.delete_original)) {
      state.data.ephemerals = state.data.ephemerals.filter((e) => e !== ephemeral);
      state.changed();
      return;
    }
    if (ephemeral && isTruthy(body.replace_original)) {
      const text = typeof body.text === 'string' ? body.text : '';
      const blocks = Array.isArray(body.blocks) ? body.blocks : undefined;
      if (!text && !blocks) throw new SlackApiError('no_text');
      ephemeral.text = text;
      ephemeral.blocks = blocks;
      state.changed();
      return;
    }
    const channel = target.channel ? state.channel(target.channel) : undefined;
    const original = channel && target.messageTs ? state.message(channel.id, target.messageTs) : undefined;
    const inst = state.installation(target.teamId);
    if (isTruthy(body.delete_original)) {
      if (original) deleteMessage(this.ctx, original);
      return;
    }
    const text = typeof body.text === 'string' ? body.text : '';
    const blocks = Array.isArray(body.blocks) ? body.blocks : undefined;
    if (!text && !blocks) throw new SlackApiError('no_text');
    if (isTruthy(body.replace_original) && original) {
      // A replacement is the whole new message: blocks not given are gone.
      updateMessage(this.ctx, original, { text, blocks: blocks ?? [], editor: inst?.botUserId ?? original.user });
      return;
    }
    if (!channel) throw new SlackApiError('channel_not_found');
    if (body.response_type === 'in_channel') {
      if (!inst) throw new SlackApiError('invalid_auth');
      const threadTs = typeof body.thread_ts === 'string' ? body.thread_ts : target.threadTs;
      postMessage(this.ctx, { teamId: target.teamId, channel, user: inst.botUserId, text, blocks, threadTs });
      return;
    }
    this.recordEphemeral({ teamId: target.teamId, channel: channel.id, user: target.user, text, blocks, threadTs: target.threadTs, from });
  }

  // ---- delivery with retries -------------------------------------------------------------------

  private async deliver(d: {
    kind: DeliveryRecord['kind'];
    teamId?: string;
    url: string;
    summary: string;
    body: string;
    contentType: string;
    retries: number;
    eventId?: string;
    /** For a redelivery: the x-slack-retry-num and reason of its first attempt. */
    firstRetry?: { num: number; reason: string };
    /** A retry resumed after a restart waits until its time (ms since the epoch). */
    notBefore?: number;
  }): Promise<DeliveryResult> {
    const record: DeliveryRecord = {
      id: this.ctx.state.nextId('D'),
      kind: d.kind,
      teamId: d.teamId,
      eventId: d.eventId,
      url: d.url,
      summary: d.summary,
      attempts: [],
      ok: false,
    };
    let last: DeliveryResult = { ok: false, attempts: record.attempts };
    const first = d.firstRetry?.num ?? 0;
    if (d.notBefore !== undefined && d.notBefore > Date.now()) await this.sleep(d.notBefore - Date.now());
    for (let retryNum = first; retryNum <= first + d.retries; retryNum++) {
      if (this.closed) break;
      const reason = retryNum === first ? d.firstRetry?.reason : record.attempts.at(-1)?.failure;
      if (retryNum > first) {
        const delay = this.config.retryDelaysMs[retryNum - 1] ?? 0;
        // Written down before the wait, so a restart in between still sends it (Slack keeps retrying too).
        if (d.eventId && d.kind === 'event') {
          this.rememberRetry({
            eventId: d.eventId,
            teamId: d.teamId ?? '',
            summary: d.summary,
            body: d.body,
            retryNum,
            reason: reason ?? 'http_error',
            dueAt: Date.now() + delay,
            retriesLeft: first + d.retries - retryNum,
          });
        }
        await this.sleep(delay);
      }
      if (this.closed) break;
      const attempt = await this.attempt(d.url, d.body, d.contentType, retryNum, reason);
      record.attempts.push(attempt.attempt);
      last = { ok: attempt.ok, status: attempt.attempt.status, body: attempt.text, json: attempt.json, attempts: record.attempts };
      if (attempt.ok || attempt.noRetry) break;
    }
    record.ok = last.ok;
    // Done (delivered or out of retries); a close keeps the pending retry for the next start.
    if (d.eventId && !this.closed) this.forgetRetry(d.eventId);
    if (d.eventId) {
      const sent = this.envelopes.get(d.eventId);
      if (sent) sent.attempts += record.attempts.length;
    }
    this.ctx.state.logDelivery(record);
    return last;
  }

  private rememberRetry(retry: PendingRetry): void {
    const data = this.ctx.state.data;
    data.pendingRetries = [...(data.pendingRetries ?? []).filter((r) => r.eventId !== retry.eventId), retry];
    this.ctx.state.changed();
  }

  private forgetRetry(eventId: string): void {
    const data = this.ctx.state.data;
    if (!data.pendingRetries?.some((r) => r.eventId === eventId)) return;
    data.pendingRetries = data.pendingRetries.filter((r) => r.eventId !== eventId);
    this.ctx.state.changed();
  }

  /** At start: the event retries a previous run left pending are sent when due, to today's events URL. */
  resumePendingRetries(): void {
    for (const retry of this.ctx.state.data.pendingRetries ?? []) {
      this.envelopes.set(retry.eventId, { teamId: retry.teamId, summary: retry.summary, body: retry.body, attempts: retry.retryNum });
      void this.track(
        this.deliver({
          kind: 'event',
          teamId: retry.teamId,
          eventId: retry.eventId,
          url: this.config.eventsUrl,
          summary: retry.summary,
          body: retry.body,
          contentType: 'application/json',
          retries: retry.retriesLeft,
          firstRetry: { num: retry.retryNum, reason: retry.reason },
          notBefore: retry.dueAt,
        }),
      ).catch((err: unknown) => console.error('[slack sandbox] resumed retry failed', err));
    }
  }

  /**
   * Sends an event already delivered once more, the way Slack does when it did not see the app's answer in
   * time: same envelope and event_id, the next x-slack-retry-num, and `reason` (default http_timeout).
   */
  redeliverEvent(eventId: string, reason = 'http_timeout'): Promise<DeliveryResult> {
    const sent = this.envelopes.get(eventId);
    if (!sent) throw new Error(`no event ${eventId} was sent`);
    return this.track(
      this.deliver({
        kind: 'event',
        teamId: sent.teamId,
        eventId,
        url: this.config.eventsUrl,
        summary: `${sent.summary} (redelivery)`,
        body: sent.body,
        contentType: 'application/json',
        retries: 0,
        firstRetry: { num: sent.attempts, reason },
      }).then((r) => ({ ...r, eventId })),
    );
  }

  private async attempt(
    url: string,
    body: string,
    contentType: string,
    retryNum: number,
    retryReason?: string,
  ): Promise<{ ok: boolean; text?: string; json?: unknown; noRetry: boolean; attempt: DeliveryAttempt }> {
    const timestamp = Math.floor(Date.now() / 1000);
    const headers: Record<string, string> = {
      'content-type': contentType,
      'user-agent': 'Slackbot 1.0 (+https://api.slack.com/robots)',
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature': this.sign(body, timestamp),
    };
    if (retryNum > 0) {
      headers['x-slack-retry-num'] = String(retryNum);
      headers['x-slack-retry-reason'] = retryReason ?? 'http_error';
    }
    const at = Date.now();
    const abort = new AbortController();
    this.aborts.add(abort);
    const timer = setTimeout(() => abort.abort(new Error('timeout')), this.config.ackTimeoutMs);
    try {
      const res = await keepAliveFetch(url, { method: 'POST', headers, body, redirect: 'manual', signal: abort.signal });
      const text = await res.text();
      let json: unknown;
      if ((res.headers.get('content-type') ?? '').includes('json') || /^\s*[{[]/.test(text)) {
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
      }
      const ok = res.status >= 200 && res.status < 300;
      const reason = ok ? undefined : res.status >= 300 && res.status < 400 ? 'too_many_redirects' : 'http_error';
      return {
        ok,
        text,
        json,
        noRetry: res.headers.get(NO_RETRY_HEADER) === '1',
        attempt: {
          retryNum,
          ...(retryNum > 0 ? { retryReason } : {}),
          status: res.status,
          body: text.slice(0, 2000),
          ...(reason ? { failure: reason } : {}),
          at,
        } satisfies DeliveryAttempt,
      };
    } catch (err) {
      const timedOut = abort.signal.aborted;
      const message = err instanceof Error ? err.message : String(err);
      return {
        ok: false,
        text: undefined,
        json: undefined,
        noRetry: false,
        attempt: {
          retryNum,
          ...(retryNum > 0 ? { retryReason } : {}),
          error: timedOut ? 'timeout' : message,
          failure: timedOut ? 'http_timeout' : 'connection_failed',
          at,
        } satisfies DeliveryAttempt,
      };
    } finally {
      clearTimeout(timer);
      this.aborts.delete(abort);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.timers.delete(t);
        resolve();
      }, ms);
      this.timers.set(t, resolve);
    });
  }

  // ---- payload builders shared by the operator page and the public helpers ----------------------

  blockActionFromMessage(message: Message, userId: string, action: Record<string, unknown>): Record<string, unknown> {
    const { state } = this.ctx;
    const channel = state.channel(message.channel);
    const responseUrl = this.newResponseUrl({
      teamId: message.teamId,
      channel: message.channel,
      user: userId,
      messageTs: message.ts,
      threadTs: message.threadTs,
    });
    return {
      type: 'block_actions',
      container: {
        type: 'message',
        message_ts: message.ts,
        channel_id: message.channel,
        is_ephemeral: false,
        ...(message.threadTs ? { thread_ts: message.threadTs } : {}),
      },
      channel: { id: message.channel, name: channel?.name ?? '' },
      message: messageObject(this.ctx, message),
      state: { values: {} },
      response_url: responseUrl,
      actions: [{ ...action, action_ts: eventTsNow() }],
    };
  }

  /** block_actions for an element of an ephemeral message: Slack sends the container but not the message. */
  blockActionFromEphemeral(e: EphemeralMessage, action: Record<string, unknown>): Record<string, unknown> {
    const channel = this.ctx.state.channel(e.channel);
    const responseUrl = this.newResponseUrl({
      teamId: e.teamId,
      channel: e.channel,
      user: e.user,
      threadTs: e.threadTs,
      ephemeralId: e.id,
    });
    return {
      type: 'block_actions',
      container: {
        type: 'message',
        message_ts: e.messageTs,
        channel_id: e.channel,
        is_ephemeral: true,
        ...(e.threadTs ? { thread_ts: e.threadTs } : {}),
      },
      channel: { id: e.channel, name: channel?.name ?? '' },
      state: { values: {} },
      response_url: responseUrl,
      actions: [{ ...action, action_ts: eventTsNow() }],
    };
  }

  blockActionFromView(view: SandboxView, action: Record<string, unknown>): Record<string, unknown> {
    return {
      type: 'block_actions',
      container: { type: 'view', view_id: view.id },
      view: viewObject(this.ctx, view),
      state: { values: view.values },
      actions: [{ ...action, action_ts: eventTsNow() }],
    };
  }
}

function eventTsNow(): string {
  const now = Date.now();
  return `${Math.floor(now / 1000)}.${String((now % 1000) * 1000).padStart(6, '0')}`;
}

function randomDigits(n: number): string {
  let s = '';
  for (const b of randomBytes(n)) s += String(b % 10);
  return s;
}

function summarize(p: Record<string, unknown>): string {
  const type = String(p.type);
  if (type === 'block_actions' && Array.isArray(p.actions)) {
    const a = p.actions[0] as Record<string, unknown> | undefined;
    return `block_actions ${String(a?.action_id ?? '')}`;
  }
  if (type === 'view_submission' || type === 'view_closed') {
    const v = p.view as Record<string, unknown> | undefined;
    return `${type} ${String(v?.callback_id ?? '')}`;
  }
  return `${type} ${String(p.callback_id ?? '')}`.trim();
}

function isTruthy(x: unknown): boolean {
  return x === true || x === 'true' || x === 1 || x === '1';
}

export function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}
