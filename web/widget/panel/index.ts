/**
 * The chat panel, loaded by the loader on demand (≤ 30 KB gzipped; vanilla DOM, no framework). This is its
 * shell: it owns the socket, the DOM, localStorage and the timers, feeds every server frame and visitor action
 * to the pure reducer (reducer.ts) and applies the effects it answers. The screens draw themselves
 * (screens/: chat, offline form, info prompts, chat end, question group).
 */
import { MAX_UPLOAD_BYTES, TITLE_CHARS, URL_CHARS } from '../../../server/shared/widget-constants';
import type { ServerFrame } from '../../../server/shared/widget-protocol';
import {
  MOBILE_QUERY,
  PANEL_CALLBACK,
  type PanelContext,
  type PanelFactory,
  type PanelHandle,
  readState,
  SCREENSHOT_CALLBACK,
  type ScreenshotCapture,
  storageKey,
  writeState,
} from '../lib/types';
import { createAnswers } from './answers';
import { Connection } from './connection';
import { panelCss } from './css';
import { CLOSE_ICON, clear, h, iconButton, MENU_ICON } from './dom';
import { FOCUSABLE, wrapFocus } from './focus';
import {
  type Action,
  contiguousSeq,
  type Effect,
  initialState,
  needsSocket,
  type PanelState,
  reduceAction,
  reduceFrame,
  type Screen,
  screenFor,
  wantsSuggestions,
} from './reducer';
import { rtlCss } from './rtl';
import { chatScreen } from './screens/chat';
import { confirmEndOverlay, endedCard } from './screens/chatEnd';
import { consentForm, detailsForm, emailCard } from './screens/info';
import { offlineForm } from './screens/offline';
import { questionCard } from './screens/question';
import { screenshotCard } from './screens/screenshot';
import { Language } from './text';

/** File name of the content-hashed screenshot script, set by scripts/build.ts. */
declare const __PARLEY_SCREENSHOT__: string;

/** A rate-limited message is sent again after this long. */
const RESEND_MS = 4000;

const newClientId = (): string =>
  typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 12)}`;

/** What the page tells about itself in hello and offline messages (only its address without metadata consent). */
function pageInfo(withMeta: boolean) {
  return withMeta
    ? {
        url: location.href.slice(0, URL_CHARS),
        title: document.title.slice(0, TITLE_CHARS),
        referrer: document.referrer.slice(0, URL_CHARS),
      }
    : { url: (location.origin + location.pathname).slice(0, URL_CHARS), title: '', referrer: '' };
}

/** A placeholder that tells to press Enter (in any of the built-in languages' words for it), said for a phone. */
/** The browser's IANA time zone, for the times in the visitor's mails ('' when it cannot tell). */
function browserTimeZone(): string | undefined {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return zone && zone.length <= 64 ? zone : undefined;
  } catch {
    return undefined;
  }
}

function phonePlaceholder(placeholder: string, instead: string): string {
  const english = placeholder.replace(/,? and press Enter/i, '');
  return /\bEnter\b|Entrée|\bInvio\b/.test(english) ? instead : english;
}

function createPanel(ctx: PanelContext): PanelHandle {
  const { widgetId, base } = ctx;
  const s = () => ctx.settings();
  const lang = new Language(ctx.config.texts, ctx.config.locale, navigator.languages ?? []);
  const t = lang.texts;
  // Why a mail's link did not open its conversation here. A verified visitor's chat is opened by the site's own signed
  // identify; without one, they are told to sign in.
  const notice =
    ctx.notice === 'resume_verified'
      ? ctx.identity()?.userHash
        ? ''
        : t.resumeSignIn
      : ctx.notice && (ctx.notice === 'resume_expired' ? t.resumeExpired : t.resumeInvalid);
  // The link's resume token, exchanged by the loader, leaves the address bar (and the page's history entry).
  if (/^#parley-open=.*\./.test(location.hash)) history.replaceState(history.state, '', location.href.split('#')[0]);
  let state: PanelState = initialState(readState(widgetId), ctx.config.online, ctx.style === 'inline', ctx.identity()?.email);
  let screen: Screen | undefined;
  let noAnswerTimer: ReturnType<typeof setTimeout> | undefined;

  const dispatch = (action: Action): void => apply(reduceAction(state, action));
  const onFrame = (frame: ServerFrame): void => apply(reduceFrame(state, frame));

  ctx.root.appendChild(h('style', {}, panelCss));
  ctx.root.appendChild(h('style', {}, rtlCss));

  // Header
  const heading = h('h2', { id: 'parley-title' });
  const statusDot = h('span', { class: 'dot' });
  const statusText = h('span');
  const teamAvatar = h('img', { class: 'team', alt: '' });
  const menu = h('div', { class: 'menu', role: 'menu', hidden: true });
  const menuButton = iconButton(MENU_ICON, t.chatOptions, () => toggleMenu());
  menuButton.setAttribute('aria-haspopup', 'menu');
  const closeButton = iconButton(CLOSE_ICON, t.minimise, () => ctx.collapse());
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
  if (ctx.style !== 'inline') {
    panel.setAttribute('role', 'dialog');
    panel.setAttribute('aria-modal', 'true');
  }
  panel.setAttribute('dir', ctx.config.dir);
  panel.setAttribute('lang', ctx.config.locale);
  // Inline, the chat is part of the page: there is nothing to minimise it to.
  closeButton.hidden = ctx.style === 'inline';
  panel.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && ctx.style !== 'inline') {
      event.stopPropagation();
      if (!menu.hidden) toggleMenu(false);
      else ctx.collapse();
    }
    // A modal dialog: Tab and Shift+Tab go round its controls while it is open (Escape or close leave it).
    if (event.key === 'Tab' && ctx.style !== 'inline') {
      const controls = Array.from(panel.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => el.getClientRects().length > 0);
      const next = wrapFocus(controls, ctx.root.activeElement as HTMLElement | null, event.shiftKey);
      if (next) {
        event.preventDefault();
        next.focus();
      }
    }
  });
  ctx.mount.appendChild(panel);

  const chat = chatScreen({
    settings: s,
    lang,
    base,
    token: () => state.stored.token,
    send: (text) => dispatch({ a: 'send', text, clientId: newClientId() }),
    retry: (clientId) => dispatch({ a: 'retry', clientId }),
    typing: (on) => conn.send({ t: 'typing', on }),
    upload: (file) => void upload(file),
    answers: createAnswers({
      base,
      widgetId,
      lang,
      locale: ctx.config.locale,
      suggesting: () => wantsSuggestions(state),
      queue: (frame) => dispatch({ a: 'queue', frame }),
    }),
  });

  const conn = new Connection(ctx.config.wsUrl, {
    hello: () => {
      const identity = ctx.identity();
      return {
        t: 'hello',
        widgetId,
        visitorToken: state.stored.token,
        lastSeq: contiguousSeq(state.seen),
        conversationId: state.conversation?.id || undefined,
        page: pageInfo(s().collectVisitorMetaData !== false),
        languages: (navigator.languages ?? []).filter((tag) => tag.length <= 35).slice(0, 10),
        timeZone: browserTimeZone(),
        identity: identity && (identity.userId || identity.name || identity.email || identity.traits) ? identity : undefined,
        triggerUid: ctx.trigger()?.uid || undefined,
      };
    },
    status: (connected) => {
      statusText.textContent = connected || !state.stored.token ? statusLabel() : t.reconnecting;
      chat.attach.disabled = !connected;
    },
    frame: onFrame,
  });

  const title = () =>
    state.online || state.conversation?.status === 'open' ? s().onlineTitle || 'Chat with us' : s().offlineTitle || 'Contact us';
  const statusLabel = () => (state.online ? lang.fill(t.online, { agent: s().agentLabel || '' }) : t.away);

  function showBanner(text: string | undefined): void {
    banner.hidden = !text;
    banner.textContent = text ?? '';
    banner.className = 'banner';
  }

  function toggleMenu(open = menu.hidden): void {
    menu.hidden = !open;
    menuButton.setAttribute('aria-expanded', String(open));
    if (open) (menu.querySelector('button') as HTMLButtonElement | null)?.focus();
  }

  function confirmEnd(): void {
    toggleMenu(false);
    const overlay = confirmEndOverlay(
      s(),
      () => dispatch({ a: 'queue', frame: { t: 'end' } }),
      () => chat.input.focus(),
    );
    chat.el.appendChild(overlay);
    overlay.querySelector('button')?.focus();
  }

  function applyLook(): void {
    const settings = s();
    panel.style.setProperty('--bg', settings.titleColor || '#2f6fed');
    panel.style.setProperty('--fg', settings.titleFontColor || '#fff');
    heading.textContent = title();
    statusDot.className = state.online ? 'dot on' : 'dot';
    statusText.textContent = conn.connected || !state.stored.token || !needsSocket(state) ? statusLabel() : t.reconnecting;
    const team = settings.showTeamAvatarPreChat && settings.teamAvatarUrl;
    teamAvatar.hidden = !team;
    if (team) teamAvatar.src = team;
    const phone = matchMedia(MOBILE_QUERY).matches;
    // Phones have no Enter key to speak of: their keyboards send with the send button.
    const placeholder = settings.onlineMessagePlaceholder || 'Type your message…';
    chat.input.placeholder = phone ? phonePlaceholder(placeholder, t.phonePlaceholder) : placeholder;
    chat.attach.hidden = settings.enableFileUploads === false;
    chat.attach.disabled = !conn.connected;
    chat.sendButton.hidden = settings.showSendBtnOnDesktop === false && !phone;
    const canEnd = settings.showConversationEnd !== false && state.conversation?.status === 'open';
    clear(
      menu,
      canEnd &&
        h('button', { type: 'button', role: 'menuitem', onclick: () => confirmEnd() }, settings.conversationEndMenuLinkLabel || 'End chat'),
    );
    menuButton.hidden = !canEnd;
    // Plans without white label say whose chat this is; plans with it may put a line of their own there.
    const poweredBy = ctx.config.poweredBy;
    const own = poweredBy ? '' : (settings.footerText ?? '').trim();
    const privacy =
      settings.displayPrivacyPolicy &&
      settings.privacyPolicyLinkURL &&
      h(
        'a',
        { href: settings.privacyPolicyLinkURL, target: '_blank', rel: 'noopener noreferrer' },
        settings.privacyPolicyLinkText || 'Privacy policy',
      );
    const brand = poweredBy
      ? h('a', { class: 'brand', href: poweredBy, target: '_blank', rel: 'noopener' }, t.poweredBy)
      : own && h('span', {}, own);
    clear(foot, privacy, privacy && brand && h('span', { 'aria-hidden': 'true' }, ' · '), brand);
    foot.hidden = !foot.childElementCount;
  }

  function render(): void {
    applyLook();
    const next = screenFor(state, s(), ctx.identity());
    if (next === screen) return;
    screen = next;
    clear(body, screenEl(next));
    // Why a mail's link opened a new chat: in the chat's log, and above a form that comes first (pre-chat, offline).
    if (notice && next !== 'chat') body.prepend(h('p', { class: 'system', role: 'status', style: 'margin:12px auto 0' }, notice));
    if (state.expanded) focusFirst();
  }

  function screenEl(next: Screen): HTMLElement {
    switch (next) {
      case 'chat':
        return chat.el;
      case 'offline':
        return offlineForm({
          settings: s(),
          texts: t,
          error: (code, message) => lang.error(code, message),
          identity: ctx.identity(),
          post: (message) =>
            fetch(`${base}/widget/api/${encodeURIComponent(widgetId)}/offline`, {
              method: 'POST',
              headers: { 'Content-Type': 'application/json' },
              body: JSON.stringify({ ...message, page: pageInfo(true), visitorToken: state.stored.token }),
              credentials: 'omit',
            }),
          sent: (email) => ctx.emit('offlineMessageSent', { email }),
        });
      case 'consent':
        return consentForm(s(), () => dispatch({ a: 'accept' }));
      case 'info':
        return detailsForm(s(), t, ctx.identity(), (details) => dispatch({ a: 'details', ...details }));
    }
  }

  function focusFirst(): void {
    const target = screen === 'chat' ? chat.input : body.querySelector<HTMLElement>('input, textarea, button');
    target?.focus({ preventScroll: true });
  }

  function askEmail(question: string, answered?: string): HTMLElement {
    return emailCard(s(), t, question, (email) => dispatch({ a: 'email', email }), answered);
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

  let screenshotLoading: Promise<ScreenshotCapture> | undefined;
  /** The screenshot script, loaded the first time a visitor allows a screenshot; rejects when it cannot load. */
  function screenshotScript(): Promise<ScreenshotCapture> {
    screenshotLoading ??= new Promise<ScreenshotCapture>((resolve, reject) => {
      const w = window as unknown as Record<string, unknown>;
      w[SCREENSHOT_CALLBACK] = (capture: ScreenshotCapture) => {
        delete w[SCREENSHOT_CALLBACK];
        resolve(capture);
      };
      const tag = h('script', { async: true, src: `${base}/widget/${__PARLEY_SCREENSHOT__}` });
      tag.onerror = () => {
        screenshotLoading = undefined;
        reject(new Error('the screenshot script did not load'));
      };
      document.head.appendChild(tag);
    });
    return screenshotLoading;
  }

  /** Browsers without canvas export or SVG images of HTML cannot draw the page: they are not asked to try. */
  const canScreenshot = (): boolean =>
    typeof HTMLCanvasElement !== 'undefined' &&
    typeof HTMLCanvasElement.prototype.toBlob === 'function' &&
    typeof XMLSerializer !== 'undefined';

  async function takeScreenshot(): Promise<Blob> {
    if (!canScreenshot()) throw new Error('this browser cannot draw the page');
    const capture = await screenshotScript();
    return capture();
  }

  async function upload(file: File, fields: Record<string, string> = {}): Promise<void> {
    const token = state.stored.token;
    if (!token) return;
    if (file.size > MAX_UPLOAD_BYTES) {
      showBanner(lang.fill(t.fileTooBig, { size: lang.size(MAX_UPLOAD_BYTES) }));
      return;
    }
    const note = h('li', { class: 'system' }, lang.fill(t.uploading, { name: file.name }));
    chat.append(note);
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('file', file);
    try {
      const res = await fetch(`${base}/widget/api/${encodeURIComponent(widgetId)}/files`, {
        method: 'POST',
        headers: { 'X-Visitor-Token': token },
        body: form,
        credentials: 'omit',
      });
      if (!res.ok) {
        const answer = (await res.json().catch(() => ({}))) as { Message?: string; Error?: string };
        showBanner(lang.error(answer.Error ?? '', answer.Message));
      }
    } catch {
      showBanner(t.uploadFailed);
    } finally {
      note.remove();
    }
  }

  function apply(step: { state: PanelState; effects: Effect[] }): void {
    state = step.state;
    for (const effect of step.effects) run(effect);
    reportSeen();
  }

  // What this tab has shown with the panel open and the page visible: the server mails only replies no tab saw.
  let seenSeq = 0;
  let seenIn: string | undefined;
  function reportSeen(): void {
    const id = state.conversation?.id;
    if (id !== seenIn) {
      seenIn = id;
      seenSeq = 0;
    }
    if (!id || state.lastSeq <= seenSeq || !(state.expanded || state.inline) || document.visibilityState !== 'visible') return;
    if (conn.send({ t: 'seen', seq: state.lastSeq })) seenSeq = state.lastSeq;
  }

  function run(effect: Effect): void {
    const settings = s();
    switch (effect.k) {
      case 'save':
        writeState(widgetId, effect.patch);
        return;
      case 'send':
        if (!conn.send(effect.frame) && effect.hold) dispatch({ a: 'hold', frame: effect.frame });
        return;
      case 'connect':
        conn.start();
        return;
      case 'disconnect':
        conn.stop();
        return;
      case 'reconnect':
        conn.restart();
        return;
      case 'clearView':
        chat.clear(true);
        return;
      case 'message':
        chat.message(effect.message, effect.key, effect.fresh);
        if (effect.first) chat.autoResponse(effect.key, settings.autoResponseMessage || '');
        return;
      case 'pending':
        chat.pending(effect.clientId, effect.text, effect.autoAck ? settings.autoResponseMessage || '' : '');
        return;
      case 'confirm':
        chat.confirm(effect.clientId, effect.id, effect.key);
        if (effect.first) chat.autoResponse(effect.key, settings.autoResponseMessage || '');
        return;
      case 'fail':
        chat.fail(effect.clientId, effect.reason === 'Too long' ? t.tooLong : t.notSent);
        return;
      case 'edit':
        chat.edit(effect.id, effect.text, effect.html);
        return;
      case 'remove':
        chat.remove(effect.id);
        return;
      case 'typing':
        chat.showTyping(effect.on, effect.author);
        return;
      case 'ended':
        // Replayed after a reload too: the visitor sees the chat end as they left it, with its rating and transcript.
        if (settings.clearMessagesOnEnd) chat.clear(false);
        chat.place(
          endedCard(settings, t, state.knownEmail, (frame) => dispatch({ a: 'queue', frame }), effect.rated),
          effect.key,
        );
        chat.scrollDown();
        return;
      case 'askEmail':
        chat.place(askEmail(t.askEmail, effect.email), effect.key);
        chat.scrollDown();
        return;
      case 'screenshot':
        chat.place(
          screenshotCard({
            settings,
            texts: t,
            take: takeScreenshot,
            send: (picture) => {
              const stamp = new Date().toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
              const type = picture.type === 'image/jpeg' ? 'jpg' : 'png';
              void upload(new File([picture], `screenshot-${stamp}.${type}`, { type: picture.type }), { screenshotFor: effect.id });
            },
            answer: (answer) => dispatch({ a: 'queue', frame: { t: 'screenshot', id: effect.id, answer } }),
            resized: () => chat.scrollDown(),
          }),
          effect.key,
        );
        chat.scrollDown();
        return;
      case 'question':
        chat.place(
          questionCard(effect.question, (nodeId) =>
            dispatch({ a: 'queue', frame: { t: 'answer', groupUid: effect.question.groupUid, nodeId } }),
          ),
          effect.key,
        );
        chat.scrollDown();
        return;
      case 'noAnswer':
        clearTimeout(noAnswerTimer);
        if (effect.arm && settings.noAnswerMessageOn !== false)
          noAnswerTimer = setTimeout(() => dispatch({ a: 'noAnswerDue' }), Math.max(1, settings.noAnswerMessageAfterSecs ?? 120) * 1000);
        return;
      case 'noAnswerNotice':
        chat.append(
          effect.withEmail
            ? h('li', { class: 'system' }, settings.noAnswerWithEmail || "Sorry for the wait! We'll reply by email as soon as we can.")
            : askEmail(
                settings.noAnswerWithoutEmail || "Sorry for the wait! Leave your email and we'll get back to you as soon as we can.",
              ),
        );
        return;
      case 'resendLater':
        setTimeout(() => dispatch({ a: 'retry', clientId: effect.clientId }), RESEND_MS);
        return;
      case 'emit':
        ctx.emit(effect.name, effect.detail);
        return;
      case 'chime':
        if (!effect.ifPageHidden || document.hidden) chime();
        return;
      case 'unread':
        ctx.setUnread(effect.count);
        return;
      case 'online':
        ctx.setOnline(effect.online);
        return;
      case 'warn':
        console.warn('[parley]', effect.message);
        return;
      case 'banner':
        showBanner(effect.code === undefined ? undefined : lang.error(effect.code, effect.message));
        return;
      case 'config':
        Object.assign(ctx.config.settings, effect.config);
        return;
      case 'look':
        applyLook();
        return;
      case 'render':
        if (effect.rebuild) screen = undefined;
        render();
        return;
      default:
        return unknownEffect(effect);
    }
  }

  // Another tab of the same visitor changed the stored state: a reset there means a reset here.
  addEventListener('storage', (event) => {
    if (event.key === storageKey(widgetId)) dispatch({ a: 'storage', stored: readState(widgetId) });
  });
  addEventListener('online', () => {
    if (needsSocket(state)) conn.restart();
  });
  addEventListener('offline', () => conn.interrupt());
  document.addEventListener('visibilitychange', reportSeen);

  render();
  if (notice) chat.append(h('li', { class: 'system' }, notice));
  if (needsSocket(state)) conn.start();
  for (const item of state.stored.pending ?? []) chat.pending(item.clientId, item.text, '');

  return {
    expand() {
      chat.greet(ctx.trigger());
      dispatch({ a: 'expand' });
      focusFirst();
      chat.scrollDown();
    },
    collapse() {
      dispatch({ a: 'collapse' });
      toggleMenu(false);
      chat.stopTyping();
    },
    send(text) {
      chat.stopTyping();
      dispatch({ a: 'send', text, clientId: newClientId() });
    },
    refresh(identityChanged) {
      dispatch({ a: 'identity', email: ctx.identity()?.email });
      screen = undefined;
      render();
      // The identity travels in hello: a running socket says hello again (lastSeq kept, so nothing is replayed twice).
      if (identityChanged && conn.connected) conn.restart();
    },
    reset() {
      dispatch({ a: 'reset' });
    },
    isOnline: () => state.online,
  };
}

/** Every effect is handled above; the `never` keeps it so when the reducer learns a new one. */
function unknownEffect(_effect: never): void {}

(window as unknown as Record<string, ((factory: PanelFactory) => void) | undefined>)[PANEL_CALLBACK]?.(createPanel);
