/**
 * The chat panel, loaded by the loader on demand (≤ 30 KB gzipped; vanilla DOM, no framework). It draws the
 * online chat, the privacy and pre-chat forms, the offline form and the end-of-chat steps, and keeps the
 * conversation over the WebSocket: every message the visitor types gets a clientId and stays "sending" until
 * acknowledged; unacknowledged ones are kept in localStorage and resent after a reconnect; every history frame
 * is shown once, by seq.
 */
import { WIDGET_LIMITS } from '../../../server/shared/widget-constants';
import type { ChatMessage, ClientFrame, ServerFrame } from '../../../server/shared/widget-protocol';
import {
  MOBILE_QUERY,
  PANEL_CALLBACK,
  type PanelContext,
  type PanelFactory,
  type PanelHandle,
  readState,
  type StoredState,
  storageKey,
  writeState,
} from '../lib/types';
import { Connection } from './connection';
import { panelCss } from './css';
import { CLIP_ICON, CLOSE_ICON, clear, EMPTY_ICON, h, iconButton, MENU_ICON, SEND_ICON, THUMB_UP } from './dom';
import { errorText, formatSize, linkify, safeHtml, timeOf } from './text';

const MESSAGE_CHARS = WIDGET_LIMITS.messageChars;
const TYPING_IDLE_MS = 3000;
const OPERATOR_TYPING_MS = 8000;

type Screen = 'chat' | 'offline' | 'consent' | 'info';

const newClientId = (): string =>
  typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 12)}`;

function createPanel(ctx: PanelContext): PanelHandle {
  const { widgetId, base } = ctx;
  const s = () => ctx.settings();
  let state: StoredState = readState(widgetId);
  let online = ctx.config.online;
  let expanded = false;
  let screen: Screen | undefined;
  let conversation: { id: string; status: 'open' | 'ended' } | null = null;
  let lastSeq = 0;
  /** Seqs of history up to the first welcome of this page: they are shown without events or unread counts. */
  let historyUntil: number | undefined;
  let unread = 0;
  let answered = false;
  let knownEmail = ctx.identity()?.email;
  let typingOn = false;
  let typingTimer: ReturnType<typeof setTimeout> | undefined;
  let operatorTypingTimer: ReturnType<typeof setTimeout> | undefined;
  let noAnswerTimer: ReturnType<typeof setTimeout> | undefined;
  let fatal = false;
  /** The first message of a conversation is out but not acknowledged: the conversation may still be refused. */
  let startedLocally = false;
  const seen = new Set<number>();
  const byId = new Map<string, HTMLElement>();
  const pendingEls = new Map<string, HTMLElement>();
  /** Frames other than messages waiting for the next welcome (privacy acceptance, details). */
  const waitingFrames: ClientFrame[] = [];

  const style = h('style', {}, panelCss);
  ctx.root.appendChild(style);

  const title = () => (online || conversation?.status === 'open' ? s().onlineTitle || 'Chat with us' : s().offlineTitle || 'Contact us');

  // Header
  const heading = h('h2', { id: 'parley-title' });
  const statusDot = h('span', { class: 'dot' });
  const statusText = h('span');
  const teamAvatar = h('img', { class: 'team', alt: '' });
  const menu = h('div', { class: 'menu', role: 'menu', hidden: true });
  const menuButton = iconButton(MENU_ICON, 'Chat options', () => toggleMenu());
  menuButton.setAttribute('aria-haspopup', 'menu');
  const closeButton = iconButton(CLOSE_ICON, 'Minimise chat', () => ctx.collapse());
  const head = h(
    'header',
    { class: 'head' },
    teamAvatar,
    h('div', { class: 'who' }, heading, h('p', {}, statusDot, statusText)),
    menuButton,
    closeButton,
  );

  const banner = h('p', { class: 'banner', role: 'alert', hidden: true });
  const body = h('div', { class: 'body' });
  const foot = h('div', { class: 'foot' });
  const panel = h('section', { class: 'panel', 'aria-labelledby': 'parley-title' }, head, menu, banner, body, foot);
  if (ctx.style !== 'inline') panel.setAttribute('role', 'dialog');
  // Inline, the chat is part of the page: there is nothing to minimise it to.
  closeButton.hidden = ctx.style === 'inline';
  panel.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && ctx.style !== 'inline') {
      event.stopPropagation();
      if (!menu.hidden) toggleMenu(false);
      else ctx.collapse();
    }
  });
  ctx.mount.appendChild(panel);

  // Chat screen
  const log = h('ol', { class: 'log', role: 'log', 'aria-live': 'polite', 'aria-label': 'Messages' });
  const empty = h('div', { class: 'empty' });
  empty.innerHTML = EMPTY_ICON;
  empty.append(h('p', {}, 'Send us a message: we reply right here.'));
  const greeting = h('div', { class: 'log' }, empty);
  const scroller = h('div', { class: 'scroll' }, greeting, log);
  const typing = h('div', { class: 'typing', hidden: true, 'aria-live': 'polite' });
  const input = h('textarea', { rows: 1, 'aria-label': 'Message', maxlength: MESSAGE_CHARS });
  const fileInput = h('input', { type: 'file', class: 'sr', tabindex: -1, 'aria-hidden': 'true' });
  const attach = iconButton(CLIP_ICON, 'Attach a file', () => fileInput.click());
  const sendButton = iconButton(SEND_ICON, 'Send', () => submitComposer(), 'icon send');
  const composer = h('form', { class: 'composer' }, attach, fileInput, input, sendButton);
  const chat = h('div', { class: 'body' }, scroller, typing, composer);
  chat.style.background = 'transparent';

  composer.addEventListener('submit', (event) => {
    event.preventDefault();
    submitComposer();
  });
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      submitComposer();
    }
  });
  input.addEventListener('input', () => {
    input.style.height = 'auto';
    input.style.height = `${Math.min(input.scrollHeight, 120)}px`;
    if (!typingOn && input.value.trim()) {
      typingOn = true;
      conn.send({ t: 'typing', on: true });
    }
    clearTimeout(typingTimer);
    typingTimer = setTimeout(stopTyping, TYPING_IDLE_MS);
  });
  fileInput.addEventListener('change', () => {
    const file = fileInput.files?.[0];
    fileInput.value = '';
    if (file) void upload(file);
  });

  const stopTyping = (): void => {
    clearTimeout(typingTimer);
    if (typingOn) conn.send({ t: 'typing', on: false });
    typingOn = false;
  };

  const conn = new Connection(ctx.config.wsUrl, {
    hello: () => {
      const identity = ctx.identity();
      const meta = s().collectVisitorMetaData !== false;
      return {
        t: 'hello',
        widgetId,
        visitorToken: state.token,
        lastSeq,
        // Without consent to collect metadata, only the page's address (no query, title or referrer) is sent.
        page: meta
          ? { url: location.href.slice(0, 2048), title: document.title.slice(0, 300), referrer: document.referrer.slice(0, 2048) }
          : { url: (location.origin + location.pathname).slice(0, 2048), title: '', referrer: '' },
        identity: identity && (identity.userId || identity.name || identity.email || identity.traits) ? identity : undefined,
        triggerUid: ctx.trigger()?.uid || undefined,
      };
    },
    status: (connected) => {
      statusText.textContent = connected || !state.token ? statusLabel() : 'Reconnecting…';
      attach.disabled = !connected;
    },
    frame: (frame) => onFrame(frame),
  });

  const statusLabel = () => (online ? `${s().agentLabel || 'Support'} · online` : 'We are away right now');

  function save(patch: StoredState): void {
    state = writeState(widgetId, patch);
  }

  function needsSocket(): boolean {
    return !fatal && (expanded || ctx.style === 'inline' || !!state.ongoing || (state.pending?.length ?? 0) > 0);
  }

  function showBanner(text: string | undefined, info = false): void {
    banner.hidden = !text;
    banner.textContent = text ?? '';
    banner.className = info ? 'banner info' : 'banner';
  }

  function toggleMenu(open = menu.hidden): void {
    menu.hidden = !open;
    menuButton.setAttribute('aria-expanded', String(open));
    if (open) (menu.querySelector('button') as HTMLButtonElement | null)?.focus();
  }

  function applyLook(): void {
    const settings = s();
    panel.style.setProperty('--bg', settings.titleColor || '#2f6fed');
    panel.style.setProperty('--fg', settings.titleFontColor || '#fff');
    heading.textContent = title();
    statusDot.className = online ? 'dot on' : 'dot';
    statusText.textContent = conn.connected || !state.token || !needsSocket() ? statusLabel() : 'Reconnecting…';
    const team = settings.showTeamAvatarPreChat && settings.teamAvatarUrl;
    teamAvatar.hidden = !team;
    if (team) teamAvatar.src = team;
    const phone = matchMedia(MOBILE_QUERY).matches;
    // Phones have no Enter key to speak of: their keyboards send with the send button.
    const placeholder = settings.onlineMessagePlaceholder || 'Type your message…';
    input.placeholder = phone ? placeholder.replace(/,? and press Enter/i, '') : placeholder;
    attach.hidden = settings.enableFileUploads === false;
    attach.disabled = !conn.connected;
    sendButton.hidden = settings.showSendBtnOnDesktop === false && !phone;
    const canEnd = settings.showConversationEnd !== false && conversation?.status === 'open';
    clear(
      menu,
      canEnd &&
        h('button', { type: 'button', role: 'menuitem', onclick: () => confirmEnd() }, settings.conversationEndMenuLinkLabel || 'End chat'),
    );
    menuButton.hidden = !canEnd;
    clear(
      foot,
      settings.displayPrivacyPolicy &&
        settings.privacyPolicyLinkURL &&
        h(
          'a',
          { href: settings.privacyPolicyLinkURL, target: '_blank', rel: 'noopener noreferrer' },
          settings.privacyPolicyLinkText || 'Privacy policy',
        ),
    );
    foot.hidden = !foot.childElementCount;
  }

  function chooseScreen(): Screen {
    const settings = s();
    if (!online && conversation?.status !== 'open' && !state.ongoing) return 'offline';
    if (settings.requireAcceptance && !state.accepted) return 'consent';
    const identity = ctx.identity();
    if (settings.requireInfo && !state.infoGiven && !(identity?.name && identity.email)) return 'info';
    return 'chat';
  }

  function render(): void {
    applyLook();
    const next = chooseScreen();
    if (next === screen) return;
    screen = next;
    if (next === 'chat') clear(body, chat);
    else if (next === 'offline') clear(body, offlineForm());
    else if (next === 'consent') clear(body, consentForm());
    else clear(body, infoForm());
    if (expanded) focusFirst();
  }

  function focusFirst(): void {
    const target = screen === 'chat' ? input : body.querySelector<HTMLElement>('input, textarea, button');
    target?.focus({ preventScroll: true });
  }

  function consentForm(): HTMLElement {
    const settings = s();
    return h(
      'form',
      {
        class: 'form',
        onsubmit: (event: Event) => {
          event.preventDefault();
          save({ accepted: true });
          queueFrame({ t: 'info', acceptedPrivacy: true });
          render();
        },
      },
      h('p', {}, settings.acceptanceText || 'I agree to my personal data being stored and used to answer my questions.'),
      settings.privacyPolicyLinkURL &&
        h(
          'p',
          {},
          h(
            'a',
            { href: settings.privacyPolicyLinkURL, target: '_blank', rel: 'noopener noreferrer' },
            settings.privacyPolicyLinkText || 'Privacy policy',
          ),
        ),
      h('button', { class: 'btn', type: 'submit' }, settings.defaultAcceptBtnLabel || 'Accept'),
    );
  }

  function labelled(label: string, field: HTMLElement): HTMLElement {
    return h('label', {}, label, field);
  }

  function infoForm(): HTMLElement {
    const settings = s();
    const identity = ctx.identity();
    const name = h('input', {
      class: 'field',
      name: 'name',
      autocomplete: 'name',
      required: true,
      maxlength: 100,
      value: identity?.name ?? '',
    });
    const email = h('input', {
      class: 'field',
      name: 'email',
      type: 'email',
      autocomplete: 'email',
      required: true,
      maxlength: 254,
      value: identity?.email ?? '',
    });
    return h(
      'form',
      {
        class: 'form',
        onsubmit: (event: Event) => {
          event.preventDefault();
          knownEmail = email.value.trim();
          save({ infoGiven: true });
          queueFrame({ t: 'info', name: name.value.trim(), email: knownEmail });
          resendPending();
          render();
        },
      },
      h('p', {}, settings.requireInfoGreeting || 'Please tell us who you are before we start.'),
      labelled('Name', name),
      labelled('Email', email),
      h('button', { class: 'btn', type: 'submit' }, settings.requireInfoSubmitBtn || 'Start chat'),
    );
  }

  function offlineForm(): HTMLElement {
    const settings = s();
    const identity = ctx.identity();
    const name = h('input', { class: 'field', name: 'name', autocomplete: 'name', maxlength: 100, value: identity?.name ?? '' });
    const email = h('input', {
      class: 'field',
      name: 'email',
      type: 'email',
      autocomplete: 'email',
      required: true,
      maxlength: 254,
      value: identity?.email ?? '',
    });
    const message = h('textarea', { class: 'field', name: 'message', required: true, maxlength: MESSAGE_CHARS });
    const error = h('p', { class: 'err', role: 'alert' });
    const submit = h('button', { class: 'btn', type: 'submit' }, settings.offlineSendButton || 'Send');
    const form = h(
      'form',
      {
        class: 'form',
        onsubmit: (event: Event) => {
          event.preventDefault();
          submit.disabled = true;
          error.textContent = '';
          const payload = {
            name: name.value.trim() || undefined,
            email: email.value.trim(),
            message: message.value.trim(),
            page: { url: location.href.slice(0, 2048), title: document.title.slice(0, 300), referrer: document.referrer.slice(0, 2048) },
            visitorToken: state.token,
          };
          fetch(`${base}/widget/api/${encodeURIComponent(widgetId)}/offline`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify(payload),
            credentials: 'omit',
          })
            .then(async (res) => {
              if (!res.ok) {
                const answer = (await res.json().catch(() => ({}))) as { Message?: string; Error?: string };
                throw new Error(errorText(answer.Error ?? '', answer.Message));
              }
              clear(
                form,
                h(
                  'div',
                  { class: 'thanks', role: 'status' },
                  h('b', {}, '✓'),
                  settings.offlineThankYouMessage || "Thanks for your message. We'll be in touch soon!",
                ),
              );
              ctx.emit('offlineMessageSent', { email: payload.email });
            })
            .catch((err: unknown) => {
              submit.disabled = false;
              error.textContent =
                err instanceof Error && err.message !== 'Failed to fetch'
                  ? err.message
                  : 'The message could not be sent. Please try again.';
            });
        },
      },
      h('p', {}, settings.offlineGreeting || "Sorry we aren't online at the moment. Leave a message and we'll get back to you."),
      labelled(settings.offlineNamePlaceholder || 'Name (optional)', name),
      labelled(settings.offlineEmailPlaceholder || 'Email', email),
      labelled(settings.offlineMessagePlaceholder || 'Your message', message),
      error,
      submit,
    );
    return form;
  }

  function queueFrame(frame: ClientFrame): void {
    ensureSocket();
    if (!conn.send(frame)) waitingFrames.push(frame);
  }

  function ensureSocket(): void {
    if (needsSocket() || waitingFrames.length > 0) conn.start();
  }

  // Messages
  function scrollDown(): void {
    scroller.scrollTop = scroller.scrollHeight;
  }

  /** Keeps the list in seq order; items still sending (no seq) stay last. */
  function place(el: HTMLElement, seq: number | undefined): void {
    empty.hidden = true;
    if (seq !== undefined) {
      el.dataset.seq = String(seq);
      for (const other of Array.from(log.children) as HTMLElement[]) {
        if (other !== el && (other.dataset.seq === undefined || Number(other.dataset.seq) > seq)) {
          log.insertBefore(el, other);
          return;
        }
      }
    }
    log.appendChild(el);
  }

  function bubbleOf(m: Pick<ChatMessage, 'text' | 'html' | 'files'>): HTMLElement {
    const bubble = h('div', { class: 'bubble' });
    bubble.append(m.html ? safeHtml(m.html) : linkify(m.text));
    if (!m.text && !m.html) bubble.hidden = true;
    return bubble;
  }

  function filesOf(m: ChatMessage): HTMLElement | undefined {
    if (!m.files?.length) return undefined;
    const token = state.token ? `v=${encodeURIComponent(state.token)}` : '';
    return h(
      'div',
      { class: 'files' },
      ...m.files.map((f) => {
        const url = new URL(f.url, base);
        if (token && !url.searchParams.has('v')) url.search += (url.search ? '&' : '') + token;
        const a = h('a', { href: url.href, target: '_blank', rel: 'noopener noreferrer', download: f.name });
        if (f.mimetype.startsWith('image/')) a.append(h('img', { src: url.href, alt: f.name }));
        else a.textContent = `📎 ${f.name} (${formatSize(f.size)})`;
        return a;
      }),
    );
  }

  function messageEl(m: ChatMessage): HTMLElement {
    const settings = s();
    if (m.from === 'system') return h('li', { class: 'system' }, m.text);
    if (m.from === 'visitor') {
      return h(
        'li',
        { class: 'msg visitor' },
        h(
          'div',
          { class: 'col' },
          h('span', { class: 'sr' }, `${settings.browserSideAuthorLabel || 'You'}: `),
          bubbleOf(m),
          filesOf(m),
          h('span', { class: 'meta' }, timeOf(m.at)),
        ),
      );
    }
    // The avatar settings (spec section 4): a team avatar, the operator's Slack picture, or none.
    const name = settings.forwardSlackUserName !== false && m.author?.name ? m.author.name : settings.agentLabel || 'Support';
    const avatarUrl =
      settings.teamAvatarOn && settings.teamAvatarUrl
        ? settings.teamAvatarUrl
        : settings.forwardSlackUserName !== false
          ? m.author?.avatarUrl
          : undefined;
    return h(
      'li',
      { class: 'msg operator' },
      avatarUrl ? h('img', { class: 'avatar', src: avatarUrl, alt: '' }) : h('span', { class: 'avatar none' }),
      h(
        'div',
        { class: 'col' },
        h('span', { class: 'author' }, name),
        bubbleOf(m),
        filesOf(m),
        h('span', { class: 'meta' }, timeOf(m.at), m.edited && '· edited'),
      ),
    );
  }

  function showMessage(m: ChatMessage): void {
    if (seen.has(m.seq)) return;
    seen.add(m.seq);
    lastSeq = Math.max(lastSeq, m.seq);
    const pending = m.clientId ? pendingEls.get(m.clientId) : undefined;
    if (pending) {
      confirmPending(m.clientId as string, m.seq, m.id);
      return;
    }
    const el = messageEl(m);
    byId.set(m.id, el);
    place(el, m.seq);
    const fresh = historyUntil === undefined || m.seq > historyUntil;
    if (m.from === 'operator') {
      answered = true;
      clearTimeout(noAnswerTimer);
      typing.hidden = true;
      if (fresh) {
        if (!expanded || document.hidden) chime();
        ctx.emit('messageReceived', { text: m.text, author: m.author?.name });
        if (!expanded) {
          unread += 1;
          ctx.setUnread(unread);
        }
      }
    }
    scrollDown();
  }

  /** A short two-note chime for a reply the visitor may not be looking at (playSound). */
  function chime(): void {
    if (s().playSound === false) return;
    try {
      const Audio = window.AudioContext;
      if (!Audio) return;
      const audio = new Audio();
      [660, 880].forEach((frequency, i) => {
        const osc = audio.createOscillator();
        const gain = audio.createGain();
        const at = audio.currentTime + i * 0.12;
        osc.frequency.value = frequency;
        gain.gain.setValueAtTime(0.0001, at);
        gain.gain.exponentialRampToValueAtTime(0.08, at + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.25);
        osc.connect(gain).connect(audio.destination);
        osc.start(at);
        osc.stop(at + 0.3);
      });
      setTimeout(() => void audio.close(), 800);
    } catch {
      // Browsers refuse audio before the visitor interacted with the page: the badge still shows.
    }
  }

  /** Acknowledgement lines waiting for their message's seq, by client id. */
  const acks = new Map<string, HTMLElement>();

  function confirmPending(clientId: string, seq: number, id: string): void {
    const el = pendingEls.get(clientId);
    if (!el) return;
    pendingEls.delete(clientId);
    el.classList.remove('sending', 'failed');
    const meta = el.querySelector('.meta');
    if (meta) meta.textContent = timeOf(new Date().toISOString());
    byId.set(id, el);
    place(el, seq);
    // The acknowledgement of a first message stays right below it, wherever later messages land.
    const ack = acks.get(clientId);
    if (ack) {
      acks.delete(clientId);
      place(ack, seq + 0.5);
    }
    save({ pending: (state.pending ?? []).filter((p) => p.clientId !== clientId) });
  }

  function pendingEl(clientId: string, text: string): HTMLElement {
    const meta = h('span', { class: 'meta' }, 'Sending…');
    const el = h('li', { class: 'msg visitor sending' }, h('div', { class: 'col' }, bubbleOf({ text }), meta));
    pendingEls.set(clientId, el);
    empty.hidden = true;
    log.appendChild(el);
    scrollDown();
    return el;
  }

  function failPending(clientId: string, reason: string): void {
    const el = pendingEls.get(clientId);
    if (!el) return;
    el.classList.replace('sending', 'failed');
    const meta = el.querySelector('.meta');
    if (meta)
      clear(
        meta,
        reason,
        h(
          'button',
          {
            type: 'button',
            onclick: () => {
              el.classList.replace('failed', 'sending');
              clear(meta, 'Sending…');
              const item = state.pending?.find((p) => p.clientId === clientId);
              if (item) conn.send({ t: 'msg', clientId, text: item.text });
            },
          },
          'Retry',
        ),
      );
  }

  function resendPending(): void {
    for (const item of state.pending ?? []) {
      if (!pendingEls.has(item.clientId)) pendingEl(item.clientId, item.text);
      conn.send({ t: 'msg', clientId: item.clientId, text: item.text });
    }
  }

  function send(raw: string): void {
    const text = raw.trim();
    if (!text) return;
    if (text.length > MESSAGE_CHARS) {
      showBanner(errorText('too_large'));
      return;
    }
    const clientId = newClientId();
    const first = !conversation || conversation.status === 'ended';
    save({ pending: [...(state.pending ?? []), { clientId, text }] });
    pendingEl(clientId, text);
    // The first message of a conversation is acknowledged at once (autoResponseMessage), so nobody wonders.
    const ack = first ? s().autoResponseMessage : '';
    if (ack) {
      const line = h('li', { class: 'system', role: 'status' }, ack);
      acks.set(clientId, line);
      log.appendChild(line);
      scrollDown();
    }
    stopTyping();
    ensureSocket();
    conn.send({ t: 'msg', clientId, text });
    if (first) {
      startedLocally = true;
      conversation = { id: '', status: 'open' };
      answered = false;
      save({ ongoing: true });
      ctx.emit('firstMessageSent', { text });
      armNoAnswer();
      applyLook();
    }
  }

  function submitComposer(): void {
    const text = input.value;
    if (!text.trim()) return;
    input.value = '';
    input.style.height = 'auto';
    send(text);
    input.focus();
  }

  function armNoAnswer(): void {
    const settings = s();
    clearTimeout(noAnswerTimer);
    if (settings.noAnswerMessageOn === false || answered) return;
    noAnswerTimer = setTimeout(
      () => {
        if (answered || conversation?.status !== 'open') return;
        if (knownEmail)
          log.appendChild(
            h('li', { class: 'system' }, settings.noAnswerWithEmail || "Sorry for the wait! We'll reply by email as soon as we can."),
          );
        else
          log.appendChild(
            emailCard(settings.noAnswerWithoutEmail || "Sorry for the wait! Leave your email and we'll get back to you as soon as we can."),
          );
        scrollDown();
      },
      Math.max(1, settings.noAnswerMessageAfterSecs ?? 120) * 1000,
    );
  }

  /** A prompt for the visitor's e-mail (operator's "ask email", or nobody answered yet). */
  function emailCard(question: string): HTMLElement {
    const email = h('input', {
      class: 'field',
      type: 'email',
      required: true,
      autocomplete: 'email',
      'aria-label': 'Email',
      placeholder: 'you@example.com',
    });
    const card = h('li', { class: 'card' });
    const form = h(
      'form',
      {
        onsubmit: (event: Event) => {
          event.preventDefault();
          knownEmail = email.value.trim();
          queueFrame({ t: 'info', email: knownEmail });
          clear(card, h('p', {}, question), h('p', {}, `✓ ${knownEmail}`));
        },
      },
      h('div', { class: 'row' }, email, h('button', { class: 'btn', type: 'submit' }, s().defaultSendBtnLabel || 'Send')),
    );
    clear(card, h('p', {}, question), form);
    return card;
  }

  function questionCard(frame: Extract<ServerFrame, { t: 'question' }>): HTMLElement {
    const card = h('li', { class: 'card' }, h('p', {}, frame.text));
    const buttons = frame.answers.map((answer) =>
      h(
        'button',
        {
          type: 'button',
          class: 'choice',
          onclick: (event: Event) => {
            for (const b of buttons) b.disabled = true;
            (event.currentTarget as HTMLElement).classList.add('picked');
            queueFrame({ t: 'answer', groupUid: frame.groupUid, nodeId: answer.nodeId });
          },
        },
        answer.text,
      ),
    );
    card.append(h('div', { class: 'row' }, ...buttons));
    return card;
  }

  function confirmEnd(): void {
    toggleMenu(false);
    const settings = s();
    const close = () => overlay.remove();
    const overlay = h(
      'div',
      { class: 'overlay' },
      h(
        'div',
        { class: 'card', role: 'alertdialog', 'aria-label': settings.conversationEndMenuLinkLabel || 'End chat' },
        h('p', {}, settings.conversationEndConfirmationQuestion || 'Are you sure you want to end this chat?'),
        h(
          'div',
          { class: 'row' },
          h(
            'button',
            {
              type: 'button',
              class: 'btn',
              onclick: () => {
                close();
                queueFrame({ t: 'end' });
              },
            },
            settings.defaultYesBtnLabel || 'Yes',
          ),
          h(
            'button',
            {
              type: 'button',
              class: 'btn ghost',
              onclick: () => {
                close();
                input.focus();
              },
            },
            settings.defaultNoBtnLabel || 'No',
          ),
        ),
      ),
    );
    chat.appendChild(overlay);
    overlay.querySelector('button')?.focus();
  }

  /** After the end: the end line, then rating and transcript as configured. */
  function endedCard(): HTMLElement {
    const settings = s();
    const card = h('li', { class: 'card' }, h('p', {}, h('b', {}, settings.conversationEndLabel || 'This chat has ended.')));
    if (settings.showConversationRating !== false) {
      const rating = h('div', {}, h('p', {}, settings.conversationRatingLabel || 'How would you rate this chat?'));
      const pick = (value: 'up' | 'down') => {
        const feedback = h('textarea', {
          class: 'field',
          rows: 3,
          placeholder: settings.conversationRatingPlaceholder || 'Tell us more (optional)',
          maxlength: 2000,
          'aria-label': 'Feedback',
        });
        clear(
          rating,
          h(
            'form',
            {
              onsubmit: (event: Event) => {
                event.preventDefault();
                queueFrame({ t: 'rate', rating: value, feedback: feedback.value.trim() || undefined });
                clear(rating, h('p', { role: 'status' }, settings.conversationRatingThankYou || 'Thanks for your feedback!'));
              },
            },
            feedback,
            h('button', { class: 'btn', type: 'submit' }, settings.defaultSendBtnLabel || 'Send'),
          ),
        );
        feedback.focus();
      };
      const up = iconButton(THUMB_UP, 'Good', () => pick('up'), 'choice');
      const down = iconButton(THUMB_UP, 'Bad', () => pick('down'), 'choice');
      (down.firstElementChild as SVGElement).style.transform = 'rotate(180deg)';
      rating.append(h('div', { class: 'row' }, up, down));
      card.append(rating);
    }
    if (settings.showTranscriptSendOpt !== false) {
      // The configured text is the field's visible label: as a placeholder it was cut off in the narrow row.
      const email = h('input', {
        class: 'field',
        id: 'parley-transcript-email',
        type: 'email',
        required: true,
        value: knownEmail ?? '',
        placeholder: 'you@example.com',
        autocomplete: 'email',
      });
      const label = h(
        'label',
        { class: 'label', for: 'parley-transcript-email' },
        settings.conversationEndTranscriptPlaceholder || 'Email address for a transcript',
      );
      const box = h('form', {
        onsubmit: (event: Event) => {
          event.preventDefault();
          queueFrame({ t: 'transcript', email: email.value.trim() });
          clear(
            box,
            h('p', { role: 'status' }, settings.conversationTranscriptSentThankYou || 'The transcript is on its way to your inbox.'),
          );
        },
      });
      clear(
        box,
        label,
        h('div', { class: 'row' }, email, h('button', { class: 'btn', type: 'submit' }, settings.defaultSendBtnLabel || 'Send')),
      );
      card.append(box);
    }
    return card;
  }

  async function upload(file: File): Promise<void> {
    if (!state.token) return;
    if (file.size > 10 * 1024 * 1024) {
      showBanner('Files can be at most 10 MB.');
      return;
    }
    const note = h('li', { class: 'system' }, `Uploading ${file.name}…`);
    log.appendChild(note);
    scrollDown();
    const form = new FormData();
    form.append('file', file);
    try {
      const res = await fetch(`${base}/widget/api/${encodeURIComponent(widgetId)}/files`, {
        method: 'POST',
        headers: { 'X-Visitor-Token': state.token },
        body: form,
        credentials: 'omit',
      });
      if (!res.ok) {
        const answer = (await res.json().catch(() => ({}))) as { Message?: string; Error?: string };
        showBanner(errorText(answer.Error ?? '', answer.Message));
      }
    } catch {
      showBanner('The file could not be uploaded. Please try again.');
    } finally {
      note.remove();
    }
  }

  // Frames from the server
  function onFrame(frame: ServerFrame): void {
    switch (frame.t) {
      case 'welcome': {
        const first = historyUntil === undefined;
        if (state.token && state.token !== frame.visitorToken) resetView();
        save({ token: frame.visitorToken, ongoing: frame.conversation?.status === 'open' || startedLocally });
        // A first message typed before the welcome is still on its way: its conversation is not refused yet.
        if (frame.conversation || !startedLocally)
          conversation = frame.conversation && { id: frame.conversation.id, status: frame.conversation.status };
        if (first) historyUntil = frame.conversation?.lastSeq ?? 0;
        setOnline(frame.online);
        showBanner(undefined);
        for (const queued of waitingFrames.splice(0)) conn.send(queued);
        resendPending();
        if (!needsSocket()) conn.stop();
        render();
        return;
      }
      case 'ack':
        seen.add(frame.seq);
        confirmPending(frame.clientId, frame.seq, frame.id);
        startedLocally = false;
        // A stored visitor message means a conversation is open, even if the welcome (sent before it) said none.
        if (conversation?.status !== 'open') {
          conversation = { id: conversation?.id ?? '', status: 'open' };
          save({ ongoing: true });
          applyLook();
        }
        return;
      case 'msg':
        showMessage(frame.message);
        return;
      case 'edit': {
        const el = byId.get(frame.id);
        const bubble = el?.querySelector('.bubble');
        if (bubble) {
          clear(bubble, frame.html ? safeHtml(frame.html) : linkify(frame.text));
          const meta = el?.querySelector('.meta');
          if (meta && !meta.textContent?.includes('edited')) meta.append(' · edited');
        }
        return;
      }
      case 'delete':
        byId.get(frame.id)?.remove();
        byId.delete(frame.id);
        return;
      case 'presence':
        setOnline(frame.online);
        render();
        return;
      case 'typing':
        clearTimeout(operatorTypingTimer);
        typing.hidden = !frame.on;
        clear(
          typing,
          h('span', {}, h('i'), h('i'), h('i')),
          `${frame.author?.name && s().forwardSlackUserName !== false ? frame.author.name : s().agentLabel || 'Support'} is typing…`,
        );
        if (frame.on) operatorTypingTimer = setTimeout(() => (typing.hidden = true), OPERATOR_TYPING_MS);
        return;
      case 'ended': {
        if (seen.has(frame.seq)) return;
        seen.add(frame.seq);
        lastSeq = Math.max(lastSeq, frame.seq);
        const fresh = historyUntil === undefined || frame.seq > historyUntil;
        conversation = { id: conversation?.id ?? '', status: 'ended' };
        clearTimeout(noAnswerTimer);
        typing.hidden = true;
        save({ ongoing: false });
        if (fresh && s().clearMessagesOnEnd) {
          log.textContent = '';
          byId.clear();
        }
        const card = fresh ? endedCard() : h('li', { class: 'system' }, s().conversationEndLabel || 'This chat has ended.');
        place(card, frame.seq);
        if (fresh) ctx.emit('conversationEnded', { by: frame.by });
        applyLook();
        if (!online) render();
        scrollDown();
        return;
      }
      case 'askEmail': {
        if (seen.has(frame.seq)) return;
        seen.add(frame.seq);
        lastSeq = Math.max(lastSeq, frame.seq);
        place(emailCard('Could you leave your e-mail so we can follow up?'), frame.seq);
        scrollDown();
        return;
      }
      case 'question':
        if (seen.has(frame.seq)) return;
        seen.add(frame.seq);
        lastSeq = Math.max(lastSeq, frame.seq);
        place(questionCard(frame), frame.seq);
        scrollDown();
        return;
      case 'config':
        Object.assign(ctx.config.settings, frame.config);
        screen = undefined;
        render();
        return;
      case 'error':
        onError(frame.code, frame.message, frame.clientId);
        return;
      case 'pong':
        return;
    }
  }

  function onError(code: string, message: string, clientId?: string): void {
    if (clientId && code === 'rate_limited') {
      setTimeout(() => {
        const item = state.pending?.find((p) => p.clientId === clientId);
        if (item) conn.send({ t: 'msg', clientId, text: item.text });
      }, 4000);
    } else if (clientId) {
      failPending(clientId, code === 'too_large' ? 'Too long' : 'Not sent');
      if (startedLocally) {
        // The server refused to start the conversation: nothing is ongoing, and no End chat to offer.
        startedLocally = false;
        conversation = null;
        clearTimeout(noAnswerTimer);
        save({ ongoing: false });
      }
    }
    if (code === 'info_required') save({ infoGiven: false });
    if (code === 'privacy_not_accepted') save({ accepted: false });
    if (code === 'widget_offline') setOnline(false);
    if (code === 'unknown_widget' || code === 'not_allowed_here') {
      fatal = true;
      conn.stop();
    }
    if (code === 'conversation_ended') conversation = { id: conversation?.id ?? '', status: 'ended' };
    showBanner(errorText(code, message));
    screen = undefined;
    render();
  }

  function setOnline(value: boolean): void {
    if (value === online) return;
    online = value;
    ctx.setOnline(value);
    applyLook();
  }

  function resetView(): void {
    log.textContent = '';
    empty.hidden = false;
    seen.clear();
    byId.clear();
    pendingEls.clear();
    lastSeq = 0;
    historyUntil = undefined;
    conversation = null;
    unread = 0;
    ctx.setUnread(0);
  }

  // Another tab of the same visitor changed the stored state: a reset there means a reset here.
  addEventListener('storage', (event) => {
    if (event.key !== storageKey(widgetId)) return;
    const next = readState(widgetId);
    if (state.token && next.token !== state.token) {
      state = next;
      resetView();
      conn.restart();
    } else {
      state = { ...next, pending: state.pending };
    }
  });
  addEventListener('online', () => {
    if (needsSocket()) conn.restart();
  });
  addEventListener('offline', () => conn.interrupt());

  render();
  ensureSocket();
  for (const item of state.pending ?? []) pendingEl(item.clientId, item.text);

  return {
    expand() {
      expanded = true;
      const opener = ctx.trigger();
      // The trigger's message the visitor clicked stays on top of the chat, so their answer has its question.
      if (opener && !greeting.querySelector('.msg') && !log.childElementCount) {
        empty.hidden = true;
        const settings = s();
        greeting.append(
          h(
            'div',
            { class: 'msg operator' },
            settings.teamAvatarOn && settings.teamAvatarUrl
              ? h('img', { class: 'avatar', src: settings.teamAvatarUrl, alt: '' })
              : h('span', { class: 'avatar none' }),
            h(
              'div',
              { class: 'col' },
              h('span', { class: 'author' }, settings.agentLabel || 'Support'),
              bubbleOf({ text: opener.message }),
            ),
          ),
        );
        greeting.style.marginBottom = '10px';
      }
      unread = 0;
      ctx.setUnread(0);
      render();
      ensureSocket();
      focusFirst();
      scrollDown();
    },
    collapse() {
      expanded = false;
      toggleMenu(false);
      stopTyping();
    },
    send(text) {
      send(text);
    },
    refresh(identityChanged) {
      knownEmail = ctx.identity()?.email ?? knownEmail;
      screen = undefined;
      render();
      // The identity travels in hello: a running socket says hello again (lastSeq kept, so nothing is replayed twice).
      if (identityChanged && conn.connected) conn.restart();
    },
    reset() {
      conn.stop();
      state = writeState(widgetId, null);
      resetView();
      fatal = false;
      screen = undefined;
      render();
      ensureSocket();
    },
    isOnline: () => online,
  };
}

(window as unknown as Record<string, ((factory: PanelFactory) => void) | undefined>)[PANEL_CALLBACK]?.(createPanel);
